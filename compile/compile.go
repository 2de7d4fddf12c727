// Package compile turns a checked schema into a grammar that accepts exactly
// the texts whose JSON value the schema accepts (see DESIGN.md §2): sound on
// every text, complete on the canonical serialization (Canonical).
package compile

import (
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Whitespace says where a grammar lets a model put whitespace.
type Whitespace string

const (
	// Bounded allows, at each place JSON allows whitespace inside an object
	// or array, nothing, one space, or one newline followed by up to 20
	// spaces or tabs. Never unbounded: a model left free loops on it.
	Bounded Whitespace = "bounded"
	// Compact allows no whitespace at all: the canonical text only.
	Compact Whitespace = "compact"
)

// Options steer Compile. The zero value means bounded whitespace.
type Options struct {
	Whitespace Whitespace // "" means Bounded
}

// Compile builds the grammar for a checked schema. Its error, when not nil,
// is a subsetcheck.ErrorList (for example: the schema admits no value).
func Compile(c *subsetcheck.Checked, opts Options) (*gbnf.Grammar, error) {
	panic("not yet")
}

// Canonical returns the canonical text of v under the schema: the one
// spelling every grammar Compile emits for that schema is guaranteed to
// accept (compact, declared members in schema order, minimal escapes, one
// number spelling). It fails when the schema does not accept v.
func Canonical(c *subsetcheck.Checked, v *subsetcheck.Value) (string, error) {
	panic("not yet")
}

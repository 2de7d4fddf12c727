package compile

import (
	"errors"
	"fmt"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// The combinators allOf, oneOf, not and if/then/else, as more conjuncts of
// a schema's expansion (expand.go): each turns into a union of
// alternatives that the schema's own keywords, its $ref target and its
// anyOf branches are met with.
//
//   - allOf: every branch is one more conjunct; the meet is exact (meet), so
//     an allOf is refused only where a met combination cannot be compiled
//     (C402, naming the schemas that meet: see noteMeet).
//   - oneOf: once its branches are proven pairwise disjoint beside the rest
//     of the schema (oneof.go), exactly one branch is at least one: the
//     union of the branches, as anyOf; where two overlap, each is met with
//     the complement of the branches it overlaps.
//   - not: the complement of the negated schema (not.go).
//   - if/then/else: (if ∧ then) ∪ (not(if) ∧ else), a missing then or else
//     being true. Without then, where not(if) cannot be built, if ∪ else is
//     the same language.

// combinators crosses alts with s's allOf branches, oneOf, not and
// if/then/else, in that order.
func (cp *compiler) combinators(s *subsetcheck.Schema, alts []alternative) ([]alternative, bool) {
	var ok bool
	for _, b := range s.AllOf {
		if alts, ok = cp.cross(alts, []alternative{{opaque: b}}); !ok {
			return nil, false
		}
	}
	if s.OneOf != nil {
		branches, ok := cp.oneOfBranches(s)
		if !ok {
			return nil, false
		}
		if alts, ok = cp.cross(alts, branches); !ok {
			return nil, false
		}
	}
	if s.Not != nil {
		c, err := cp.complement(s.Not)
		if err != nil {
			cp.refuseComplement(err, "not")
			return nil, false
		}
		if alts, ok = cp.cross(alts, c); !ok {
			return nil, false
		}
	}
	if s.If != nil {
		c, ok := cp.conditional(s)
		if !ok {
			return nil, false
		}
		if alts, ok = cp.cross(alts, c); !ok {
			return nil, false
		}
	}
	return alts, true
}

// conditional is the union if/then/else stands for: (if ∧ then) ∪
// (not(if) ∧ else), the two parts disjoint.
func (cp *compiler) conditional(s *subsetcheck.Schema) ([]alternative, bool) {
	then := alternative{plain: trueSchema(s)}
	if s.Then != nil {
		then = alternative{opaque: s.Then}
	}
	els := alternative{plain: trueSchema(s)}
	if s.Else != nil {
		els = alternative{opaque: s.Else}
	}
	notIf, err := cp.complement(s.If)
	var nc *noComplement
	if errors.As(err, &nc) && s.Then == nil {
		// (if ∧ true) ∪ (not(if) ∧ else) is if ∪ else: no complement needed.
		return []alternative{{opaque: s.If}, els}, true
	}
	if err != nil {
		cp.refuseComplement(err, "if")
		return nil, false
	}
	yes, ok := cp.cross([]alternative{{opaque: s.If}}, []alternative{then})
	if !ok {
		return nil, false
	}
	no, ok := cp.cross(notIf, []alternative{els})
	if !ok {
		return nil, false
	}
	return append(yes, no...), true
}

// trueSchema is a schema that accepts every value, placed at s.
func trueSchema(s *subsetcheck.Schema) *subsetcheck.Schema {
	return &subsetcheck.Schema{Pointer: s.Pointer, Node: s.Node, Types: subsetcheck.AllTypes, MaxItems: -1, MaxLength: -1}
}

// falseSchema is the schema false, placed at s.
func falseSchema(s *subsetcheck.Schema) *subsetcheck.Schema {
	return &subsetcheck.Schema{Pointer: s.Pointer, Node: s.Node, False: true}
}

// refuseComplement reports why the complement a keyword needs cannot be
// built; a problem already reported (errReported) is not repeated.
func (cp *compiler) refuseComplement(err error, keyword string) {
	var nc *noComplement
	if !errors.As(err, &nc) {
		return
	}
	cp.noteNoComplement(nc)
	what := "not needs the values this schema rejects"
	if keyword == "if" {
		what = "if/then/else needs the values this if rejects (for else, or where then is absent)"
	}
	cp.problem(nc.at, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
		"%s, and they cannot be written exactly: %s; state what is allowed instead (with type, enum or anyOf), or drop the keyword and check it after decoding",
		what, nc.why))
}

// noteNoComplement remembers the first complement found impossible to
// build, for oneof.go.
func (cp *compiler) noteNoComplement(nc *noComplement) {
	if cp.noComplement == nil {
		cp.noComplement = nc
	}
}

// noteMeet records the schemas a meet came from, so that a problem with
// the meet (a combination that cannot be compiled) can name them.
func (cp *compiler) noteMeet(m, a, b *subsetcheck.Schema) {
	var kept []string
	for _, p := range append(cp.origins(a), cp.origins(b)...) {
		if len(kept) < maxOrigins && !contains(kept, p) {
			kept = append(kept, p)
		}
	}
	if len(kept) > 1 {
		put(&cp.meetOrigins, m, kept)
	}
}

// maxOrigins is how many schemas a problem with a meet names.
const maxOrigins = 4

// origins is the pointers of the schemas a meet came from; s's own for a
// schema that is no meet.
func (cp *compiler) origins(s *subsetcheck.Schema) []string {
	if o, ok := cp.meetOrigins[s]; ok {
		return o
	}
	return []string{s.Pointer}
}

// meetNote is the part of a message naming the schemas s was met from,
// or "" when s is not a meet of several.
func (cp *compiler) meetNote(s *subsetcheck.Schema) string {
	o, ok := cp.meetOrigins[s]
	if !ok {
		return ""
	}
	names := make([]string, len(o))
	for i, p := range o {
		names[i] = pointerOrRoot(p)
	}
	return " (this is where " + strings.Join(names, " and ") + " meet)"
}

// Package oracle sets up the independent validator
// (santhosh-tekuri/jsonschema/v6) that tests judge texts by. It exists so
// there is one oracle set-up and every harness judges by the same rules:
// the draft set explicitly, format as an annotation, as the checker treats
// it, and patterns as ECMA-262 regular expressions with the u flag
// (internal/regexp2ecma), as JSON Schema reads them. Only tests and the test-support package equiv import it.
package oracle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/schema2gbnf/schema2gbnf/internal/regexp2ecma"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Oracle is one compiled schema.
type Oracle struct {
	sch *jsonschema.Schema
}

var drafts = map[subsetcheck.Draft]*jsonschema.Draft{
	subsetcheck.Draft4:    jsonschema.Draft4,
	subsetcheck.Draft6:    jsonschema.Draft6,
	subsetcheck.Draft7:    jsonschema.Draft7,
	subsetcheck.Draft2019: jsonschema.Draft2019,
	subsetcheck.Draft2020: jsonschema.Draft2020,
}

// formatNames are the formats the validator knows; before 2019-09 it
// asserts them unless a no-op is registered under each name.
var formatNames = []string{"json-pointer", "relative-json-pointer", "uuid", "duration", "period", "ipv4", "ipv6",
	"hostname", "email", "date", "time", "date-time", "uri", "iri", "uri-reference", "iri-reference", "uri-template",
	"semver", "idn-email", "idn-hostname", "unknown"}

// anyRegexp stands in for a pattern that is not ECMA-262, so that format
// "regex" (asserted before 2019-09 whatever is registered, and judged by
// the regexp engine) never rejects a string: format is an annotation to the
// checker. An invalid pattern or patternProperties name never reaches the
// oracle: the checker refuses it (S203).
type anyRegexp string

func (r anyRegexp) MatchString(string) bool { return true }
func (r anyRegexp) String() string          { return string(r) }

// Option changes the set-up for a harness that needs different rules.
type Option func(*config)

type config struct {
	docs           map[string][]byte
	libraryFormats bool
	assertFormats  bool
	libraryCounts  bool
	allFormats     bool
	loc            string
}

// LibraryFormats keeps the validator's own format checks: formats are
// asserted where the draft says so, format "regex" included, and a pattern
// that is not ECMA-262 makes New fail.
func LibraryFormats() Option { return func(c *config) { c.libraryFormats = true } }

// AssertFormats judges as the checker does under Options.AssertFormat:
// format is asserted in every draft, by the validator's own checks for the
// names in subsetcheck.AssertedFormats, while every other format name stays
// a no-op (the checker refuses those on strings, S210, and a format beside
// a type that admits no string constrains nothing).
func AssertFormats() Option { return func(c *config) { c.assertFormats = true } }

// AssertAllFormats asserts every format the validator knows, by its own
// checks: how a lenient grammar's output is judged under
// Options.AssertFormat, the formats the grammar cannot assert relaxed.
func AssertAllFormats() Option { return func(c *config) { c.assertFormats, c.allFormats = true, true } }

// Documents hands in the other documents the schema's $refs name, by
// their URI (absolute, without fragment); nothing else is loaded.
func Documents(docs map[string][]byte) Option { return func(c *config) { c.docs = docs } }

// At sets the location the schema is loaded at (default
// "file:///schema.json"); a relative one is taken from the working
// directory, which is where relative references are then looked for.
func At(loc string) Option { return func(c *config) { c.loc = loc } }

// New compiles schemaJSON under draft (the validator's default when draft
// is not a known one).
func New(schemaJSON []byte, draft subsetcheck.Draft, opts ...Option) (*Oracle, error) {
	cfg := config{loc: "file:///schema.json"}
	for _, opt := range opts {
		opt(&cfg)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if d := drafts[draft]; d != nil {
		c.DefaultDraft(d)
	}
	if cfg.assertFormats {
		c.AssertFormat()
	}
	if !cfg.libraryFormats {
		for _, name := range formatNames {
			if cfg.allFormats || cfg.assertFormats && slices.Contains(subsetcheck.AssertedFormats, name) {
				continue // the validator's own check
			}
			c.RegisterFormat(&jsonschema.Format{Name: name, Validate: func(any) error { return nil }})
		}
	}
	// Patterns are ECMA-262 with the u flag, as JSON Schema says, not Go's
	// RE2: regexp2 in ECMAScript mode, refusing what the u flag refuses.
	c.UseRegexpEngine(func(s string) (jsonschema.Regexp, error) {
		re, err := regexp2ecma.New(s)
		switch {
		case err == nil:
			return re, nil
		case cfg.libraryFormats:
			return nil, err
		}
		return anyRegexp(s), nil
	})
	if err := c.AddResource(cfg.loc, doc); err != nil {
		return nil, err
	}
	for uri, data := range cfg.docs {
		other, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		if err := c.AddResource(uri, other); err != nil {
			return nil, err
		}
	}
	sch, err := c.Compile(cfg.loc)
	if err != nil {
		return nil, err
	}
	if !cfg.libraryCounts && specCounts(doc, sch) { // counts past 2^63-1 (counts.go)
		patched, err := json.Marshal(doc)
		if err != nil {
			return nil, err
		}
		return New(patched, draft, opts...)
	}
	return &Oracle{sch: sch}, nil
}

// Valid says whether the oracle accepts the value of a text; a text that
// is not JSON is an error.
//
// When the regexp engine cannot finish a match in time (a pattern with
// nested repetitions, regexp2ecma.MatchTimeout), the error is
// ErrCannotJudge: there is no verdict.
func (o *Oracle) Valid(text string) (bool, error) {
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return false, fmt.Errorf("oracle cannot decode: %w", err)
	}
	err, judged := o.judge(v)
	return err == nil && judged == nil, judged
}

// ErrCannotJudge is Valid's error when the regexp engine ran out of time.
var ErrCannotJudge = errors.New("oracle cannot judge: the regexp engine ran out of time (regexp2ecma.MatchTimeout)")

// judge validates v, turning a regexp timeout into ErrCannotJudge.
func (o *Oracle) judge(v any) (verr, judged error) {
	defer func() {
		if r := recover(); r != nil {
			t, ok := r.(*regexp2ecma.Timeout)
			if !ok {
				panic(r)
			}
			judged = fmt.Errorf("%w: %v", ErrCannotJudge, t)
		}
	}()
	return o.sch.Validate(v), nil
}

// ValidValue says whether the oracle accepts an already decoded value.
func (o *Oracle) ValidValue(v any) bool { return o.sch.Validate(v) == nil }

// Validate returns the validator's own error for a text that is JSON, so a
// failure can say why; a text that is not JSON is an error too.
func (o *Oracle) Validate(text []byte) error {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
	if err != nil {
		return fmt.Errorf("oracle cannot decode: %w", err)
	}
	if err := o.sch.Validate(v); err != nil {
		return fmt.Errorf("oracle: %w", err)
	}
	return nil
}

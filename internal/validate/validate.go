// Package validate checks a value against a whole schema after decoding:
// what package verdict runs on the output of a lenient grammar, which
// enforces only part of its schema (subsetcheck.Lenient). It is
// santhosh-tekuri/jsonschema/v6, the validator the tests judge by, set up
// as the checker reads a schema: the draft the checker found, format an
// annotation unless asserted (then by the validator's own checks, every
// format it knows), patterns as ECMA-262 with the u flag (internal/regexp2ecma),
// as the compiler reads them. It loads nothing: a $ref to a document that
// was not handed in makes New fail.
//
// It also says where a rejection comes from, in the schema document's own
// JSON Pointers (Explain), so that a failure can be matched against the
// constraints a lenient grammar relaxed. Only verdict (and tests) import
// it: compiling never depends on a validator.
package validate

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"github.com/schema2gbnf/schema2gbnf/internal/regexp2ecma"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

var printer = message.NewPrinter(language.English)

// DefaultPatternTimeout bounds one pattern match (Options.PatternTimeout):
// ECMA-262 patterns backtrack, and a hostile one can take exponential time.
const DefaultPatternTimeout = 100 * time.Millisecond

// Options set a Validator up.
type Options struct {
	// AssertFormat asserts format as the checker does under
	// subsetcheck.Options.AssertFormat.
	AssertFormat bool
	// PatternTimeout bounds each pattern match; 0 means
	// DefaultPatternTimeout. A match that runs out fails the value.
	PatternTimeout time.Duration
}

// Validator is one schema, ready to validate values. It is safe for
// concurrent use.
type Validator struct {
	sch  *jsonschema.Schema
	locs map[string]subsetcheck.Resource // by resource URI: its document and the pointer of its schema
	file string
}

// New compiles the checked schema's document for validation.
func New(c *subsetcheck.Checked, opts Options) (*Validator, error) {
	if c == nil || c.Doc == nil {
		return nil, errors.New("validate: no schema")
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(c.Doc.Data))
	if err != nil {
		return nil, fmt.Errorf("validate: %w", err)
	}
	comp := jsonschema.NewCompiler()
	comp.UseLoader(noLoader{})
	comp.DefaultDraft(drafts[c.Draft])
	if opts.AssertFormat || c.AssertFormat {
		// Every format the validator knows, by its own checks: those the
		// grammar asserts (subsetcheck.AssertedFormats) and those a
		// lenient grammar relaxed (W305).
		comp.AssertFormat()
	} else {
		for _, name := range formatNames {
			comp.RegisterFormat(&jsonschema.Format{Name: name, Validate: func(any) error { return nil }})
		}
	}
	timeout := opts.PatternTimeout
	if timeout <= 0 {
		timeout = DefaultPatternTimeout
	}
	comp.UseRegexpEngine(func(s string) (jsonschema.Regexp, error) {
		re, err := regexp2ecma.Compile(s)
		if err != nil {
			return nil, err
		}
		re.MatchTimeout = timeout
		return ecmaRegexp{re}, nil
	})
	root := c.BaseURI
	if root == "" {
		root = subsetcheck.DefaultBaseURI
	}
	if err := comp.AddResource(root, doc); err != nil {
		return nil, fmt.Errorf("validate: %w", err)
	}
	for uri, d := range c.Documents {
		other, err := jsonschema.UnmarshalJSON(bytes.NewReader(d.Data))
		if err == nil {
			err = comp.AddResource(uri, other)
		}
		if err != nil {
			return nil, fmt.Errorf("validate: %s: %w", uri, err)
		}
	}
	sch, err := comp.Compile(root)
	if err != nil {
		return nil, fmt.Errorf("validate: %w", err)
	}
	return &Validator{sch: sch, locs: subsetcheck.Resources(c), file: c.Doc.Name}, nil
}

var drafts = map[subsetcheck.Draft]*jsonschema.Draft{
	subsetcheck.Draft4:    jsonschema.Draft4,
	subsetcheck.Draft6:    jsonschema.Draft6,
	subsetcheck.Draft7:    jsonschema.Draft7,
	subsetcheck.Draft2019: jsonschema.Draft2019,
	subsetcheck.Draft2020: jsonschema.Draft2020,
}

// formatNames are the formats the validator knows; before 2019-09 it
// asserts them unless a no-op is registered under each name, and the
// checker reads format as an annotation.
var formatNames = []string{"json-pointer", "relative-json-pointer", "uuid", "duration", "period", "ipv4", "ipv6",
	"hostname", "email", "date", "time", "date-time", "uri", "iri", "uri-reference", "iri-reference", "uri-template",
	"semver", "idn-email", "idn-hostname", "unknown", "regex"}

// noLoader refuses every load: the validator reads only what it is handed.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s was not handed in, and nothing is fetched", url)
}

// ecmaRegexp is a pattern as ECMA-262 reads it. A match that times out
// fails, so that a value is never passed unchecked.
type ecmaRegexp struct{ re *regexp2.Regexp }

func (r ecmaRegexp) MatchString(s string) bool {
	ok, err := r.re.MatchString(s)
	return ok && err == nil
}

func (r ecmaRegexp) String() string { return r.re.String() }

// Result is the validator's judgement on one value.
type Result struct {
	err *jsonschema.ValidationError // nil: valid
	v   *Validator
}

// Validate judges a JSON text; an error means it is not JSON.
func (v *Validator) Validate(text []byte) (*Result, error) {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
	if err != nil {
		return nil, err
	}
	return v.ValidateValue(inst)
}

// ValidateValue judges a decoded value (as jsonschema.UnmarshalJSON
// decodes: json.Number for numbers).
func (v *Validator) ValidateValue(inst any) (r *Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			// The validator's own bug (a number big.Rat cannot hold): an
			// error, never a crash and never a pass.
			r, err = nil, fmt.Errorf("validate: the validator failed on this value: %v", p)
		}
	}()
	r = &Result{v: v}
	if err := v.sch.Validate(inst); err != nil {
		var verr *jsonschema.ValidationError
		if !errors.As(err, &verr) {
			return nil, err
		}
		r.err = verr
	}
	return r, nil
}

// Valid says whether the schema accepts the value.
func (r *Result) Valid() bool { return r.err == nil }

// Failure is one keyword that rejects a value: the keyword, where it is in
// the schema (its document's name and a JSON Pointer to the keyword) and
// where the value that breaks it is in the instance.
type Failure struct {
	Keyword         string
	File            string
	SchemaPointer   string
	InstancePointer string
	Message         string
}

func (f *Failure) Error() string {
	ptr := f.InstancePointer
	if ptr == "" {
		ptr = "/"
	}
	return fmt.Sprintf("instance %s: %s (schema #%s)", ptr, f.Message, f.SchemaPointer)
}

// Explain says why the value was rejected. With no relaxations, it is the
// first keyword that fails. Otherwise it says whether the rejection is
// explained by the relaxed constraints (subsetcheck.Checked.Relaxed, the
// keywords the grammar does not enforce): whether the value would pass if
// every relaxed keyword and everything under it passed. A relaxed keyword
// explains its own failure; not's, a relaxation under it (the validator
// does not say why its subschema matched); a schema's failure is
// explained when each of its failing keywords is; anyOf's, and oneOf's
// when no branch matched, when one branch's is; contains', when one item's
// failure to match is. The failure returned is
// then the first relaxed keyword on such a path; else the first failing
// keyword.
func (r *Result) Explain(relaxed subsetcheck.ErrorList) (*Failure, bool) {
	if r.err == nil {
		return nil, false
	}
	first := r.leaf(r.err)
	if len(relaxed) == 0 {
		return first, false
	}
	if f := r.explained(r.err, relaxed); f != nil {
		return f, true
	}
	return first, false
}

// explained returns the first relaxed failure that explains e, or nil.
func (r *Result) explained(e *jsonschema.ValidationError, relaxed subsetcheck.ErrorList) *Failure {
	f := r.failure(e)
	if f != nil && subsetcheck.RelaxedAt(relaxed, f.File, f.SchemaPointer) {
		return f
	}
	if _, ok := e.ErrorKind.(*kind.Not); ok && f != nil && subsetcheck.RelaxedUnder(relaxed, f.File, f.SchemaPointer) {
		return f
	}
	if len(e.Causes) == 0 {
		return nil
	}
	switch k := e.ErrorKind.(type) {
	case *kind.AnyOf, *kind.Contains, *kind.MinContains:
		// One branch, or one more item that matches contains, would do.
		return r.anyExplained(e.Causes, relaxed)
	case *kind.OneOf:
		if k.Subschemas == nil {
			return r.anyExplained(e.Causes, relaxed)
		}
		return nil
	}
	// A conjunction: the schema itself, a group of keywords, a $ref,
	// allOf, a keyword that applies subschemas to members or items.
	var first *Failure
	for _, c := range e.Causes {
		f := r.explained(c, relaxed)
		if f == nil {
			return nil
		}
		if first == nil {
			first = f
		}
	}
	return first
}

func (r *Result) anyExplained(causes []*jsonschema.ValidationError, relaxed subsetcheck.ErrorList) *Failure {
	for _, c := range causes {
		if f := r.explained(c, relaxed); f != nil {
			return f
		}
	}
	return nil
}

// leaf is the first failure at the bottom of the tree under e.
func (r *Result) leaf(e *jsonschema.ValidationError) *Failure {
	for len(e.Causes) > 0 {
		e = e.Causes[0]
	}
	if f := r.failure(e); f != nil {
		return f
	}
	return &Failure{File: r.v.file, Message: e.Error()}
}

// failure is e's keyword, located in the schema document; nil for the
// nodes that only group others.
func (r *Result) failure(e *jsonschema.ValidationError) *Failure {
	var path []string
	switch k := e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group:
		return nil
	case *kind.Not:
		path = []string{"not"}
	case *kind.Dependency:
		path = []string{"dependencies", k.Prop}
	default:
		path = k.KeywordPath()
	}
	file, ptr, ok := r.v.pointer(e.SchemaURL)
	if !ok {
		return nil
	}
	kw := ""
	for _, tok := range path {
		ptr += "/" + escape(tok)
	}
	if len(path) > 0 {
		kw = path[0]
	} else if i := strings.LastIndexByte(ptr, '/'); i >= 0 && subsetcheck.IsKeyword(ptr[i+1:]) {
		kw = ptr[i+1:] // the schema false, as the value of a keyword
	}
	return &Failure{Keyword: kw, File: file, SchemaPointer: ptr, InstancePointer: instancePointer(e.InstanceLocation),
		Message: strings.TrimSpace(e.ErrorKind.LocalizedString(printer))}
}

// pointer turns a validator's schema location (a resource's URI, then a
// JSON Pointer fragment) into a pointer in the document.
func (v *Validator) pointer(loc string) (file, ptr string, ok bool) {
	base, frag, _ := strings.Cut(loc, "#")
	res, ok := v.locs[base]
	if !ok {
		return "", "", false
	}
	if dec, err := url.PathUnescape(frag); err == nil {
		frag = dec
	}
	return res.File, res.Pointer + frag, true
}

func instancePointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(escape(t))
	}
	return b.String()
}

var escaper = strings.NewReplacer("~", "~0", "/", "~1")

func escape(tok string) string { return escaper.Replace(tok) }

package decode

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// oracle is the independent validator with the draft set explicitly and
// format assertion off (the checker treats format as an annotation).
type oracle struct{ sch *jsonschema.Schema }

var oracleDrafts = map[subsetcheck.Draft]*jsonschema.Draft{
	subsetcheck.Draft4:    jsonschema.Draft4,
	subsetcheck.Draft6:    jsonschema.Draft6,
	subsetcheck.Draft7:    jsonschema.Draft7,
	subsetcheck.Draft2019: jsonschema.Draft2019,
	subsetcheck.Draft2020: jsonschema.Draft2020,
}

// noopFormats: before 2019-09 the oracle asserts formats unless a no-op is
// registered under each name.
var noopFormats = []string{"json-pointer", "relative-json-pointer", "uuid", "duration", "period", "ipv4", "ipv6",
	"hostname", "email", "date", "time", "date-time", "uri", "iri", "uri-reference", "iri-reference", "uri-template",
	"semver", "idn-email", "idn-hostname", "unknown"}

// anyRegexp stands in for a pattern Go's engine cannot compile, so format
// "regex" (asserted regardless) never decides a verdict.
type anyRegexp string

func (r anyRegexp) MatchString(string) bool { return true }
func (r anyRegexp) String() string          { return string(r) }

func newOracle(schemaJSON []byte, draft subsetcheck.Draft) (*oracle, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	if d := oracleDrafts[draft]; d != nil {
		c.DefaultDraft(d)
	}
	for _, name := range noopFormats {
		c.RegisterFormat(&jsonschema.Format{Name: name, Validate: func(any) error { return nil }})
	}
	c.UseRegexpEngine(func(s string) (jsonschema.Regexp, error) {
		if re, err := regexp.Compile(s); err == nil {
			return re, nil
		}
		return anyRegexp(s), nil
	})
	const loc = "file:///schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, err
	}
	sch, err := c.Compile(loc)
	if err != nil {
		return nil, err
	}
	return &oracle{sch: sch}, nil
}

// verdict is how a finished output fares.
type verdict int

const (
	valid verdict = iota
	invalid
	// duplicateExtra: an extra (undeclared) member name repeats. A grammar
	// cannot forbid that without blowing up, and DESIGN.md puts such texts
	// outside the soundness claim; counted apart, not failed.
	duplicateExtra
	// beyondLimits: valid JSON that subsetcheck.Read refuses by a named limit,
	// e.g. an exponent of 150,000 digits' magnitude (L503), which the oracle's
	// big-number arithmetic could not take either; counted apart.
	beyondLimits
)

// check classifies a finished output: strict JSON first (subsetcheck.Read
// refuses duplicate keys, bad UTF-8 and lone surrogates, which the oracle's
// decoder would let through), then the oracle. declared holds every name of
// every "properties" in the schema: a repeat of one of those is a bug.
func (o *oracle) check(out []byte, declared map[string]bool) (verdict, string) {
	if _, err := subsetcheck.Read("output", out, subsetcheck.Limits{}); err != nil {
		var list subsetcheck.ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			return invalid, "not strict JSON: " + err.Error()
		}
		kind := valid
		for _, p := range list {
			switch {
			case p.Code == subsetcheck.CodeNumberTooLarge:
				kind = max(kind, beyondLimits)
			case p.Code == subsetcheck.CodeDuplicateKey && !declared[lastSegment(p.Pointer)]:
				kind = max(kind, duplicateExtra)
			default:
				return invalid, "not strict JSON: " + err.Error()
			}
		}
		if kind == beyondLimits {
			return kind, err.Error()
		}
		// A repeated extra name: the value must still be valid otherwise.
		if v, why := o.oracleCheck(out); v != valid {
			return v, why
		}
		return kind, err.Error()
	}
	return o.oracleCheck(out)
}

func (o *oracle) oracleCheck(out []byte) (verdict, string) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		return invalid, "oracle cannot decode: " + err.Error()
	}
	if err := o.sch.Validate(v); err != nil {
		return invalid, "oracle: " + err.Error()
	}
	return valid, ""
}

// lastSegment unescapes the last JSON Pointer segment.
func lastSegment(pointer string) string {
	seg := pointer[strings.LastIndexByte(pointer, '/')+1:]
	return strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
}

// declaredNames collects the member names of every "properties" object in
// a schema, at any depth.
func declaredNames(schemaJSON []byte) map[string]bool {
	names := map[string]bool{}
	var doc any
	if json.Unmarshal(schemaJSON, &doc) != nil {
		return names
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if props, ok := x.(map[string]any); ok && (k == "properties" || k == "patternProperties") {
					for name := range props {
						names[name] = true
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	return names
}

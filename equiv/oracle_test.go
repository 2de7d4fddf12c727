package equiv

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// oracle is the independent validator (santhosh-tekuri/jsonschema/v6) with
// the draft set explicitly and format assertion off: the checker treats
// format as an annotation, so the oracle must too.
type oracle struct {
	sch *jsonschema.Schema
}

var oracleDrafts = map[subsetcheck.Draft]*jsonschema.Draft{
	subsetcheck.Draft4:    jsonschema.Draft4,
	subsetcheck.Draft6:    jsonschema.Draft6,
	subsetcheck.Draft7:    jsonschema.Draft7,
	subsetcheck.Draft2019: jsonschema.Draft2019,
	subsetcheck.Draft2020: jsonschema.Draft2020,
}

// formatNames are the formats the oracle knows; before 2019-09 it asserts
// them unless a no-op is registered under each name.
var formatNames = []string{"json-pointer", "relative-json-pointer", "uuid", "duration", "period", "ipv4", "ipv6",
	"hostname", "email", "date", "time", "date-time", "uri", "iri", "uri-reference", "iri-reference", "uri-template",
	"semver", "idn-email", "idn-hostname", "unknown"}

// anyRegexp stands in for a pattern the Go engine cannot compile, so that
// format "regex" (asserted before 2019-09 whatever we register) never
// rejects a string. pattern itself is refused by the checker.
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
	for _, name := range formatNames {
		c.RegisterFormat(&jsonschema.Format{Name: name, Validate: func(any) error { return nil }})
	}
	c.UseRegexpEngine(func(s string) (jsonschema.Regexp, error) {
		re, err := regexp.Compile(s)
		if err != nil {
			return anyRegexp(s), nil
		}
		return re, nil
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

// verdict says whether the oracle accepts the value of a text; a text that
// is not JSON is an error.
func (o *oracle) verdict(text string) (bool, error) {
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return false, fmt.Errorf("oracle cannot decode: %w", err)
	}
	return o.sch.Validate(v) == nil, nil
}

// valid says whether the oracle accepts an already decoded value.
func (o *oracle) valid(v any) bool { return o.sch.Validate(v) == nil }

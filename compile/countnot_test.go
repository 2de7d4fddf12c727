package compile

import (
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// TestCountsComplement: for each counting keyword with a complement, a
// value breaks the keyword exactly when some part accepts it; the others
// say why they have none.
func TestCountsComplement(t *testing.T) {
	values := append(objectsOf([]string{"a", "b", "c", "x"}, func(string) string { return "1" }),
		arraysOf([]string{`"s"`, `1`, `null`}, 3)...)
	for _, tc := range []struct {
		keyword string
		none    bool // no complement
	}{
		{`"minProperties":2`, false},
		{`"maxProperties":1`, false},
		{`"minProperties":1,"maxProperties":2`, false},
		{`"contains":{"type":"string"}`, false},
		{`"contains":{"type":"string"},"minContains":2,"maxContains":2`, false},
		{`"contains":{"type":"string"},"minContains":0,"maxContains":1`, false},
		{`"dependentRequired":{"a":["b","x"],"c":[]}`, false},
		{`"dependentSchemas":{"a":{"required":["b"]}}`, false},
		{`"uniqueItems":true`, true},
		{`"multipleOf":2`, true},
	} {
		c := checkSchema(t, `{`+tc.keyword+`}`)
		cp := newCompiler(c, Options{})
		p := c.Root
		parts, why := countsComplement(p, func(ty subsetcheck.Type) *subsetcheck.Schema { return typesOnly(p, ty) }, cp.negation)
		if tc.none {
			if why == "" {
				t.Errorf("%s: a complement, want none", tc.keyword)
			}
			continue
		}
		if why != "" {
			t.Errorf("%s: %s", tc.keyword, why)
			continue
		}
		for _, text := range values {
			doc, _ := subsetcheck.Read("v", []byte(text), subsetcheck.Limits{})
			in := false
			for _, s := range parts {
				in = in || accepts(s, doc.Root)
			}
			if in == accepts(p, doc.Root) {
				t.Errorf("%s: %s accepted by the schema %v and by its complement %v", tc.keyword, text, accepts(p, doc.Root), in)
			}
		}
		// The parts compile (contains' counts through the contains grammar).
		for _, s := range parts {
			if cp.schemaRef(s) == nil && len(cp.errs) > 0 {
				t.Errorf("%s: a part does not compile: %v", tc.keyword, cp.errs.Err())
			}
		}
	}
}

// TestNotOfCountsRefused: not of a counting keyword without a complement
// is refused, never compiled without it.
func TestNotOfCountsRefused(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"not":{"multipleOf":2}}`, "not multiples of multipleOf"},
		{`{"not":{"type":"array","uniqueItems":true}}`, "repeat an item"},
		{`{"type":"array","contains":{"not":{"multipleOf":3}}}`, "not multiples"},
	} {
		_, err := Compile(checkSchema(t, tc.schema), Options{})
		if err == nil || !strings.Contains(err.Error(), "C402") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want C402 saying %q", tc.schema, err, tc.want)
		}
	}
}

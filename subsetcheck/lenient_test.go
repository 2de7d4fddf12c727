package subsetcheck

import (
	"errors"
	"strings"
	"testing"
)

// relaxedList is "code pointer" per relaxation of a lenient check, in
// order, or the error.
func relaxedList(t *testing.T, schema string, opts Options) (string, *Checked) {
	t.Helper()
	opts.Profile = Lenient
	c, err := Check(mustRead(t, schema), opts)
	if err != nil {
		return "error: " + err.Error(), nil
	}
	var got []string
	for _, p := range c.Relaxed {
		got = append(got, string(p.Code)+" "+p.Pointer)
	}
	return strings.Join(got, ", "), c
}

// TestLenientRelaxes: what the exact profile refuses is relaxed, one
// warning per constraint, and nothing else changes.
func TestLenientRelaxes(t *testing.T) {
	cases := []struct {
		name, schema, want string
	}{
		{"nothing refused", `{"type":"object","properties":{"a":{"type":"string"}}}`, ""},
		{"a refused keyword", `{"type":"string","pattern":"^(?!a)"}`, "W305 /pattern"},
		{"oneOf as anyOf, and what is inside a branch", `{"oneOf":[{"type":"string","pattern":"(?=x)"},{"type":"integer"}]}`,
			"W306 /oneOf, W305 /oneOf/0/pattern"},
		{"not, and nothing inside it", `{"not":{"type":"string","pattern":"(?=x)"}}`, "W307 /not"},
		{"if/then/else as anyOf of then and else", `{"if":{"unevaluatedProperties":false},"then":{"required":["b"]},"else":{"required":["c"],"unevaluatedItems":false}}`,
			"W307 /if, W305 /else/unevaluatedItems"},
		{"if with then alone, and a relaxation inside if", `{"if":{"required":["a"],"unevaluatedProperties":false},"then":{"required":["b"]}}`, "W307 /if"},
		{"additionalProperties depends on patternProperties",
			`{"properties":{"a":{"type":"string"}},"patternProperties":{"^(?=x)":{"type":"integer"}},"additionalProperties":false}`,
			"W305 /patternProperties, W305 /additionalProperties"},
		{"patternProperties without additionalProperties", `{"patternProperties":{"^(?=x)":{"type":"integer"}}}`, "W305 /patternProperties"},
		{"one patternProperties name refused: the whole keyword, not the name alone",
			`{"patternProperties":{"^a":{"type":"integer"},"(?<=b)c":{"type":"string"}},"additionalProperties":false}`,
			"W305 /patternProperties, W305 /additionalProperties"},
		{"a patternProperties name refused under not", `{"not":{"patternProperties":{"(?=a)":false}}}`, "W307 /not"},
		{"a backreference in propertyNames", `{"propertyNames":{"pattern":"^(.)\\1$"}}`, "W305 /propertyNames/pattern"},
		{"a pattern past its size limit (L506)", `{"type":"string","pattern":"(a{1000}){1000}"}`, "W305 /pattern"},
		{"a ref to a document inside an embedded resource", `{"properties":{"a":{"$id":"sub/x.json","properties":{"b":{"$ref":"y.json"}}}}}`, "W309 /properties/a/properties/b/$ref"},
		{"a ref to another document", `{"properties":{"a":{"$ref":"other.json#/x"}}}`, "W309 /properties/a/$ref"},
		{"draft-07: a dropped $ref leaves its siblings ignored",
			`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"$ref":"other.json","type":"string"}}}`,
			"W309 /properties/a/$ref"},
		{"a refused keyword nothing reaches is not reported", `{"$defs":{"u":{"pattern":"(?=a)"}},"type":"string"}`, ""},
		{"one warning per keyword, however many paths reach it",
			`{"$defs":{"d":{"type":"string","pattern":"(?=a)"}},"properties":{"a":{"$ref":"#/$defs/d"},"b":{"$ref":"#/$defs/d"}}}`,
			"W305 /$defs/d/pattern"},
		{"a definition reached through a refused not and positively",
			`{"$defs":{"d":{"type":"string","pattern":"(?=a)"}},"properties":{"a":{"$ref":"#/$defs/d"},"b":{"not":{"$ref":"#/$defs/d"}}}}`,
			"W305 /$defs/d/pattern, W307 /properties/b/not"},
		{"dynamic scope", `{"type":"array","items":{"$dynamicRef":"#x"},"unevaluatedItems":false}`,
			"W305 /items/$dynamicRef, W305 /unevaluatedItems"},
		{"a format that cannot be asserted", `{"type":"string","format":"email"}`, "W305 /format"},
	}
	for _, tt := range cases {
		opts := Options{}
		if strings.Contains(tt.name, "format") {
			opts.AssertFormat = true
		}
		if got, _ := relaxedList(t, tt.schema, opts); got != tt.want {
			t.Errorf("%s:\n got  %s\n want %s\n schema %s", tt.name, got, tt.want, tt.schema)
		}
	}
}

// TestLenientKeepsErrors: what is wrong with the schema itself stays an
// error under the lenient profile, every problem at once.
func TestLenientKeepsErrors(t *testing.T) {
	for _, tt := range []struct{ schema, want string }{
		{`{"type":"strin","pattern":"(?=a)"}`, "S203 /type"},
		{`{"$ref":"#/nope","oneOf":[{"minLength":-1}]}`, "S205 /$ref, S203 /oneOf/0/minLength"},
		{`{"$ref":"#"}`, "S207 /$ref"},
	} {
		_, err := Check(mustRead(t, tt.schema), Options{Profile: Lenient})
		var list ErrorList
		if !errors.As(err, &list) {
			t.Fatalf("%s: want an ErrorList, got %v", tt.schema, err)
		}
		var got []string
		for _, p := range list {
			got = append(got, string(p.Code)+" "+p.Pointer)
		}
		if g := strings.Join(got, ", "); g != tt.want {
			t.Errorf("%s: got %s, want %s", tt.schema, g, tt.want)
		}
	}
}

// TestLenientSameGraphWhenAdmitted: a schema the exact profile admits gets
// the same checked schema under the lenient profile.
func TestLenientSameGraphWhenAdmitted(t *testing.T) {
	schema := `{"type":"object","properties":{"a":{"$ref":"#/$defs/n"},"b":{"anyOf":[{"type":"string","maxLength":3},{"enum":[1,2]}]}},"required":["a"],"$defs":{"n":{"type":"integer","minimum":0}}}`
	exact, err := Check(mustRead(t, schema), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, lenient := relaxedList(t, schema, Options{})
	if got != "" || lenient == nil {
		t.Fatalf("relaxed %q", got)
	}
	if exact.Root.Types != lenient.Root.Types || len(exact.Root.Properties) != len(lenient.Root.Properties) ||
		lenient.Root.Properties[0].Schema.Ref == nil || len(lenient.Root.Properties[1].Schema.AnyOf) != 2 {
		t.Errorf("the lenient graph differs from the exact one")
	}
}

// TestLenientPolarity: where a keyword that negates a subschema is
// enforced, a relaxation inside it relaxes the keyword as a whole, and only
// there. The keywords are marked enforced for the test (the combinators
// are refused today; the polarity rules do not depend on that).
func TestLenientPolarity(t *testing.T) {
	withEnforced(t, "not", "oneOf", "if", "then", "else", "contains", "maxContains", "minContains")
	cases := []struct {
		name, schema, want string
	}{
		{"inside not", `{"not":{"type":"string","pattern":"(?=x)"}}`, "W307 /not"},
		{"inside not inside not: positive again", `{"not":{"not":{"type":"string","pattern":"(?=x)"}}}`, "W305 /not/not/pattern"},
		{"inside a oneOf branch", `{"oneOf":[{"type":"string","pattern":"(?=x)"},{"type":"integer"}]}`, "W306 /oneOf, W305 /oneOf/0/pattern"},
		{"a oneOf without relaxations stays", `{"oneOf":[{"type":"string"},{"type":"integer"}]}`, ""},
		{"inside if", `{"if":{"type":"string","pattern":"(?=x)"},"then":{"minLength":1},"else":{"type":"integer"}}`, "W307 /if"},
		{"inside then: positive", `{"if":{"type":"string"},"then":{"pattern":"(?=x)"},"else":{"type":"integer"}}`, "W305 /then/pattern"},
		{"inside contains below maxContains", `{"contains":{"type":"string","pattern":"(?=x)"},"maxContains":2}`,
			"W305 /contains/pattern, W307 /maxContains"},
		{"inside contains without maxContains", `{"contains":{"type":"string","pattern":"(?=x)"},"minContains":2}`, "W305 /contains/pattern"},
		{"a definition reached through not and positively",
			`{"$defs":{"d":{"type":"string","pattern":"(?=a)"}},"properties":{"a":{"$ref":"#/$defs/d"},"b":{"not":{"$ref":"#/$defs/d"}}}}`,
			"W305 /$defs/d/pattern, W307 /properties/b/not"},
		{"every negation above, not only the nearest",
			`{"anyOf":[{"oneOf":[{"not":{"pattern":"(?=a)"}},{"type":"null"}]}]}`,
			"W306 /anyOf/0/oneOf, W307 /anyOf/0/oneOf/0/not"},
		{"a negation under a dropped negation is not reported",
			`{"not":{"oneOf":[{"pattern":"(?=a)"},{}]}}`, "W307 /not"},
	}
	for _, tt := range cases {
		if got, _ := relaxedList(t, tt.schema, Options{}); got != tt.want {
			t.Errorf("%s:\n got  %s\n want %s\n schema %s", tt.name, got, tt.want, tt.schema)
		}
	}
}

// TestLenientRelaxOption: the places the compiler refused, handed in, are
// relaxed like the checker's own, their polarity respected.
func TestLenientRelaxOption(t *testing.T) {
	withEnforced(t, "not")
	cases := []struct {
		name, schema string
		relax        []Relaxation
		want         string
	}{
		{"a keyword", `{"type":"string","format":"date","maxLength":5}`, []Relaxation{{Pointer: "", Keyword: "format", Code: CodeNotExactlyCompilable, Reason: "cut"}}, "W308 /format"},
		{"a whole schema", `{"properties":{"a":{"type":"string","maxLength":5}}}`, []Relaxation{{Pointer: "/properties/a", Code: CodeNotExactlyCompilable}}, "W308 /properties/a"},
		{"inside a not", `{"not":{"type":"string","maxLength":5}}`, []Relaxation{{Pointer: "/not", Keyword: "maxLength", Code: CodeNotExactlyCompilable}}, "W307 /not"},
		{"a oneOf", `{"oneOf":[{},{}]}`, []Relaxation{{Pointer: "", Keyword: "oneOf", Code: "C404"}}, "W306 /oneOf"},
		{"dependents go too", `{"properties":{"a":{}},"additionalProperties":false}`, []Relaxation{{Pointer: "", Keyword: "properties", Code: CodeNotExactlyCompilable}},
			"W308 /properties, W308 /additionalProperties"},
		{"a place that names nothing is left out", `{"type":"string"}`, []Relaxation{{Pointer: "/nope", Keyword: "x"}, {Pointer: "", Keyword: "maxLength"}}, ""},
	}
	for _, tt := range cases {
		if got, _ := relaxedList(t, tt.schema, Options{Relax: tt.relax}); got != tt.want {
			t.Errorf("%s:\n got  %s\n want %s", tt.name, got, tt.want)
		}
	}
}

// TestEveryKeywordHasAPolarity: each keyword that holds subschemas and
// constrains values is classified for the lenient profile, so that a new
// one cannot be relaxed through by mistake (unclassified counts as mixed,
// which is safe, but says nothing of what was meant).
func TestEveryKeywordHasAPolarity(t *testing.T) {
	for _, k := range Keywords {
		if k.Shape == ShapeValue || k.Exact == Annotation {
			continue
		}
		if !monotone[k.Name] && k.Name != "not" && k.Name != "if" && k.Name != "oneOf" {
			t.Errorf("%s holds schemas but has no polarity for the lenient profile (lenient.go)", k.Name)
		}
	}
}

// TestRelaxedAt: a validator's keyword location is matched against the
// relaxations' pointers.
func TestRelaxedAt(t *testing.T) {
	relaxed := ErrorList{
		{Code: CodeRelaxedKeyword, File: "s.json", Pointer: "/properties/a/pattern"},
		{Code: CodeRelaxedNegation, File: "s.json", Pointer: "/properties/b/if"},
		{Code: CodeRelaxedCompile, File: "s.json", Pointer: "/$defs/x"},
	}
	for ptr, want := range map[string]bool{
		"/properties/a/pattern":          true,
		"/properties/a/patternX":         false,
		"/properties/a":                  false,
		"/properties/b/then/required":    true,
		"/properties/b/else":             true,
		"/properties/b/if/type":          true,
		"/properties/b/properties":       false,
		"/$defs/x/properties/y/minimum":  true,
		"/$defs/xy":                      false,
		"":                               false,
		"/properties/a/pattern/anything": true,
	} {
		if got := RelaxedAt(relaxed, "s.json", ptr); got != want {
			t.Errorf("RelaxedAt(%q) = %v, want %v", ptr, got, want)
		}
	}
	if !RelaxedAt(ErrorList{{Code: CodeRelaxedCompile, File: "s.json", Pointer: ""}}, "s.json", "/type") {
		t.Errorf("a relaxed root covers everything")
	}
	if RelaxedAt(relaxed, "other.json", "/properties/a/pattern") {
		t.Errorf("a relaxation covers its own document only")
	}
}

// TestLenientIsIdempotent: checking twice gives the same relaxations (the
// walks do not change the document).
func TestLenientIsIdempotent(t *testing.T) {
	schema := `{"oneOf":[{"not":{"pattern":"(?=a)"}},{"patternProperties":{"x":{}},"additionalProperties":false}]}`
	doc := mustRead(t, schema)
	var first string
	for i := 0; i < 3; i++ {
		c, err := Check(doc, Options{Profile: Lenient})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range c.Relaxed {
			got = append(got, p.Error())
		}
		if i == 0 {
			first = strings.Join(got, "\n")
		} else if g := strings.Join(got, "\n"); g != first {
			t.Fatalf("check %d:\n%s\nfirst:\n%s", i, g, first)
		}
	}
}

// withEnforced marks keywords enforced in the exact profile's column for
// the rest of the test.
func withEnforced(t *testing.T, names ...string) {
	for _, name := range names {
		k := findKeyword(name)
		old := k.Exact
		k.Exact = Enforced
		t.Cleanup(func() { k.Exact = old })
	}
}

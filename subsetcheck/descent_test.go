package subsetcheck

import (
	"errors"
	"strings"
	"testing"
)

// TestProblemsInsideRefusedKeywords: the checker descends into the
// subschemas of refused keywords and reports what it finds there too, in
// document order, in every profile, so that one run lists every change. A
// definition is checked when anything reaches it, refused keywords
// included, and reported once however many paths reach it; one nothing
// reaches has only its keyword values checked.
func TestProblemsInsideRefusedKeywords(t *testing.T) {
	cases := []struct {
		name    string
		profile Profile
		schema  string
		want    string // "code pointer" per problem, in order
	}{
		{"a refused keyword inside a refused keyword inside anyOf", Exact,
			`{"anyOf":[{"unevaluatedItems":{"unevaluatedProperties":{"type":"strin","unevaluatedItems":false}},"unevaluatedProperties":{}}]}`,
			"S201 /anyOf/0/unevaluatedItems, S201 /anyOf/0/unevaluatedItems/unevaluatedProperties, S203 /anyOf/0/unevaluatedItems/unevaluatedProperties/type, S201 /anyOf/0/unevaluatedItems/unevaluatedProperties/unevaluatedItems, S201 /anyOf/0/unevaluatedProperties"},
		{"a $ref from inside a refused keyword to a definition with problems", Exact,
			`{"$defs":{"d":{"type":"string","maxLength":-1,"unevaluatedItems":false}},"unevaluatedProperties":{"$ref":"#/$defs/d"}}`,
			"S203 /$defs/d/maxLength, S201 /$defs/d/unevaluatedItems, S201 /unevaluatedProperties"},
		{"a definition reached only through refused keywords, twice, is reported once", Exact,
			`{"$defs":{"d":{"unevaluatedItems":false}},"unevaluatedProperties":{"$ref":"#/$defs/d"},"unevaluatedItems":{"not":{"$ref":"#/$defs/d"}}}`,
			"S201 /$defs/d/unevaluatedItems, S201 /unevaluatedProperties, S201 /unevaluatedItems"},
		{"every keyword that holds schemas is descended into", Exact,
			`{"if":{"unevaluatedItems":false},"then":{"type":1},"else":{"$ref":"#/nope"},"contains":{"unevaluatedItems":false},"propertyNames":{"maxLength":-1},` +
				`"patternProperties":{"^a":{"unevaluatedItems":false}},"dependentSchemas":{"a":{"unevaluatedItems":false}},"dependencies":{"b":["c"],"d":{"unevaluatedItems":false}},` +
				`"unevaluatedItems":{"unevaluatedProperties":false},"unevaluatedProperties":{"unevaluatedItems":false}}`,
			"S201 /if/unevaluatedItems, S203 /then/type, S205 /else/$ref, S201 /contains/unevaluatedItems, " +
				"S203 /propertyNames/maxLength, S201 /patternProperties/^a/unevaluatedItems, " +
				"S201 /dependentSchemas/a/unevaluatedItems, S201 /dependencies/d/unevaluatedItems, " +
				"S201 /unevaluatedItems, S201 /unevaluatedItems/unevaluatedProperties, S201 /unevaluatedProperties, S201 /unevaluatedProperties/unevaluatedItems"},
		{"the portable profile too", Portable,
			`{"type":"object","additionalProperties":false,"properties":{"a":{"oneOf":[{"type":"string","maxLength":3},{"type":"object"}]}}}`,
			"S209 /properties/a, S201 /properties/a/oneOf, S201 /properties/a/oneOf/0/maxLength, S209 /properties/a/oneOf/1"},
		{"a definition nothing reaches is not checked", Exact,
			`{"$defs":{"u":{"oneOf":[{"pattern":"a"}]}},"type":"string"}`,
			""},
		{"but its keyword values are", Exact,
			`{"$defs":{"u":{"not":{"minLength":-1}}},"type":"string"}`,
			"S203 /$defs/u/not/minLength"},
	}
	for _, tt := range cases {
		_, err := Check(mustRead(t, tt.schema), Options{Profile: tt.profile})
		var got []string
		var list ErrorList
		if errors.As(err, &list) {
			for _, p := range list {
				got = append(got, string(p.Code)+" "+p.Pointer)
			}
		} else if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if g := strings.Join(got, ", "); g != tt.want {
			t.Errorf("%s:\n%s\ngot  %s\nwant %s\n%v", tt.name, tt.schema, g, tt.want, err)
		}
	}
}

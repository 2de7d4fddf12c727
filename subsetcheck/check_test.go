package subsetcheck

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

func mustRead(t *testing.T, schema string) *Document {
	t.Helper()
	doc, err := Read("schema.json", []byte(schema), Limits{})
	if err != nil {
		t.Fatalf("Read(%s): %v", schema, err)
	}
	return doc
}

// checkCodes runs Check and returns the codes of its errors and of its warnings.
func checkCodes(t *testing.T, schema string, opts Options) (errs, warns string, c *Checked) {
	t.Helper()
	c, err := Check(mustRead(t, schema), opts)
	errs = codesOf(err)
	if c != nil {
		warns = codesOf(c.Warnings)
	}
	return errs, warns, c
}

const (
	d4   = `"$schema":"http://json-schema.org/draft-04/schema#",`
	d6   = `"$schema":"http://json-schema.org/draft-06/schema#",`
	d7   = `"$schema":"http://json-schema.org/draft-07/schema#",`
	d19  = `"$schema":"https://json-schema.org/draft/2019-09/schema",`
	d20  = `"$schema":"https://json-schema.org/draft/2020-12/schema",`
	port = Portable
)

// checkCases is the one-line-per-case table of TestCheckCodes; the oracle
// test reuses it.
var checkCases = []struct {
	profile     Profile
	schema      string
	errs, warns string
}{
	// Accepted, no warnings.
	{"", `{}`, "", ""},
	{"", `true`, "", ""},
	{"", `false`, "", ""},
	{"", `{"type":"object","properties":{"a":{"type":"string","minLength":1,"maxLength":3}},"required":["a"],"additionalProperties":false}`, "", ""},
	{"", `{"type":["string","null"]}`, "", ""},
	{"", `{"enum":[1,"a",null,{"x":[1]}]}`, "", ""},
	{"", `{"const":1}`, "", ""},
	{"", `{"type":"integer","minimum":0,"exclusiveMaximum":10}`, "", ""},
	{"", `{"type":"array","prefixItems":[{"type":"string"}],"items":false,"minItems":1,"maxItems":1}`, "", ""},
	{"", `{"anyOf":[{"type":"string"},{"type":"null"}]}`, "", ""},
	{"", `{"$defs":{"a":{"type":"string"}},"$ref":"#/$defs/a"}`, "", ""},
	{"", `{"$defs":{"a/b":{"type":"string"},"c~d":{"type":"null"},"%":{"type":"null"}},"anyOf":[{"$ref":"#/$defs/a~1b"},{"$ref":"#/$defs/c~0d"},{"$ref":"#/$defs/%25"}]}`, "", ""},
	{"", `{"type":"object","properties":{"next":{"$ref":"#"}}}`, "", ""},
	{"", `{"type":"array","items":{"$ref":"#"}}`, "", ""},
	{"", `{"title":"t","description":"d","default":1,"examples":[1],"$comment":"c","deprecated":true,"readOnly":true,"writeOnly":false,"$id":"https://x.test/s"}`, "", ""},
	{"", `{"$id":"https://x.test/s","$defs":{"a":{"type":"null"}},"$ref":"https://x.test/s#/$defs/a"}`, "", ""},
	{"", `{"contentMediaType":"application/json","contentEncoding":"base64","contentSchema":{"type":"object"}}`, "", ""},
	{"", `{"minItems":1.0}`, "", ""},
	{"", `{` + d4 + `"minItems":1.0,"maxLength":2e0}`, "", ""},
	{"", `{` + d7 + `"minItems":1.0}`, "", ""},
	{"", `{"$anchor":"a"}`, "", ""},
	{"", `{"type":"string","minimum":5}`, "", ""},
	{"", `{"additionalProperties":{"type":"string"}}`, "", ""},
	{"", `{"$defs":{"a":{"type":"integer"}},"$ref":"#/$defs/a","maximum":3}`, "", ""},
	{"", `{"definitions":{"a":{"type":"null"}},"$ref":"#/definitions/a"}`, "", ""},
	{"", `{` + d7 + `"definitions":{"a":{"type":"null"}},"$ref":"#/definitions/a"}`, "", ""},
	{"", `{` + d4 + `"type":"integer","minimum":0,"exclusiveMinimum":true}`, "", ""},
	{"", `{` + d4 + `"properties":{"a":{"type":"string"}},"additionalProperties":false}`, "", ""},
	{"", `{` + d7 + `"items":[{"type":"string"}],"additionalItems":false}`, "", ""},
	{"", `{` + d19 + `"items":[{"type":"string"}],"additionalItems":{"type":"null"}}`, "", ""},
	{"", `{` + d6 + `"const":"x"}`, "", ""},
	{"", `{"$schema":"http://json-schema.org/draft-07/schema","type":"null"}`, "", ""},
	{"", `{"$schema":"https://json-schema.org/draft-07/schema#","type":"null"}`, "", ""},

	// Warnings.
	{"", `{"x-foo":1,"example":2,"_format":"y"}`, "", "W301 W301 W301"},
	{"", `{"type":"string","format":"email"}`, "", "W302"},
	{"", `{` + d7 + `"prefixItems":[{"type":"string"}]}`, "", "W301"},
	{"", `{` + d4 + `"$defs":{},"const":1}`, "", "W301 W301"},
	{"", `{"additionalItems":false}`, "", "W301"},
	{"", `{` + d7 + `"items":{"type":"string"},"additionalItems":false}`, "", "W301"},
	{"", `{` + d7 + `"definitions":{"a":{"type":"null"}},"properties":{"p":{"$ref":"#/definitions/a","type":"string"}}}`, "", "W303"},
	{"", `{` + d7 + `"definitions":{"a":{"type":"null"}},"properties":{"p":{"$ref":"#/definitions/a","title":"t","x-y":1}}}`, "", ""},
	{"", `{` + d7 + `"definitions":{"a":{"type":"null"}},"properties":{"p":{"$ref":"#/definitions/a","oneOf":[{}]}}}`, "", "W303"},

	// Refused keywords.
	{"", `{"$dynamicRef":"#a","unevaluatedItems":false}`, "S201 S201", ""},
	{"", `{"pattern":"a","patternProperties":{},"propertyNames":{}}`, "", ""},
	{"", `{"patternProperties":{"^\\-":{}}}`, "S203", ""},
	{"", `{"patternProperties":{"(?<!a)b":{},"c":{"unevaluatedItems":true}}}`, "S211 S201", ""},
	{"portable", `{"type":"object","additionalProperties":false,"patternProperties":{"a":{"type":"null"}},"propertyNames":{"type":"string"}}`, "S201 S201", ""},
	{"", `{"unevaluatedItems":false,"unevaluatedProperties":false}`, "S201 S201", ""},

	// Counting and dependencies (counting.go): enforced in exact, refused
	// in portable, their values checked.
	{"", `{"uniqueItems":true,"multipleOf":2,"minProperties":1,"maxProperties":2,"contains":{},"minContains":1,"maxContains":2}`, "", ""},
	{"", `{"dependentRequired":{"a":["b"]},"dependentSchemas":{"a":{}},"dependencies":{"a":["b"],"c":{}}}`, "", ""},
	{"", `{` + d7 + `"dependencies":{"a":[],"b":true}}`, "", ""},
	{"", `{` + d7 + `"minContains":1,"maxContains":2}`, "", "W301 W301"},
	{"portable", `{"type":"array","uniqueItems":true,"multipleOf":2,"minProperties":1,"maxProperties":2,"contains":{"type":"null"},"minContains":1,"maxContains":2,"additionalProperties":false}`, "S201 S201 S201 S201 S201 S201 S201", ""},
	{"portable", `{"type":"object","dependentRequired":{},"dependentSchemas":{},"dependencies":{},"additionalProperties":false}`, "S201 S201 S201", ""},
	{"", `{"uniqueItems":1}`, "S203", ""},
	{"", `{"multipleOf":0}`, "S203", ""},
	{"", `{"multipleOf":-1.5}`, "S203", ""},
	{"", `{"minProperties":-1,"maxProperties":1.5}`, "S203 S203", ""},
	{"", `{"contains":{},"minContains":"1","maxContains":-1}`, "S203 S203", ""},
	{"", `{"dependentRequired":{"a":"b"}}`, "S203", ""},
	{"", `{"dependentRequired":{"a":["b","b"]}}`, "S203", ""},
	{"", `{"dependentRequired":{"a":[1]}}`, "S203", ""},
	{"", `{"dependentSchemas":{"a":{"type":"nope"}}}`, "S203", ""},
	{"", `{"dependentRequired":[]}`, "S203", ""},
	{"", `{` + d4 + `"dependencies":{"a":[]}}`, "S203", ""},
	{"", `{` + d4 + `"dependencies":{"a":true}}`, "S204", ""},
	{"", `{"$dynamicRef":"#a"}`, "S201", ""},
	{"", `{` + d19 + `"$recursiveRef":"#"}`, "S201", ""},
	{"", `{"minimum":0}`, "", ""},
	{"", `{"type":"number","maximum":1.5}`, "", ""},
	{"", `{"type":["integer","number"],"exclusiveMinimum":0}`, "", ""},
	{"", `{` + d4 + `"type":"number","minimum":0,"exclusiveMinimum":true}`, "", ""},

	// Bad keyword values.
	{"", `{"type":"str"}`, "S203", ""},
	{"", `{"type":[]}`, "S203", ""},
	{"", `{"type":["string","string"]}`, "S203", ""},
	{"", `{"type":1}`, "S203", ""},
	{"", `{"minItems":-1}`, "S203", ""},
	{"", `{"minLength":1.5}`, "S203", ""},
	{"", `{"maxLength":"3"}`, "S203", ""},
	{"", `{"required":"a"}`, "S203", ""},
	{"", `{"required":["a","a"]}`, "S203", ""},
	{"", `{"required":[1]}`, "S203", ""},
	{"", `{` + d4 + `"required":[]}`, "S203", ""},
	{"", `{"enum":{}}`, "S203", ""},
	{"", `{"enum":[]}`, "", ""},
	{"", `{` + d7 + `"enum":[]}`, "S203", ""},
	{"", `{` + d7 + `"enum":[1,1.0]}`, "S203", ""},
	{"", `{"enum":[1,1.0]}`, "", ""},
	{"", `{"anyOf":[]}`, "S203", ""},
	{"", `{"anyOf":{}}`, "S203", ""},
	{"", `{"prefixItems":[]}`, "S203", ""},
	{"", `{"items":[{}]}`, "S203", ""},
	{"", `{` + d7 + `"items":[]}`, "S203", ""},
	{"", `{"properties":[]}`, "S203", ""},
	{"", `{"title":1,"description":null}`, "S203 S203", ""},
	{"", `{"format":1}`, "S203", ""},
	{"", `{"type":"integer","minimum":"0"}`, "S203", ""},
	{"", `{` + d4 + `"type":"integer","exclusiveMinimum":true}`, "S203", ""},
	{"", `{` + d4 + `"type":"integer","minimum":1,"exclusiveMinimum":1}`, "S203", ""},
	{"", `{"type":"integer","exclusiveMinimum":true}`, "S203", ""},
	{"", `{"$schema":1}`, "S203", ""},
	{"", `{"$defs":{"unused":{"oneOf":[{"pattern":"a"}],"not":{}}}}`, "", ""},
	{"", `{"$defs":{"unused":{"type":"nope"}}}`, "S203", ""},
	{"", `{"$defs":{"unused":{"oneOf":[]}}}`, "S203", ""},
	{"", `{"$defs":{"unused":{"pattern":"a{2,1}"}}}`, "S203", ""},
	{"", `{"$defs":{"unused":{"pattern":"(?=a)"}}}`, "", ""},
	{"", `{"pattern":"(?=a)"}`, "S211", ""},
	{"", `{"pattern":"\\d{1,5}\\-"}`, "S203", ""},
	{"", `{"pattern":"(a|b)*a(a|b){40}"}`, "L506", ""},
	{"portable", `{"pattern":"(?=a)"}`, "S209 S201 S211", ""},
	{"", `{"$defs":{"unused":{"not":{"minProperties":-1}}}}`, "S203", ""},
	{"", `{"$defs":{"unused":{"minimum":0,"$ref":"#/nope","x":{"type":1}}}}`, "", ""},
	{"", `{"contentSchema":{"type":""}}`, "S203", ""},
	{"", `{` + d7 + `"definitions":{"a":{}},"properties":{"p":{"$ref":"#/definitions/a","oneOf":[]}}}`, "S203", ""},

	// Not schemas.
	{"", `1`, "S204", ""},
	{"", `{"properties":{"a":1}}`, "S204", ""},
	{"", `{"items":"x"}`, "S204", ""},
	{"", `{` + d4 + `"items":true}`, "S204", ""},
	{"", `{"enum":[{"type":"string"}],"$ref":"#/enum/0"}`, "S204", ""},
	{"", `{"const":{"type":"string"},"$ref":"#/const"}`, "S204", ""},
	{"", `{"properties":{"a":{"type":"null"}},"items":{"$ref":"#/properties"}}`, "S204", ""},
	{"", `{"required":["a"],"items":{"$ref":"#/required/0"}}`, "S204", ""},
	{"", `{"x-defs":{"a":{"type":"null"}},"items":{"$ref":"#/x-defs/a"}}`, "", "W301"},
	{"", `{"x-defs":{"a":3},"items":{"$ref":"#/x-defs/a"}}`, "S204", ""},

	// Refs.
	{"", `{"$ref":"#/$defs/missing"}`, "S205", ""},
	{"", `{"$ref":"#/$defs/a~2"}`, "S205", ""},
	{"", `{"$ref":"#/%zz"}`, "S203", ""},
	{"", `{"$defs":{"":{"$anchor":""}}}`, "S203", ""},
	{"", `{"$anchor":"a b"}`, "S203", ""},
	{"", `{"$id":"http://x.test/a#frag"}`, "S203", ""},
	{"", `{` + d7 + `"$id":"#frag"}`, "", ""},
	{"", `{"$defs":{"a":{}},"$ref":"#/$defs/A"}`, "S205", ""},
	{"", `{"$ref":"other.json"}`, "S206", ""},
	{"", `{"$ref":"https://example.com/s.json#/a"}`, "S206", ""},
	{"", `{"$ref":"#foo","$defs":{"a":{"$anchor":"foo"}}}`, "", ""},
	{"", `{"$ref":"#bar","$defs":{"a":{"$anchor":"foo"}}}`, "S205", ""},
	{"", `{"$defs":{"a":{"$id":"a.json","$defs":{"b":{"type":"null"}},"$ref":"#/$defs/b"}},"$ref":"#/$defs/a"}`, "", ""},
	{"", `{"$defs":{"a":{"$id":"a.json","$defs":{"b":{"type":"null"}}}},"$ref":"#/$defs/a/$defs/b"}`, "", ""},
	{"", `{"$defs":{"a":{"$id":"a.json","type":"null"}},"$ref":"a.json"}`, "", ""},
	{"", `{"$defs":{"a":{"$id":"a.json","$ref":"b.json"}},"$ref":"#/$defs/a"}`, "S206", ""},
	{"", `{"$ref":"#"}`, "S207", ""},
	{"", `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`, "S207", ""},
	{"", `{"anyOf":[{"type":"null"},{"$ref":"#"}]}`, "S207", ""},
	{"", `{"$defs":{"a":{"$ref":"#/$defs/a"}},"type":"object","properties":{"p":{"$ref":"#/$defs/a"}}}`, "S207", ""},
	{"", `{"$ref":1}`, "S203", ""},
	{"", `{"$id":"https://x.test/a","properties":{"p":{"$id":"https://x.test/a","type":"null"}}}`, "S203", ""},
	{"", `{"$id":"https://x.test/a","properties":{"p":{"$id":"b","type":"null"},"q":{"$id":"https://x.test/b"}}}`, "S203", ""},
	{"", `{"$defs":{"unused":{"$id":"u"},"also":{"$id":"u"}}}`, "S203", ""},
	{"", `{"$id":"A:0","properties":{"":{"$id":"0"}}}`, "S203", ""},
	{"", `{"$id":"urn:x","properties":{"a":{"$id":"urn:y"}}}`, "", ""},

	// Dialects.
	{"", `{"$schema":"http://json-schema.org/draft-03/schema#"}`, "S208", ""},
	{"", `{"$schema":"http://example.com/custom"}`, "S208", ""},
	{"", `{"properties":{"a":{"$schema":"http://json-schema.org/draft-07/schema#"}}}`, "S208", ""},

	// Combinators (keywords_combinator.go).
	{"", `{"oneOf":[{"type":"string"}]}`, "", ""},
	{"", `{"allOf":[{}],"not":{},"if":{},"then":{},"else":{}}`, "", ""},
	{"", `{"oneOf":[]}`, "S203", ""},
	{"", `{"allOf":{}}`, "S203", ""},
	{"", `{"not":[]}`, "S204", ""},
	{"", `{"if":{"type":"string"}}`, "", "W301"},
	{"", `{"then":{"type":"string"},"else":{}}`, "", "W301 W301"},
	{"", `{"if":{"pattern":"annotation only, never built"}}`, "", "W301"},
	{"", `{"not":{"$ref":"#"}}`, "S207", ""},
	{"", `{"allOf":[{"$ref":"#"}]}`, "S207", ""},
	{"", `{"$defs":{"a":{"if":true,"then":{"$ref":"#/$defs/a"}}},"$ref":"#/$defs/a"}`, "S207", ""},
	{"", `{"oneOf":[{"$ref":"#"},{"type":"null"}]}`, "S207", ""},
	{"", `{` + d4 + `"not":false}`, "S204", ""},
	{"", `{` + d4 + `"properties":{"a":{"not":{}}}}`, "", ""},
	{port, `{"type":"string","oneOf":[{"type":"string"}]}`, "S201", ""},
	{port, `{"type":"string","allOf":[{"type":"string"}],"not":{"type":"null"},"if":{"type":"string"},"then":{"type":"string"}}`, "S201 S201 S201 S201", ""},

	// Every problem at once, sorted.
	{"", `{"$dynamicRef":"#a","type":"x","$ref":"#/nope","minItems":-1}`, "S201 S203 S205 S203", ""},

	// Portable profile.
	{port, `{"type":"object","properties":{"a":{"type":"string","minLength":1},"b":{"type":"integer","minimum":0,"maximum":9}},"required":["a"],"additionalProperties":false}`, "", ""},
	{port, `{"type":"array","items":{"enum":["a","b"]},"minItems":1}`, "", ""},
	{port, `{` + d7 + `"definitions":{"a":{"type":"null"}},"$ref":"#/definitions/a"}`, "", ""},
	{port, `{"type":"object","additionalProperties":true}`, "", ""},
	{port, `{"anyOf":[{"type":"string"},{"type":"null"}]}`, "S209", ""},
	{port, `{` + d7 + `"definitions":{"a":{"type":"string"}},"anyOf":[{"$ref":"#/definitions/a"},{"type":"null"}]}`, "", ""},
	{port, `{"type":"object","properties":{"a":{"description":"d","type":"string","title":"t"}},"additionalProperties":false}`, "", ""},
	{port, `{"type":["null","boolean","object","array","number","string"],"additionalProperties":false}`, "", ""},
	{port, `{}`, "S209", ""},
	{port, `true`, "S209", ""},
	{port, `{"type":"array","items":false}`, "S209", ""},
	{port, `{"type":"object"}`, "S209", ""},
	{port, `{"properties":{}}`, "S209 S209", ""},
	{port, `{"description":"x","enum":[1]}`, "S209", ""},
	{port, `{"anyOf":[{"type":"null"}],"description":"x"}`, "S209 S209", ""},
	{port, `{"$defs":{"a":{"type":"null"}},"$ref":"#/$defs/a","title":"t"}`, "S209", ""},
	{port, `{` + d7 + `"definitions":{"a":{"type":"null"}},"$ref":"#/definitions/a","description":"t"}`, "S209", ""},
	{port, `{"type":"string","maxLength":3}`, "S201", ""},
	{port, `{"type":"string","format":"date"}`, "S201", ""},
	{port, `{"type":"string","default":"a","examples":["a"],"$comment":"c"}`, "S201 S201 S201", ""},
	{port, `{` + d7 + `"type":"array","items":[{"type":"string"}]}`, "S201", ""},
	{port, `{"type":"array","prefixItems":[{"type":"string"}]}`, "S201", ""},
	{port, `{"type":"number","minimum":0}`, "S209", ""},
	{port, `{"type":["integer","null"],"minimum":0}`, "", ""},
	{port, `{"type":"string","x-foo":1}`, "", "W301"},
}

func TestCheckCodes(t *testing.T) {
	for _, tt := range checkCases {
		errs, warns, _ := checkCodes(t, tt.schema, Options{Profile: tt.profile})
		if errs != tt.errs || warns != tt.warns {
			c, err := Check(mustRead(t, tt.schema), Options{Profile: tt.profile})
			var w error
			if c != nil {
				w = c.Warnings
			}
			t.Errorf("Check(%s, %q) = errors %q warnings %q, want %q %q\n%v\n%v", tt.schema, tt.profile, errs, warns, tt.errs, tt.warns, err, w)
		}
	}
}

func TestCheckDefaultDraftOption(t *testing.T) {
	errs, warns, c := checkCodes(t, `{"items":[{"type":"null"}],"additionalItems":false}`, Options{DefaultDraft: Draft7})
	if errs != "" || warns != "" || c.Draft != Draft7 || len(c.Root.PrefixItems) != 1 || !c.Root.Items.False {
		t.Errorf("errs %q warns %q draft %v", errs, warns, c.Draft)
	}
}

// TestCheckSubschemaDialect: a subschema's $schema that names another
// dialect than the document's is refused, saying how to name it for the
// whole document when the root names none; -draft (DefaultDraft) naming
// it is that way.
func TestCheckSubschemaDialect(t *testing.T) {
	schema := `{"properties":{"a":{"$schema":"http://json-schema.org/draft-07/schema#","type":"null"}}}`
	_, err := Check(mustRead(t, schema), Options{})
	if err == nil || !strings.Contains(err.Error(), "the root names none") || !strings.Contains(err.Error(), "-draft") {
		t.Errorf("got %v, want S208 naming -draft", err)
	}
	_, err = Check(mustRead(t, `{"$schema":"https://json-schema.org/draft/2020-12/schema",`+schema[1:]), Options{})
	if err == nil || !strings.Contains(err.Error(), "the root is 2020-12") {
		t.Errorf("root naming its dialect: got %v, want S208 naming the root's", err)
	}
	if errs, _, _ := checkCodes(t, schema, Options{DefaultDraft: Draft7}); errs != "" {
		t.Errorf("with DefaultDraft draft-07: %q, want no error", errs)
	}
}

// dump prints the normalised fields of a Schema in one line.
func dump(s *Schema) string {
	if s == nil {
		return "nil"
	}
	if s.False {
		return "false"
	}
	var parts []string
	if s.Types != AllTypes {
		parts = append(parts, fmt.Sprintf("types=%s", typeString(s.Types)))
	}
	if s.Enum != nil {
		var vs []string
		for _, v := range s.Enum {
			vs = append(vs, CanonicalKey(v))
		}
		parts = append(parts, "enum=["+strings.Join(vs, " ")+"]")
	}
	for _, p := range s.Properties {
		parts = append(parts, fmt.Sprintf("prop %s=(%s)", p.Name, dump(p.Schema)))
	}
	if s.Required != nil {
		parts = append(parts, "required="+strings.Join(s.Required, ","))
	}
	if s.AdditionalProperties != nil {
		parts = append(parts, "addl=("+dump(s.AdditionalProperties)+")")
	}
	for i, p := range s.PrefixItems {
		parts = append(parts, fmt.Sprintf("prefix%d=(%s)", i, dump(p)))
	}
	if s.Items != nil {
		parts = append(parts, "items=("+dump(s.Items)+")")
	}
	if s.MinItems != 0 || s.MaxItems != -1 {
		parts = append(parts, fmt.Sprintf("items[%d,%d]", s.MinItems, s.MaxItems))
	}
	if s.MinLength != 0 || s.MaxLength != -1 {
		parts = append(parts, fmt.Sprintf("len[%d,%d]", s.MinLength, s.MaxLength))
	}
	if s.Lower != nil {
		parts = append(parts, fmt.Sprintf("lower=%s%v", s.Lower.Value.RatString(), map[bool]string{true: "x", false: ""}[s.Lower.Exclusive]))
	}
	if s.Upper != nil {
		parts = append(parts, fmt.Sprintf("upper=%s%v", s.Upper.Value.RatString(), map[bool]string{true: "x", false: ""}[s.Upper.Exclusive]))
	}
	for i, b := range s.AnyOf {
		parts = append(parts, fmt.Sprintf("any%d=(%s)", i, dump(b)))
	}
	if s.Ref != nil {
		parts = append(parts, "ref="+pointerOrRoot(s.Ref.Pointer))
	}
	return strings.Join(parts, " ")
}

func typeString(t Type) string {
	var names []string
	for _, n := range []struct {
		t    Type
		name string
	}{{TNull, "null"}, {TBoolean, "boolean"}, {TObject, "object"}, {TArray, "array"}, {TNumber, "number"}, {TInteger, "integer"}, {TString, "string"}} {
		if t&n.t != 0 {
			names = append(names, n.name)
		}
	}
	return strings.Join(names, "|")
}

func TestCheckNormalises(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{}`, ``},
		{`false`, `false`},
		{`{"type":"number"}`, `types=number|integer`},
		{`{"type":"integer"}`, `types=integer`},
		{`{"type":["string","null"]}`, `types=null|string`},
		{`{"const":1.0}`, `enum=[#1e0]`},
		{`{"enum":[1,2,3],"const":2.0}`, `enum=[#2e0]`},
		{`{"enum":[1,2],"const":3}`, `enum=[]`},
		{`{"enum":[]}`, `enum=[]`},
		{`{"required":["b","a"],"properties":{"b":{},"a":true}}`, `prop b=() prop a=() required=b,a`},
		{`{"additionalProperties":false}`, `addl=(false)`},
		{`{"maxItems":0,"minItems":2}`, `items[2,0]`},
		{`{"minLength":1.0}`, `len[1,-1]`},
		{`{"maxItems":1e30}`, `items[0,9223372036854775807]`},
		{`{"type":"integer","minimum":1,"exclusiveMinimum":1}`, `types=integer lower=1x`},
		{`{"type":"integer","minimum":2,"exclusiveMinimum":1}`, `types=integer lower=2`},
		{`{"type":"integer","minimum":1,"exclusiveMinimum":2}`, `types=integer lower=2x`},
		{`{"type":"integer","maximum":5,"exclusiveMaximum":5}`, `types=integer upper=5x`},
		{`{"type":"integer","maximum":4,"exclusiveMaximum":5}`, `types=integer upper=4`},
		{`{"type":"integer","maximum":123456789012345678901234567890}`, `types=integer upper=123456789012345678901234567890`},
		{`{"type":"integer","minimum":0.5}`, `types=integer lower=1/2`},
		{`{` + d4 + `"type":"integer","minimum":0,"exclusiveMinimum":true,"maximum":9,"exclusiveMaximum":false}`, `types=integer lower=0x upper=9`},
		{`{"prefixItems":[{"type":"null"}],"items":{"type":"string"}}`, `prefix0=(types=null) items=(types=string)`},
		{`{` + d7 + `"items":[{"type":"null"}],"additionalItems":{"type":"string"}}`, `prefix0=(types=null) items=(types=string)`},
		{`{` + d7 + `"items":{"type":"null"}}`, `items=(types=null)`},
		{`{"anyOf":[{"type":"null"},true]}`, `any0=(types=null) any1=()`},
		{`{"$defs":{"a":{"type":"null"}},"$ref":"#/$defs/a","type":"null"}`, `types=null ref=#/$defs/a`},
		{`{` + d7 + `"definitions":{"a":{"type":"null"}},"$ref":"#/definitions/a","type":"string"}`, `ref=#/definitions/a`},
		{`{"type":"object","properties":{"n":{"$ref":"#"}}}`, `types=object prop n=(ref=#)`},
		{`{"$defs":{"a":{"type":"null"}},"anyOf":[{"$ref":"#/$defs/a"},{"$ref":"#/$defs/%61"}]}`, `any0=(ref=#/$defs/a) any1=(ref=#/$defs/a)`},
	}
	for _, tt := range tests {
		c, err := Check(mustRead(t, tt.schema), Options{})
		if err != nil {
			t.Errorf("Check(%s): %v", tt.schema, err)
			continue
		}
		if got := dump(c.Root); got != tt.want {
			t.Errorf("Check(%s) = %q, want %q", tt.schema, got, tt.want)
		}
	}
}

func TestCheckSharesRefTargets(t *testing.T) {
	c, err := Check(mustRead(t, `{"$defs":{"a":{"type":"null"}},"anyOf":[{"$ref":"#/$defs/a"},{"$ref":"#/$defs/%61"}],"properties":{"n":{"$ref":"#"}}}`), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Root.AnyOf[0].Ref != c.Root.AnyOf[1].Ref || c.Root.Properties[0].Schema.Ref != c.Root {
		t.Errorf("targets are not shared")
	}
}

func TestCheckProblemsArePositioned(t *testing.T) {
	schema := "{\n  \"type\": \"object\",\n  \"properties\": {\n    \"a/b\": {\"unevaluatedProperties\": false}\n  }\n}"
	_, err := Check(mustRead(t, schema), Options{})
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 1 {
		t.Fatalf("err = %v", err)
	}
	p := list[0]
	if p.Code != CodeRefusedKeyword || p.Pointer != "/properties/a~1b/unevaluatedProperties" || p.Line != 4 || p.Col != 13 || p.File != "schema.json" {
		t.Errorf("problem = %+v", p)
	}
	if !strings.Contains(p.Message, "additionalProperties") {
		t.Errorf("message does not say what to write instead: %s", p.Message)
	}
}

func TestCheckLimits(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"anyOf":[`)
	for i := 0; i < 20; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"type":"null"}`)
	}
	b.WriteString(`]}`)
	_, err := Check(mustRead(t, b.String()), Options{Limits: Limits{MaxSubschemas: 10}})
	if got := codesOf(err); got != "L504" {
		t.Errorf("got %q", got)
	}
}

// TestCheckAssertFormat: with AssertFormat, an asserted format lands in
// Schema.Format without a warning, and any other name is refused with S210
// where it is written; without it, every format is an annotation (W302).
func TestCheckAssertFormat(t *testing.T) {
	assert := Options{AssertFormat: true}
	for _, tt := range []struct {
		schema      string
		opts        Options
		errs, warns string
		format      string // Root.Format
	}{
		{`{"type":"string","format":"date"}`, assert, "", "", "date"},
		{`{"format":"ipv6"}`, assert, "", "", "ipv6"},
		{`{"type":"string","format":"email"}`, assert, "S210", "", ""},
		{`{"type":"string","format":"hostname"}`, assert, "S210", "", ""},
		{`{"properties":{"a":{"format":"uri"},"b":{"format":"x-custom"}}}`, assert, "S210 S210", "", ""},
		{`{"type":"string","format":7}`, assert, "S203", "", ""},
		{`{"type":"integer","format":"int32"}`, assert, "", "W302", ""},          // strings only: nothing to enforce
		{`{"format":"int64","type":["integer","null"]}`, assert, "", "W302", ""}, // the type may come after
		{`{"type":["integer","string"],"format":"int32"}`, assert, "S210", "", ""},
		{`{"$defs":{"unused":{"format":"email"}},"format":"uuid"}`, assert, "", "", "uuid"}, // like a refused keyword there: never applied
		{`{"type":"string","format":"date"}`, Options{}, "", "W302", ""},
		{`{"type":"string","format":"date"}`, Options{Profile: Portable, AssertFormat: true}, "S201", "", ""},
	} {
		errs, warns, c := checkCodes(t, tt.schema, tt.opts)
		format := ""
		if c != nil {
			format = c.Root.Format
		}
		if errs != tt.errs || warns != tt.warns || format != tt.format {
			t.Errorf("Check(%s, %+v) = errors %q warnings %q format %q, want %q %q %q", tt.schema, tt.opts, errs, warns, format, tt.errs, tt.warns, tt.format)
		}
	}
	_, err := Check(mustRead(t, "{\n  \"format\": \"email\"\n}"), assert)
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 1 || list[0].Pointer != "/format" || list[0].Line != 2 || !strings.Contains(list[0].Message, "enum") {
		t.Errorf("S210 not located or without advice: %v", err)
	}
}

// TestFirstDuplicateStrings holds the pair-by-pair search for a few strings
// to the search by canonical key.
func TestFirstDuplicateStrings(t *testing.T) {
	byKey := func(items []*Value) (int, int, bool) {
		seen := map[string]int{}
		for i, v := range items {
			k := CanonicalKey(v)
			if j, ok := seen[k]; ok {
				return j, i, true
			}
			seen[k] = i
		}
		return 0, 0, false
	}
	words := []string{"a", "b", "c", "ab", "", "\u00e9", "e\u0301", "d"}
	for n := range linearMembers + 3 {
		for seed := range 200 {
			items := make([]*Value, n)
			for i := range items {
				items[i] = &Value{Kind: String, Str: words[(seed*7+i*i*3+seed*i)%len(words)]}
			}
			gi, gj, gok := firstDuplicate(items)
			wi, wj, wok := byKey(items)
			if gi != wi || gj != wj || gok != wok {
				t.Fatalf("n=%d seed=%d: got %d %d %v, want %d %d %v", n, seed, gi, gj, gok, wi, wj, wok)
			}
		}
	}
}

// TestSpellArena holds the arena's strings to plain concatenation, across
// chunk changes and requests larger than a chunk.
func TestSpellArena(t *testing.T) {
	var a spellArena
	type spelt struct{ got, want string }
	var all []spelt
	ptr := ""
	for i := range 3000 {
		token := strconv.Itoa(i) + strings.Repeat("x/~", i%7)
		if i%500 == 499 {
			token = strings.Repeat("long", 3000) // past maxSpellChunk
		}
		all = append(all, spelt{a.join(ptr, token), join(ptr, token)})
		if i%50 == 0 {
			ptr = ""
		} else if len(ptr) < 200 {
			ptr = all[len(all)-1].got
		}
		if i%300 == 0 {
			ps := a.spellPointers(ptr, "properties", 40, strconv.Itoa)
			for j := range 40 {
				all = append(all, spelt{ps.next(len(strconv.Itoa(j))), ptr + "/properties/" + strconv.Itoa(j)})
			}
		}
	}
	for i, s := range all {
		if s.got != s.want {
			t.Fatalf("string %d: got %q, want %q", i, s.got, s.want)
		}
	}
}

// TestQuotesAsIs holds quotesAsIs to strconv.Quote, byte by byte.
func TestQuotesAsIs(t *testing.T) {
	for c := range 256 {
		s := "x-" + string([]byte{byte(c)}) + "y"
		if got, want := quotesAsIs(s), strconv.Quote(s) == `"`+s+`"`; got != want {
			t.Errorf("quotesAsIs(%q) = %v, want %v", s, got, want)
		}
	}
	if !quotesAsIs("") || quotesAsIs("é") {
		t.Error("quotesAsIs: wrong on the empty string or on non-ASCII")
	}
}

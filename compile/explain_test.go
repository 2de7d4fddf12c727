package compile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"

	"golang.org/x/tools/txtar"
)

// TestExplainAgreesWithAccepts: Explain is nil exactly when the validator
// accepts, on every accept and reject line of testdata.
func TestExplainAgreesWithAccepts(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	n := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		sec := map[string][]byte{}
		for _, f := range txtar.Parse(data).Files {
			sec[f.Name] = f.Data
		}
		if len(sec["error"]) > 0 {
			continue
		}
		checked := checkSchema(t, string(sec["schema.json"]))
		for _, text := range append(lines(t, sec["accept"]), lines(t, sec["reject"])...) {
			doc, err := subsetcheck.Read("value", []byte(text), subsetcheck.Limits{})
			if err != nil {
				continue // not JSON: nothing to validate
			}
			v := doc.Root
			f := Explain(checked, v)
			if ok := accepts(checked.Root, v); ok != (f == nil) {
				t.Errorf("%s: %s: accepts %v, Explain %v", file, text, ok, f)
			}
			n++
		}
	}
	if n < 50 {
		t.Fatalf("only %d texts checked", n)
	}
}

func TestExplain(t *testing.T) {
	for _, c := range []struct{ schema, value, keyword, schemaPtr, instPtr string }{
		{`{"type":"string"}`, `1`, "type", "/type", ""},
		{`{"type":"integer"}`, `1.5`, "type", "/type", ""},
		{`{"enum":["a","b"]}`, `"c"`, "enum", "/enum", ""},
		{`{"const":3}`, `4`, "const", "/const", ""},
		{`{"required":["a"]}`, `{}`, "required", "/required", ""},
		{`{"properties":{"a":{"type":"string"}}}`, `{"a":1}`, "type", "/properties/a/type", "/a"},
		{`{"properties":{"a/b":{"type":"string"}}}`, `{"a/b":1}`, "type", "/properties/a~1b/type", "/a~1b"},
		{`{"additionalProperties":false}`, `{"x":1}`, "additionalProperties", "/additionalProperties", "/x"},
		{`{"additionalProperties":{"type":"null"}}`, `{"x":1}`, "type", "/additionalProperties/type", "/x"},
		{`{"items":{"type":"integer"}}`, `[1,"x"]`, "type", "/items/type", "/1"},
		{`{"prefixItems":[{"type":"integer"}],"items":false}`, `[1,2]`, "items", "/items", "/1"},
		{`{"minItems":2}`, `[1]`, "minItems", "/minItems", ""},
		{`{"maxItems":1}`, `[1,2]`, "maxItems", "/maxItems", ""},
		{`{"minLength":2}`, `"a"`, "minLength", "/minLength", ""},
		{`{"maxLength":1}`, `"ab"`, "maxLength", "/maxLength", ""},
		{`{"type":"integer","minimum":2}`, `1`, "minimum", "/minimum", ""},
		{`{"type":"integer","exclusiveMaximum":2}`, `2`, "exclusiveMaximum", "/exclusiveMaximum", ""},
		{`{"anyOf":[{"type":"string"},{"type":"null"}]}`, `1`, "anyOf", "/anyOf", ""},
		{`{"$defs":{"n":{"type":"null"}},"properties":{"a":{"$ref":"#/$defs/n"}}}`, `{"a":1}`, "type", "/$defs/n/type", "/a"},
		{`{"type":"object"}`, `{"a":1}`, "", "", ""},
	} {
		checked := checkSchema(t, c.schema)
		f := Explain(checked, readValue(t, c.value))
		if c.keyword == "" && c.schemaPtr == "" {
			if f != nil {
				t.Errorf("%s %s: want accepted, got %v", c.schema, c.value, f)
			}
			continue
		}
		if f == nil {
			t.Errorf("%s %s: want %s failure, got accepted", c.schema, c.value, c.keyword)
			continue
		}
		if f.Keyword != c.keyword || f.SchemaPointer != c.schemaPtr || f.InstancePointer != c.instPtr || f.Message == "" {
			t.Errorf("%s %s: got %q %q %q (%s), want %q %q %q", c.schema, c.value,
				f.Keyword, f.SchemaPointer, f.InstancePointer, f.Message, c.keyword, c.schemaPtr, c.instPtr)
		}
	}
}

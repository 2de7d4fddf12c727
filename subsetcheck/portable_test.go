package subsetcheck

import (
	"errors"
	"strings"
	"testing"
)

// TestPortableRules holds the portable profile to the authoring rules of
// the ADR it is for (seed 001, §2 and §4): for each rule, a schema that
// keeps it passes, and one that breaks only it is refused with the code,
// at the pointer, with a message that names the rule.
func TestPortableRules(t *testing.T) {
	const any6 = `["null","boolean","object","array","number","string"]`
	rules := []struct {
		rule         string
		keep, breaks string
		code         Code
		pointer      string
		message      string // a phrase of the message that names the rule
	}{
		{"draft-07",
			`{` + d7 + `"type":"string"}`,
			`{` + d20 + `"type":"string"}`,
			CodePortableRule, "/$schema", "written in draft-07"},
		{"only the listed keywords",
			`{"type":"string","minLength":1}`,
			`{"type":"string","maxLength":3}`,
			CodeRefusedKeyword, "/maxLength", "not in the portable profile"},
		{"every part that may be an object states additionalProperties",
			`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`,
			`{"type":"object","properties":{"a":{"type":"string"}}}`,
			CodePortableRule, "", `must state "additionalProperties"`},
		{"nothing beside a $ref",
			`{` + d7 + `"definitions":{"a":{"type":"string"}},"type":"object","properties":{"p":{"$ref":"#/definitions/a"}},"additionalProperties":false}`,
			`{` + d7 + `"definitions":{"a":{"type":"string"}},"type":"object","properties":{"p":{"$ref":"#/definitions/a","title":"p"}},"additionalProperties":false}`,
			CodePortableRule, "/properties/p/title", "nothing may be written beside a $ref"},
		{"a described part has a type",
			`{"type":"string","description":"a word","enum":["a","b"]}`,
			`{"description":"a word","enum":["a","b"]}`,
			CodePortableRule, "", `with a description must state its "type"`},
		{"an anyOf carries no description",
			`{"type":["string","integer"],"anyOf":[{"type":"string"},{"type":"integer"}]}`,
			`{"type":["string","integer"],"anyOf":[{"type":"string"},{"type":"integer"}],"description":"a word or a count"}`,
			CodePortableRule, "/description", "anyOf carries no description"},
		{`"or nothing" as a type list`,
			`{"type":["string","null"]}`,
			`{"anyOf":[{"type":"string"},{"type":"null"}]}`,
			CodePortableRule, "/anyOf/1", `"or nothing" is a type list`},
		{`"any value" as the six types listed`,
			`{"type":` + any6 + `,"additionalProperties":true}`,
			`{}`,
			CodePortableRule, "", "list the six types"},
		{"minimum and maximum on integers only",
			`{"type":"integer","minimum":0,"maximum":100}`,
			`{"type":"number","minimum":0}`,
			CodePortableRule, "/minimum", "bounds whole numbers only"},
		{"$ref inside the same file only",
			`{` + d7 + `"definitions":{"a":{"type":"string"}},"$ref":"#/definitions/a"}`,
			`{` + d7 + `"$ref":"other.schema.json#/definitions/a"}`,
			CodeRemoteRef, "/$ref", "refers to another document"},
		{"$id at the root only",
			`{` + d7 + `"$id":"https://raw.githubusercontent.com/org/repo/v1.2.0/schemas/a.schema.json","type":"string"}`,
			`{` + d7 + `"type":"object","properties":{"a":{"$id":"a.json","type":"string"}},"additionalProperties":false}`,
			CodeRefusedKeyword, "/properties/a/$id", "$id below the root is not in the portable profile"},
	}
	for _, r := range rules {
		if _, err := Check(mustRead(t, r.keep), Options{Profile: Portable}); err != nil {
			t.Errorf("%s: the schema that keeps the rule is refused:\n%s\n%v", r.rule, r.keep, err)
		}
		_, err := Check(mustRead(t, r.breaks), Options{Profile: Portable})
		var list ErrorList
		if !errors.As(err, &list) || len(list) != 1 {
			t.Errorf("%s: the schema that breaks the rule should get one problem:\n%s\n%v", r.rule, r.breaks, err)
			continue
		}
		if p := list[0]; p.Code != r.code || p.Pointer != r.pointer || !strings.Contains(p.Message, r.message) {
			t.Errorf("%s: got %s at %q: %s\nwant %s at %q naming the rule (%q)", r.rule, p.Code, p.Pointer, p.Message, r.code, r.pointer, r.message)
		}
	}
}

package subsetcheck

import (
	"testing"
)

// TestPatternProblemPlace: a pattern's problem points at the character at
// fault inside the schema's string, escapes followed (a \u escape, a
// surrogate pair, an escaped quote, YAML's quotes and plain scalars), or
// at the string itself where no character is at fault.
func TestPatternProblemPlace(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		yaml       bool
		line, col  int
		code       Code
	}{
		{"raw", `{"pattern":"ab\\-"}`, false, 1, 15, CodeBadKeywordValue},
		{"after a \\u escape", `{"pattern":"\u00e9\\-"}`, false, 1, 19, CodeBadKeywordValue},
		{"after a surrogate pair", `{"pattern":"\ud83d\ude00(?=x)"}`, false, 1, 25, CodePatternNotRegular},
		{"after an escaped quote", `{"pattern":"\"a}"}`, false, 1, 16, CodeBadKeywordValue},
		{"a patternProperties name", "{\"patternProperties\":{\n  \"x(?<!y)\":{}}}", false, 2, 5, CodePatternNotRegular},
		{"a limit: the string", `{"pattern":"(a|b)*a(a|b){40}"}`, false, 1, 12, CodePatternTooLarge},
		{"YAML plain", "pattern: ab\\-\n", true, 1, 12, CodeBadKeywordValue},
		{"YAML single quotes", "pattern: 'it''s\\-'\n", true, 1, 16, CodeBadKeywordValue},
		{"YAML double quotes", "pattern: \"\\x41\\\\-\"\n", true, 1, 15, CodeBadKeywordValue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var doc *Document
			var err error
			if tc.yaml {
				doc, err = ReadYAML("schema.yaml", []byte(tc.text), Limits{})
			} else {
				doc, err = Read("schema.json", []byte(tc.text), Limits{})
			}
			if err != nil {
				t.Fatal(err)
			}
			_, err = Check(doc, Options{})
			list, _ := err.(ErrorList)
			if len(list) != 1 || list[0].Code != tc.code || list[0].Line != tc.line || list[0].Col != tc.col {
				t.Errorf("got %v, want %s at %d:%d", err, tc.code, tc.line, tc.col)
			}
		})
	}
}

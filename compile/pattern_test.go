package compile

import (
	"strings"
	"testing"
)

// TestPatternLanguagesByLength: one pattern under several length bounds,
// a format and excluded strings in one schema is several languages, each
// built once per compile (stringKey): the grammar and the oracle agree on
// strings of every length from 0 to 7 in each member.
func TestPatternLanguagesByLength(t *testing.T) {
	schema := `{"type":"object","properties":{` +
		`"a":{"type":"string","pattern":"^x*$","minLength":2},` +
		`"b":{"type":"string","pattern":"^x*$","minLength":4},` +
		`"c":{"type":"string","pattern":"^x*$","maxLength":3},` +
		`"d":{"type":"string","pattern":"^x*$","minLength":2,"maxLength":5},` +
		`"e":{"type":"string","pattern":"^x*$","not":{"enum":["xx","xxxxx"]}},` +
		`"f":{"type":"string","pattern":"^x*$"}}}`
	values := []string{"{}"}
	for _, name := range []string{"a", "b", "c", "d", "e", "f"} {
		for n := range 8 {
			values = append(values, `{"`+name+`":"`+strings.Repeat("x", n)+`"}`)
		}
	}
	exactOn(t, schema, values)
}

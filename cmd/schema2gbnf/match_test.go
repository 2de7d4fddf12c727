package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFinalNewlineRule: match and verdict follow one rule: one final "\n" or
// "\r\n" of a TEXT is dropped, -exact keeps every byte.
func TestFinalNewlineRule(t *testing.T) {
	schema := writeTemp(t, "s.json", `{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"],"additionalProperties":false}`)
	code, grammar, _ := cli(t, "", schema)
	assert.Equal(t, exitOK, code)
	g := writeTemp(t, "s.gbnf", grammar)
	for _, tc := range []struct {
		text        string
		exact       bool
		match, verd int
		note        bool
	}{
		{`{"a":1}`, false, exitOK, 0, false},
		{"{\"a\":1}\n", false, exitOK, 0, false},
		{"{\"a\":1}\r\n", false, exitOK, 0, false},
		{"{\"a\":1}\n\n", false, exitRefused, 0, true}, // one newline only
		{"{\"a\":1}\n", true, exitRefused, 0, true},
		{`{"a":1}`, true, exitOK, 0, false},
	} {
		args := []string{g, "-"}
		vargs := []string{"verdict", schema, "-"}
		if tc.exact {
			args = append([]string{"-exact"}, args...)
			vargs = append(vargs, "-exact")
		}
		code, out, errOut := cli(t, tc.text, append([]string{"match"}, args...)...)
		assert.Equal(t, tc.match, code, "match %q: %s%s", tc.text, out, errOut)
		code, out, errOut = cli(t, tc.text, vargs...)
		assert.Equal(t, tc.verd, code, "verdict %q: %s%s", tc.text, out, errOut)
		assert.Equal(t, tc.note, strings.Contains(out, "note: "), "verdict %q: %s", tc.text, out)
	}
	assert.Contains(t, matchUsage, finalNewlineRule)
	assert.Contains(t, verdictUsage, finalNewlineRule)
}

// TestMatchLimitFlags: a grammar over match's limits is refused with the
// flag that raises the limit named, and judged once it is raised.
func TestMatchLimitFlags(t *testing.T) {
	g := writeTemp(t, "g.gbnf", `root ::= "{" [a-z]+ "}"`+"\n")
	for _, tc := range []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"-max-grammar-bytes", "10"}, exitUsage, "raise -max-grammar-bytes"},
		{[]string{"-max-states", "2"}, exitUsage, "raise it with -max-states"},
		{[]string{"-max-items", "2"}, exitUsage, "raise it with -max-items"},
		{[]string{"-max-grammar-bytes", "100", "-max-states", "100"}, exitOK, ""},
	} {
		code, out, errOut := cli(t, "{abc}", append(append([]string{"match"}, tc.args...), g, "-")...)
		assert.Equal(t, tc.code, code, "%v: %s%s", tc.args, out, errOut)
		assert.Contains(t, errOut, tc.err, "%v", tc.args)
		assert.NotContains(t, errOut, "gbnf:grammar", "%v", tc.args)
	}
	rules := writeTemp(t, "r.gbnf", "root ::= a\na ::= b\nb ::= \"x\"\n")
	code, _, errOut := cli(t, "x", "match", "-max-grammar-rules", "2", rules)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "raise -max-grammar-rules")
}

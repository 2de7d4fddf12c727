package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

// TestJudgeWhatCompiles: grammars Compile makes from huge schemas (10,000
// properties, a million-member enum) are judged by verdict and match once
// their limits are raised by flags; with the defaults the limit and its
// flag are named, in JSON too.
func TestJudgeWhatCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: huge grammars")
	}
	var props, enum strings.Builder
	props.WriteString(`{"type":"object","properties":{`)
	for i := range 10000 {
		if i > 0 {
			props.WriteByte(',')
		}
		fmt.Fprintf(&props, `"p%d":{"type":"integer"}`, i)
	}
	props.WriteString(`},"additionalProperties":false}`)
	// Every member is optional, so after each one the matcher (like
	// llama.cpp) keeps every later member alive: a value holding all 10,000
	// costs about 5e7 Earley items (-max-items); a sparse one costs little.
	value := `{"p0":0,"p4999":1,"p9999":2}`
	enum.WriteString(`{"enum":[`)
	for i := range 1000000 {
		if i > 0 {
			enum.WriteByte(',')
		}
		fmt.Fprintf(&enum, "%d", i)
	}
	enum.WriteString("]}")
	for _, tc := range []struct {
		name, schema, text string
		raise              []string
		match              bool // also match the grammar file (reading 6.5 MB of GBNF takes seconds)
	}{
		{"10,000 properties", props.String(), value, []string{"-max-states", "4194304", "-max-grammar-bytes", "16777216"}, true},
		{"a million-member enum", enum.String(), "765432", []string{"-max-states", "8388608"}, false},
	} {
		schema := writeTemp(t, "s.json", tc.schema)
		code, out, errOut := cli(t, tc.text, "verdict", "-json", schema)
		assert.Equal(t, 7, code, "%s: %s%s", tc.name, out, errOut)
		assert.Contains(t, out, `"limit":"Matcher.MaxStates"`, tc.name)
		assert.Contains(t, out, "-max-states", tc.name)
		code, out, errOut = cli(t, tc.text, append([]string{"verdict", "-json", schema}, tc.raise...)...)
		assert.Equal(t, 0, code, "%s: %s%s", tc.name, out, errOut)
		assert.Contains(t, out, `"class":"COMPLETE_VALID"`, tc.name)
		if !tc.match {
			continue
		}
		code, grammar, errOut := cli(t, "", schema)
		require.Equal(t, exitOK, code, errOut)
		g := writeTemp(t, "s.gbnf", grammar)
		code, _, errOut = cli(t, tc.text, "match", g)
		assert.Equal(t, exitUsage, code, tc.name)
		assert.Contains(t, errOut, "raise -max-grammar-bytes", tc.name)
		code, out, errOut = cli(t, tc.text, append([]string{"match", g}, tc.raise...)...)
		assert.Equal(t, exitOK, code, "%s: %s%s", tc.name, out, errOut)
	}
}

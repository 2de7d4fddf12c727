package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The tests of issue 23, "a newcomer's first hour": what a new user tripped
// on, each reproduced and fixed.

// TestHelpGoesToStdout: -h, -help and --help print the verb's usage on
// stdout with exit 0, for every verb; match -h opens no file named -h.
func TestHelpGoesToStdout(t *testing.T) {
	for _, verb := range [][]string{nil, {"check"}, {"match"}, {"verdict"}} {
		for _, h := range []string{"-h", "-help", "--help"} {
			args := append(append([]string{}, verb...), h)
			code, out, errOut := cli(t, "", args...)
			assert.Equal(t, exitOK, code, "%v: %s", args, errOut)
			assert.Contains(t, out, "usage", args)
			assert.Empty(t, errOut, args)
		}
	}
	code, out, _ := cli(t, "", "match", "g.gbnf", "-h")
	assert.Equal(t, exitOK, code)
	assert.NotContains(t, out, "no such file")
}

// TestNoArgumentsOnATerminal: with nothing to read but a terminal, the
// command prints its usage instead of waiting; a pipe and "-" still read
// stdin.
func TestNoArgumentsOnATerminal(t *testing.T) {
	saved := isTerminal
	defer func() { isTerminal = saved }()
	isTerminal = func(any) bool { return true }
	code, out, errOut := cli(t, "")
	assert.Equal(t, exitUsage, code)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "usage:")
	code, _, errOut = cli(t, "", "match", "g.gbnf")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "usage: schema2gbnf match")
	code, out, errOut = cli(t, `{"type":"null"}`, "-")
	assert.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, `root ::= "null"`)

	isTerminal = func(any) bool { return false }
	code, out, errOut = cli(t, `{"type":"null"}`)
	assert.Equal(t, exitOK, code, errOut)
	assert.Contains(t, out, `root ::= "null"`)
}

// TestLimitMessagesNameTheirFlag: every limit a schema can hit says which
// CLI flag raises it and gives the true figure; raising that flag lets the
// same schema through.
func TestLimitMessagesNameTheirFlag(t *testing.T) {
	for _, tc := range []struct {
		code, schema, flag, low, high string
		extra                         []string
	}{
		{"L502", `{"items":{"items":{"items":{}}}}`, "-max-nesting", "2", "10", nil},
		{"L502", `{"items":{"items":{}}}`, "-max-nested-bytes", "10", "1000", nil},
		{"L503", `{"minimum":1e20}`, "-max-number-digits", "5", "50", nil},
		{"L504", `{"properties":{"a":{},"b":{}}}`, "-max-subschemas", "2", "10", nil},
		{"L505", `{"enum":[1,2,3,4]}`, "-max-values", "3", "10", nil},
		{"C403", `{"properties":{"a":{"type":"string"}}}`, "-max-rules", "1", "100", nil},
		{"L506", `{"pattern":"abcdef"}`, "-max-pattern-bytes", "5", "10", nil},
		{"L506", `{"pattern":"((a))"}`, "-max-pattern-nesting", "1", "10", nil},
		{"L506", `{"pattern":"a{50}"}`, "-max-pattern-repeat", "10", "100", nil},
		{"L506", `{"pattern":"(a|b)*a(a|b){4}"}`, "-max-pattern-states", "8", "100", nil},
		{"L506", `{"pattern":"\\d","maxLength":20}`, "-max-length-states", "10", "100", nil},
		{"L506", `{"patternProperties":{"a":{},"b":{}}}`, "-max-name-regions", "2", "10", nil},
		{"C402", `{"anyOf":[{"type":"string"},{"type":"integer"}],"minLength":1}`, "-max-alternatives", "1", "10", nil},
		{"C402", `{"properties":{"a":{"type":"string"}},"anyOf":[{"properties":{"a":{"minLength":1}}},{"properties":{"a":{"maxLength":3}}}]}`, "-max-meets", "1", "10", nil},
		{"R602", `{"type":"string","maxLength":50}`, "-max-regex-bytes", "10", "100000", []string{"-format", "regex"}},
		{"R603", `{"type":"array","items":{"type":"array","items":{"type":"null"}}}`, "-max-regex-nesting", "2", "250", []string{"-format", "regex"}},
	} {
		t.Run(tc.flag, func(t *testing.T) {
			code, _, errOut := cli(t, tc.schema, append([]string{tc.flag, tc.low}, tc.extra...)...)
			assert.Equal(t, exitRefused, code, errOut)
			assert.Contains(t, errOut, "["+tc.code+"]")
			assert.Contains(t, errOut, "("+tc.flag+", ", "the message names the flag")
			code, _, errOut = cli(t, tc.schema, append([]string{tc.flag, tc.high}, tc.extra...)...)
			assert.Equal(t, exitOK, code, "raising %s: %s", tc.flag, errOut)
		})
	}
	// L501 gives the file's size, not what was read of it.
	big := writeTemp(t, "big.json", `{"description":"`+strings.Repeat("x", 10000)+`"}`)
	code, _, errOut := cli(t, "", big, "-max-input-bytes", "100")
	assert.Equal(t, exitRefused, code)
	assert.Contains(t, errOut, "the input is 10018 bytes, longer than the limit of 100 bytes (-max-input-bytes, ")
	assert.NotContains(t, errOut, "101 bytes")
	code, _, errOut = cli(t, `{"description":"`+strings.Repeat("x", 10000)+`"}`, "-max-input-bytes", "100")
	assert.Equal(t, exitRefused, code)
	assert.Contains(t, errOut, "the input is longer than the limit of 100 bytes (-max-input-bytes, ")
	code, _, errOut = cli(t, "", big, "-max-input-bytes", "20000")
	assert.Equal(t, exitOK, code, errOut)
}

// TestFormatWarningSaysWhatCanBeAsserted: W302 offers -assert-format only
// for a format it enforces, and names the ones it does for any other.
func TestFormatWarningSaysWhatCanBeAsserted(t *testing.T) {
	_, _, errOut := cli(t, `{"type":"string","format":"email"}`)
	assert.Contains(t, errOut, "[W302]")
	assert.Contains(t, errOut, "-assert-format enforces only date, time, date-time, uuid, ipv4, ipv6 and duration, and refuses \"email\"")
	_, _, errOut = cli(t, `{"type":"string","format":"date"}`)
	assert.Contains(t, errOut, "-assert-format (AssertFormat) enforces it exactly")
	code, _, _ := cli(t, `{"type":"string","format":"date"}`, "-assert-format")
	assert.Equal(t, exitOK, code)
}

// TestJSONErrors: with -error-format json, I/O and usage errors are JSON
// too; problems of the regex stage carry the file; > is not escaped.
func TestJSONErrors(t *testing.T) {
	code, _, errOut := cli(t, "", "/nonexistent/schema.json", "-error-format", "json")
	assert.Equal(t, exitUsage, code)
	var e struct{ Error, File string }
	require.NoError(t, json.Unmarshal([]byte(errOut), &e), errOut)
	assert.Contains(t, e.Error, "no such file")
	assert.Equal(t, "/nonexistent/schema.json", e.File)

	schema := writeTemp(t, "open.json", `{"type":"object"}`)
	code, _, errOut = cli(t, "", schema, "-format", "regex", "-error-format", "json")
	assert.Equal(t, exitRefused, code)
	var p struct{ Problems []jsonProblem }
	require.NoError(t, json.Unmarshal([]byte(errOut), &p), errOut)
	require.Len(t, p.Problems, 1)
	assert.Equal(t, "R601", p.Problems[0].Code)
	assert.Equal(t, schema, p.Problems[0].File)

	code, out, _ := cli(t, `{"const":"a>b<c&d"}`, "-format", "llama-server")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, `a>b<c&d`)
	assert.NotContains(t, out, `\u003e`)
	code, out, _ = cli(t, `"x>"`, "verdict", writeTemp(t, "s.json", `{"const":"a>b"}`), "-json")
	assert.Equal(t, 5, code)
	assert.NotContains(t, out, `\u003e`)
}

// TestGrammarErrorsNameTheFile: a grammar problem reads "file: message" or
// "file:line:col: message", never "file:gbnf..." run together.
func TestGrammarErrorsNameTheFile(t *testing.T) {
	huge := writeTemp(t, "huge.gbnf", "root ::= \"a\"\n"+strings.Repeat("# comment\n", 120000))
	code, _, errOut := cli(t, "a", "match", huge, "-")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "huge.gbnf: grammar text is")
	bad := writeTemp(t, "bad.gbnf", "root ::= \"a\" (\n")
	_, _, errOut = cli(t, "a", "match", bad, "-")
	assert.Regexp(t, `bad\.gbnf:\d+:\d+: `, errOut)
}

// TestMessagesSayWhatToDo: no words a user does not know; R601 on an open
// object says that additionalProperties is absent and offers -max-depth;
// W301 on $defs in draft-07 does not say to remove what a $ref uses.
func TestMessagesSayWhatToDo(t *testing.T) {
	_, _, errOut := cli(t, `{"type":"object","properties":{"a":{"type":"string"}}}`, "-format", "regex")
	assert.Contains(t, errOut, "[R601]")
	assert.Contains(t, errOut, `without "additionalProperties"`)
	assert.Contains(t, errOut, "-max-depth")
	assert.NotContains(t, errOut, "value ->")
	assert.NotContains(t, errOut, "recursive")

	_, _, errOut = cli(t, `{"$defs":{"n":{"type":"object","properties":{"c":{"$ref":"#/$defs/n"}},"additionalProperties":false}},"$ref":"#/$defs/n"}`, "-format", "regex")
	assert.Contains(t, errOut, "refers back to itself through $ref")

	_, _, errOut = cli(t, `{"$schema":"http://json-schema.org/draft-07/schema#","$defs":{"x":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/x"}}}`)
	assert.Contains(t, errOut, "[W301]")
	assert.Contains(t, errOut, "rename it definitions")
	assert.NotContains(t, errOut, "remove it")

	_, _, errOut = cli(t, `{"dependencies":{"a":["b"]}}`)
	assert.NotContains(t, errOut, "oracle")
}

// TestBatch: several schemas, or a directory, in one process: one output
// per schema under -o DIR, a summary by code, exit 1 when any is refused;
// -quiet hides warnings; a progress line only on a terminal.
func TestBatch(t *testing.T) {
	in := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(in, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	write("a.json", `{"type":"string","format":"email"}`)
	write("sub/b.yaml", "type: object\nproperties:\n  n: {type: integer}\nadditionalProperties: false\n")
	write("c.json", `{"type":"object","unevaluatedProperties":false}`)
	write("d.json", `{"type":`)
	write("notes.txt", "not a schema")
	out := filepath.Join(t.TempDir(), "grammars")

	code, stdout, errOut := cli(t, "", in, "-o", out)
	assert.Equal(t, exitRefused, code, errOut)
	assert.Empty(t, stdout)
	assert.Contains(t, errOut, "4 schemas: 2 compiled, 2 refused (J101 1, S201 1)")
	assert.Contains(t, errOut, "[W302]")
	assert.NotContains(t, errOut, "\r", "no progress line in a pipe")
	g, err := os.ReadFile(filepath.Join(out, "sub", "b.gbnf"))
	require.NoError(t, err)
	assert.True(t, accepts(t, string(g), `{"n":1}`))
	assert.FileExists(t, filepath.Join(out, "a.gbnf"))
	assert.NoFileExists(t, filepath.Join(out, "c.gbnf"))

	_, _, errOut = cli(t, "", in, "-o", out, "-quiet")
	assert.NotContains(t, errOut, "W302")
	assert.Contains(t, errOut, "[S201]")

	code, _, errOut = cli(t, "", filepath.Join(in, "a.json"), filepath.Join(in, "sub"), "-o", out, "-format", "regex")
	assert.Equal(t, exitOK, code, errOut)
	assert.FileExists(t, filepath.Join(out, "b.regex"))

	code, _, errOut = cli(t, "", "check", in, "-error-format", "json")
	assert.Equal(t, exitRefused, code)
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	require.Len(t, lines, 5, errOut)
	var sum struct {
		Summary struct {
			Schemas, OK, Refused int
			RefusedBy            map[string]int `json:"refused_by"`
		}
	}
	require.NoError(t, json.Unmarshal([]byte(lines[4]), &sum))
	assert.Equal(t, 4, sum.Summary.Schemas)
	assert.Equal(t, 2, sum.Summary.OK)
	assert.Equal(t, map[string]int{"J101": 1, "S201": 1}, sum.Summary.RefusedBy)

	code, _, errOut = cli(t, "", in, filepath.Join(in, "a.json"))
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "-o DIR")

	saved := isTerminal
	defer func() { isTerminal = saved }()
	isTerminal = func(any) bool { return true }
	_, _, errOut = cli(t, "", in, "-o", out)
	assert.Contains(t, errOut, "\r\x1b[K[4/4] ")
}

// TestYAMLSchemas: a .yaml schema compiles to the grammar of the same schema
// in JSON; its problems point into the YAML; what JSON cannot say is refused.
func TestYAMLSchemas(t *testing.T) {
	yml := writeTemp(t, "s.yaml", "# a comment\ntype: object\nproperties:\n  name: {type: string, maxLength: 3}\n  when:\n    const: 2024-01-01\nrequired: [name]\nadditionalProperties: false\n")
	code, fromYAML, errOut := cli(t, "", yml, "-whitespace", "compact")
	require.Equal(t, exitOK, code, errOut)
	code, fromJSON, _ := cli(t, `{"type":"object","properties":{"name":{"type":"string","maxLength":3},"when":{"const":"2024-01-01"}},"required":["name"],"additionalProperties":false}`, "-whitespace", "compact")
	require.Equal(t, exitOK, code)
	body := func(g string) string { _, rest, _ := strings.Cut(g, "\n"); return rest }
	assert.Equal(t, body(fromJSON), body(fromYAML))
	assert.True(t, accepts(t, fromYAML, `{"name":"abc","when":"2024-01-01"}`))

	bad := writeTemp(t, "bad.yml", "type: object\nunevaluatedProperties: false\n")
	_, _, errOut = cli(t, "", bad)
	assert.Contains(t, errOut, "bad.yml:2:1: /unevaluatedProperties:")

	for _, tc := range []struct{ yaml, code, where string }{
		{"a: 1\na: 2\n", "J102", ":2:1:"},
		{"x: &a {type: string}\ny: *a\n", "J107", ":1:4:"},
		{"type: !!str string\n", "J107", ":1:7:"},
		{"properties:\n  1: {}\n", "J107", ":2:3:"},
		{"minimum: 0x10\n", "J107", ":1:10:"},
		{"minimum: .inf\n", "J107", ":1:10:"},
		{"type: string\n---\ntype: integer\n", "J107", ":2:1:"},
		{"type: [string\n", "J101", ""},
	} {
		p := writeTemp(t, "s.yaml", tc.yaml)
		code, _, errOut := cli(t, "", p)
		assert.Equal(t, exitRefused, code, tc.yaml)
		assert.Contains(t, errOut, "["+tc.code+"]", tc.yaml)
		assert.Contains(t, errOut, tc.where, tc.yaml)
	}
	code, _, errOut = cli(t, "type: boolean\n", "-yaml")
	assert.Equal(t, exitOK, code, errOut)
}

// TestClosedObjects: -objects closed refuses members properties does not
// list, says so in the provenance line, and verdict says why such a value
// was not accepted.
func TestClosedObjects(t *testing.T) {
	schema := `{"type":"object","properties":{"a":{"type":"integer"}}}`
	code, open, _ := cli(t, schema, "-whitespace", "compact")
	require.Equal(t, exitOK, code)
	code, closed, errOut := cli(t, schema, "-whitespace", "compact", "-objects", "closed")
	require.Equal(t, exitOK, code, errOut)
	assert.Contains(t, closed, " objects=closed schema=")
	assert.NotContains(t, open, "objects=")
	assert.True(t, accepts(t, open, `{"a":1,"b":2}`))
	assert.False(t, accepts(t, closed, `{"a":1,"b":2}`))
	assert.True(t, accepts(t, closed, `{"a":1}`))

	s := writeTemp(t, "s.json", schema)
	code, out, _ := cli(t, `{"a":1,"b":2}`, "verdict", "-objects", "closed", s)
	assert.NotEqual(t, exitOK, code)
	assert.Contains(t, out, "-objects closed")
	code, _, _ = cli(t, `{"a":1,"b":2}`, "verdict", s)
	assert.Equal(t, exitOK, code)

	g := writeTemp(t, "s.gbnf", closed)
	_, _, errOut = cli(t, `{"a":1}`, "verdict", "-grammar", g, s)
	assert.Contains(t, errOut, "objects closed, not open")
	_, _, errOut = cli(t, `{"a":1}`, "verdict", "-grammar", g, "-objects", "closed", s)
	assert.NotContains(t, errOut, "objects")

	code, _, errOut = cli(t, schema, "-objects", "shut")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, errOut, "want open or closed")
}

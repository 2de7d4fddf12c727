package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// cli runs the command with args and stdin, and returns its exit code,
// stdout and stderr.
func cli(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	return p
}

// accepts compiles grammar text with our parser and matcher.
func accepts(t *testing.T, grammar, text string) bool {
	t.Helper()
	g, err := gbnf.Parse(grammar)
	require.NoError(t, err, grammar)
	m, err := gbnf.NewMatcher(g)
	require.NoError(t, err)
	return m.Match(text).Accepted
}

func TestExitCodes(t *testing.T) {
	refused := `{"type":"object","unevaluatedProperties":false}`
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		inErr string
	}{
		{"version", "", []string{"--version"}, exitOK, ""},
		{"example", "", []string{"-example"}, exitOK, ""},
		{"stdin", `{"type":"boolean"}`, nil, exitOK, ""},
		{"stdin dash", `{"type":"boolean"}`, []string{"-"}, exitOK, ""},
		{"refused", refused, nil, exitRefused, "[S201]"},
		{"refused json", refused, []string{"-error-format", "json"}, exitRefused, `"code": "S201"`},
		{"not json", `{"type":`, nil, exitRefused, "[J101]"},
		{"check ok", `{"type":"boolean"}`, []string{"check"}, exitOK, ""},
		{"check refused", refused, []string{"check", "-"}, exitRefused, "unevaluatedProperties"},
		{"lenient", refused, []string{"-profile", "lenient"}, exitOK, "[W305]"},
		{"check lenient", refused, []string{"check", "-profile", "lenient", "-"}, exitOK, "[W305]"},
		{"lenient keeps schema errors", `{"type":"strin","pattern":"a"}`, []string{"-profile", "lenient"}, exitRefused, "[S203]"},
		{"unknown flag", "", []string{"-nope"}, exitUsage, "flag provided but not defined"},
		{"bad profile", "", []string{"-profile", "loose"}, exitUsage, "unknown -profile"},
		{"bad whitespace", "", []string{"-whitespace", "wide"}, exitUsage, "unknown -whitespace"},
		{"bad format", "", []string{"-format", "yaml"}, exitUsage, "unknown -format"},
		{"two schemas", "", []string{"a.json", "b.json"}, exitUsage, "name a directory for their grammars with -o DIR"},
		{"missing file", "", []string{"/nonexistent/schema.json"}, exitUsage, "no such file"},
		{"match usage", "", []string{"match"}, exitUsage, "usage"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := cli(t, tt.stdin, tt.args...)
			assert.Equal(t, tt.code, code, "stderr: %s", stderr)
			assert.Contains(t, stderr, tt.inErr)
		})
	}
}

// TestLenientCLI: -profile lenient writes a grammar with its provenance
// line, the relaxations as warnings, and check says how many.
func TestLenientCLI(t *testing.T) {
	schema := `{"type":"object","properties":{"a":{"type":"string","pattern":"^(?=x)"}},"required":["a"]}`
	code, out, stderr := cli(t, schema, "-profile", "lenient", "-whitespace", "compact")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, out, "profile=lenient relaxed=1 ")
	assert.Contains(t, stderr, "/properties/a/pattern: pattern is not enforced")
	assert.True(t, accepts(t, out, `{"a":"y"}`))
	code, out, _ = cli(t, schema, "check", "-profile", "lenient", "-")
	assert.Equal(t, exitOK, code)
	assert.Contains(t, out, "ok (profile lenient, 1 relaxed)")
}

func TestExampleGrammarAcceptsAReply(t *testing.T) {
	code, out, stderr := cli(t, "", "-example", "-whitespace", "compact")
	require.Equal(t, exitOK, code, stderr)
	assert.True(t, accepts(t, out, `{"category":"bug","priority":2,"summary":"Crash on save","requires_human":false}`))
	assert.False(t, accepts(t, out, `{"category":"bug","priority":9,"summary":"Crash on save","requires_human":false}`))
}

func TestLlamaServerFormat(t *testing.T) {
	code, out, stderr := cli(t, `{"type":"boolean"}`, "-format", "llama-server")
	require.Equal(t, exitOK, code, stderr)
	var body map[string]string
	require.NoError(t, json.Unmarshal([]byte(out), &body))
	assert.True(t, accepts(t, body["grammar"], "true"))
}

func TestOutputIsAtomic(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "g.gbnf")

	code, _, stderr := cli(t, `{"type":"boolean"}`, "-o", out)
	require.Equal(t, exitOK, code, stderr)
	good, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.True(t, accepts(t, string(good), "false"))

	// A refused schema leaves the earlier grammar as it was, and no temp file.
	code, _, _ = cli(t, `{"type":"object","unevaluatedProperties":false}`, "-o", out)
	require.Equal(t, exitRefused, code)
	after, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, good, after)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1)

	// Flags may follow the schema argument.
	schema := writeTemp(t, "s.json", `{"type":"null"}`)
	out2 := filepath.Join(dir, "n.gbnf")
	code, _, stderr = cli(t, "", schema, "-o", out2)
	require.Equal(t, exitOK, code, stderr)
	g, err := os.ReadFile(out2)
	require.NoError(t, err)
	assert.True(t, accepts(t, string(g), "null"))
}

// TestOutputNotARegularFile: -o through a symbolic link replaces the file
// it names and keeps the link, also a link to a file not made yet; a file
// replaced keeps its permissions. (run_unix_test.go: a named pipe.)
func TestOutputNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target.gbnf")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o600))
	require.NoError(t, os.Chmod(target, 0o600))
	link := filepath.Join(dir, "link.gbnf")
	require.NoError(t, os.Symlink(target, link))
	code, _, stderr := cli(t, `{"type":"boolean"}`, "-o", link)
	require.Equal(t, exitOK, code, stderr)
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.True(t, fi.Mode()&os.ModeSymlink != 0, "the link was replaced")
	g, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.True(t, accepts(t, string(g), "true"))
	fi, err = os.Stat(target)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "the file's permissions changed")

	dangling := filepath.Join(dir, "dangling.gbnf")
	require.NoError(t, os.Symlink("new.gbnf", dangling))
	code, _, stderr = cli(t, `{"type":"null"}`, "-o", dangling)
	require.Equal(t, exitOK, code, stderr)
	fi, err = os.Lstat(dangling)
	require.NoError(t, err)
	assert.True(t, fi.Mode()&os.ModeSymlink != 0, "the dangling link was replaced by %v", fi.Mode())
	g, err = os.ReadFile(filepath.Join(dir, "new.gbnf"))
	require.NoError(t, err)
	assert.True(t, accepts(t, string(g), "null"))
}

func TestMatchVerb(t *testing.T) {
	grammar := writeTemp(t, "g.gbnf", "root ::= \"{\" [a-z]+ \"}\"\n")
	text := writeTemp(t, "t.txt", "{abc}")
	tests := []struct {
		name  string
		args  []string
		stdin string
		code  int
		inOut string
	}{
		{"file accepted", []string{grammar, text}, "", exitOK, "accepted"},
		{"stdin accepted", []string{grammar, "-"}, "{x}", exitOK, "accepted"},
		{"default stdin", []string{grammar}, "{x}", exitOK, "accepted"},
		{"rejected", []string{grammar, "-"}, "{x1}", exitRefused, "1:3"},
		{"incomplete", []string{grammar, "-"}, "{x", exitRefused, "ends before"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr := cli(t, tt.stdin, append([]string{"match"}, tt.args...)...)
			assert.Equal(t, tt.code, code, "stderr: %s", stderr)
			assert.Contains(t, stdout, tt.inOut)
		})
	}
	bad := writeTemp(t, "bad.gbnf", "root ::= \"\\d\"\n")
	code, _, stderr := cli(t, "", "match", bad, text)
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "bad.gbnf:")
}

func TestRegexFormat(t *testing.T) {
	schema := `{"type":"object","properties":{"n":{"type":"integer","minimum":-5,"maximum":300}},"required":["n"],"additionalProperties":false}`
	code, out, stderr := cli(t, schema, "-format", "regex", "-whitespace", "compact")
	require.Equal(t, exitOK, code, stderr)
	re := regexp.MustCompile(`^(?:` + out + `)$`)
	for text, want := range map[string]bool{`{"n":300}`: true, `{"n":-5}`: true, `{"n":301}`: false, `{"n":-6}`: false, `{"n":7}` + "\n": false} {
		assert.Equal(t, want, re.MatchString(text), text)
	}

	code, _, stderr = cli(t, `{"type":"object"}`, "-format", "regex")
	assert.Equal(t, exitRefused, code)
	assert.Contains(t, stderr, "[R601]")
	code, _, stderr = cli(t, `{"type":"object"}`, "-format", "regex", "-max-depth", "2")
	assert.Equal(t, exitOK, code, stderr)
	code, _, stderr = cli(t, `{}`, "-max-depth", "2")
	assert.Equal(t, exitUsage, code)
	assert.Contains(t, stderr, "only with -format regex")
}

// TestAssertFormatFlag: -assert-format turns format from a warning into part
// of the grammar, or into a refusal for a format it cannot enforce; the
// provenance line says which mode made the grammar.
func TestAssertFormatFlag(t *testing.T) {
	date := `{"type":"string","format":"date"}`
	code, grammar, stderr := cli(t, date, "-assert-format", "-whitespace", "compact")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, grammar, "format=asserted")
	assert.NotContains(t, stderr, "W302")
	assert.True(t, accepts(t, grammar, `"2024-02-29"`))
	assert.False(t, accepts(t, grammar, `"2023-02-29"`))

	code, grammar, stderr = cli(t, date, "-whitespace", "compact")
	require.Equal(t, exitOK, code, stderr)
	assert.Contains(t, grammar, "format=annotation")
	assert.Contains(t, stderr, "[W302]")
	assert.True(t, accepts(t, grammar, `"2023-02-29"`), "without -assert-format, format is an annotation")

	code, _, stderr = cli(t, `{"type":"string","format":"email"}`, "check", "-assert-format")
	assert.Equal(t, exitRefused, code)
	assert.Contains(t, stderr, "/format")
	assert.Contains(t, stderr, "[S210]")

	schema := writeTemp(t, "date.json", date)
	code, out, _ := cli(t, `"2023-02-29"`, "verdict", "-assert-format", schema, "-")
	assert.Equal(t, 5, code, "OFF_GRAMMAR")
	assert.Contains(t, out, "keyword: format")
	code, _, _ = cli(t, `"2023-02-29"`, "verdict", schema, "-")
	assert.Equal(t, exitOK, code, "COMPLETE_VALID when format is an annotation")
}

// TestRefsFlags: -refs DIR reads the documents $refs name from DIR only,
// the schema standing at its path inside it; -ref URI=PATH maps one URI,
// or a prefix to a folder.
func TestRefsFlags(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "defs"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "defs", "id.json"), []byte(`{"type":"string","maxLength":3}`), 0o644))
	main := filepath.Join(dir, "main.json")
	require.NoError(t, os.WriteFile(main, []byte(`{"type":"object","properties":{"id":{"$ref":"defs/id.json"}},"required":["id"]}`), 0o644))
	code, _, stderr := cli(t, "", main)
	assert.Equal(t, exitRefused, code)
	assert.Contains(t, stderr, "[S206]")
	code, out, stderr := cli(t, "", "-refs", dir, "-whitespace", "compact", main)
	require.Equal(t, exitOK, code, stderr)
	assert.True(t, accepts(t, out, `{"id":"abc"}`))
	assert.False(t, accepts(t, out, `{"id":"abcd"}`))

	escape := filepath.Join(dir, "escape.json")
	require.NoError(t, os.WriteFile(escape, []byte(`{"$ref":"file:///%2e%2e/x.json"}`), 0o644))
	code, _, stderr = cli(t, "", "-refs", dir, escape)
	assert.Equal(t, exitRefused, code)
	assert.Contains(t, stderr, "[S212]")

	remote := writeTemp(t, "remote.json", `{"$ref":"http://example.test/schemas/id.json"}`)
	code, _, stderr = cli(t, "", "-ref", "http://example.test/schemas/="+filepath.Join(dir, "defs"), remote)
	assert.Equal(t, exitOK, code, stderr)
	code, _, stderr = cli(t, "", "-ref", "http://example.test/schemas/id.json="+filepath.Join(dir, "defs", "id.json"), remote)
	assert.Equal(t, exitOK, code, stderr)
	code, _, stderr = cli(t, "", "-ref", "nope", remote)
	assert.Equal(t, exitUsage, code, stderr)
}

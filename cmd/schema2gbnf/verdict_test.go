package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schema2gbnf/schema2gbnf/verdict"
)

const personSchema = `{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer","minimum":0}},"required":["name"],"additionalProperties":false}`

func TestVerdictExitCodes(t *testing.T) {
	schema := writeTemp(t, "person.json", personSchema)
	refused := writeTemp(t, "refused.json", `{"type":"object","unevaluatedProperties":false}`)
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		inOut string
		inErr string
	}{
		{"valid", `{"name":"a","age":3}`, []string{"verdict", schema}, 0, "COMPLETE_VALID", ""},
		{"valid with echo's newline", "{\"name\":\"a\"}\n", []string{"verdict", schema}, 0, "COMPLETE_VALID", ""},
		{"newline kept by -exact", "{\"name\":\"a\"}\n", []string{"verdict", "-exact", schema}, 5, "OFF_GRAMMAR", ""},
		{"incomplete", `{"na`, []string{"verdict", schema, "-"}, 3, `forced: "me\""`, ""},
		{"empty", ``, []string{"verdict", schema}, 3, "INCOMPLETE <stdin>:1:1 (byte 0)", ""},
		{"parse error", `{"name":"a",}`, []string{"verdict", schema}, 4, "[J101]", ""},
		{"schema", `{"name":1}`, []string{"verdict", schema}, 5, `keyword "type" at #/properties/name/type, instance /name`, ""},
		{"spelling", `{"age":1,"name":"a"}`, []string{"verdict", schema}, 5, "[spelling]", ""},
		{"refused", `{}`, []string{"verdict", refused}, 1, "[S201]", ""},
		{"no schema", ``, []string{"verdict"}, 2, "", "usage:"},
		{"two stdins", ``, []string{"verdict", "-", "-"}, 2, "", "both be stdin"},
		{"missing text", ``, []string{"verdict", schema, "/nonexistent"}, 2, "", "nonexistent"},
		{"bad flag", ``, []string{"verdict", "-whitespace", "x", schema}, 2, "", "whitespace"},
		{"flag after", `{"name":"a"}`, []string{"verdict", schema, "-json"}, 0, `"class":"COMPLETE_VALID"`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := cli(t, tc.stdin, tc.args...)
			assert.Equal(t, tc.code, code, "stdout %s\nstderr %s", out, errOut)
			assert.Contains(t, out, tc.inOut)
			assert.Contains(t, errOut, tc.inErr)
		})
	}
}

func TestVerdictJSON(t *testing.T) {
	schema := writeTemp(t, "person.json", personSchema)
	for _, tc := range []struct {
		text string
		want map[string]any
	}{
		{`{"name":"a"}`, map[string]any{"class": "COMPLETE_VALID", "offset": 12.0}},
		{`{"name":"a","x":1}`, map[string]any{"class": "OFF_GRAMMAR", "reason": "schema", "keyword": "additionalProperties", "schema_pointer": "/additionalProperties", "instance_pointer": "/x", "offset": 13.0}},
		{`{"name":"a"`, map[string]any{"class": "INCOMPLETE", "offset": 11.0, "next": []any{`"\n"`, "space", ",", "}"}}},
		{`nope`, map[string]any{"class": "PARSE_ERROR", "offset": 0.0}},
	} {
		code, out, _ := cli(t, tc.text, "verdict", "--json", schema)
		var got map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &got), out)
		for k, v := range tc.want {
			assert.Equal(t, v, got[k], "%s: %s", tc.text, k)
		}
		assert.Equal(t, verdictExit[verdictClass(got["class"])], code, tc.text)
	}
}

func TestVerdictJSONL(t *testing.T) {
	schema := writeTemp(t, "person.json", personSchema)
	batch := strings.Join([]string{
		`"{\"name\":\"a\"}"`,
		`{"id":7,"text":"{\"na"}`,
		``,
		`{"id":"x","text":"[1]"}`,
		`"{\"name\":\"b\",\"age\":2}"`,
	}, "\n")
	code, out, errOut := cli(t, batch, "verdict", "--jsonl", schema)
	assert.Equal(t, 5, code, "highest status: OFF_GRAMMAR")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 4)
	var second map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[1]), &second))
	assert.Equal(t, 7.0, second["id"])
	assert.Equal(t, 2.0, second["input_line"])
	assert.Equal(t, "INCOMPLETE", second["class"])
	var summary struct {
		Total    int            `json:"total"`
		Counts   map[string]int `json:"counts"`
		BadLines int            `json:"bad_lines"`
	}
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(errOut)), &summary), errOut)
	assert.Equal(t, 4, summary.Total)
	assert.Equal(t, 2, summary.Counts["COMPLETE_VALID"])
	assert.Equal(t, 1, summary.Counts["INCOMPLETE"])
	assert.Equal(t, 1, summary.Counts["OFF_GRAMMAR"])
	assert.Equal(t, 0, summary.BadLines)

	for _, tc := range []struct {
		name, batch string
		code        int
	}{
		{"all valid", `"{\"name\":\"a\"}"` + "\n" + `{"text":"{\"name\":\"\"}"}`, 0},
		{"a bad line", `"{\"name\":\"a\"}"` + "\n" + `42`, 2},
		{"no text member", `{"id":1}`, 2},
		{"only incomplete", `""`, 3},
	} {
		code, out, errOut := cli(t, tc.batch, "verdict", "-jsonl", schema)
		assert.Equal(t, tc.code, code, "%s: %s %s", tc.name, out, errOut)
		assert.Contains(t, errOut, `"total":`, tc.name)
	}

	// a batch from a file, with a refused schema: one verdict, exit 1
	file := writeTemp(t, "batch.jsonl", batch)
	refused := writeTemp(t, "refused.json", `{"type":"object","unevaluatedProperties":false}`)
	code, out, _ = cli(t, "", "verdict", "-jsonl", refused, file)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, `"class":"REFUSED_SCHEMA"`)
	code, _, _ = cli(t, "", "verdict", "-jsonl", schema, file)
	assert.Equal(t, 5, code)
}

func TestVerdictGrammarProvenance(t *testing.T) {
	dir := t.TempDir()
	schema := writeTemp(t, "person.json", personSchema)
	grammar := filepath.Join(dir, "person.gbnf")
	code, _, _ := cli(t, "", schema, "-o", grammar)
	require.Equal(t, 0, code)
	src, err := os.ReadFile(grammar)
	require.NoError(t, err)
	bare := writeTemp(t, "bare.gbnf", string(src[strings.IndexByte(string(src), '\n')+1:]))
	other := writeTemp(t, "other.json", `{"type":"object"}`)
	capped := writeTemp(t, "capped.json", `{"type":"object","properties":{"name":{"type":"string","maxLength":1}}}`)

	for _, tc := range []struct {
		name    string
		args    []string
		stdin   string
		code    int
		warning string // "" means none
	}{
		{"same schema", []string{"verdict", "-grammar", grammar, schema}, `{"name":"a"}`, 0, ""},
		{"no provenance", []string{"verdict", "-grammar", bare, schema}, `{"name":"a"}`, 0, "no provenance comment"},
		{"other schema", []string{"verdict", "-grammar", grammar, other}, `{"name":"a"}`, 0, "another schema"},
		{"other whitespace", []string{"verdict", "-grammar", grammar, "-whitespace", "compact", schema}, `{"name":"a"}`, 0, "whitespace bounded, not compact"},
		{"other profile", []string{"verdict", "-grammar", grammar, "-profile", "portable", schema}, `{"name":"a"}`, 0, "profile exact, not portable"},
		{"mismatch", []string{"verdict", "-grammar", grammar, capped}, `{"name":"abc"}`, 6, "another schema"},
		{"missing grammar", []string{"verdict", "-grammar", filepath.Join(dir, "none"), schema}, `{}`, 2, ""},
		{"not a grammar", []string{"verdict", "-grammar", schema, schema}, `{}`, 2, ""},
	} {
		code, out, errOut := cli(t, tc.stdin, tc.args...)
		assert.Equal(t, tc.code, code, "%s: %s %s", tc.name, out, errOut)
		if tc.warning == "" {
			assert.NotContains(t, errOut, "warning", tc.name)
			continue
		}
		assert.Contains(t, errOut, "warning: ", tc.name)
		assert.Contains(t, errOut, tc.warning, tc.name)
		// and the same warning as a field of --json
		_, out, _ = cli(t, tc.stdin, append(tc.args, "--json")...)
		var got struct {
			Warnings []string `json:"warnings"`
		}
		require.NoError(t, json.Unmarshal([]byte(out), &got), out)
		require.NotEmpty(t, got.Warnings, tc.name)
		assert.Contains(t, strings.Join(got.Warnings, "\n"), tc.warning, tc.name)
	}
}

func verdictClass(v any) verdict.Class {
	s, _ := v.(string)
	return verdict.Class(s)
}

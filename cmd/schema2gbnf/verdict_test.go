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
		{"newline kept by -exact: a note", "{\"name\":\"a\"}\n", []string{"verdict", "-exact", schema}, 0, "note: not written the grammar's way", ""},
		{"incomplete", `{"na`, []string{"verdict", schema, "-"}, 3, `next_literal: "me\""`, ""},
		{"incomplete retry", `{"na`, []string{"verdict", schema, "-"}, 3, "retry: true", ""},
		{"empty", ``, []string{"verdict", schema}, 3, "INCOMPLETE <stdin>:1:1 (byte 0)", ""},
		{"parse error", `{"name":"a",}`, []string{"verdict", schema}, 4, "[J101]", ""},
		{"schema", `{"name":1}`, []string{"verdict", schema}, 5, "keyword: type\n  schema_pointer: #/properties/name/type\n  instance_pointer: /name", ""},
		{"spelling is not a failure", `{"age":1,"name":"a"}`, []string{"verdict", schema}, 0, "note: ", ""},
		{"provenance", `{"name":"a"}`, []string{"verdict", schema}, 0, "provenance: schema2gbnf ", ""},
		{"reply: valid", `{"content":"{\"name\":\"a\"}","stop_type":"eos"}`, []string{"verdict", "-reply", schema}, 0, "stop: eos", ""},
		{"reply: limit", `{"content":"{\"name\":\"a\"","stop_type":"limit"}`, []string{"verdict", "-reply", schema}, 3, "gate: terminal", ""},
		{"reply: cut, eos", `{"content":"{\"name\":\"a\"","stop_type":"eos"}`, []string{"verdict", "-reply", schema}, 4, "gate: parse", ""},
		{"reply: error", `{"error":{"code":400,"message":"bad grammar","type":"invalid_request_error"}}`, []string{"verdict", "-reply", schema}, 8, "error: 400 invalid_request_error: bad grammar", ""},
		{"reply: empty", ``, []string{"verdict", "-reply", schema}, 8, "retry: true", ""},
		{"reply: refusal", `{"choices":[{"message":{"content":null,"refusal":"no"},"finish_reason":"stop"}]}`, []string{"verdict", "-reply", schema}, 9, "REFUSAL", ""},
		{"reply: chat", `{"choices":[{"message":{"content":"{\"name\":1}"},"finish_reason":"stop"}]}`, []string{"verdict", "-reply", schema}, 5, "OFF_GRAMMAR", ""},
		{"reply: a null text is no output", `null`, []string{"verdict", "-reply", schema}, 8, "PROVIDER_ERROR", ""},
		{"-exact with -reply", `{}`, []string{"verdict", "-reply", "-exact", schema}, 2, "", "-exact is for a bare TEXT"},
		{"text too large", `{"name":"abcdef"}`, []string{"verdict", "-max-text-bytes", "8", schema}, 7, "raise it with -max-text-bytes", ""},
		{"grammar too large", `{"name":"a"}`, []string{"verdict", "-max-states", "3", schema}, 7, "raise it with -max-states", ""},
		{"text too deep", `[[[[1]]]]`, []string{"verdict", "-max-nesting", "3", writeTemp(t, "any.json", `{}`)}, 7, "raise it with -max-nesting", ""},
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
		args []string
		text string
		want map[string]any
	}{
		{nil, `{"name":"a"}`, map[string]any{"class": "COMPLETE_VALID", "gate": "schema", "retry": false, "offset": 12.0}},
		{nil, `{"name":"a","x":1}`, map[string]any{"class": "OFF_GRAMMAR", "reason": "schema", "keyword": "additionalProperties", "schema_pointer": "/additionalProperties", "instance_pointer": "/x", "offset": 13.0}},
		{nil, `{"name":"a"`, map[string]any{"class": "INCOMPLETE", "gate": "terminal", "retry": true, "offset": 11.0, "next": []any{`"\n"`, "space", ",", "}"}}},
		{nil, `nope`, map[string]any{"class": "PARSE_ERROR", "gate": "parse", "offset": 0.0}},
		{[]string{"-reply"}, `{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`, map[string]any{"class": "PROVIDER_ERROR", "gate": "terminal", "retry": true, "offset": -1.0,
			"error": map[string]any{"status": 503.0, "type": "unavailable_error", "message": "Loading model"}}},
		{[]string{"-max-states", "3"}, `{}`, map[string]any{"class": "LIMIT_EXCEEDED", "gate": "compile", "limit": "Matcher.MaxStates", "offset": -1.0}},
	} {
		code, out, _ := cli(t, tc.text, append(append([]string{"verdict", "--json"}, tc.args...), schema)...)
		var got map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &got), out)
		for k, v := range tc.want {
			assert.Equal(t, v, got[k], "%s: %s", tc.text, k)
		}
		assert.Equal(t, verdictExit[verdictClass(got["class"])], code, tc.text)
		if got["class"] != "LIMIT_EXCEEDED" {
			prov, _ := got["provenance"].(map[string]any)
			assert.Contains(t, prov["schema"], "sha256:", tc.text)
		}
	}
}

// TestVerdictSameWords: the text output names each field with its JSON key.
func TestVerdictSameWords(t *testing.T) {
	schema := writeTemp(t, "person.json", personSchema)
	for _, text := range []string{`{"na`, `{"name":1}`, `{"age":1,"name":"a"}`, `{"name":"a",}`} {
		_, asText, _ := cli(t, text, "verdict", schema)
		_, asJSON, _ := cli(t, text, "verdict", "-json", schema)
		var got map[string]any
		require.NoError(t, json.Unmarshal([]byte(asJSON), &got))
		for key := range got {
			switch key {
			case "class", "message", "offset", "line", "col":
				continue // the headline
			case "problems":
				key = "problem"
			}
			assert.Contains(t, asText, "\n  "+key+": ", "%s: %s", text, asText)
		}
		assert.NotContains(t, asText, "forced")
	}
}

// TestVerdictExitTable: every class has its own exit status, and the
// usage lists each.
func TestVerdictExitTable(t *testing.T) {
	seen := map[int]verdict.Class{exitUsage: "usage"}
	for _, c := range verdict.Classes {
		code, ok := verdictExit[c]
		require.True(t, ok, "%s has no exit status", c)
		if other, dup := seen[code]; dup {
			t.Errorf("%s and %s share exit %d", c, other, code)
		}
		seen[code] = c
		if c != verdict.DomainInvalid {
			assert.Contains(t, verdictUsage, string(c))
		}
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

// TestVerdictLenient: under -profile lenient, or with a -grammar whose
// provenance says profile=lenient, a value the grammar accepts and the
// whole schema rejects for a relaxed constraint is SCHEMA_INVALID (exit 11).
func TestVerdictLenient(t *testing.T) {
	schema := writeTemp(t, "tags.json", `{"type":"array","items":{"type":"string","maxLength":3},"uniqueItems":true}`)
	code, out, stderr := cli(t, `["a","b"]`, "verdict", "-profile", "lenient", schema)
	assert.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "COMPLETE_VALID")
	code, out, _ = cli(t, `["a","a"]`, "verdict", "-profile", "lenient", schema)
	assert.Equal(t, 11, code)
	assert.Contains(t, out, "SCHEMA_INVALID")
	assert.Contains(t, out, "uniqueItems")
	code, out, _ = cli(t, `["abcd"]`, "verdict", "-profile", "lenient", schema)
	assert.Equal(t, 5, code, "maxLength is enforced by the grammar")
	assert.Contains(t, out, "OFF_GRAMMAR")

	code, grammar, stderr := cli(t, "", "-profile", "lenient", "-quiet", schema)
	require.Equal(t, 0, code, stderr)
	gpath := writeTemp(t, "tags.gbnf", grammar)
	code, out, stderr = cli(t, `["a","a"]`, "verdict", "-grammar", gpath, schema)
	assert.Equal(t, 11, code, "the provenance says lenient: %s %s", out, stderr)
	assert.NotContains(t, stderr, "warning", "the provenance matches")
}

// TestVerdictJSONLReplies: a batch of replies keeps the caller's ids (a
// llama-server reply has none), takes a chat completion's own, and judges
// a line that is not a reply as one that holds no output.
func TestVerdictJSONLReplies(t *testing.T) {
	schema := writeTemp(t, "person.json", personSchema)
	batch := strings.Join([]string{
		`{"id":"req-1","reply":{"content":"{\"name\":\"a\"}","stop_type":"eos"}}`,
		`{"id":2,"reply":{"content":"{\"name\":\"a","stop_type":"limit"}}`,
		`{"id":"chatcmpl-9","choices":[{"message":{"content":"{\"name\":\"b\"}"},"finish_reason":"stop"}]}`,
		`{"id":4,"reply":{"error":{"code":400,"message":"bad","type":"invalid_request_error"}}}`,
		`curl: (7) Failed to connect`,
		`{"id":6,"reply":"{\"content\":\"{\\\"name\\\":\\\"c\\\"}\",\"stop_type\":\"eos\"}"}`,
		`{"id":7,"reply":""}`,
	}, "\n")
	code, out, errOut := cli(t, batch, "verdict", "-reply", "-jsonl", schema)
	assert.Equal(t, 8, code, "highest status: PROVIDER_ERROR; %s", errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 7)
	for i, want := range []struct {
		id    any
		class string
	}{{"req-1", "COMPLETE_VALID"}, {2.0, "INCOMPLETE"}, {"chatcmpl-9", "COMPLETE_VALID"}, {4.0, "PROVIDER_ERROR"}, {nil, "PROVIDER_ERROR"}, {6.0, "COMPLETE_VALID"}, {7.0, "PROVIDER_ERROR"}} {
		var got map[string]any
		require.NoError(t, json.Unmarshal([]byte(lines[i]), &got))
		assert.Equal(t, want.id, got["id"], lines[i])
		assert.Equal(t, want.class, got["class"], lines[i])
	}
	assert.Contains(t, errOut, `"PROVIDER_ERROR":3`)
}

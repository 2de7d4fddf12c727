package compile

import (
	"strconv"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/internal/oracle"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// objectsOf lists the objects made of a subset of names (in order), each
// member's value the given text: every presence pattern of the members.
func objectsOf(names []string, value func(string) string) []string {
	var out []string
	for mask := 0; mask < 1<<len(names); mask++ {
		var b strings.Builder
		b.WriteByte('{')
		n := 0
		for i, name := range names {
			if mask&(1<<i) == 0 {
				continue
			}
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			b.WriteString(`"` + name + `":` + value(name))
		}
		b.WriteByte('}')
		out = append(out, b.String())
	}
	return out
}

// agree checks every text: the grammar accepts Canonical of each value the
// oracle accepts, and accepts no text the oracle rejects.
func agree(t *testing.T, schema string, texts []string) {
	t.Helper()
	c := checkSchema(t, schema)
	o := newOracle(t, schema)
	g, err := Compile(c, Options{})
	if err != nil {
		for _, text := range texts {
			if oracleAccepts(o, text) {
				t.Fatalf("%s: %v, but the oracle accepts %s", schema, err, text)
			}
		}
		return // admits nothing, and the compiler says so
	}
	_, m := mustGrammar(t, c, Options{})
	_, mc := mustGrammar(t, c, Options{Whitespace: Compact})
	for _, text := range texts {
		doc, err := subsetcheck.Read("value", []byte(text), subsetcheck.Limits{})
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		want := oracleAccepts(o, text)
		canon, cerr := Canonical(c, doc.Root)
		switch {
		case want && cerr != nil:
			t.Errorf("%s\n%s: valid, Canonical fails: %v", schema, text, cerr)
		case want && (!m.Accepts(canon) || !mc.Accepts(canon)):
			t.Errorf("%s\n%s: valid, grammar rejects its canonical text %s\n%s", schema, text, canon, g)
		case !want && cerr == nil:
			t.Errorf("%s\n%s: invalid, Canonical writes %s", schema, text, canon)
		}
		for _, s := range []string{text, canon} {
			if s != "" && (m.Accepts(s) || mc.Accepts(s)) && !oracleAccepts(o, s) {
				t.Errorf("%s\n%s: grammar accepts, the oracle rejects\n%s", schema, s, g)
			}
		}
	}
}

// TestMemberCounts: every presence pattern of three declared members and
// up to three extras, under every pair of bounds around them.
func TestMemberCounts(t *testing.T) {
	names := []string{"a", "b", "c", "x", "y", "z"}
	texts := objectsOf(names, func(n string) string {
		if n == "b" {
			return `"s"`
		}
		return "1"
	})
	texts = append(texts, `{"a":"no"}`, `{"x":"no","y":1}`, `[]`, `1`)
	bounds := []string{`"minProperties":0`, `"minProperties":1`, `"minProperties":2,"maxProperties":2`,
		`"minProperties":3`, `"maxProperties":0`, `"maxProperties":1`, `"minProperties":1,"maxProperties":4`,
		`"minProperties":5`, `"maxProperties":5`, `"minProperties":6`, `"minProperties":7`, `"minProperties":4,"maxProperties":3`}
	for _, shape := range []string{
		`"properties":{"a":{"type":"integer"},"b":{"type":"string"},"c":{}}`,
		`"properties":{"a":{"type":"integer"},"b":{"type":"string"},"c":{}},"additionalProperties":false`,
		`"properties":{"a":{"type":"integer"},"b":{"type":"string"},"c":{}},"required":["b"],"additionalProperties":{"type":"integer"}`,
		`"properties":{"a":{"type":"integer"}},"required":["a","y"]`,
		`"additionalProperties":{"type":"integer"}`,
	} {
		for _, b := range bounds {
			agree(t, `{"type":"object",`+shape+`,`+b+`}`, texts)
		}
	}
}

// TestDependencies: every presence pattern under dependentRequired,
// dependentSchemas and draft-07's dependencies, triggers and dependents
// before and after each other, declared and not.
func TestDependencies(t *testing.T) {
	names := []string{"a", "b", "c", "x", "z"}
	texts := objectsOf(names, func(n string) string {
		if n == "c" {
			return "20"
		}
		return "1"
	})
	texts = append(texts, objectsOf(names, func(string) string { return "5" })...)
	texts = append(texts, `[]`, `"a"`, `{"a":"s","b":1}`)
	for _, s := range []string{
		`"dependentRequired":{"a":["b"]}`,
		`"dependentRequired":{"b":["a"]}`,
		`"dependentRequired":{"c":["a","z"],"a":["c"]}`,
		`"dependentRequired":{"x":["a"],"z":["x"]}`,
		`"dependentRequired":{"a":[]}`,
		`"dependentSchemas":{"b":{"properties":{"c":{"maximum":10}}}}`,
		`"dependentSchemas":{"c":{"properties":{"a":false}}}`,
		`"dependentSchemas":{"a":{"required":["x"],"maxProperties":3}}`,
		`"dependentSchemas":{"z":{"additionalProperties":false,"properties":{"z":{},"a":{}}}}`,
		`"dependentSchemas":{"a":false}`,
		`"dependentSchemas":{"a":true}`,
		`"dependentSchemas":{"a":{"dependentRequired":{"b":["c"]}}}`,
		`"required":["a"],"dependentRequired":{"a":["c"]}`,
		`"minProperties":2,"dependentRequired":{"a":["b"]}`,
		`"dependentSchemas":{"a":{"anyOf":[{"required":["b"]},{"required":["c"]}]}}`,
		`"not":{"dependentRequired":{"a":["b"]}}`,
		`"not":{"dependentSchemas":{"b":{"required":["c"]}},"minProperties":2}`,
		`"not":{"maxProperties":1}`,
	} {
		agree(t, `{"type":"object","properties":{"a":{"type":"integer"},"b":{},"c":{"type":"integer"}},`+s+`}`, texts)
		agree(t, `{"properties":{"a":{"type":"integer"},"b":{},"c":{"type":"integer"}},"additionalProperties":{"type":"integer"},`+s+`}`, texts)
	}
	d7 := `{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{},"b":{}},"dependencies":{"a":["b"],"b":{"properties":{"c":{"minimum":10}}}}}`
	c := checkSchema(t, d7)
	o, err := oracle.New([]byte(d7), subsetcheck.Draft7)
	if err != nil {
		t.Fatal(err)
	}
	_, m := mustGrammar(t, c, Options{})
	for _, text := range texts {
		doc, _ := subsetcheck.Read("value", []byte(text), subsetcheck.Limits{})
		want := oracleAccepts(o, text)
		canon, err := Canonical(c, doc.Root)
		if want != (err == nil) || want && !m.Accepts(canon) || !want && m.Accepts(text) {
			t.Errorf("draft-07 %s: oracle %v, Canonical %q %v", text, want, canon, err)
		}
	}
}

// TestCountsHostile: big counts, cycles and fan-outs end in a small grammar
// or the named error, at once.
func TestCountsHostile(t *testing.T) {
	var fan []string
	for i := range 30 {
		fan = append(fan, `"t`+string(rune('a'+i%26))+strings.Repeat("x", i/26)+`":["q"]`)
	}
	var values []string
	for i := range 1000 {
		values = append(values, strconv.Itoa(i))
	}
	many := `"p0":{}`
	for i := 1; i < 200; i++ {
		many += `,"p` + strings.Repeat("i", i) + `":{}`
	}
	for _, tc := range []struct{ name, schema, code string }{
		{"maxProperties 10^9, open", `{"type":"object","properties":{"a":{}},"maxProperties":1000000000}`, ""},
		{"maxProperties 10^9, closed", `{"type":"object","properties":{"a":{}},"additionalProperties":false,"maxProperties":1000000000}`, ""},
		{"minProperties 10^9, open", `{"type":"object","minProperties":1000000000}`, ""},
		{"minProperties 10^9, closed", `{"type":"object","properties":{"a":{}},"additionalProperties":false,"minProperties":1000000000}`, "C401"},
		{"minProperties over 200 optional members", `{"type":"object","properties":{` + many + `},"minProperties":100}`, "C403"},
		{"dependentSchemas cycle", `{"$defs":{"b":{"dependentSchemas":{"b":{"$ref":"#"}}}},"dependentSchemas":{"a":{"$ref":"#/$defs/b"}}}`, "C402"},
		{"dependentSchemas on itself", `{"properties":{"a":{}},"dependentSchemas":{"a":{"$ref":"#"}}}`, "C402"},
		{"dependency fan-out", `{"type":"object","dependentRequired":{` + strings.Join(fan, ",") + `}}`, "C402"},
		{"uniqueItems on a big enum", `{"type":"array","items":{"enum":[` + strings.Join(values, ",") + `]},"uniqueItems":true}`, "C402"},
		{"uniqueItems on 1000 integers", `{"type":"array","items":{"type":"integer","minimum":0,"maximum":999},"uniqueItems":true}`, "C402"},
		{"contains over 10^9 items", `{"type":"array","maxItems":1000000000,"contains":{"type":"string"},"maxContains":2}`, "C403"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Compile(checkSchema(t, tc.schema), Options{})
			if tc.code != "" {
				if err == nil || !strings.Contains(err.Error(), tc.code) {
					t.Fatalf("got %v, want %s", err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if n := len(g.String()); n > 20000 {
				t.Errorf("grammar of %d bytes", n)
			}
			mustGrammar(t, checkSchema(t, tc.schema), Options{})
		})
	}
}

// TestCountsPastInt64: every count keyword takes any non-negative
// integer, as JSON Schema says; past 2^63-1 a count means what 2^63-1
// means (no text holds that many members or items), and the grammar
// agrees with the oracle, which judges such counts by the spec too
// (internal/oracle's TestCountQuirks lists where the validator alone does
// not). A contains count past what maxItems allows costs no state; one
// that does need states per count is a limit (C403), as 10^9 is.
func TestCountsPastInt64(t *testing.T) {
	for _, tc := range []struct {
		schema string
		texts  []string
	}{
		{`{"type":"object","maxProperties":18446744073709551616}`, []string{`{}`, `{"a":1}`, `{"a":1,"b":2}`}},
		{`{"type":"object","properties":{"a":{}},"maxProperties":9223372036854775808}`, []string{`{}`, `{"a":1}`, `{"a":1,"b":2}`}},
		{`{"type":"object","properties":{"a":{}},"additionalProperties":false,"maxProperties":1e30}`, []string{`{}`, `{"a":1}`, `{"b":2}`}},
		{`{"type":"object","minProperties":18446744073709551616}`, []string{`{}`, `{"a":1}`}},
		{`{"type":"object","properties":{"a":{}},"additionalProperties":false,"minProperties":9223372036854775808}`, []string{`{}`, `{"a":1}`}},
		{`{"type":"array","maxItems":3,"contains":{"type":"integer"},"maxContains":18446744073709551616}`, []string{`[]`, `[1]`, `[1,2,3]`, `[1,2,3,4]`}},
		{`{"type":"array","maxItems":3,"contains":{"type":"integer"},"minContains":18446744073709551616}`, []string{`[]`, `[1,2,3]`}},
		{`{"type":"array","maxItems":18446744073709551619}`, []string{`[]`, `[1,2,3,4]`}},
		{`{"type":"string","minLength":18446744073709551615}`, []string{`""`, `"a"`}},
	} {
		agree(t, tc.schema, tc.texts)
	}
	for _, schema := range []string{
		`{"type":"array","contains":{},"maxContains":18446744073709551616}`,
		`{"type":"array","contains":{"type":"integer"},"minContains":18446744073709551616}`,
	} {
		_, err := Compile(checkSchema(t, schema), Options{})
		if err == nil || !strings.Contains(err.Error(), "C403") {
			t.Errorf("%s: %v, want C403 (the states of a count)", schema, err)
		}
	}
}

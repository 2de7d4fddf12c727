package verdict

import (
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// lenientJudge compiles a schema under the lenient profile and builds its
// judge, with the relaxation codes it expects.
func lenientJudge(t *testing.T, schema string, opts schema2gbnf.Options, codes ...subsetcheck.Code) *Judge {
	t.Helper()
	opts.Profile = subsetcheck.Lenient
	opts.Whitespace = compile.Compact
	g, err := schema2gbnf.Compile([]byte(schema), opts)
	if err != nil {
		t.Fatalf("%s: %v", schema, err)
	}
	var got []subsetcheck.Code
	for _, p := range g.Relaxed {
		got = append(got, p.Code)
	}
	for _, c := range codes {
		found := false
		for _, g := range got {
			found = found || g == c
		}
		if !found {
			t.Fatalf("%s: relaxed %v, want %s among them", schema, got, c)
		}
	}
	j, err := New(g, Limits{})
	if err != nil {
		t.Fatalf("%s: %v", schema, err)
	}
	return j
}

// TestSchemaInvalidPerRelaxation: on a lenient grammar, a text the grammar
// accepts is validated against the whole schema; a value that breaks a
// relaxed constraint is SCHEMA_INVALID with the keyword and both pointers,
// one that breaks nothing is COMPLETE_VALID, for each kind of relaxation.
func TestSchemaInvalidPerRelaxation(t *testing.T) {
	cases := []struct {
		name, schema string
		code         subsetcheck.Code
		valid        string
		invalid      string
		keyword      string
		schemaPtr    string
		instPtr      string
	}{
		{"a refused keyword dropped (W305)", `{"type":"object","properties":{"a":{"type":"integer"}},"unevaluatedProperties":false}`, subsetcheck.CodeRelaxedKeyword,
			`{"a":1}`, `{"a":1,"b":2}`, "unevaluatedProperties", "/unevaluatedProperties", "/b"},
		{"a pattern with a lookahead dropped (W305, S211)", `{"type":"object","properties":{"id":{"type":"string","pattern":"^(?!tmp)[a-z]+$"}},"required":["id"]}`, subsetcheck.CodeRelaxedKeyword,
			`{"id":"abc"}`, `{"id":"tmpx"}`, "pattern", "/properties/id/pattern", "/id"},
		{"a patternProperties name with a lookbehind: the keyword dropped (W305, S211)", `{"type":"object","patternProperties":{"(?<=x)y":{"type":"integer"}}}`, subsetcheck.CodeRelaxedKeyword,
			`{"xy":1}`, `{"xy":"s"}`, "type", "/patternProperties/(?<=x)y/type", "/xy"},
		{"oneOf as anyOf (W306)", `{"type":"object","properties":{"n":{"oneOf":[{"type":"object","unevaluatedProperties":false},{"type":"object","required":["a"]}]}}}`, subsetcheck.CodeRelaxedOneOf,
			`{"n":{"a":1}}`, `{"n":{"b":1}}`, "oneOf", "/properties/n/oneOf", "/n"},
		{"a negation relaxed (W307)", `{"type":"array","items":{"type":"integer"},"not":{"unevaluatedItems":{"type":"integer"},"minItems":2}}`, subsetcheck.CodeRelaxedNegation,
			`[1]`, `[1,2]`, "not", "/not", ""},
		{"a compiler refusal dropped (W308)", `{"type":"array","items":{"type":"string"},"uniqueItems":true}`, subsetcheck.CodeRelaxedCompile,
			`["a","b"]`, `["a","a"]`, "uniqueItems", "/uniqueItems", ""},
	}
	for _, tt := range cases {
		j := lenientJudge(t, tt.schema, schema2gbnf.Options{}, tt.code)
		if v := j.Judge([]byte(tt.valid)); v.Class != CompleteValid {
			t.Errorf("%s: %s is %s (%s), want COMPLETE_VALID", tt.name, tt.valid, v.Class, v.Message)
		}
		v := j.Judge([]byte(tt.invalid))
		if v.Class != SchemaInvalid || v.Keyword != tt.keyword || v.SchemaPointer != tt.schemaPtr || v.InstancePointer != tt.instPtr {
			t.Errorf("%s: %s is %s %q %s %s (%s), want SCHEMA_INVALID %q %s %s", tt.name, tt.invalid, v.Class, v.Keyword, v.SchemaPointer, v.InstancePointer, v.Message,
				tt.keyword, tt.schemaPtr, tt.instPtr)
		}
		if v := j.Judge([]byte(`"not even the type"`)); v.Class != OffGrammar {
			t.Errorf("%s: a value the relaxed grammar refuses is %s, want OFF_GRAMMAR", tt.name, v.Class)
		}
		if v := j.Judge([]byte(" " + tt.invalid)); v.Class != SchemaInvalid {
			t.Errorf("%s: %q, not in the grammar's spelling, is %s (%s), want SCHEMA_INVALID", tt.name, " "+tt.invalid, v.Class, v.Message)
		}
	}
}

// TestLenientNeedsItsDocuments: a lenient grammar that does not follow a
// $ref to another document (W309) cannot be judged: the validator needs
// that document too, and fetches nothing.
func TestLenientNeedsItsDocuments(t *testing.T) {
	g, err := schema2gbnf.Compile([]byte(`{"properties":{"a":{"$ref":"http://example.test/a.json"}}}`), schema2gbnf.Options{Profile: subsetcheck.Lenient})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(g, Limits{}); err == nil || !strings.Contains(err.Error(), "not handed in") {
		t.Errorf("New: %v, want a refusal naming the missing document", err)
	}
	g, err = schema2gbnf.Compile([]byte(`{"properties":{"a":{"$ref":"http://example.test/a.json"}}}`), schema2gbnf.Options{Profile: subsetcheck.Lenient,
		Documents: map[string][]byte{"http://example.test/a.json": []byte(`{"type":"integer","multipleOf":7,"unevaluatedProperties":false}`)}})
	if err != nil {
		t.Fatal(err)
	}
	j, err := New(g, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if v := j.Judge([]byte(`{"a":14}`)); v.Class != CompleteValid {
		t.Errorf("%s: %s", v.Class, v.Message)
	}
	if v := j.Judge([]byte(`{"a":15}`)); v.Class != OffGrammar {
		t.Errorf("%s: %s (multipleOf from the handed-in document is enforced)", v.Class, v.Message)
	}
}

// TestExactGrammarsAreNotRevalidated: a grammar that enforces its whole
// schema is judged by the grammar alone, as before.
func TestExactGrammarsAreNotRevalidated(t *testing.T) {
	g, err := schema2gbnf.Compile([]byte(`{"type":"integer","maximum":3}`), schema2gbnf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	j, err := New(g, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if j.validator != nil {
		t.Errorf("an exact grammar gets a validator")
	}
}

// BenchmarkJudgeLenient: what the validator gate adds to a verdict on a
// lenient grammar's reply: the same judge and reply, with the gate
// (validation after decoding) and without it (the grammar and compile's
// validator of the relaxed schema alone).
func BenchmarkJudgeLenient(b *testing.B) {
	schema := `{"type":"object","properties":{"id":{"type":"string","maxLength":12},"name":{"type":"string"},` +
		`"tags":{"type":"array","items":{"type":"string","maxLength":8},"uniqueItems":true,"maxItems":10},` +
		`"size":{"type":"integer","minimum":0,"maximum":1000},"owner":{"type":"object","properties":{"login":{"type":"string"},"admin":{"type":"boolean"}},"required":["login"]}},` +
		`"required":["id","name"],"additionalProperties":false}`
	reply := []byte(`{"id":"a1b2","name":"a repository of some length","tags":["go","grammar","json","llm"],"size":512,"owner":{"login":"someone","admin":false}}`)
	g, err := schema2gbnf.Compile([]byte(schema), schema2gbnf.Options{Profile: subsetcheck.Lenient, Whitespace: compile.Compact})
	if err != nil {
		b.Fatal(err)
	}
	if len(g.Relaxed) == 0 {
		b.Fatal("nothing relaxed")
	}
	j, err := New(g, Limits{})
	if err != nil {
		b.Fatal(err)
	}
	without := *j
	without.validator = nil
	for _, c := range []struct {
		name string
		j    *Judge
	}{{"grammar", &without}, {"grammar+validator", j}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if v := c.j.Judge(reply); v.Class != CompleteValid {
					b.Fatal(v.Class, v.Message)
				}
			}
		})
	}
}

package compile

import (
	"errors"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// TestOneOfWitness: overlapping branches are refused (C404) with the
// shortest value both accept, located at the oneOf, naming the branches;
// the value is checked against both by the validator.
func TestOneOfWitness(t *testing.T) {
	for _, tc := range []struct{ schema, pointer, witness string }{
		{`{"oneOf":[{"type":"integer"},{"minimum":2}]}`, "", `2 matches /oneOf/0 and /oneOf/1`},
		{`{"type":"string","oneOf":[{"minLength":2},{"maxLength":4}]}`, "", `"aa" matches /oneOf/0 and /oneOf/1`},
		{`{"type":"object","oneOf":[{"required":["a"]},{"required":["b"]}]}`, "", `{"a":0,"b":0} matches`},
		{`{"properties":{"p":{"oneOf":[{"type":"object","properties":{"kind":{"const":"a"}}},{"type":"object","properties":{"kind":{"const":"b"}}}]}}}`, "/properties/p", `{} matches /properties/p/oneOf/0 and /properties/p/oneOf/1`},
		{`{"oneOf":[{"const":1},{"const":2},{"enum":[3,1.0]}]}`, "", `branches 0 and 2 overlap: 1 matches`},
		{`{"oneOf":[true,true]}`, "", `0 matches`},
	} {
		_, err := Compile(checkSchema(t, tc.schema), Options{})
		var l subsetcheck.ErrorList
		if !errors.As(err, &l) || len(l) != 1 || l[0].Code != subsetcheck.CodeOneOfOverlap || l[0].Pointer != tc.pointer ||
			!strings.Contains(l[0].Message, tc.witness) {
			t.Errorf("%s: got %v, want C404 at %q with %q", tc.schema, err, tc.pointer, tc.witness)
		}
	}
}

// TestOneOfDisjoint: branches whose meets admit nothing compile as anyOf,
// and Canonical writes a value under the one branch that accepts it.
func TestOneOfDisjoint(t *testing.T) {
	for _, tc := range []struct{ schema, value, canonical string }{
		{`{"oneOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]}`, `7`, `7`},
		{`{"oneOf":[{"maximum":0},{"exclusiveMinimum":0}],"type":"number"}`, `0`, `0`},
		{`{"oneOf":[{"properties":{"k":{"const":"a"},"x":{}},"required":["k"]},{"properties":{"k":{"const":"b"}},"required":["k"]}],"type":"object"}`, `{"x":1,"k":"a"}`, `{"k":"a","x":1}`},
		{`{"oneOf":[{"type":"integer"},false,{"type":"string"}]}`, `"s"`, `"s"`},
		{`{"oneOf":[{"oneOf":[{"const":1},{"const":2}]},{"type":"string"}]}`, `2`, `2`},
		{`{"$defs":{"t":{"oneOf":[{"type":"null"},{"type":"array","items":{"$ref":"#/$defs/t"}}]}},"$ref":"#/$defs/t"}`, `[[null],[]]`, `[[null],[]]`},
		{`{"$defs":{"t":{"oneOf":[{"type":"object","properties":{"next":{"$ref":"#/$defs/t"},"k":{"const":1}},"required":["k"]},{"type":"object","properties":{"k":{"const":2}},"required":["k"]}]}},"$ref":"#/$defs/t"}`, `{"k":1,"next":{"k":2}}`, `{"next":{"k":2},"k":1}`},
	} {
		c := checkSchema(t, tc.schema)
		_, m := mustGrammar(t, c, Options{})
		got, err := Canonical(c, readValue(t, tc.value))
		if err != nil || got != tc.canonical {
			t.Errorf("%s: Canonical(%s) = %q, %v; want %q", tc.schema, tc.value, got, err, tc.canonical)
		}
		if !m.Accepts(got) {
			t.Errorf("%s: the grammar rejects %s", tc.schema, got)
		}
	}
}

// TestOneOfPairsLimit: proofs stop at Options.MaxOneOfPairs, a named
// error at once however many branches there are.
func TestOneOfPairsLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"oneOf":[`)
	for i := range 1000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"const":` + strings.Repeat("1", 1+i%7) + `0` + string(rune('0'+i%10)) + `}`)
	}
	b.WriteString(`]}`)
	_, err := Compile(checkSchema(t, b.String()), Options{})
	if err == nil || !strings.Contains(err.Error(), "Options.MaxOneOfPairs") {
		t.Fatalf("got %v, want the MaxOneOfPairs refusal", err)
	}
	if _, err := Compile(checkSchema(t, `{"oneOf":[{"const":1},{"const":2},{"const":3}]}`), Options{MaxOneOfPairs: 2}); err == nil {
		t.Fatal("3 pairs proven under a limit of 2")
	}
	if _, err := Compile(checkSchema(t, `{"oneOf":[{"const":1},{"const":2},{"const":3}]}`), Options{MaxOneOfPairs: 3}); err != nil {
		t.Fatal(err)
	}
}

// TestOneOfRefusedInside: a oneOf refused inside a branch is reported once,
// where it is, and the outer oneOf draws no conclusion from it.
func TestOneOfRefusedInside(t *testing.T) {
	_, err := Compile(checkSchema(t, `{"$defs":{"bad":{"oneOf":[{"type":"integer"},{"minimum":0}]}},"oneOf":[{"type":"object","properties":{"a":{"$ref":"#/$defs/bad"}},"required":["a"]},{"type":"object","properties":{"b":{"$ref":"#/$defs/bad"}},"required":["b"]},{"type":"object","properties":{"c":{"$ref":"#/$defs/bad"}},"required":["c"]}]}`), Options{})
	var l subsetcheck.ErrorList
	if !errors.As(err, &l) {
		t.Fatalf("got %v", err)
	}
	for _, p := range l {
		if p.Code != subsetcheck.CodeOneOfOverlap || p.Pointer != "/$defs/bad" {
			t.Errorf("unexpected problem %v", p)
		}
	}
	if len(l) != 1 {
		t.Errorf("%d problems, want the one: %v", len(l), err)
	}
}

// TestOneOfUndecided: where the meet of two branches cannot be compiled,
// whether they overlap is not known, so the oneOf is refused with the
// meet's own problem; it is never read as anyOf (here [1,"a"] matches
// both branches, which oneOf rejects).
func TestOneOfUndecided(t *testing.T) {
	schema := `{"oneOf":[{"type":"array","contains":{"type":"integer"}},{"type":"array","contains":{"type":"string"}}]}`
	_, err := Compile(checkSchema(t, schema), Options{})
	var l subsetcheck.ErrorList
	if !errors.As(err, &l) || len(l) != 1 || l[0].Code != subsetcheck.CodeNotExactlyCompilable || !strings.Contains(l[0].Message, "two different contains schemas meet") {
		t.Errorf("%s: got %v, want the meet's C402", schema, err)
	}
}

package compile

import (
	"errors"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// TestOneOfOverlapWarning: overlapping branches compile, each without the
// values of the branches it overlaps, with a warning (W304) located at the
// oneOf that shows the shortest value two branches accept, checked against
// both by the validator, and names the branches.
func TestOneOfOverlapWarning(t *testing.T) {
	for _, tc := range []struct{ schema, pointer, witness string }{
		{`{"oneOf":[{"type":"integer"},{"minimum":2}]}`, "", `2 matches /oneOf/0 and /oneOf/1`},
		{`{"type":"string","oneOf":[{"minLength":2},{"maxLength":4}]}`, "", `"aa" matches /oneOf/0 and /oneOf/1`},
		{`{"type":"object","oneOf":[{"required":["a"]},{"required":["b"]}]}`, "", `{"a":0,"b":0} matches`},
		{`{"properties":{"p":{"oneOf":[{"type":"object","properties":{"kind":{"const":"a"}}},{"type":"object","properties":{"kind":{"const":"b"}}}]}}}`, "/properties/p", `{} matches /properties/p/oneOf/0 and /properties/p/oneOf/1`},
		{`{"oneOf":[{"const":1},{"const":2},{"enum":[3,1.0]}]}`, "", `branches 0 and 2 of this oneOf overlap: 1 matches`},
		{`{"oneOf":[{"properties":{"a":{"type":"string"}}},{"type":"object","required":["b"]},{"type":"string"}]}`, "", `{"b":0} matches /oneOf/0 and /oneOf/1 (and one more pair of branches overlaps)`},
		{`{"oneOf":[{"properties":{"a":{"type":"string"}}},{"type":"string"}]}`, "", `"" matches /oneOf/0 and /oneOf/1 (properties, required and additionalProperties constrain only objects`},
		{`{"oneOf":[{"type":"array","items":{"type":"string"}},{"type":"array","maxItems":1}]}`, "", `[] matches /oneOf/0 and /oneOf/1`},
	} {
		c := checkSchema(t, tc.schema)
		_, warns, err := CompileWithWarnings(c, Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.schema, err)
			continue
		}
		if len(warns) != 1 || warns[0].Code != subsetcheck.CodeOneOfOverlapExcluded || warns[0].Pointer != tc.pointer ||
			!strings.Contains(warns[0].Message, tc.witness) || warns[0].Line != 1 {
			t.Errorf("%s: got %v, want W304 at %q with %q", tc.schema, warns, tc.pointer, tc.witness)
		}
	}
	// Every branch inside another: no value matches exactly one.
	_, err := Compile(checkSchema(t, `{"oneOf":[true,true]}`), Options{})
	if err == nil || !strings.Contains(err.Error(), "C401") || !strings.Contains(err.Error(), "matches another branch too") {
		t.Errorf("oneOf of true and true: got %v, want C401 saying why", err)
	}
	// Disjoint branches: no warning.
	if _, warns, err := CompileWithWarnings(checkSchema(t, `{"oneOf":[{"type":"string"},{"type":"integer"}]}`), Options{}); err != nil || len(warns) > 0 {
		t.Errorf("disjoint oneOf: %v, %v", warns, err)
	}
}

// TestOneOfOverlapRefused: where a branch overlaps one whose complement
// cannot be built, the oneOf is refused (C404) with the value both accept
// and the reason; a not of the schema's own is refused where it is (C402).
func TestOneOfOverlapRefused(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"oneOf":[{"type":"object","minProperties":1},{"type":"object","properties":{"a":{}},"additionalProperties":false}]}`, `{"a":0} matches /oneOf/0 and /oneOf/1, so oneOf rejects it while each branch accepts it; keeping such values out of #/oneOf/0 needs the values #/oneOf/1 rejects, which cannot be written exactly: an object that needs a member breaking additionalProperties (or unlike an excluded object) cannot also count its members`},
		{`{"oneOf":[{"type":"integer","maximum":100},{"multipleOf":3}]}`, `0 matches /oneOf/0 and /oneOf/1, so oneOf rejects it while each branch accepts it; keeping such values out of #/oneOf/0 needs the values #/oneOf/1 rejects, which cannot be written exactly: the numbers that are not multiples of multipleOf 3`},
		{`{"oneOf":[{"type":"array"},{"type":"array","uniqueItems":true,"items":{"enum":[1,2]}}]}`, `the arrays that repeat an item have no grammar`},
		{`{"$defs":{"int":{"type":"integer","multipleOf":2}},"oneOf":[{"$ref":"#/$defs/int"},{"type":"integer","maximum":0}]}`, `0 matches /oneOf/0 and /oneOf/1, so oneOf rejects it while each branch accepts it; keeping such values out of #/oneOf/1 needs the values #/oneOf/0 rejects`},
	} {
		_, err := Compile(checkSchema(t, tc.schema), Options{})
		var l subsetcheck.ErrorList
		if !errors.As(err, &l) || len(l) != 1 || l[0].Code != subsetcheck.CodeOneOfOverlap || !strings.Contains(l[0].Message, tc.want) {
			t.Errorf("%s: got %v, want one C404 saying %q", tc.schema, err, tc.want)
		}
	}
	_, err := Compile(checkAsserted(t, `{"oneOf":[{"type":"string"},{"type":"string","format":"time"}]}`), Options{})
	if err == nil || !strings.Contains(err.Error(), "C404") || !strings.Contains(err.Error(), `not in format "time"`) {
		t.Errorf("overlap with a format: got %v, want C404", err)
	}
	// A format with an automaton (pattern.go) has a complement: exact.
	_, m := mustGrammar(t, checkAsserted(t, `{"oneOf":[{"type":"string"},{"type":"string","format":"date"}]}`), Options{})
	for text, want := range map[string]bool{`"x"`: true, `"2020-01-01"`: false, `"2020-02-30"`: true, `1`: false} {
		if m.Accepts(text) != want {
			t.Errorf("oneOf of a string and a date: %s accepted %v, want %v", text, !want, want)
		}
	}
	_, err = Compile(checkSchema(t, `{"oneOf":[{"type":"object","properties":{"a":{"not":{"uniqueItems":true}}}},{"required":["b"]}]}`), Options{})
	if err == nil || !strings.Contains(err.Error(), "/oneOf/0/properties/a/not: not needs the values") || strings.Contains(err.Error(), "C404") {
		t.Errorf("a not of the schema's own: got %v, want its C402", err)
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
	_, err := Compile(checkSchema(t, `{"$defs":{"bad":{"oneOf":[{"type":"integer"},{"multipleOf":3}]}},"oneOf":[{"type":"object","properties":{"a":{"$ref":"#/$defs/bad"}},"required":["a"]},{"type":"object","properties":{"b":{"$ref":"#/$defs/bad"}},"required":["b"]},{"type":"object","properties":{"c":{"$ref":"#/$defs/bad"}},"required":["c"]}]}`), Options{})
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

// TestOneOfOverlapExact compares the grammars of overlapping oneOfs with
// the oracle on every value of a small universe around their bounds: a
// valid value's canonical text is accepted, an invalid value is rejected
// with its members in either order, and Canonical refuses it.
func TestOneOfOverlapExact(t *testing.T) {
	var numbers, strs, objects []string
	for n := -25000; n <= 25000; n += 125 {
		numbers = append(numbers, decimalOf(n))
	}
	var words func(prefix string, n int)
	words = func(prefix string, n int) {
		strs = append(strs, quoted(prefix))
		if n > 0 {
			for _, r := range []string{"a", "é", "x"} {
				words(prefix+r, n-1)
			}
		}
	}
	words("", 6)
	for _, name := range []string{"", `"name":""`, `"name":"x"`, `"name":"abcd"`, `"name":1`} {
		for _, id := range []string{"", `"id":-1`, `"id":0`, `"id":2`, `"id":"1"`} {
			for _, tags := range []string{"", `"tags":[]`, `"tags":["a"]`, `"tags":["a","b","c"]`, `"tags":[1]`} {
				for _, flag := range []string{"", `"flag":true`, `"flag":1`} {
					for _, z := range []string{"", `"z":null`} {
						var members []string
						for _, m := range []string{name, id, tags, flag, z} {
							if m != "" {
								members = append(members, m)
							}
						}
						objects = append(objects, "{"+strings.Join(members, ",")+"}")
					}
				}
			}
		}
	}
	arrays := []string{"[]"}
	for _, a := range []string{`"a"`, `1`, `[]`} {
		arrays = append(arrays, "["+a+"]")
		for _, b := range []string{`"a"`, `1`} {
			arrays = append(arrays, "["+a+","+b+"]", "["+b+","+a+","+b+"]")
		}
	}
	for _, tc := range []struct {
		schema string
		values []string
	}{
		{`{"oneOf":[{"type":"array","items":{"type":"string"}},{"type":"array","maxItems":1},{"type":"array","prefixItems":[{"const":1}],"minItems":2}]}`, arrays},
		{`{"type":"object","oneOf":[{"minProperties":2},{"required":["name"]},{"maxProperties":0}]}`, objects},
		{`{"type":"integer","oneOf":[{"minimum":0,"maximum":10},{"minimum":5,"maximum":15},{"minimum":8,"maximum":20}]}`, numbers},
		{`{"type":"number","oneOf":[{"minimum":0,"maximum":10},{"exclusiveMinimum":5,"maximum":20},{"type":"integer","minimum":-3,"exclusiveMaximum":1}]}`, numbers},
		{`{"oneOf":[{"oneOf":[{"type":"integer"},{"minimum":5,"maximum":9}]},{"type":"number","maximum":7}]}`, numbers},
		{`{"type":"string","oneOf":[{"maxLength":3},{"minLength":2,"maxLength":5},{"minLength":4}]}`, strs},
		{`{"oneOf":[{"type":"string","maxLength":2},{"enum":["a","aé","xxx",1]},{"minLength":1,"maxLength":4}]}`, append(strs, numbers...)},
		{`{"type":"object","oneOf":[{"properties":{"name":{"type":"string","maxLength":3},"id":{"type":"integer"}},"required":["name"]},{"properties":{"id":{"type":"integer","minimum":0},"tags":{"type":"array","items":{"type":"string"},"maxItems":2}},"required":["id"]},{"properties":{"name":{"const":"x"},"flag":{"type":"boolean"}},"required":["flag"]}]}`, objects},
		{`{"oneOf":[{"required":["name"]},{"required":["id"]},{"required":["tags"]}],"properties":{"tags":{"oneOf":[{"maxItems":1},{"items":{"const":"a"},"maxItems":3}]}}}`, objects},
	} {
		t.Run(tc.schema, func(t *testing.T) { exactOn(t, tc.schema, tc.values) })
	}
}

// exactOn compares schema's grammar with the oracle on values: a valid
// value's canonical text is accepted, an invalid value is rejected with
// its members in either order, and Canonical refuses it.
func exactOn(t *testing.T, schema string, values []string) {
	t.Helper()
	c := checkSchema(t, schema)
	o := newOracle(t, schema)
	_, m := mustGrammar(t, c, Options{})
	z := NewCanonicalizer(c)
	valid := 0
	for _, text := range values {
		v := readValue(t, text)
		canon, err := z.Canonical(v)
		if oracleAccepts(o, text) {
			valid++
			if err != nil || !m.Accepts(canon) {
				t.Errorf("%s is valid: Canonical %q, %v; grammar accepts it: %v", text, canon, err, err == nil && m.Accepts(canon))
			}
			continue
		}
		if err == nil {
			t.Errorf("%s is invalid, but Canonical writes %s", text, canon)
		}
		for _, spelling := range []string{text, reversed(v)} {
			if m.Accepts(spelling) {
				t.Errorf("%s is invalid, but the grammar accepts it", spelling)
			}
		}
	}
	if valid == 0 || valid == len(values) {
		t.Errorf("%d of %d values valid: the universe does not cut the schema", valid, len(values))
	}
}

// reversed is v's compact text with the members of its top object in
// reverse order.
func reversed(v *subsetcheck.Value) string {
	if v.Kind != subsetcheck.Object {
		return plainText(v)
	}
	var parts []string
	for i := len(v.Members) - 1; i >= 0; i-- {
		parts = append(parts, quoted(v.Members[i].Name)+":"+plainText(v.Members[i].Value))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

package equiv

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/internal/oracle"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// These tests check the generator alone, on hand-built checked schemas, so
// that it can be trusted before the checker exists: every value it calls
// valid the oracle accepts, every value it calls invalid the oracle rejects.

func sch(t subsetcheck.Type) *subsetcheck.Schema {
	return &subsetcheck.Schema{Types: t, MaxLength: -1, MaxItems: -1}
}

func bound(v string, excl bool) *subsetcheck.Bound {
	r, _ := new(big.Rat).SetString(v)
	return &subsetcheck.Bound{Value: r, Exclusive: excl}
}

func handSchemas() []struct {
	name, json string
	s          *subsetcheck.Schema
} {
	str23 := sch(subsetcheck.TString)
	str23.MinLength, str23.MaxLength = 2, 3
	bigInt := sch(subsetcheck.TInteger)
	bigInt.Lower, bigInt.Upper = bound("3000000000", false), bound("18446744073709551617", true)
	num := sch(subsetcheck.TNumber | subsetcheck.TInteger)
	num.Lower, num.Upper = bound("1.5", true), bound("2.25", false)
	enum := sch(subsetcheck.AllTypes)
	enum.Enum = []*subsetcheck.Value{vNum("1"), vStr("a"), vNull(), vArr(vNum("1")), vObj(member("k", vBool(true)))}
	obj := sch(subsetcheck.TObject)
	obj.Properties = []subsetcheck.Property{{Name: "a", Schema: sch(subsetcheck.TInteger)}, {Name: "b", Schema: str23}}
	obj.Required = []string{"a", "c"}
	obj.AdditionalProperties = sch(subsetcheck.TBoolean)
	arr := sch(subsetcheck.TArray)
	arr.PrefixItems = []*subsetcheck.Schema{sch(subsetcheck.TNull)}
	arr.Items = sch(subsetcheck.TBoolean)
	arr.MinItems, arr.MaxItems = 1, 3
	min5 := sch(subsetcheck.TInteger)
	min5.Lower = bound("5", false)
	str1 := sch(subsetcheck.TString)
	str1.MaxLength = 1
	any := sch(subsetcheck.AllTypes)
	any.AnyOf = []*subsetcheck.Schema{str1, min5}
	rec := sch(subsetcheck.TObject)
	rec.Properties = []subsetcheck.Property{{Name: "next", Schema: &subsetcheck.Schema{Ref: rec, Types: subsetcheck.AllTypes, MaxItems: -1, MaxLength: -1}}}
	rec.AdditionalProperties = &subsetcheck.Schema{False: true}
	return []struct {
		name, json string
		s          *subsetcheck.Schema
	}{
		{"string", `{"type":"string","minLength":2,"maxLength":3}`, str23},
		{"bigint", `{"type":"integer","minimum":3000000000,"exclusiveMaximum":18446744073709551617}`, bigInt},
		{"number", `{"type":"number","exclusiveMinimum":1.5,"maximum":2.25}`, num},
		{"enum", `{"enum":[1,"a",null,[1],{"k":true}]}`, enum},
		{"object", `{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"string","minLength":2,"maxLength":3}},"required":["a","c"],"additionalProperties":{"type":"boolean"}}`, obj},
		{"array", `{"type":"array","prefixItems":[{"type":"null"}],"items":{"type":"boolean"},"minItems":1,"maxItems":3}`, arr},
		{"anyOf", `{"anyOf":[{"type":"string","maxLength":1},{"type":"integer","minimum":5}]}`, any},
		{"recursive", `{"type":"object","properties":{"next":{"$ref":"#"}},"additionalProperties":false}`, rec},
	}
}

func TestGeneratorAgreesWithOracle(t *testing.T) {
	for _, hs := range handSchemas() {
		t.Run(hs.name, func(t *testing.T) {
			c := &subsetcheck.Checked{Root: hs.s, Draft: subsetcheck.Draft2020}
			o, err := oracle.New([]byte(hs.json), c.Draft)
			if err != nil {
				t.Fatal(err)
			}
			g := NewGenerator(c, 1)
			valid, invalid := g.Valid(), g.Invalid()
			if len(valid) < 3 || len(invalid) < 3 {
				t.Errorf("too few values: %d valid, %d invalid", len(valid), len(invalid))
			}
			for _, v := range valid {
				for _, sp := range Spellings {
					text := Text(v, sp)
					if r := StrictJSON(text); r.Err != nil {
						t.Errorf("generated text is not strict JSON: %q: %v", text, r.Err)
					}
					if ok, err := o.Valid(text); !ok || err != nil {
						t.Errorf("generator calls %q valid; oracle says invalid (%v)", text, err)
					}
				}
			}
			for _, v := range invalid {
				text := Compact(v)
				if ok, err := o.Valid(text); ok || err != nil {
					t.Errorf("generator calls %q invalid; oracle says valid (%v)", text, err)
				}
			}
		})
	}
}

// Same seed, same values: failures must be reproducible.
func TestGeneratorDeterministic(t *testing.T) {
	for _, hs := range handSchemas() {
		c := &subsetcheck.Checked{Root: hs.s, Draft: subsetcheck.Draft2020}
		a, b := NewGenerator(c, 7), NewGenerator(c, 7)
		va, vb := a.Valid(), b.Valid()
		ia, ib := a.Invalid(), b.Invalid()
		if len(va) != len(vb) || len(ia) != len(ib) {
			t.Fatalf("%s: differing runs", hs.name)
		}
		for i := range va {
			if Compact(va[i]) != Compact(vb[i]) {
				t.Fatalf("%s: differing runs at %d", hs.name, i)
			}
		}
	}
}

func TestStrictJSON(t *testing.T) {
	for _, c := range []struct {
		text string
		ok   bool
	}{
		{`{"a":[1,-0,0.5,1e+2,"\ud83d\ude00\/"]}`, true},
		{"\"\x7f\"", true},
		{" null ", true},
		{`01`, false},
		{`-`, false},
		{`1.`, false},
		{`.5`, false},
		{`+1`, false},
		{`[1,]`, false},
		{`{"a":1,}`, false},
		{"\"\x01\"", false},
		{`"\ud800"`, false},
		{`"\udc00"`, false},
		{`"\ud800\u0041"`, false},
		{`"\x41"`, false},
		{"\"\xff\"", false},
		{"\ufeff1", false},
		{`1 2`, false},
		{`NaN`, false},
		{`tru`, false},
		{``, false},
	} {
		if got := StrictJSON(c.text).Err == nil; got != c.ok {
			t.Errorf("StrictJSON(%q) ok = %v, want %v", c.text, got, c.ok)
		}
	}
	r := StrictJSON(`{"a":1,"b":{"a":2},"a":3}`)
	if d := r.Duplicates; len(d) != 1 || d[0] != "a" {
		t.Errorf("duplicates = %q, want [a]", d)
	}
	first, last := r.First.(map[string]any), r.Last.(map[string]any)
	if fmt.Sprintf("%v %v", first["a"], last["a"]) != "1 3" {
		t.Errorf("readings of a repeated name: first %v, last %v; want 1, 3", first["a"], last["a"])
	}
}

func TestRawNearMissesAreNotTheText(t *testing.T) {
	text := `{"a":[1,"x"],"b":{"c":-2.5}}`
	ms := RawNearMisses(text)
	if len(ms) < 20 {
		t.Fatalf("only %d near misses", len(ms))
	}
	for _, m := range ms {
		if m == text {
			t.Errorf("near miss equals the text")
		}
	}
}

// The harness's strict-JSON check and the project's reader must agree on
// every near miss: both read texts the way the oracle does.
func TestStrictAgreesWithReader(t *testing.T) {
	for _, text := range []string{`{"a":[1,"x"],"b":{"c":-2.5}}`, `["\u00e9😀",0,true,null]`, `"\"\\/"`, `{"":{"":1e5}}`} {
		for _, m := range append(RawNearMisses(text), text) {
			sj := StrictJSON(m)
			mine := sj.Err == nil && len(sj.Duplicates) == 0
			_, err := subsetcheck.Read("t", []byte(m), subsetcheck.Limits{})
			if mine != (err == nil) {
				t.Errorf("%q: StrictJSON ok=%v (%v), subsetcheck.Read error %v", m, mine, sj.Err, err)
			}
		}
	}
}

package compile

import (
	"math/big"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// TestNotNumbers compares the grammar of numeric complements with the
// oracle on every plain decimal of up to three fraction digits in
// [-3.5, 3.5], and requires every other spelling the grammar accepts to be
// valid: "any value except 3" must reject 3.0 and 30e-1 as well.
func TestNotNumbers(t *testing.T) {
	for _, schema := range []string{
		`{"not":{"const":0.5}}`,
		`{"not":{"const":0}}`,
		`{"not":{"enum":[-1,0,0.5,1.25,3]}}`,
		`{"type":"integer","not":{"enum":[-1,2]}}`,
		`{"type":"number","not":{"type":"integer"}}`,
		`{"not":{"type":"integer"},"minimum":-1.5,"maximum":2.25}`,
		`{"not":{"type":"integer"},"exclusiveMinimum":0,"exclusiveMaximum":1}`,
		`{"type":"integer","not":{"minimum":-2,"maximum":2}}`,
		`{"type":"number","not":{"exclusiveMinimum":0.5}}`,
		`{"type":"number","not":{"minimum":-1,"exclusiveMaximum":1.5}}`,
		`{"type":"number","not":{"type":"integer","minimum":0}}`,
		`{"type":"number","minimum":-2,"maximum":2,"not":{"enum":[-2,0,2]}}`,
		`{"type":"number","not":{"not":{"maximum":1}}}`,
	} {
		t.Run(schema, func(t *testing.T) {
			c := checkSchema(t, schema)
			o := newOracle(t, schema)
			_, m := mustGrammar(t, c, Options{})
			for n := -3500; n <= 3500; n++ {
				text := decimalOf(n)
				if got, want := m.Accepts(text), oracleAccepts(o, text); got != want {
					t.Errorf("%s: grammar %v, oracle %v", text, got, want)
				}
			}
			for _, text := range []string{"-0", "0.0", "1.0", "3.0", "30e-1", "5e-1", "0.50", "1e0", "2E0", "-1.0", "1.25e0", "125e-2", "1e400", "-1e-400"} {
				if m.Accepts(text) && !oracleAccepts(o, text) {
					t.Errorf("grammar accepts %q, which the oracle rejects", text)
				}
			}
		})
	}
}

// TestNotValuesOfEveryType: not of an enum or const excludes exactly the
// members its schema accepts, whatever their type: one boolean leaves the
// other, a member of another type than the schema's stays in the
// complement. Every text is one value of each type.
func TestNotValuesOfEveryType(t *testing.T) {
	texts := []string{`null`, `true`, `false`, `0`, `1`, `-1`, `1.5`, `""`, `"a"`, `"b"`, `[]`, `[1]`, `{}`, `{"a":1}`}
	for _, schema := range []string{
		`{"not":{"const":true}}`,
		`{"not":{"const":false}}`,
		`{"not":{"enum":[true,false]}}`,
		`{"type":"boolean","not":{"const":false}}`,
		`{"not":{"type":"string","enum":["a",1,null]}}`,
		`{"not":{"type":"boolean","enum":[true,1,"a"]}}`,
		`{"not":{"type":["integer","null"],"enum":[1,null,"a",true]}}`,
	} {
		agree(t, schema, texts)
	}
}

// TestNotStrings: excluded strings are gone in every spelling (the grammar
// keeps the canonical one), and their neighbours stay.
func TestNotStrings(t *testing.T) {
	schema := `{"type":"string","not":{"enum":["a","ab","é","","\"q"]}}`
	c := checkSchema(t, schema)
	o := newOracle(t, schema)
	_, m := mustGrammar(t, c, Options{})
	for _, text := range []string{`"b"`, `"aa"`, `"abc"`, `"e"`, `"éé"`, `"\"q\""`, `"q"`, `" "`} {
		if !m.Accepts(text) || !oracleAccepts(o, text) {
			t.Errorf("%s: grammar %v, oracle %v, want both accepting", text, m.Accepts(text), oracleAccepts(o, text))
		}
	}
	for _, text := range []string{`"a"`, `"\u0061"`, `"ab"`, `"a\u0062"`, `"é"`, `"\u00e9"`, `""`, `"\"q"`, `"\u0022q"`, `1`} {
		if m.Accepts(text) {
			t.Errorf("grammar accepts %s", text)
		}
	}
}

// TestNotPatterns: the complement of a string language (patterns, lengths,
// an asserted format, excluded strings) is the automaton's complement:
// the grammar agrees with the oracle on every short string over the
// characters the schemas tell apart, and on dates.
func TestNotPatterns(t *testing.T) {
	var texts []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		texts = append(texts, quoted(prefix))
		if n == 0 {
			return
		}
		for _, c := range []string{"a", "b", "2", "-", "\n"} {
			grow(prefix+c, n-1)
		}
	}
	grow("", 4)
	texts = append(texts, `"2020-01-01"`, `"2020-01-02"`, `"2020-02-30"`, `"1999-12-31"`, `1`, `null`, `["a"]`)
	for _, schema := range []string{
		`{"type":"string","not":{"pattern":"^a"}}`,
		`{"not":{"type":"string","pattern":"^a","maxLength":3}}`,
		`{"type":"string","pattern":"^[ab]+$","not":{"enum":["a","ab"]}}`,
		`{"not":{"pattern":"b","not":{"pattern":"^a"}}}`,
		`{"type":"string","format":"date","not":{"const":"2020-01-01"}}`,
		`{"not":{"type":"string","format":"date"}}`,
		`{"type":"string","not":{"format":"date","pattern":"-01$"}}`,
	} {
		t.Run(schema, func(t *testing.T) {
			_, m := mustGrammar(t, checkAsserted(t, schema), Options{})
			o := assertingOracle(t, schema)
			for _, text := range texts {
				if got, want := m.Accepts(text), o(text); got != want {
					t.Errorf("%s: grammar %v, oracle %v", text, got, want)
				}
			}
		})
	}
}

// TestNotRefused: what has no complement in the compiler's algebra is
// refused with C402, saying what was negated and why; nothing else is.
func TestNotRefused(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"type":"object","minProperties":2,"not":{"additionalProperties":false}}`, "cannot also count its members"},
		{`{"not":{"prefixItems":[{}],"items":{"type":"string"}}}`, "needs contains"},
		{`{"type":"string","format":"time","not":{"const":"12:00:00Z"}}`, `must not be "12:00:00Z"`},
		{`{"not":{"type":"string","format":"time"}}`, `not in format "time"`},
		{`{"if":{"uniqueItems":true},"then":{"type":"object"}}`, "if/then/else needs the values this if rejects"},
		{`{"allOf":[{"type":"string","format":"date-time"},{"maxLength":30}]}`, "(this is where #/allOf/0 and #/allOf/1 meet)"},
	} {
		_, err := Compile(checkAsserted(t, tc.schema), Options{})
		if err == nil || !strings.Contains(err.Error(), "C402") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want C402 saying %q", tc.schema, err, tc.want)
		}
	}
	for _, schema := range []string{
		`{"not":false}`,
		`{"not":{"not":{"not":false}}}`,
		`{"if":{"additionalProperties":false},"else":{"type":"array"}}`, // if ∪ else: no complement needed
		`{"type":"array","not":{"items":{"type":"string"},"maxItems":3}}`,
		`{"not":{"type":"object","required":["a"],"properties":{"a":{"not":{"type":"string"}}}}}`,
		`{"not":{"type":"object","additionalProperties":false}}`,
		`{"not":{"properties":{"a":{}},"additionalProperties":{"type":"string"}}}`,
		`{"not":{"enum":[[1]]}}`,
		`{"if":{"additionalProperties":false},"then":{"type":"object"}}`,
	} {
		if _, err := Compile(checkSchema(t, schema), Options{}); err != nil {
			t.Errorf("%s: %v", schema, err)
		}
	}
}

// TestComplementReason: the function other keywords call for the values a
// subschema rejects says why none can be built, or nothing.
func TestComplementReason(t *testing.T) {
	cp := newCompiler(checkSchema(t, `{}`), Options{})
	ok := &subsetcheck.Schema{Types: subsetcheck.TString, MaxItems: -1, MaxLength: 2}
	no := &subsetcheck.Schema{Types: subsetcheck.AllTypes, MaxItems: -1, MaxLength: -1, UniqueItems: true}
	if why := cp.complementReason(ok); why != "" {
		t.Errorf("complement of a string schema refused: %s", why)
	}
	if why := cp.complementReason(no); !strings.Contains(why, "repeat an item") {
		t.Errorf("complement of uniqueItems: %q", why)
	}
	if n := cp.negation(cp.negation(ok)); n != ok {
		t.Errorf("the negation of a negation is not the schema itself")
	}
}

// TestNotStringsBounded: excluded strings beside minLength and maxLength,
// against the oracle on every canonical string of up to five characters
// over a small alphabet.
func TestNotStringsBounded(t *testing.T) {
	for _, schema := range []string{
		`{"type":"string","minLength":1,"maxLength":3,"not":{"enum":["ab","a","abcd","é",""]}}`,
		`{"type":"string","minLength":2,"not":{"const":"ab"}}`,
		`{"type":"string","maxLength":2,"not":{"enum":["b","\"a"]}}`,
		`{"allOf":[{"type":"string","minLength":1},{"not":{"enum":["a","ba"]}}],"maxLength":4}`,
	} {
		c := checkSchema(t, schema)
		o := newOracle(t, schema)
		_, m := mustGrammar(t, c, Options{})
		var all func(prefix string, n int)
		all = func(prefix string, n int) {
			text := quoted(prefix)
			if got, want := m.Accepts(text), oracleAccepts(o, text); got != want {
				t.Errorf("%s: %s: grammar %v, oracle %v", schema, text, got, want)
			}
			if n == 0 {
				return
			}
			for _, r := range []string{"a", "b", "é", `"`} {
				all(prefix+r, n-1)
			}
		}
		all("", 5)
	}
}

// TestNoValueEvident: the cheap emptiness look that prunes complements
// and shortcuts oneOf proofs says empty only of schemas that admit no
// value.
func TestNoValueEvident(t *testing.T) {
	f := &subsetcheck.Schema{False: true}
	rat := func(n int64) *big.Rat { return big.NewRat(n, 1) }
	obj := func(props []subsetcheck.Property, ap *subsetcheck.Schema, types subsetcheck.Type) *subsetcheck.Schema {
		return &subsetcheck.Schema{Types: types, Properties: props, Required: []string{"a"}, AdditionalProperties: ap, MaxItems: -1, MaxLength: -1}
	}
	num := func(lo, hi int64, exclusive bool) *subsetcheck.Schema {
		return &subsetcheck.Schema{Types: subsetcheck.TNumber | subsetcheck.TInteger, MaxItems: -1, MaxLength: -1,
			Lower: &subsetcheck.Bound{Value: rat(lo), Exclusive: exclusive}, Upper: &subsetcheck.Bound{Value: rat(hi)}}
	}
	for _, tc := range []struct {
		name  string
		s     *subsetcheck.Schema
		empty bool
	}{
		{"required member declared with any value, others closed", obj([]subsetcheck.Property{{Name: "a"}}, f, subsetcheck.TObject), false},
		{"required member declared false", obj([]subsetcheck.Property{{Name: "a", Schema: f}}, nil, subsetcheck.TObject), true},
		{"required member undeclared, others closed", obj(nil, f, subsetcheck.TObject), true},
		{"required member false, strings too", obj([]subsetcheck.Property{{Name: "a", Schema: f}}, nil, subsetcheck.TObject|subsetcheck.TString), false},
		{"minItems over maxItems", &subsetcheck.Schema{Types: subsetcheck.TArray, MinItems: 3, MaxItems: 2, MaxLength: -1}, true},
		{"minItems at maxItems", &subsetcheck.Schema{Types: subsetcheck.TArray, MinItems: 2, MaxItems: 2, MaxLength: -1}, false},
		{"minLength over maxLength", &subsetcheck.Schema{Types: subsetcheck.TString, MinLength: 3, MaxLength: 2, MaxItems: -1}, true},
		{"range 3..2", num(3, 2, false), true},
		{"range 2..2", num(2, 2, false), false},
		{"range (2..2]", num(2, 2, true), true},
		{"no type", &subsetcheck.Schema{MaxItems: -1, MaxLength: -1}, true},
	} {
		if got := noValueEvident(tc.s); got != tc.empty {
			t.Errorf("%s: noValueEvident %v, want %v", tc.name, got, tc.empty)
		}
	}
}

// TestNotAdditional: the complement of additionalProperties (some member
// it governs breaks it) against the oracle on every object of up to four
// members over a few names and values, beside declared and required
// members of the meet, nested, in oneOf and in if.
func TestNotAdditional(t *testing.T) {
	var objects []string
	values := []string{"", "1", `"s"`, "null", "[1]"}
	for _, a := range values {
		for _, b := range values {
			for _, c := range values {
				for _, z := range values {
					var members []string
					for i, v := range []string{a, b, c, z} {
						if v != "" {
							members = append(members, quoted([]string{"a", "b", "c", "z"}[i])+":"+v)
						}
					}
					objects = append(objects, "{"+strings.Join(members, ",")+"}")
				}
			}
		}
	}
	objects = append(objects, "1", `"s"`, "[]")
	for _, schema := range []string{
		`{"not":{"type":"object","additionalProperties":false}}`,
		`{"type":"object","not":{"properties":{"a":{}},"additionalProperties":{"type":"string"}}}`,
		`{"type":"object","properties":{"b":{"type":"integer"},"c":{}},"not":{"properties":{"a":{}},"additionalProperties":{"type":"string"}}}`,
		`{"type":"object","required":["c"],"not":{"properties":{"a":{"type":"integer"}},"additionalProperties":{"type":["string","null"]}}}`,
		`{"not":{"type":"object","not":{"additionalProperties":{"type":"integer"}}}}`,
		`{"type":"object","not":{"required":["a"],"properties":{"b":{"const":1}},"additionalProperties":{"type":"null"}}}`,
		`{"if":{"additionalProperties":false},"then":{"type":"object"},"else":{"required":["a"]}}`,
		`{"oneOf":[{"type":"object","properties":{"a":{"type":"integer"}}},{"type":"object","properties":{"a":{}},"additionalProperties":false}]}`,
		`{"oneOf":[{"properties":{"a":{}},"additionalProperties":false},{"properties":{"b":{}},"additionalProperties":false}]}`,
		`{"oneOf":[{"required":["a"],"additionalProperties":{"type":"integer"}},{"properties":{"b":{"type":"string"}},"additionalProperties":{"type":["integer","null"]}}]}`,
		`{"not":{"anyOf":[{"type":"object","properties":{"a":{}},"additionalProperties":false},{"type":"object","properties":{"b":{}},"additionalProperties":{"type":"null"}}]}}`,
		`{"oneOf":[{"type":"object"},{"type":"object","properties":{"a":{}},"additionalProperties":false},{"type":"object","properties":{"b":{}},"additionalProperties":false}]}`,
		`{"type":"object","properties":{"c":{"type":"integer"}},"not":{"anyOf":[{"properties":{"a":{},"c":{}},"additionalProperties":{"type":"integer"}},{"properties":{"b":{}},"additionalProperties":{"type":"string"}},{"additionalProperties":{"type":["null","array"]}}]}}`,
	} {
		t.Run(schema, func(t *testing.T) { exactOn(t, schema, objects) })
	}
}

// TestNotCompound: excluded arrays and objects (not of an enum or const
// that lists them) against the oracle on every object of up to three
// members and every array of up to three items over a few values, equal
// ones spelled apart (1 and 1.0).
func TestNotCompound(t *testing.T) {
	values := []string{`"void"`, "1", "1.0", "[1]", `{"a":[1]}`, `"x"`}
	universe := []string{"null", "1", `"void"`, "[]", "{}"}
	for _, a := range append([]string{""}, values...) {
		for _, b := range append([]string{""}, values[:4]...) {
			for _, c := range []string{"", "null"} {
				var members, items []string
				for i, v := range []string{a, b, c} {
					if v != "" {
						members = append(members, quoted([]string{"type", "n", "a"}[i])+":"+v)
						items = append(items, v)
					}
				}
				universe = append(universe, "{"+strings.Join(members, ",")+"}", "["+strings.Join(items, ",")+"]")
			}
		}
	}
	for _, schema := range []string{
		`{"not":{"const":{"type":"void"}}}`,
		`{"not":{"enum":[[1,"void"],[],2,{"a":[1]},{"type":"x","n":[1]}]}}`,
		`{"type":"object","properties":{"type":{"type":"string"}},"not":{"const":{"type":"void","n":1}}}`,
		`{"type":"array","items":{"type":["integer","string"]},"not":{"enum":[[1],["void",1]]}}`,
		`{"oneOf":[{"type":"object"},{"const":{"type":"void"}}]}`,
		`{"oneOf":[{"type":"array","maxItems":2},{"enum":[[1,1],[]]}]}`,
	} {
		t.Run(schema, func(t *testing.T) { exactOn(t, schema, universe) })
	}
}

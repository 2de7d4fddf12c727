package compile

import (
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

// TestNotRefused: what has no complement in the compiler's algebra is
// refused with C402, saying what was negated and why; nothing else is.
func TestNotRefused(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"not":{"type":"object","additionalProperties":false}}`, "undeclared member at all"},
		{`{"not":{"properties":{"a":{}},"additionalProperties":{"type":"string"}}}`, `whose value breaks additionalProperties has no grammar here (the declared ones are "a")`},
		{`{"not":{"prefixItems":[{}],"items":{"type":"string"}}}`, "needs contains"},
		{`{"not":{"enum":[[1]]}}`, "[1] is excluded here"},
		{`{"type":"string","format":"date","not":{"const":"2020-01-01"}}`, `must not be "2020-01-01"`},
		{`{"not":{"type":"string","format":"date"}}`, `not in format "date"`},
		{`{"if":{"additionalProperties":false},"then":{"type":"object"}}`, "if/then/else needs the values this if rejects"},
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
	no := &subsetcheck.Schema{Types: subsetcheck.AllTypes, MaxItems: -1, MaxLength: -1, AdditionalProperties: &subsetcheck.Schema{False: true}}
	if why := cp.complementReason(ok); why != "" {
		t.Errorf("complement of a string schema refused: %s", why)
	}
	if why := cp.complementReason(no); !strings.Contains(why, "undeclared member") {
		t.Errorf("complement of additionalProperties false: %q", why)
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

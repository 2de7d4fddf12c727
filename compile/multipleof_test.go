package compile

import (
	"math/big"
	"strconv"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// TestMultipleOfIntegers compares the grammar with the validator on every
// integer from -1200 to 1200 (and a few big ones) under multipleOf and
// bounds: at, inside and outside each bound, multiples and not.
func TestMultipleOfIntegers(t *testing.T) {
	for _, kw := range []string{
		`"multipleOf":7`,
		`"multipleOf":7,"minimum":-50,"maximum":100`,
		`"multipleOf":3,"exclusiveMinimum":-9,"exclusiveMaximum":9`,
		`"multipleOf":12,"minimum":13`,
		`"multipleOf":25,"maximum":-30`,
		`"multipleOf":0.5,"minimum":-3,"maximum":800`,
		`"multipleOf":2.5,"minimum":0`,
		`"multipleOf":1,"maximum":1000`,
		`"multipleOf":1000,"minimum":-999,"maximum":999`,
		`"multipleOf":97,"minimum":1,"maximum":96`,
		`"multipleOf":11,"minimum":109.5,"maximum":1100.5`,
		`"multipleOf":100,"minimum":-1150,"maximum":1199`,
		`"multipleOf":120,"exclusiveMinimum":-240`,
		`"multipleOf":1000`,
		`"multipleOf":50,"minimum":25,"maximum":975`,
		`"multipleOf":1e3,"minimum":1,"maximum":999`,
	} {
		t.Run(kw, func(t *testing.T) {
			schema := `{"type":"integer",` + kw + `}`
			c := checkSchema(t, schema)
			o := newOracle(t, schema)
			g, err := Compile(c, Options{})
			if err != nil {
				if strings.Contains(kw, `"minimum":1,"maximum":9`) && strings.Contains(err.Error(), "C401") {
					return // no multiple of 97 in [1, 96], of 1000 in [1, 999]
				}
				t.Fatal(err)
			}
			_, m := mustGrammar(t, c, Options{})
			texts := []string{"10000000000000000000", "-10000000000000000000", "100000000000000000000007", "1234567890123456789012345678"}
			for n := -1200; n <= 1200; n++ {
				texts = append(texts, strconv.Itoa(n))
			}
			for _, text := range texts {
				if got, want := m.Accepts(text), oracleAccepts(o, text); got != want {
					t.Errorf("%s: grammar %v, oracle %v\n%s", text, got, want, g)
				}
			}
			for _, text := range []string{"-0", "7.0", "7e0", "14.5", "0.5", ""} {
				if m.Accepts(text) && !oracleAccepts(o, text) {
					t.Errorf("grammar accepts %q, the oracle does not", text)
				}
			}
		})
	}
}

// TestMultipleOfDecimals compares the grammar with the validator on every
// number from -5 to 5 with up to three fraction digits, canonically
// spelled, and checks that 0.3 is a multiple of 0.1: never an epsilon.
func TestMultipleOfDecimals(t *testing.T) {
	for _, kw := range []string{
		`"multipleOf":0.1`,
		`"multipleOf":0.01,"minimum":0,"exclusiveMaximum":3`,
		`"multipleOf":0.25,"minimum":-1,"maximum":2`,
		`"multipleOf":2.5`,
		`"multipleOf":0.3,"exclusiveMinimum":-3.1,"maximum":4.2`,
		`"multipleOf":0.001,"minimum":-0.5,"maximum":0.25`,
		`"multipleOf":0.007,"minimum":-1.5`,
		`"multipleOf":1.5,"maximum":4.5`,
		`"multipleOf":3`,
		`"multipleOf":0.02,"exclusiveMinimum":0.01,"exclusiveMaximum":0.99`,
		`"multipleOf":20,"minimum":-4.5`,
	} {
		t.Run(kw, func(t *testing.T) {
			schema := `{"type":"number",` + kw + `}`
			c := checkSchema(t, schema)
			o := newOracle(t, schema)
			_, m := mustGrammar(t, c, Options{})
			thousand := big.NewRat(1, 1000)
			for k := -5000; k <= 5000; k++ {
				x := new(big.Rat).Mul(big.NewRat(int64(k), 1), thousand)
				text := thousandths(x)
				if got, want := m.Accepts(text), oracleAccepts(o, text); got != want {
					t.Errorf("%s: grammar %v, oracle %v", text, got, want)
				}
			}
			for _, text := range []string{"0.3", "0.30000000000000004", "1e-1", "-0", "0.10", "3.0", "1e400", "12345678901234567890.25"} {
				if m.Accepts(text) && !oracleAccepts(o, text) {
					t.Errorf("grammar accepts %q, the oracle does not", text)
				}
			}
		})
	}
	c := checkSchema(t, `{"type":"number","multipleOf":0.1}`)
	if _, m := mustGrammar(t, c, Options{}); !m.Accepts("0.3") || m.Accepts("0.35") {
		t.Error("0.3 must be a multiple of 0.1, 0.35 must not")
	}
}

// thousandths is r's canonical plain decimal.
func thousandths(r *big.Rat) string {
	s := r.FloatString(3)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" {
		return "0"
	}
	return s
}

// TestMultipleOfHostile: tiny and huge multipleOf end in a small grammar
// or the named limit, at once.
func TestMultipleOfHostile(t *testing.T) {
	for _, tc := range []struct{ schema, code string }{
		{`{"type":"number","multipleOf":1e-300}`, ""},
		{`{"type":"number","multipleOf":1e-300,"minimum":-1e300,"maximum":1e300}`, ""},
		{`{"type":"number","multipleOf":1e-5000}`, "C403"},
		{`{"type":"integer","multipleOf":123456789}`, "C403"},
		{`{"type":"integer","multipleOf":1e-300,"maximum":5}`, ""},
		{`{"type":"number","multipleOf":7,"minimum":-1e300,"maximum":1e300}`, ""},
	} {
		c := checkSchema(t, tc.schema)
		g, err := Compile(c, Options{})
		if tc.code != "" {
			if err == nil || !strings.Contains(err.Error(), tc.code) {
				t.Errorf("%s: got %v, want %s", tc.schema, err, tc.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.schema, err)
			continue
		}
		if n := len(g.Rules); n > DefaultMaxMultipleOfStates+100 {
			t.Errorf("%s: %d rules", tc.schema, n)
		}
		t.Logf("%s: %d rules, %d bytes", tc.schema, len(g.Rules), len(g.String()))
	}
	// 1e-300: exactly the numbers with at most 300 fraction digits.
	_, m := mustGrammar(t, checkSchema(t, `{"type":"number","multipleOf":1e-300}`), Options{})
	if !m.Accepts("-12."+strings.Repeat("0", 299)+"1") || m.Accepts("0."+strings.Repeat("0", 300)+"1") || !m.Accepts("123456789") {
		t.Error("multipleOf 1e-300 must allow 300 fraction digits and no more")
	}
}

// TestMultipleOfOracle: the validator judges multipleOf in exact rational
// arithmetic (big.Rat on the number's text), as we do: no float quirk to
// list. Should it ever round, these cases say where.
func TestMultipleOfOracle(t *testing.T) {
	for _, tc := range []struct {
		schema, text string
		valid        bool
	}{
		{`{"multipleOf":0.1}`, `0.3`, true},
		{`{"multipleOf":0.1}`, `0.30000000000000004`, false},
		{`{"multipleOf":0.01}`, `19.99`, true},
		{`{"multipleOf":0.0001}`, `0.00019999999999999999`, false},
		{`{"multipleOf":1e-300}`, `1e-300`, true},
		{`{"multipleOf":1e-300}`, `1e-301`, false},
		{`{"multipleOf":3}`, `1e400`, false},
		{`{"multipleOf":7}`, `100000000000000000000000007`, false},
		{`{"multipleOf":7}`, `700000000000000000000000007`, true},
		{`{"multipleOf":0.123456789}`, `1e308`, false},
		{`{"type":"integer","multipleOf":0.5}`, `7`, true},
		{`{"type":"integer","multipleOf":2.5}`, `7.5`, false},
	} {
		if got := oracleAccepts(newOracle(t, tc.schema), tc.text); got != tc.valid {
			t.Errorf("%s %s: the validator says %v, exact arithmetic %v", tc.schema, tc.text, got, tc.valid)
		}
		c := checkSchema(t, tc.schema)
		g, err := Compile(c, Options{})
		if err != nil {
			if tc.valid {
				t.Errorf("%s: %v", tc.schema, err)
			}
			continue
		}
		m, _ := gbnf.NewMatcher(g)
		doc, _ := subsetcheck.Read("v", []byte(tc.text), subsetcheck.Limits{})
		canon, cerr := Canonical(c, doc.Root)
		if tc.valid && (cerr != nil || !m.Accepts(canon)) || !tc.valid && (cerr == nil || m.Accepts(tc.text)) {
			t.Errorf("%s %s: Canonical %q %v, grammar on it %v", tc.schema, tc.text, canon, cerr, m.Accepts(canon))
		}
	}
}

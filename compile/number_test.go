package compile

import (
	"fmt"
	"testing"
)

// TestDecimalRanges compares the grammar of bounded numbers with the oracle
// on every plain decimal of up to three fraction digits near the bounds.
func TestDecimalRanges(t *testing.T) {
	for _, bounds := range []string{
		`"minimum":0.5,"maximum":1.25`,
		`"minimum":-1.25,"maximum":0.5`,
		`"exclusiveMinimum":-1.25,"exclusiveMaximum":0.5`,
		`"minimum":-2.05,"maximum":-1.105`,
		`"exclusiveMinimum":0,"exclusiveMaximum":1`,
		`"minimum":0,"maximum":0`,
		`"minimum":-0.5,"exclusiveMaximum":0`,
		`"exclusiveMinimum":0.101,"maximum":0.109`,
		`"minimum":0.1,"maximum":0.1`,
		`"minimum":1.5`,
		`"exclusiveMinimum":-0.25`,
		`"maximum":2.07`,
		`"exclusiveMaximum":-1.5`,
		`"minimum":-3,"maximum":3`,
		`"minimum":0.001,"maximum":0.009`,
		`"minimum":1.999,"exclusiveMaximum":2.001`,
		`"minimum":0.19,"maximum":0.21`,
		`"minimum":0.09,"maximum":0.9`,
	} {
		t.Run(bounds, func(t *testing.T) {
			for _, typ := range []string{`"type":"number",`, ``} {
				schema := `{` + typ + bounds + `}`
				c := checkSchema(t, schema)
				o := newOracle(t, schema)
				_, m := mustGrammar(t, c, Options{})
				for n := -3500; n <= 3500; n++ {
					text := decimalOf(n)
					if got, want := m.Accepts(text), oracleAccepts(o, text); got != want {
						t.Errorf("%s %s: grammar %v, oracle %v", schema, text, got, want)
					}
				}
				for _, text := range []string{"-0", "00", "1.0", "0.50", "1e0", "5e-1", ".5", "", "-"} {
					if m.Accepts(text) {
						t.Errorf("%s: grammar accepts %q", schema, text)
					}
				}
			}
		})
	}
}

// decimalOf spells n/1000 canonically.
func decimalOf(n int) string {
	sign := ""
	if n < 0 {
		sign, n = "-", -n
	}
	s := fmt.Sprintf("%d.%03d", n/1000, n%1000)
	for s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	if s == "0" {
		return s
	}
	return sign + s
}

// TestDecimalRangesExtreme: tiny and huge bounds stay exact at the edges.
func TestDecimalRangesExtreme(t *testing.T) {
	for _, tc := range []struct {
		bounds         string
		accept, reject []string
	}{
		{`"exclusiveMinimum":0,"maximum":1e-7`, []string{"0.0000001", "0.00000001", "0.00000009", "0.000000099"}, []string{"0", "0.00000011", "0.0000002", "1e-7", "-0.0000001"}},
		{`"maximum":1.7976931348623157e308`, []string{"179769313486231570" + zeros(291), "-1" + zeros(400), "0.5"}, []string{"179769313486231570" + zeros(290) + "1", "179769313486231571" + zeros(291), "1" + zeros(309)}},
		{`"minimum":1e400`, []string{"1" + zeros(400), "1" + zeros(400) + ".5", "2" + zeros(400)}, []string{"9" + zeros(399), "9" + zeros(399) + ".99", "1e401"}},
		{`"exclusiveMinimum":-1e-300,"exclusiveMaximum":1e-300`, []string{"0", "0." + zeros(300) + "9", "-0." + zeros(300) + "1"}, []string{"0." + zeros(299) + "1", "-0." + zeros(299) + "1", "1"}},
	} {
		t.Run(tc.bounds, func(t *testing.T) {
			schema := `{"type":"number",` + tc.bounds + `}`
			c := checkSchema(t, schema)
			o := newOracle(t, schema)
			_, m := mustGrammar(t, c, Options{})
			for _, text := range tc.accept {
				if !m.Accepts(text) || !oracleAccepts(o, text) {
					t.Errorf("%s: grammar %v, oracle %v, want both true", text, m.Accepts(text), oracleAccepts(o, text))
				}
			}
			for _, text := range tc.reject {
				if m.Accepts(text) {
					t.Errorf("grammar accepts %s", text)
				}
			}
		})
	}
}

func zeros(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '0'
	}
	return string(b)
}

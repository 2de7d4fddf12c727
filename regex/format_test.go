package regex_test

import (
	"math/rand/v2"
	"regexp"
	"testing"

	schema2gbnf "github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/regex"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// TestAssertedFormats: each asserted format's regex accepts exactly what
// its grammar accepts (the grammar is proven against the validator in
// package compile), on sampled members of the format, hand-picked edges and
// one-character mutations of both.
func TestAssertedFormats(t *testing.T) {
	edges := []string{`"2024-02-29"`, `"2023-02-29"`, `"1900-02-29"`, `"2000-02-29"`, `"23:59:60Z"`, `"23:59:60+01:00"`,
		`"15:59:60-08:00"`, `"00:59:60+01:00"`, `"2016-12-31t23:59:60.25z"`, `"::"`, `"::1"`, `"1:2:3:4:5:6:7::"`,
		`"::ffff:1.2.3.4"`, `"1.2.3.04"`, `"255.255.255.255"`, `"256.0.0.0"`, `"P1W"`, `"PT"`, `"P1DT1H"`, `"P1Y1W"`,
		`"123e4567-E89B-12d3-a456-426614174000"`, `"+1:00:00Z"`, `"+1.2.3.4"`}
	rng := rand.New(rand.NewPCG(8, 8))
	for _, name := range subsetcheck.AssertedFormats {
		t.Run(name, func(t *testing.T) {
			g, err := schema2gbnf.Compile([]byte(`{"type":"string","format":"`+name+`"}`),
				schema2gbnf.Options{AssertFormat: true, Whitespace: compile.Compact})
			if err != nil {
				t.Fatal(err)
			}
			re, err := g.Regex(regex.Options{})
			if err != nil {
				t.Fatal(err)
			}
			rx := regexp.MustCompile(regex.Anchored(re))
			m, err := gbnf.NewMatcher(g.Rules)
			if err != nil {
				t.Fatal(err)
			}
			s, err := gbnf.NewSampler(g.Rules, 1)
			if err != nil {
				t.Fatal(err)
			}
			texts := append([]string(nil), edges...)
			for i := 0; i < 300; i++ {
				if text, ok := s.Sample(80); ok {
					texts = append(texts, text)
				}
			}
			const alphabet = "0123456789:.-+TtZzPYMDWHSabcdefABCDEF%\""
			for _, text := range texts[:len(texts):len(texts)] {
				r := []byte(text)
				i := 1 + rng.IntN(max(len(r)-2, 1))
				c := alphabet[rng.IntN(len(alphabet))]
				texts = append(texts, string(r[:i])+string(c)+string(r[i:]), string(r[:i])+string(r[i+1:]),
					string(r[:i])+string(c)+string(r[min(i+1, len(r)):]))
			}
			accepted := 0
			for _, text := range texts {
				want := m.Match(text).Accepted
				if got := rx.MatchString(text); got != want {
					t.Errorf("%s: regex says %v, grammar says %v on %s", name, got, want, text)
				}
				if want {
					accepted++
				}
			}
			if accepted < 100 || accepted == len(texts) {
				t.Errorf("%s: %d of %d texts accepted: the test does not probe both sides", name, accepted, len(texts))
			}
			t.Logf("%s: regex %d bytes, %d texts agree (%d accepted)", name, len(re), len(texts), accepted)
		})
	}
}

package compile

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// TestFormatLanguages: each asserted format's string language (formatlang.go,
// for a pattern beside a format) holds exactly the strings formatValid
// takes, on the format's test strings, strings sampled from its grammar
// and one-character edits of them; for time and date-time, the plain part
// holds the valid strings without a leap second, and the leap part every
// valid one with one.
func TestFormatLanguages(t *testing.T) {
	for _, name := range subsetcheck.AssertedFormats {
		t.Run(name, func(t *testing.T) {
			f, ok := formatLanguage(name)
			if !ok {
				t.Fatal("no language")
			}
			texts := formatTexts(name)
			g, _ := formatGrammar(t, name)
			sampler, err := gbnf.NewSampler(g, 3)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(4, 5))
			for range 1000 {
				text, ok := sampler.Sample(100)
				if !ok {
					continue
				}
				s := []rune(strings.TrimSuffix(strings.TrimPrefix(text, `"`), `"`))
				texts = append(texts, string(s))
				i := rng.IntN(len(s))
				c := []rune("0123456789:-.+TZzPWYMDHS ")[rng.IntN(25)]
				texts = append(texts, string(append(append(s[:i:i], c), s[i+1:]...)), string(append(s[:i:i], s[i+1:]...)))
			}
			for _, s := range texts {
				valid := formatValid(name, s)
				if f.exact != nil {
					if got := f.exact.Match(s); got != valid {
						t.Errorf("%s %q: language %v, formatValid %v", name, s, got, valid)
					}
					continue
				}
				leap := leapSecond(name, s)
				if got := f.plain.Match(s); got != (valid && !leap) {
					t.Errorf("%s %q: plain language %v, formatValid %v, leap second %v", name, s, got, valid, leap)
				}
				if valid && leap && !f.leap.Match(s) {
					t.Errorf("%s %q: valid with a leap second, the leap shape rejects it", name, s)
				}
				if f.leap.Match(s) && !leap {
					t.Errorf("%s %q: the leap shape takes a string without second 60", name, s)
				}
			}
		})
	}
}

// leapSecond says whether a time or date-time string's seconds are 60.
func leapSecond(name, s string) bool {
	if name == "date-time" {
		if len(s) < 11 {
			return false
		}
		s = s[11:]
	}
	return len(s) >= 8 && s[2] == ':' && s[5] == ':' && s[6:8] == "60"
}

// TestPatternBesideFormat: a pattern beside an asserted format is the
// intersection; time and date-time take it when the pattern meets no
// leap second or holds the whole format, and refuse it otherwise (C402).
func TestPatternBesideFormat(t *testing.T) {
	for _, tc := range []struct {
		schema, code   string
		accept, reject []string
	}{
		{`{"type":"string","format":"date","pattern":"^20"}`, "", []string{`"2024-02-29"`}, []string{`"1999-01-01"`, `"2023-02-29"`, `"20"`}},
		{`{"type":"string","format":"ipv4","pattern":"^10\\."}`, "", []string{`"10.0.0.1"`}, []string{`"11.0.0.1"`, `"10.0.0.256"`}},
		{`{"type":"string","format":"uuid","pattern":"^[0-9a-f-]+$"}`, "", []string{`"123e4567-e89b-12d3-a456-426614174000"`}, []string{`"123E4567-E89B-12D3-A456-426614174000"`}},
		{`{"type":"string","format":"time","pattern":"^\\d\\d:\\d\\d:[0-5]\\d"}`, "", []string{`"12:00:00Z"`}, []string{`"23:59:60Z"`, `"12:00:61Z"`}},
		{`{"type":"string","format":"date-time","pattern":"^\\d{4}-"}`, "", []string{`"2024-01-01T23:59:60Z"`, `"2024-01-01T00:00:00+01:00"`}, []string{`"2024-01-01T12:59:60Z"`}},
		{`{"type":"string","format":"time","pattern":"Z$"}`, "C402", nil, nil},
		{`{"type":"string","format":"duration","pattern":"^\\d"}`, "C401", nil, nil},
	} {
		c := checkAsserted(t, tc.schema)
		g, err := Compile(c, Options{})
		if tc.code != "" {
			if err == nil || !strings.Contains(err.Error(), "["+tc.code+"]") {
				t.Errorf("%s: %v, want %s", tc.schema, err, tc.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.schema, err)
			continue
		}
		m, err := gbnf.NewMatcher(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range tc.accept {
			if !m.Accepts(s) {
				t.Errorf("%s: rejects %s", tc.schema, s)
			}
		}
		for _, s := range tc.reject {
			if m.Accepts(s) {
				t.Errorf("%s: accepts %s", tc.schema, s)
			}
		}
	}
}

package gbnf

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// benchJSON returns a deterministic JSON document of about n bytes: records
// with strings (some escaped, some non-ASCII), numbers, booleans and nesting.
func benchJSON(n int) string {
	var records []any
	size := 0
	for i := 0; size < n; i++ {
		rec := map[string]any{
			"id":    i,
			"name":  fmt.Sprintf("user \"%d\" naïve café", i),
			"score": float64(i)*1.25 - 300,
			"tags":  []any{"alpha", "beta\n", i%3 == 0, nil},
			"geo":   map[string]any{"lat": 48.8566 + float64(i)/1000, "lon": -2.3522},
		}
		b, _ := json.Marshal(rec)
		size += len(b) + 2
		records = append(records, rec)
	}
	b, _ := json.MarshalIndent(records, "", " ")
	return string(b)
}

func benchMatch(b *testing.B, g *Grammar, text string) {
	m, err := NewMatcher(g)
	if err != nil {
		b.Fatal(err)
	}
	if !m.Accepts(text) {
		b.Fatalf("benchmark text rejected at %d", m.Match(text).Offset)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		m.Match(text)
	}
}

func BenchmarkMatchJSON(b *testing.B) {
	benchMatch(b, jsonGrammar(), benchJSON(100_000))
}

// BenchmarkMatchAmbiguous: every split of a run of a's into "a" and "aa"
// is a parse; the item sets stay small only because items are shared.
func BenchmarkMatchAmbiguous(b *testing.B) {
	g := gram("root", star(ref("x")), "x", alt(lit("a"), lit("aa"), seq(lit("a"), opt(ref("x")))))
	benchMatch(b, g, strings.Repeat("a", 500))
}

// BenchmarkMatchBigRepeat: a bounded repeat of 3000 is compiled once.
func BenchmarkMatchBigRepeat(b *testing.B) {
	g := root(seq(lit(`"`), rep(cls(`^"\`), 0, 3000), lit(`"`)))
	benchMatch(b, g, `"`+strings.Repeat("é", 2999)+`"`)
}

func BenchmarkNewMatcherBigRepeat(b *testing.B) {
	g := gram("root", rep(ref("w"), 0, 3000), "w", seq(lit("<"), star(cls("a-z")), lit(">")))
	for b.Loop() {
		if _, err := NewMatcher(g); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMatchArithmetic(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 100_000 {
		sb.WriteString("(12+3*(4-5))/6-")
	}
	sb.WriteString("7")
	benchMatch(b, exprGrammar(), sb.String())
}

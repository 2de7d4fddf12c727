package gbnf

import (
	"os"
	"strings"
	"sync"
	"testing"
)

// StringAfter is the header, a newline and String, also for a grammar
// that cannot be printed.
func TestStringAfter(t *testing.T) {
	for _, g := range []*Grammar{
		{Rules: []*Rule{{Name: "root", Expr: &Lit{Text: "a"}}}},
		{Rules: []*Rule{{Name: "root", Expr: &Class{}}}},
		nil,
	} {
		if got, want := g.StringAfter("# head"), "# head\n"+g.String(); got != want {
			t.Errorf("StringAfter = %q, want %q", got, want)
		}
	}
}

// medianGrammar reads testdata/median.gbnf: the grammar compiled from the
// corpus schema of median printed size (Glaiveai2K/calculate_area, 35
// rules, 5096 bytes), as the printer wrote it.
func medianGrammar(tb testing.TB) (*Grammar, string) {
	tb.Helper()
	text, err := os.ReadFile("testdata/median.gbnf")
	if err != nil {
		tb.Fatal(err)
	}
	g, err := Parse(string(text))
	if err != nil {
		tb.Fatal(err)
	}
	return g, string(text)
}

// TestPrintMedianGrammar: a compiled grammar read back prints byte for
// byte as it was written, and validates.
func TestPrintMedianGrammar(t *testing.T) {
	g, text := medianGrammar(t)
	if got := g.String(); got != text {
		t.Errorf("printed differently:\n%s", got)
	}
	if err := Validate(g); err != nil {
		t.Error(err)
	}
}

// TestPrintConcurrent: the printer's pooled buffers are never shared
// between prints running at the same time, nor leak into a later print
// (run with -race).
func TestPrintConcurrent(t *testing.T) {
	median, _ := medianGrammar(t)
	grammars := []*Grammar{median, nil}
	for _, c := range printCases {
		grammars = append(grammars, &Grammar{Rules: []*Rule{{Name: "root", Expr: c.expr}}})
	}
	want := make([]string, len(grammars))
	for i, g := range grammars {
		want[i] = g.String()
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for round := range 20 {
				for k := range grammars {
					i := (k*5 + w + round) % len(grammars)
					var b strings.Builder
					err := Print(&b, grammars[i])
					if got := grammars[i].StringAfter("# h"); got != "# h\n"+want[i] || err == nil && b.String() != want[i] {
						t.Errorf("grammar %d printed differently alongside others", i)
						return
					}
				}
			}
		})
	}
	wg.Wait()
}

func BenchmarkPrintMedian(b *testing.B) {
	g, text := medianGrammar(b)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		_ = g.StringAfter("# header")
	}
}

func BenchmarkValidateMedian(b *testing.B) {
	g, _ := medianGrammar(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := Validate(g); err != nil {
			b.Fatal(err)
		}
	}
}

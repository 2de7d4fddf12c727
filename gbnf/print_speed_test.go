package gbnf

import "testing"

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

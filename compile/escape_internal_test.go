package compile

import (
	"testing"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

func TestMayHoldNonASCII(t *testing.T) {
	for text, want := range map[string]bool{
		``:                                    false,
		`{"type":"string"}`:                   false,
		`{"a\"b":"x\\y\/\b\f\n\r\t"}`:         false,
		`{"enum":["\u0041\u007f"]}`:           false,
		`{"description":"a long ASCII text"}`: false,
		`{"enum":["\u0080"]}`:                 true,
		`{"enum":["\u00e9"]}`:                 true,
		`{"enum":["\uD83D\uDE00"]}`:           true,
		`{"enum":["é"]}`:                      true,
		`{"padding to pass eight bytes":"é"}`: true,
		`{"yaml": "\x41"}`:                    true, // not JSON: YAML's escape, taken as "may"
		`{"cut": "\u00`:                       true,
		`\`:                                   true,
	} {
		if got := mayHoldNonASCII([]byte(text)); got != want {
			t.Errorf("mayHoldNonASCII(%s) = %v, want %v", text, got, want)
		}
	}
}

// nonASCIILits counts the literals of g holding a non-ASCII code point
// without the escape beside it, and those beside their escape.
func nonASCIILits(g *gbnf.Grammar) (bare, escaped int) {
	var walk func(e gbnf.Expr)
	walk = func(e gbnf.Expr) {
		switch e := e.(type) {
		case *gbnf.Lit:
			for _, r := range e.Text {
				if r >= 0x80 {
					bare++
				}
			}
		case *gbnf.Alt:
			if len(e.Alts) == 2 {
				a, ok1 := e.Alts[0].(*gbnf.Lit)
				b, ok2 := e.Alts[1].(*gbnf.Lit)
				if ok1 && ok2 && len([]rune(a.Text)) == 1 && []rune(a.Text)[0] >= 0x80 && b.Text == unicodeEscape([]rune(a.Text)[0]) {
					escaped++
					return
				}
			}
			for _, x := range e.Alts {
				walk(x)
			}
		case *gbnf.Seq:
			for _, x := range e.Items {
				walk(x)
			}
		case *gbnf.Repeat:
			walk(e.Expr)
		}
	}
	for _, r := range g.Rules {
		walk(r.Expr)
	}
	return bare, escaped
}

// TestEscapePass: a non-ASCII literal never stands without its escape; a
// schema whose strings are all ASCII, backslashes or not, has none at all
// (its grammar is as it was before the pass).
func TestEscapePass(t *testing.T) {
	for _, c := range []struct {
		schema  string
		escaped bool
	}{
		{`{"type":"object","properties":{"a\"b":{"const":"x\\y"},"sl/ash":{"enum":["\u0041","\n"]}},"description":"tab\there"}`, false},
		{`{"enum":["plain"],"description":"\u00e9 only in a description"}`, false},
		{`{"type":"object","properties":{"名前":{"type":"string"}}}`, true},
		{`{"enum":["\u00e9", "x"]}`, true},
		{`{"const":{"ü":["😀"]}}`, true},
	} {
		doc, err := subsetcheck.Read("s", []byte(c.schema), subsetcheck.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		checked, err := subsetcheck.Check(doc, subsetcheck.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, ws := range []Whitespace{Bounded, Compact} {
			g, err := Compile(checked, Options{Whitespace: ws})
			if err != nil {
				t.Fatal(err)
			}
			bare, escaped := nonASCIILits(g)
			if bare != 0 || (escaped > 0) != c.escaped {
				t.Errorf("%s: %d non-ASCII literals bare, %d beside their escape\n%s", c.schema, bare, escaped, g)
			}
		}
	}
}

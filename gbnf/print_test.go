package gbnf

import (
	"strings"
	"testing"
)

func mkLit(s string) *Lit           { return &Lit{Text: s} }
func mkRef(s string) *Ref           { return &Ref{Name: s} }
func mkSeq(items ...Expr) *Seq      { return &Seq{Items: items} }
func mkAlt(alts ...Expr) *Alt       { return &Alt{Alts: alts} }
func mkRep(e Expr, lo, hi int) Expr { return &Repeat{Expr: e, Min: lo, Max: hi} }
func mkClass(neg bool, rs ...rune) *Class {
	c := &Class{Negated: neg}
	for i := 0; i+1 < len(rs); i += 2 {
		c.Ranges = append(c.Ranges, Range{rs[i], rs[i+1]})
	}
	return c
}

// printCases: one rule body each, printed as "root ::= <want>".
var printCases = []struct {
	expr Expr
	want string
}{
	// literals
	{mkLit("a"), `"a"`},
	{mkLit(`say "hi" \ bye`), `"say \"hi\" \\ bye"`},
	{mkLit("\t\r\n"), `"\t\r\n"`},
	{mkLit("\x00\x01\x1f\x7f"), `"\x00\x01\x1F\x7F"`},
	{mkLit("\u0085\u00a0"), `"\x85\xA0"`},
	{mkLit("é€😀"), `"é€😀"`},
	{mkLit("\ufffd\u2028\ufeff\u200b"), `"\uFFFD\u2028\uFEFF\u200B"`},
	{mkLit("\U000E0001"), `"\U000E0001"`},
	{mkLit("[]^-#()|*"), `"[]^-#()|*"`},
	{mkLit(""), `""`},
	// classes
	{mkClass(false, 'a', 'z'), `[a-z]`},
	{mkClass(true, 'a', 'z', '_', '_'), `[^a-z_]`},
	{mkClass(false, ']', ']', '[', '[', '\\', '\\'), `[\]\[\\]`},
	{mkClass(false, '^', '^', 'a', 'a'), `[\x5Ea]`},
	{mkClass(false, 'a', 'a', '^', '^'), `[a^]`},
	{mkClass(true, '^', '^'), `[^^]`},
	{mkClass(false, '-', '-', 'a', 'a'), `[-a]`},
	{mkClass(false, 'a', 'a', '-', '-'), `[a\x2D]`},
	{mkClass(false, 'a', 'a', '-', '-', 'z', 'z'), `[a\x2Dz]`},
	{mkClass(false, '-', 'z'), `[--z]`},
	{mkClass(false, '!', '-'), `[!-\x2D]`},
	{mkClass(false, 'z', 'a'), `[z-a]`},
	{mkClass(false, '"', '"', ' ', ' ', '#', '#'), `[" #]`},
	{mkClass(false, 0, 0x1f, 0x7f, 0x9f), `[\x00-\x1F\x7F-\x9F]`},
	{mkClass(false, '\t', '\t', '\n', '\n', '\r', '\r'), `[\t\n\r]`},
	{mkClass(false, 0xD800, 0xDFFF), `[\uD800-\uDFFF]`},
	{mkClass(true, 0x10FFFF, 0x110000), `[^\U0010FFFF-\U00110000]`},
	{mkClass(false, 'é', 'é', 0x4E00, 0x9FFF), `[é一-鿿]`},
	// structure and parentheses
	{&Any{}, `.`},
	{mkRef("x-1"), `x-1`},
	{mkSeq(mkLit("a"), mkRef("b"), &Any{}), `"a" b .`},
	{mkAlt(mkLit("a"), mkSeq(mkLit("b"), mkLit("c"))), `"a" | "b" "c"`},
	{mkSeq(mkLit("a"), mkAlt(mkLit("b"), mkLit("c"))), `"a" ("b" | "c")`},
	{mkAlt(mkLit("a"), mkAlt(mkLit("b"), mkLit("c"))), `"a" | "b" | "c"`},
	{mkSeq(mkSeq(mkLit("a"), mkLit("b")), mkLit("c")), `"a" "b" "c"`},
	{mkSeq(mkLit("a")), `"a"`},
	{mkAlt(mkSeq(mkAlt(mkLit("a")))), `"a"`},
	{mkSeq(), `""`},
	{mkAlt(mkSeq(), mkLit("a")), `"" | "a"`},
	{mkAlt(mkLit("a"), mkSeq()), `"a" | ""`},
	{mkSeq(mkLit("a"), mkSeq(), mkLit("b")), `"a" "" "b"`},
	// repetition
	{mkRep(mkLit("a"), 0, -1), `"a"*`},
	{mkRep(mkLit("a"), 1, -1), `"a"+`},
	{mkRep(mkLit("a"), 0, 1), `"a"?`},
	{mkRep(mkLit("a"), 2, 2), `"a"{2}`},
	{mkRep(mkLit("a"), 1, 1), `"a"{1}`},
	{mkRep(mkLit("a"), 0, 0), `"a"{0}`},
	{mkRep(mkLit("a"), 2, -1), `"a"{2,}`},
	{mkRep(mkLit("a"), 0, 5), `"a"{0,5}`},
	{mkRep(mkLit("a"), 2, 5), `"a"{2,5}`},
	{mkRep(mkLit("ab"), 0, -1), `"ab"*`},
	{mkRep(mkSeq(mkLit("a"), mkLit("b")), 0, -1), `("a" "b")*`},
	{mkRep(mkAlt(mkLit("a"), mkLit("b")), 1, -1), `("a" | "b")+`},
	{mkRep(mkSeq(mkLit("a")), 0, 1), `"a"?`},
	{mkRep(mkRep(mkLit("a"), 0, -1), 0, 1), `"a"*?`},
	{mkRep(mkRep(mkLit("a"), 0, 0), 0, -1), `("a"{0})*`},
	{mkRep(mkSeq(), 0, -1), `()*`},
	{mkRep(mkLit(""), 0, 1), `()?`},
	{mkRep(mkClass(false, 'a', 'z'), 1, 3), `[a-z]{1,3}`},
	{mkSeq(mkRep(mkRef("x"), 0, -1), mkAlt(mkLit("a"), mkRep(&Any{}, 0, 1))), `x* ("a" | .?)`},
}

func TestPrint(t *testing.T) {
	for _, c := range printCases {
		g := &Grammar{Rules: []*Rule{{Name: "root", Expr: c.expr}}}
		var b strings.Builder
		if err := Print(&b, g); err != nil {
			t.Errorf("%s: %v", astDump(g), err)
			continue
		}
		if want := "root ::= " + c.want + "\n"; b.String() != want {
			t.Errorf("%s:\n got %q\nwant %q", astDump(g), b.String(), want)
		}
	}
}

// TestPrintParses: every printed case is read back by the parser as the
// same language; the parser normalizes, so compare after one more round.
func TestPrintParses(t *testing.T) {
	for _, c := range printCases {
		g := &Grammar{Rules: []*Rule{{Name: "root", Expr: c.expr}, {Name: "b", Expr: mkLit("b")}, {Name: "x", Expr: mkLit("x")}, {Name: "x-1", Expr: mkLit("x")}}}
		if Validate(g) != nil {
			continue // printable but refused by llama.cpp, e.g. ()*
		}
		text := g.String()
		g2, err := Parse(text)
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		if text2 := g2.String(); astDump(g2) != astDump(mustParse(t, text2)) {
			t.Errorf("%q printed again as %q does not parse the same", text, text2)
		}
	}
}

func mustParse(t *testing.T, text string) *Grammar {
	t.Helper()
	g, err := Parse(text)
	if err != nil {
		t.Fatalf("%q: %v", text, err)
	}
	return g
}

// TestEscapeRoundTrip: every interesting code point, alone in a literal,
// in a class and as either end of a range, comes back from the parser as
// the same code point.
func TestEscapeRoundTrip(t *testing.T) {
	var points []rune
	for r := rune(0); r < 0x300; r++ {
		points = append(points, r)
	}
	points = append(points, 0x2028, 0xD7FF, 0xD800, 0xDFFF, 0xE000, 0xFEFF, 0xFFFD, 0xFFFE, 0xFFFF,
		0x10000, 0x1F600, 0xE0001, 0x10FFFF, 0x110000)
	for _, r := range points {
		cases := []Expr{
			mkClass(false, r, r), mkClass(true, r, r),
			mkClass(false, 'a', 'a', r, r), mkClass(false, r, r, 'a', 'a'),
			mkClass(false, ' ', r), mkClass(false, r, 0x110000),
		}
		if r <= 0x10FFFF && (r < 0xD800 || r > 0xDFFF) {
			cases = append(cases, mkLit(string(r)), mkLit("a"+string(r)+"b"))
		}
		for _, e := range cases {
			g := &Grammar{Rules: []*Rule{{Name: "root", Expr: e}}}
			text := g.String()
			g2, err := Parse(text)
			if err != nil {
				t.Errorf("U+%04X: %q: %v", r, text, err)
			} else if astDump(g2) != astDump(g) {
				t.Errorf("U+%04X: %q parsed as %s, want %s", r, text, astDump(g2), astDump(g))
			}
		}
	}
}

func TestPrintRefuses(t *testing.T) {
	cases := []struct {
		g    *Grammar
		want string
	}{
		{nil, "nil grammar"},
		{&Grammar{Rules: []*Rule{nil}}, "rule 0 is nil"},
		{&Grammar{Rules: []*Rule{{Name: "root_1", Expr: mkLit("a")}}}, `rule name "root_1" is not a GBNF name`},
		{&Grammar{Rules: []*Rule{{Name: "", Expr: mkLit("a")}}}, `rule name "" is not a GBNF name`},
		{&Grammar{Rules: []*Rule{{Name: "root"}}}, "rule root: nil expression"},
		{&Grammar{Rules: []*Rule{{Name: "root", Expr: &Class{}}}}, "class without ranges"},
		{&Grammar{Rules: []*Rule{{Name: "root", Expr: &Class{Negated: true}}}}, "class without ranges"},
		{&Grammar{Rules: []*Rule{{Name: "root", Expr: &Alt{}}}}, "choice without alternatives"},
		{&Grammar{Rules: []*Rule{{Name: "root", Expr: mkSeq(mkLit("a"), nil)}}}, "nil expression"},
		{&Grammar{Rules: []*Rule{{Name: "root", Expr: mkRef("a b")}}}, "reference without a valid GBNF name"},
		{&Grammar{Rules: []*Rule{{Name: "root", Expr: mkRep(mkLit("a"), -1, 2)}}}, "repeat bounds {-1,2}"},
		{&Grammar{Rules: []*Rule{{Name: "root", Expr: mkRep(mkLit("a"), 0, -2)}}}, "repeat bounds {0,-2}"},
		{&Grammar{Rules: []*Rule{{Name: "root", Expr: mkLit("\xff")}}}, "not valid UTF-8"},
		{&Grammar{Rules: []*Rule{{Name: "root", Expr: mkClass(false, -1, 5)}}}, "negative code point"},
	}
	for _, c := range cases {
		var b strings.Builder
		err := Print(&b, c.g)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Print: error %v, want one containing %q", err, c.want)
		}
		if b.Len() != 0 {
			t.Errorf("Print wrote %q before failing", b.String())
		}
		if s := c.g.String(); !strings.HasPrefix(s, "# gbnf: cannot print grammar: ") {
			t.Errorf("String: %q", s)
		}
	}
}

func TestPrintOrderAndDeterminism(t *testing.T) {
	g := &Grammar{Rules: []*Rule{
		{Name: "root", Expr: mkSeq(mkRef("b"), mkRef("a"))},
		{Name: "b", Expr: mkLit("b")},
		{Name: "a", Expr: mkLit("a")},
	}}
	want := "root ::= b a\nb ::= \"b\"\na ::= \"a\"\n"
	for i := 0; i < 3; i++ {
		if got := g.String(); got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
}

package regex

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// mustParse reads a GBNF grammar text for a test.
func mustParse(t testing.TB, text string) *gbnf.Grammar {
	t.Helper()
	g, err := gbnf.Parse(text)
	if err != nil {
		t.Fatalf("parse %q: %v", text, err)
	}
	return g
}

// mustEmit emits g's regex and compiles it for a full match in Go.
func mustEmit(t testing.TB, g *gbnf.Grammar, opts Options) (string, *regexp.Regexp) {
	t.Helper()
	re, err := Emit(g, opts)
	if err != nil {
		t.Fatalf("Emit(%s): %v", g, err)
	}
	rx, err := regexp.Compile(Anchored(re))
	if err != nil {
		t.Fatalf("Go cannot compile %q: %v", re, err)
	}
	return re, rx
}

// agree fails when the regex and the GBNF matcher disagree on text, and
// returns the verdict.
func agree(t testing.TB, g *gbnf.Grammar, m *gbnf.Matcher, re string, rx *regexp.Regexp, text string) bool {
	t.Helper()
	want := m.Match(text).Accepted
	if got := rx.MatchString(text); got != want {
		t.Errorf("disagreement on text %q\ngrammar:\n%s\nregex: %s\nregex says %v, matcher says %v", text, g, re, got, want)
	}
	return want
}

func newMatcher(t testing.TB, g *gbnf.Grammar) *gbnf.Matcher {
	t.Helper()
	m, err := gbnf.NewMatcher(g)
	if err != nil {
		t.Fatalf("matcher: %v", err)
	}
	return m
}

// TestEmitText pins the printed form: escaping, grouping and the chosen
// repetition forms.
func TestEmitText(t *testing.T) {
	tests := []struct{ grammar, want string }{
		{`root ::= "abc"`, `abc`},
		{`root ::= ""`, ``},
		{`root ::= "a.b*c+d?e(f)g|h[i]j{k}l^m$n\\o"`, `a\.b\*c\+d\?e\(f\)g\|h\[i\]j\{k\}l\^m\$n\\o`},
		{`root ::= "-&~#/ "`, `-&~#/ `},
		{`root ::= "\t\n\x7f\u0085\u00a0é😀"`, "\\x09\\x0a\\x7f\\x85\u00a0é😀"},
		{`root ::= [a-z]`, `[a-z]`},
		{`root ::= [ab]`, `[ab]`},
		{`root ::= [\]\\^&~|[-]`, `[\&\-\[-\^\|\~]`},
		{`root ::= [^a]`, `[^\x00a]`},
		{`root ::= .`, `[^\x00]`},
		{`root ::= [\x00-\x1f]`, `[\x01-\x1f]`},
		{`root ::= [^"\\\x00-\x1f]`, `[^\x00-\x1f"\\]`},
		{"root ::= [\\U0000D000-\\U0000E100]", "[\uD000-\uD7FF\uE000-\uE100]"},
		{`root ::= "a" | "b" | "cd"`, `[ab]|cd`},
		{`root ::= ("a" | "bc") "d"`, `(?:a|bc)d`},
		{`root ::= "ab"*`, `(?:ab)*`},
		{`root ::= "a"* "b"+ "c"? "d"{3} "e"{2,} "f"{2,5} "g"{0,1}`, `a*b+c?d{3}e{2,}f{2,5}g?`},
		{`root ::= ("a"{2}){3}`, `(?:a{2}){3}`},
		{`root ::= "a" | ""`, `a?`},
		{`root ::= ("a"*){2,3}`, `a*`},
		{`root ::= ("a"?){2,4}`, `a{0,4}`},
		{`root ::= x x
x ::= "a" | "b"`, `[ab][ab]`},
		{`root ::= "a"{0,1500}`, `a{0,1000}a{0,500}`},
		{`root ::= ("a"{50}){50}`, `(?:a{20}a{20}a{10}){50}`},
		{`root ::= "a" "\x00"?`, `a`},
	}
	for _, tc := range tests {
		re, err := Emit(mustParse(t, tc.grammar), Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.grammar, err)
			continue
		}
		if re != tc.want {
			t.Errorf("%s\n got %s\nwant %s", tc.grammar, re, tc.want)
		}
	}
}

// TestEmitMatches checks verdicts on chosen texts; each must also agree
// with the GBNF matcher.
func TestEmitMatches(t *testing.T) {
	const jsonString = `root ::= "\"" ( [^"\\\x00-\x1f] | "\\" ( ["\\/bfnrt] | "u" [0-9a-fA-F]{4} ) )* "\""`
	tests := []struct {
		grammar string
		text    string
		want    bool
	}{
		{`root ::= "abc"`, "abc", true},
		{`root ::= "abc"`, "abcd", false},
		{`root ::= "abc"`, "abc\n", false},
		{`root ::= "abc"`, "ab", false},
		{`root ::= ""`, "", true},
		{`root ::= ""`, "\n", false},
		{`root ::= [^a]`, "\n", true},
		{`root ::= [^a]`, "a", false},
		{`root ::= [^a]`, "\x00", false},
		{`root ::= .`, "\x00", false},
		{`root ::= .`, "😀", true},
		{`root ::= .`, "\U0010FFFF", true},
		{`root ::= .`, "\xff", true}, // invalid UTF-8: U+FFFD in both
		{`root ::= [^\uFFFD]`, "\xff", false},
		{`root ::= [\]\\^&~|[-]`, "&", true},
		{`root ::= [\]\\^&~|[-]`, "-", true},
		{`root ::= [\]\\^&~|[-]`, "a", false},
		{jsonString, `"a\"b\\c\u00e9"`, true},
		{jsonString, `"a"b"`, false},
		{jsonString, "\"\t\"", false},
		{jsonString, "\"\x7f\"", true},
		{`root ::= "a"{0,1500}`, strings.Repeat("a", 1500), true},
		{`root ::= "a"{0,1500}`, strings.Repeat("a", 1501), false},
		{`root ::= "a"{1200,1500}`, strings.Repeat("a", 1199), false},
		{`root ::= "a"{1200,1500}`, strings.Repeat("a", 1200), true},
		{`root ::= "a"{1200,}`, strings.Repeat("a", 5000), true},
		{`root ::= ("a"{50}){50}`, strings.Repeat("a", 2500), true},
		{`root ::= ("a"{50}){50}`, strings.Repeat("a", 2499), false},
		{`root ::= ("ab"{3,7}){4,5}`, strings.Repeat("ab", 35), true},
		{`root ::= ("ab"{3,7}){4,5}`, strings.Repeat("ab", 36), false},
		{`root ::= ("ab"{3,7}){4,5}`, strings.Repeat("ab", 11), false},
		{`root ::= ("ab"{3,7}){4,5}`, strings.Repeat("ab", 12), true},
		{`root ::= ("x"{600}){3}`, strings.Repeat("x", 1800), true},
		{`root ::= ("x"{600}){3}`, strings.Repeat("x", 1799), false},
		{`root ::= "a" "\x00"?`, "a", true},
	}
	for _, tc := range tests {
		g := mustParse(t, tc.grammar)
		re, rx := mustEmit(t, g, Options{})
		if got := agree(t, g, newMatcher(t, g), re, rx, tc.text); got != tc.want {
			t.Errorf("%s on %q: matcher says %v, test wants %v", tc.grammar, tc.text, got, tc.want)
		}
	}
}

func TestEmitErrors(t *testing.T) {
	tests := []struct {
		grammar string
		opts    Options
		code    subsetcheck.Code
		message string // a part of the message
	}{
		{`root ::= "[" root? "]"`, Options{}, CodeRecursive, "root -> root"},
		{"root ::= v\nv ::= \"[\" a \"]\" | \"x\"\na ::= v (\",\" v)*", Options{}, CodeRecursive, "v -> a -> v"},
		{`root ::= "a" root`, Options{MaxDepth: 5}, CodeNoText, "depth 5"},
		{`root ::= "a"{1000} "b"{1000}`, Options{MaxBytes: 10}, CodeTooLarge, "MaxBytes"},
		{`root ::= (((("a" "b"*)*"c")*"d")*"e")*`, Options{MaxNesting: 5}, CodeTooDeep, "MaxNesting"},
		{"root ::= v\nv ::= \"[\" v \",\" v \"]\" | \"x\"", Options{MaxDepth: 40}, CodeTooLarge, "MaxBytes"},
		{"root ::= x x x x x x x x x x\nx ::= y y y y y y y y y y\ny ::= z z z z z z z z z z\nz ::= [a-z]{3}", Options{MaxBytes: 1000}, CodeTooLarge, "MaxBytes"},
	}
	for _, tc := range tests {
		_, err := Emit(mustParse(t, tc.grammar), tc.opts)
		var list subsetcheck.ErrorList
		if !errors.As(err, &list) || len(list) != 1 {
			t.Errorf("%s: want one problem %s, got %v", tc.grammar, tc.code, err)
			continue
		}
		if list[0].Code != tc.code || !strings.Contains(list[0].Message, tc.message) {
			t.Errorf("%s: want %s containing %q, got %v", tc.grammar, tc.code, tc.message, list[0])
		}
	}
}

// TestEmitBuiltErrors covers grammars Parse would refuse.
func TestEmitBuiltErrors(t *testing.T) {
	tests := []struct {
		name string
		g    *gbnf.Grammar
		code subsetcheck.Code
	}{
		{"nil grammar", nil, CodeInvalidGrammar},
		{"no root", &gbnf.Grammar{Rules: []*gbnf.Rule{{Name: "x", Expr: &gbnf.Lit{Text: "a"}}}}, CodeInvalidGrammar},
		{"undefined rule", &gbnf.Grammar{Rules: []*gbnf.Rule{{Name: "root", Expr: &gbnf.Ref{Name: "x"}}}}, CodeInvalidGrammar},
		{"nil rule", &gbnf.Grammar{Rules: []*gbnf.Rule{nil}}, CodeInvalidGrammar},
		{"nil expr", &gbnf.Grammar{Rules: []*gbnf.Rule{{Name: "root"}}}, CodeInvalidGrammar},
		{"nil lit", &gbnf.Grammar{Rules: []*gbnf.Rule{{Name: "root", Expr: &gbnf.Seq{Items: []gbnf.Expr{(*gbnf.Lit)(nil)}}}}}, CodeInvalidGrammar},
		{"empty class", &gbnf.Grammar{Rules: []*gbnf.Rule{{Name: "root", Expr: &gbnf.Class{}}}}, CodeNoText},
		{"huge count", &gbnf.Grammar{Rules: []*gbnf.Rule{{Name: "root", Expr: &gbnf.Repeat{Expr: &gbnf.Lit{Text: "a"}, Min: 1 << 40, Max: -1}}}}, CodeTooLarge},
		{"deep expression", &gbnf.Grammar{Rules: []*gbnf.Rule{{Name: "root", Expr: deepSeq(30000)}}}, CodeTooDeep},
	}
	for _, tc := range tests {
		_, err := Emit(tc.g, Options{})
		var list subsetcheck.ErrorList
		if !errors.As(err, &list) || len(list) != 1 || list[0].Code != tc.code {
			t.Errorf("%s: want %s, got %v", tc.name, tc.code, err)
		}
	}
}

// TestEmitReversedBounds: {m,n} with n < m means {m}, as in llama.cpp
// (the parser refuses it in text; a built grammar may hold it).
func TestEmitReversedBounds(t *testing.T) {
	g := &gbnf.Grammar{Rules: []*gbnf.Rule{{Name: "root", Expr: &gbnf.Seq{Items: []gbnf.Expr{
		&gbnf.Repeat{Expr: &gbnf.Lit{Text: "a"}, Min: 2, Max: 1},
		&gbnf.Repeat{Expr: &gbnf.Lit{Text: "b"}, Min: 3, Max: 0},
	}}}}}
	if re, err := Emit(g, Options{}); re != "a{2}b{3}" || err != nil {
		t.Errorf("got %q, %v; want a{2}b{3}", re, err)
	}
}

func deepSeq(n int) gbnf.Expr {
	var e gbnf.Expr = &gbnf.Lit{Text: "a"}
	for range n {
		e = &gbnf.Seq{Items: []gbnf.Expr{e, &gbnf.Lit{Text: "b"}}}
	}
	return e
}

// TestMaxDepth checks the unrolling: exact up to the depth, nothing deeper.
func TestMaxDepth(t *testing.T) {
	g := mustParse(t, "root ::= v\nv ::= \"[\" (v (\",\" v)*)? \"]\" | \"x\"")
	m := newMatcher(t, g)
	tests := []struct {
		depth int
		text  string
		want  bool
	}{
		{1, "x", true},
		{1, "[]", true},
		{1, "[x]", false},
		{2, "[x,x]", true},
		{2, "[[]]", true},
		{2, "[[x]]", false},
		{3, "[[x],[],x]", true},
		{3, "[[[]]]", true},
		{3, "[[[x]]]", false},
		{3, "[[[[]]]]", false},
		{3, "[[x],[],x", false},
		{8, "[[[[[[[x]]]]]]]", true},
		{8, "[[[[[[[[x]]]]]]]]", false},
	}
	for _, tc := range tests {
		re, rx := mustEmit(t, g, Options{MaxDepth: tc.depth})
		got := rx.MatchString(tc.text)
		if got != tc.want {
			t.Errorf("depth %d, %q: got %v, want %v (regex %s)", tc.depth, tc.text, got, tc.want, re)
		}
		if got && !m.Accepts(tc.text) {
			t.Errorf("depth %d, %q: the regex accepts what the grammar does not", tc.depth, tc.text)
		}
	}
}

func TestDeterministic(t *testing.T) {
	text := "root ::= a b a\na ::= \"x\" | [0-9]{2,40} | b\nb ::= (\"q\" | \"r\" \"s\")*"
	first, _ := Emit(mustParse(t, text), Options{})
	for range 20 {
		if re, _ := Emit(mustParse(t, text), Options{}); re != first {
			t.Fatalf("two runs differ:\n%s\n%s", first, re)
		}
	}
}

package gbnf

import (
	"errors"
	"strings"
	"testing"
)

// Small constructors so test grammars read almost like GBNF.

func lit(s string) Expr         { return &Lit{Text: s} }
func ref(name string) Expr      { return &Ref{Name: name} }
func seq(items ...Expr) Expr    { return &Seq{Items: items} }
func alt(alts ...Expr) Expr     { return &Alt{Alts: alts} }
func anyc() Expr                { return &Any{} }
func star(e Expr) Expr          { return &Repeat{Expr: e, Min: 0, Max: -1} }
func plus(e Expr) Expr          { return &Repeat{Expr: e, Min: 1, Max: -1} }
func opt(e Expr) Expr           { return &Repeat{Expr: e, Min: 0, Max: 1} }
func rep(e Expr, m, n int) Expr { return &Repeat{Expr: e, Min: m, Max: n} }

// cls reads a class body as GBNF writes it between brackets, without
// escapes: "^a-z_" is [^a-z_].
func cls(spec string) Expr {
	c := &Class{}
	rs := []rune(spec)
	if len(rs) > 0 && rs[0] == '^' {
		c.Negated = true
		rs = rs[1:]
	}
	for i := 0; i < len(rs); i++ {
		if i+2 < len(rs) && rs[i+1] == '-' {
			c.Ranges = append(c.Ranges, Range{rs[i], rs[i+2]})
			i += 2
			continue
		}
		c.Ranges = append(c.Ranges, Range{rs[i], rs[i]})
	}
	return c
}

// gram builds a grammar from name, expr pairs; the first is root.
func gram(pairs ...any) *Grammar {
	g := &Grammar{}
	for i := 0; i+1 < len(pairs); i += 2 {
		g.Rules = append(g.Rules, &Rule{Name: pairs[i].(string), Expr: pairs[i+1].(Expr)})
	}
	return g
}

func root(e Expr) *Grammar { return gram("root", e) }

// jsonGrammar is a JSON grammar in the style llama.cpp's converter writes.
func jsonGrammar() *Grammar {
	ws := rep(cls(" \t\n"), 0, 20)
	return gram(
		"root", seq(ws, ref("value"), ws),
		"value", alt(ref("object"), ref("array"), ref("string"), ref("number"), lit("true"), lit("false"), lit("null")),
		"object", seq(lit("{"), ws, opt(seq(ref("member"), star(seq(lit(","), ws, ref("member"))))), lit("}")),
		"member", seq(ref("string"), ws, lit(":"), ws, ref("value"), ws),
		"array", seq(lit("["), ws, opt(seq(ref("value"), ws, star(seq(lit(","), ws, ref("value"), ws)))), lit("]")),
		"string", seq(lit(`"`), star(ref("char")), lit(`"`)),
		"char", alt(cls("^\"\\\x7f\x00-\x1f"), seq(lit(`\`), alt(cls(`"\/bfnrt`), seq(lit("u"), rep(cls("0-9a-fA-F"), 4, 4))))),
		"number", seq(opt(lit("-")), alt(lit("0"), seq(cls("1-9"), rep(cls("0-9"), 0, 15))), opt(seq(lit("."), rep(cls("0-9"), 1, 16))), opt(seq(cls("eE"), opt(cls("-+")), cls("1-9"), rep(cls("0-9"), 0, 15)))),
	)
}

// exprGrammar is arithmetic with precedence and parentheses.
func exprGrammar() *Grammar {
	return gram(
		"root", ref("sum"),
		"sum", seq(ref("product"), star(seq(cls("+-"), ref("product")))),
		"product", seq(ref("factor"), star(seq(cls("*/"), ref("factor")))),
		"factor", alt(plus(cls("0-9")), seq(lit("("), ref("sum"), lit(")")), seq(lit("-"), ref("factor"))),
	)
}

func TestMatch(t *testing.T) {
	ambiguous := gram("root", star(ref("x")), "x", alt(lit("a"), lit("aa"), seq(lit("a"), ref("x"))))
	nested := gram("root", ref("list"), "list", seq(lit("["), opt(seq(ref("item"), star(seq(lit(","), ref("item"))))), lit("]")), "item", alt(ref("list"), plus(cls("0-9"))))
	nullable := gram("root", seq(ref("e"), ref("e"), lit("x"), ref("e")), "e", alt(seq(), opt(lit("y"))))
	tests := []struct {
		name   string
		g      *Grammar
		text   string
		accept bool
		offset int
	}{
		{"literal", root(lit("abc")), "abc", true, 3},
		{"literal prefix", root(lit("abc")), "ab", false, 2},
		{"literal wrong", root(lit("abc")), "abd", false, 2},
		{"literal longer", root(lit("abc")), "abcd", false, 3},
		{"empty literal on empty", root(lit("")), "", true, 0},
		{"empty seq on text", root(seq()), "a", false, 0},
		{"empty alt matches nothing", root(alt()), "", false, 0},
		{"class", root(cls("a-c")), "b", true, 1},
		{"class edge", root(cls("a-c")), "c", true, 1},
		{"class out", root(cls("a-c")), "d", false, 0},
		{"negated class", root(cls("^a-c")), "d", true, 1},
		{"negated class in", root(cls("^a-c")), "a", false, 0},
		{"negated class non-ASCII", root(cls("^a-c")), "é", true, 2},
		{"reversed range", root(cls("c-a")), "b", false, 0},
		{"reversed range in negation", root(cls("^c-a")), "b", true, 1},
		{"any", root(anyc()), "\n", true, 1},
		{"any non-ASCII", root(anyc()), "😀", true, 4},
		{"any two", root(anyc()), "ab", false, 1},
		{"any on empty", root(anyc()), "", false, 0},
		{"NUL never matches any", root(star(anyc())), "ab\x00c", false, 2},
		{"NUL never matches negation", root(star(cls("^a"))), "\x00", false, 0},
		{"NUL never matches a NUL class", root(cls("\x00-a")), "\x00", false, 0},
		{"NUL literal", root(lit("\x00")), "\x00", false, 0},
		{"star empty", root(star(lit("ab"))), "", true, 0},
		{"star many", root(star(lit("ab"))), "ababab", true, 6},
		{"star partial", root(star(lit("ab"))), "aba", false, 3},
		{"plus empty", root(plus(lit("a"))), "", false, 0},
		{"opt", root(seq(opt(lit("a")), lit("b"))), "b", true, 1},
		{"{3} short", root(rep(lit("a"), 3, 3)), "aa", false, 2},
		{"{3}", root(rep(lit("a"), 3, 3)), "aaa", true, 3},
		{"{3} long", root(rep(lit("a"), 3, 3)), "aaaa", false, 3},
		{"{2,} at min", root(rep(lit("a"), 2, -1)), "aa", true, 2},
		{"{2,} many", root(rep(lit("a"), 2, -1)), strings.Repeat("a", 50), true, 50},
		{"{2,} short", root(rep(lit("a"), 2, -1)), "a", false, 1},
		{"{1,3} 3", root(rep(lit("a"), 1, 3)), "aaa", true, 3},
		{"{1,3} 4", root(rep(lit("a"), 1, 3)), "aaaa", false, 3},
		{"{0,0}", root(rep(lit("a"), 0, 0)), "", true, 0},
		{"{0,0} a", root(rep(lit("a"), 0, 0)), "a", false, 0},
		{"{3,1} is {3}", root(rep(lit("a"), 3, 1)), "aaa", true, 3},
		{"{3,1} not 1", root(rep(lit("a"), 3, 1)), "a", false, 1},
		{"{3,1} not 4", root(rep(lit("a"), 3, 1)), "aaaa", false, 3},
		{"big repeat full", root(rep(cls("a-z"), 0, 3000)), strings.Repeat("x", 3000), true, 3000},
		{"big repeat over", root(rep(cls("a-z"), 0, 3000)), strings.Repeat("x", 3001), false, 3000},
		{"big repeat of a rule", gram("root", rep(ref("w"), 2, 2000), "w", seq(lit("<"), star(cls("a-z")), lit(">"))), strings.Repeat("<ab>", 2000), true, 8000},
		{"hoisted body", root(rep(seq(lit("<abcdefgh"), star(cls("a-z")), lit(">")), 2, 3)), "<abcdefghx><abcdefgh>", true, 21},
		{"hoisted body short", root(rep(seq(lit("<abcdefgh"), star(cls("a-z")), lit(">")), 2, 3)), "<abcdefgh>", false, 10},
		{"hoisted body long", root(rep(seq(lit("<abcdefgh"), star(cls("a-z")), lit(">")), 2, 3)), strings.Repeat("<abcdefgh>", 4), false, 30},
		{"hoisted nullable body", root(seq(rep(opt(lit("abcdefghij")), 1, 3), lit("z"))), "abcdefghijabcdefghijz", true, 21},
		{"hoisted ambiguous body", root(rep(alt(lit("abcde"), lit("ab"), lit("cde"), lit("abcdeab")), 2, 2)), "abcdeabcde", true, 10},
		{"nested repeat", root(rep(rep(lit("a"), 1, 3), 2, 2)), "aaaa", true, 4},
		{"nested repeat too long", root(rep(rep(lit("a"), 1, 3), 2, 2)), "aaaaaaa", false, 6},
		{"nullable repeat body", root(seq(star(opt(lit("a"))), lit("b"))), "aab", true, 3},
		{"nullable rules", nullable, "x", true, 1},
		{"nullable rules yyxy", nullable, "yyxy", true, 4},
		{"nullable rules yyy", nullable, "yyyx", false, 2},
		{"nullable rules yxy", nullable, "yxy", true, 3},
		{"ambiguous", ambiguous, strings.Repeat("a", 40), true, 40},
		{"ambiguous reject", ambiguous, strings.Repeat("a", 40) + "b", false, 40},
		{"nested lists", nested, "[[1,[2,[]]],33]", true, 15},
		{"nested lists unclosed", nested, "[[1,[2,[]]],33", false, 14},
		{"nested lists bad", nested, "[[1,,2]]", false, 4},
		{"arithmetic", exprGrammar(), "1+2*(3-4)/-5", true, 12},
		{"arithmetic bad", exprGrammar(), "1+*2", false, 2},
		{"arithmetic open", exprGrammar(), "(1+2", false, 4},
		{"json", jsonGrammar(), `{"a": [1, -2.5e10, true, null, "x\u00e9\n"], "b": {}}`, true, 53},
		{"json bad escape", jsonGrammar(), `["\x"]`, false, 3},
		{"json leading zero", jsonGrammar(), `[01]`, false, 2},
		{"non-ASCII literal", root(lit("héllo")), "héllo", true, 6},
		{"non-ASCII class range", root(plus(cls("α-ω"))), "λμ", true, 4},
		{"non-ASCII class miss", root(plus(cls("α-ω"))), "λA", false, 2},
		{"astral range", root(cls("😀-😏")), "😎", true, 4},
		{"invalid byte is U+FFFD", root(lit("\uFFFD")), "\xff", true, 1},
		{"invalid byte vs any", root(seq(lit("a"), anyc(), lit("b"))), "a\xffb", true, 3},
		{"truncated sequence is one U+FFFD per byte", root(star(lit("\uFFFD"))), "\xe2\x82", true, 2},
		{"truncated sequence count", root(lit("\uFFFD")), "\xe2\x82", false, 1},
		{"surrogate encoding is U+FFFD per byte", root(rep(cls("^a"), 3, 3)), "\xed\xa0\x80", true, 3},
		{"overlong NUL is not NUL", root(rep(lit("\uFFFD"), 2, 2)), "\xc0\x80", true, 2},
		{"empty text accepted", root(star(lit("a"))), "", true, 0},
		{"empty text rejected", root(lit("a")), "", false, 0},
		{"later definition wins", gram("root", ref("x"), "x", lit("a"), "x", lit("b")), "b", true, 1},
		{"recursive root", gram("root", alt(seq(), seq(lit("("), ref("root"), lit(")")))), "((()))", true, 6},
		{"right recursion", gram("root", alt(lit("a"), seq(lit("a"), ref("root")))), strings.Repeat("a", 500), true, 500},
	}
	for _, tc := range tests {
		m, err := NewMatcher(tc.g)
		if err != nil {
			t.Errorf("%s: NewMatcher: %v", tc.name, err)
			continue
		}
		got := m.Match(tc.text)
		if got.Accepted != tc.accept || got.Offset != tc.offset {
			t.Errorf("%s: Match(%q) = %+v, want {Accepted:%v Offset:%d}", tc.name, tc.text, got, tc.accept, tc.offset)
		}
		if m.Accepts(tc.text) != tc.accept {
			t.Errorf("%s: Accepts(%q) disagrees with Match", tc.name, tc.text)
		}
	}
}

func TestNewMatcherRefuses(t *testing.T) {
	tests := []struct {
		name string
		g    *Grammar
		want string
	}{
		{"nil grammar", nil, "nil grammar"},
		{"no root", gram("x", lit("a")), `no rule named "root"`},
		{"undefined rule", root(seq(lit("a"), ref("nope"))), `undefined rule "nope"`},
		{"direct left recursion", root(alt(lit("a"), seq(ref("root"), lit("a")))), "left recursion"},
		{"indirect left recursion", gram("root", seq(ref("x"), lit("a")), "x", alt(lit("b"), ref("root"))), "left recursion"},
		{"left recursion behind nullable", gram("root", seq(ref("n"), ref("root"), lit("a")), "n", opt(lit("b"))), "left recursion"},
		{"left recursion in a repeat", root(seq(star(ref("root")), lit("a"))), "left recursion"},
		{"nil expression", root(seq(nil)), "nil expression"},
	}
	for _, tc := range tests {
		m, err := NewMatcher(tc.g)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: NewMatcher = %v, %v; want error containing %q", tc.name, m, err, tc.want)
		}
	}
}

func TestMatcherLimits(t *testing.T) {
	big := root(rep(rep(lit("a"), 0, 1000), 0, 1000)) // hoisting keeps this small
	if _, err := NewMatcher(big); err != nil {
		t.Errorf("nested bounded repeats: %v", err)
	}
	tests := []struct {
		name  string
		g     *Grammar
		lim   MatcherLimits
		text  string
		limit string
	}{
		{"states", root(rep(cls("a-z"), 0, 5000)), MatcherLimits{MaxStates: 1000}, "", "MaxStates"},
		{"huge count", root(rep(lit("a"), 1<<40, -1)), MatcherLimits{}, "", "MaxStates"},
		{"closure", root(rep(opt(lit("a")), 0, 3000)), MatcherLimits{MaxClosure: 100000}, "", "MaxClosure"},
		{"depth", root(opt(opt(opt(opt(lit("a")))))), MatcherLimits{MaxExprDepth: 3}, "", "MaxExprDepth"},
		{"items", gram("root", star(ref("x")), "x", alt(lit("a"), seq(lit("a"), ref("x")))), MatcherLimits{MaxItems: 5000}, strings.Repeat("a", 500), "MaxItems"},
	}
	for _, tc := range tests {
		m, err := NewMatcherLimits(tc.g, tc.lim)
		if err == nil {
			_, err = m.Check(tc.text)
		}
		var le *MatcherLimitError
		if !errors.As(err, &le) || le.Limit != tc.limit {
			t.Errorf("%s: err = %v, want limit %s", tc.name, err, tc.limit)
		}
	}
}

// TestMatchParsed runs grammars written as GBNF text through the parser.
func TestMatchParsed(t *testing.T) {
	tests := []struct {
		grammar, text string
		accept        bool
	}{
		{`root ::= "a" [b-d]* "e"`, "abcde", true},
		{`root ::= ("ab" | "a")* "b"`, "abab", true},
		{`root ::= x{2,4}` + "\n" + `x ::= "x" | "y"`, "xyx", true},
		{`root ::= x{2,4}` + "\n" + `x ::= "x" | "y"`, "xyxyx", false},
		{`root ::= [^\x00-\x1f"]+`, "é\"", false},
	}
	for _, tc := range tests {
		g, err := Parse(tc.grammar)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.grammar, err)
			continue
		}
		m, err := NewMatcher(g)
		if err != nil {
			t.Errorf("NewMatcher(%q): %v", tc.grammar, err)
			continue
		}
		if got := m.Accepts(tc.text); got != tc.accept {
			t.Errorf("grammar %q, text %q: accepted %v, want %v", tc.grammar, tc.text, got, tc.accept)
		}
	}
}

// TestMatchConcurrent shares one Matcher between goroutines, each with its
// own texts, and checks every verdict (run with -race).
func TestMatchConcurrent(t *testing.T) {
	m, err := NewMatcher(jsonGrammar())
	if err != nil {
		t.Fatal(err)
	}
	texts := []struct {
		text   string
		accept bool
	}{
		{`{"a": [1, 2, {"b": null}]}`, true},
		{`{"a": [1, 2, {"b": nul}]}`, false},
		{`"é\u00e9"`, true},
		{`[1,]`, false},
	}
	done := make(chan bool)
	for g := range 4 {
		go func() {
			ok := true
			for i := range 200 {
				tc := texts[(g+i)%len(texts)]
				ok = ok && m.Accepts(tc.text) == tc.accept
			}
			done <- ok
		}()
	}
	for range 4 {
		if !<-done {
			t.Error("a concurrent Match gave a wrong verdict")
		}
	}
}

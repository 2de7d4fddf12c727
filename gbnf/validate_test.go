package gbnf

import (
	"strings"
	"testing"
)

// rules builds a grammar from name, expr pairs.
func rules(pairs ...any) *Grammar {
	g := &Grammar{}
	for i := 0; i+1 < len(pairs); i += 2 {
		e, _ := pairs[i+1].(Expr)
		g.Rules = append(g.Rules, &Rule{Name: pairs[i].(string), Expr: e})
	}
	return g
}

// validateCases: built grammars and the error Validate must give ("" for none).
var validateCases = []struct {
	g    *Grammar
	want string
}{
	{rules("root", mkLit("a")), ""},
	{rules("root", mkSeq(mkRef("x"), mkLit("a")), "x", mkAlt(mkSeq(), mkLit("b"))), ""},
	{rules("root", mkSeq(mkLit("a"), mkRef("root")), "root", mkLit("b")), ""},
	{rules("root", mkSeq(mkLit("a"), mkRef("root"))), ""},
	{rules("root", mkRep(mkRef("root"), 0, 0)), ""},
	{rules("root", mkRep(mkSeq(), 2, 5)), ""},
	{rules("root", mkClass(false, 'z', 'a')), ""},
	{rules("root", mkLit("")), ""},
	{nil, "nil grammar"},
	{&Grammar{}, "no rule named root"},
	{rules("x", mkLit("a")), "no rule named root"},
	{rules("root", mkRef("x")), "rule root: undefined rule x"},
	{rules("root", mkLit("a"), "x", mkRef("y")), "rule x: undefined rule y"},
	{rules("root_1", mkLit("a")), `rule name "root_1" is not a GBNF name`},
	{rules("", mkLit("a")), `rule name "" is not a GBNF name`},
	{rules("root", mkRef("a.b")), `reference "a.b" is not a GBNF name`},
	{rules("root", nil), "rule root: nil expression"},
	{rules("root", mkSeq(mkLit("a"), nil)), "nil expression"},
	{rules("root", &Class{}), "character class without ranges"},
	{rules("root", &Alt{}), "choice without alternatives"},
	{rules("root", mkLit("\xff")), "literal is not valid UTF-8"},
	{rules("root", mkRep(mkLit("a"), 3, 2)), "repeat bounds {3,2} are not 0 <= min <= max"},
	{rules("root", mkRep(mkLit("a"), -1, 2)), "repeat bounds {-1,2}"},
	{rules("root", mkRep(mkLit("a"), 0, -2)), "repeat bounds {0,-2}"},
	{rules("root", mkClass(false, -5, 3)), "negative code point"},
	{&Grammar{Rules: []*Rule{nil, {Name: "root", Expr: mkLit("a")}}}, "rule 0 is nil"},
	// left recursion, direct and behind nullable prefixes
	{rules("root", mkSeq(mkRef("root"), mkLit("a"))), "left recursion: root -> root"},
	{rules("root", mkAlt(mkLit("a"), mkSeq(mkRef("root"), mkLit("a")))), "left recursion: root -> root"},
	{rules("root", mkRef("a"), "a", mkRef("b"), "b", mkSeq(mkRef("a"), mkLit("x"))), "left recursion: a -> b -> a"},
	{rules("root", mkSeq(mkRef("e"), mkRef("root")), "e", mkSeq()), "left recursion: root -> root"},
	{rules("root", mkSeq(mkRef("e"), mkRef("root")), "e", mkRef("f"), "f", mkAlt(mkLit("x"), mkLit(""))), "left recursion: root -> root"},
	{rules("root", mkSeq(mkRep(mkLit("a"), 0, 3), mkRef("root"))), "left recursion: root -> root"},
	{rules("root", mkSeq(mkRep(mkLit("a"), 0, 0), mkRef("root"))), "left recursion: root -> root"},
	{rules("root", mkRep(mkAlt(mkLit("a"), mkRef("root")), 1, 3)), "left recursion: root -> root"},
	// unbounded repetition of a nullable item: llama.cpp makes it left-recursive
	{rules("root", mkRep(mkSeq(), 0, -1)), "*, + or {m,} over an item that can match the empty string"},
	{rules("root", mkRep(mkRep(mkLit("a"), 0, 1), 1, -1)), "over an item that can match the empty string"},
	{rules("root", mkRep(mkRef("e"), 3, -1), "e", mkAlt(mkLit("a"), mkSeq())), "over an item that can match the empty string"},
	// a later definition wins, as in llama.cpp; its references count
	{rules("root", mkLit("a"), "root", mkSeq(mkRef("root"), mkLit("a"))), "left recursion: root -> root"},
	{rules("root", mkSeq(mkRef("root"), mkLit("a")), "root", mkLit("a")), ""},
}

func TestValidate(t *testing.T) {
	for _, c := range validateCases {
		err := Validate(c.g)
		name := "nil"
		if c.g != nil {
			name = astDump(c.g)
		}
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one containing %q", name, err, c.want)
		}
	}
}

// TestValidateAll: every problem is reported, in position order.
func TestValidateAll(t *testing.T) {
	_, err := Parse("root ::= x y\nz ::= w\n")
	list, ok := err.(ErrorList)
	if !ok || len(list) != 3 {
		t.Fatalf("error %v, want 3 problems", err)
	}
	want := "1:10: rule root: undefined rule x\n1:12: rule root: undefined rule y\n2:7: rule z: undefined rule w"
	if err.Error() != want {
		t.Errorf("got\n%s\nwant\n%s", err, want)
	}
}

// TestValidateLongChain: a long chain of nullable rules is handled without
// deep recursion or quadratic passes.
func TestValidateLongChain(t *testing.T) {
	const n = 50000
	g := &Grammar{}
	g.Rules = append(g.Rules, &Rule{Name: "root", Expr: mkSeq(mkRef("r0"), mkRef("root"))})
	for i := 0; i < n; i++ {
		next := Expr(mkRef("r" + itoa(i+1)))
		if i == n-1 {
			next = mkAlt(mkLit("a"), mkSeq())
		}
		g.Rules = append(g.Rules, &Rule{Name: "r" + itoa(i), Expr: next})
	}
	err := Validate(g)
	if err == nil || !strings.Contains(err.Error(), "left recursion: root -> root") {
		t.Errorf("error %v", err)
	}
}

func itoa(i int) string {
	var b []byte
	for {
		b = append([]byte{byte('0' + i%10)}, b...)
		i /= 10
		if i == 0 {
			return string(b)
		}
	}
}

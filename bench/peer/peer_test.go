package main

import (
	"testing"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

func TestStripPeerSuffix(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"root ::= \"{\" \"}\" \"\\n\\n\\n\\n\" [\\n]*\nx ::= \"a\"", "root ::= \"{\" \"}\"\nx ::= \"a\"", true},
		{"x ::= \"a\"\nroot ::= x \"\\n\\n\\n\\n\" [\\n]*", "x ::= \"a\"\nroot ::= x", true},
		{"root ::= \"a\"", "root ::= \"a\"", false},
		{"x ::= \"b\" \"\\n\\n\\n\\n\" [\\n]*\nroot ::= x", "x ::= \"b\" \"\\n\\n\\n\\n\" [\\n]*\nroot ::= x", false},
	} {
		got, ok := stripPeerSuffix(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("stripPeerSuffix(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestCountRules(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"", 0},
		{"root ::= x\nx ::= \"a\"\n", 2},
		{"root ::= \"a ::= b\"", 1},
		{"root ::= (\n  \"a\"\n)", 1},
	} {
		if got := countRules(tc.in); got != tc.want {
			t.Errorf("countRules(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// The stand-in sampler's texts must be accepted by the grammar they came from.
func TestWalkerTextsAccepted(t *testing.T) {
	for _, src := range []string{
		`root ::= "a"`,
		`root ::= "[" (v ("," v)*)? "]"` + "\n" + `v ::= [0-9]+ | root`,
		`root ::= [^"\\]{2,5} | "x"?`,
		`root ::= "\"" ([a-z]{100}){0,3} [a-z]{0,99} "\""`,
		`root ::= obj` + "\n" + `obj ::= "{" ("\"k\":" (obj | "1"))? "}"`,
	} {
		g, err := gbnf.Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		m, err := gbnf.NewMatcher(g)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		w := newWalker(g, 7)
		for i := 0; i < 50; i++ {
			text, ok := w.sample(300)
			if !ok || !m.Match(text).Accepted {
				t.Errorf("%s: sample %q (ok=%v) not accepted", src, text, ok)
			}
		}
	}
}

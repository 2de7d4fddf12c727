package main

import "testing"

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

package main

import (
	"sort"
	"strings"
	"testing"
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

func TestCopiesFor(t *testing.T) {
	for _, tc := range []struct{ runes, minRunes, want int }{
		{0, 4000, 1},
		{5000, 4000, 1},
		{4000, 4000, 1},
		{1000, 4000, 4},
		{999, 4000, 5},
		{10, 4000, 64}, // at most 64 copies
		{100, 0, 1},
	} {
		if got := copiesFor(tc.runes, tc.minRunes); got != tc.want {
			t.Errorf("copiesFor(%d, %d) = %d, want %d", tc.runes, tc.minRunes, got, tc.want)
		}
	}
}

func TestRepeat(t *testing.T) {
	if got := strings.Join(repeat([]string{"a", "b"}, 3), ","); got != "a,b,a,b,a,b" {
		t.Errorf("repeat = %s", got)
	}
}

// samplePeer returns distinct texts the grammar accepts.
func TestSamplePeer(t *testing.T) {
	for _, tc := range []struct {
		grammar string
		n       int
		want    string
	}{
		{`root ::= "a" | "b"`, 8, "a,b"},
		{`root ::= "a" | "a"`, 4, "a"}, // distinct texts only
		{`root ::= "{" ( "\"x\":" [0-1] )? "}"`, 8, `{"x":0},{"x":1},{}`},
	} {
		got, err := samplePeer(tc.grammar, tc.n, 100)
		if err != nil {
			t.Fatalf("%s: %v", tc.grammar, err)
		}
		sort.Strings(got)
		if strings.Join(got, ",") != tc.want {
			t.Errorf("samplePeer(%s, %d) = %q, want %s", tc.grammar, tc.n, got, tc.want)
		}
	}
	if _, err := samplePeer(`root ::= undefined`, 4, 100); err == nil {
		t.Errorf("samplePeer of a broken grammar: no error")
	}
}

package main

import (
	"strings"
	"testing"
)

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

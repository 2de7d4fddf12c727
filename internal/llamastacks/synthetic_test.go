package llamastacks

import (
	"strings"
	"testing"
)

// The grammars EngineNanos was fitted on: k alternatives that all take the
// same letters keep k+1 stacks alive along a string (k readings and the
// closing quote), build about k² stacks per code point and compare about
// k³/2 in llama.cpp's linear duplicate check. Node timed 465, 1243, 3896,
// 14228 and 60365 ns per code point for k = 1, 2, 4, 8, 16.
func TestAmbiguityMultiplies(t *testing.T) {
	text := `"` + strings.Repeat("abcdefghij", 100) + `"`
	for _, c := range []struct {
		k, stacks, built, compares int // the last two per code point, rounded down
	}{
		{1, 2, 3, 0},
		{2, 3, 9, 11},
		{4, 5, 27, 84},
		{8, 9, 87, 601},
		{16, 17, 303, 4462},
	} {
		g, err := Parse(`root ::= "\"" c* "\""` + "\nc ::= [a-j]" + strings.Repeat(" | [a-j]", c.k-1) + "\n")
		if err != nil {
			t.Fatal(err)
		}
		cost, err := g.Run(text)
		if err != nil || !cost.Accepted {
			t.Fatalf("k=%d: %+v %v", c.k, cost, err)
		}
		n := cost.CodePoints
		if cost.MaxStacks != c.stacks || cost.Built/n != c.built || cost.Compares/n != c.compares {
			t.Errorf("k=%d: %d stacks, %d built/cp, %d compares/cp; want %d, %d, %d",
				c.k, cost.MaxStacks, cost.Built/n, cost.Compares/n, c.stacks, c.built, c.compares)
		}
	}
}

package gbnf

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// firstByDFS is the first sets as a search from every nonterminal finds
// them: what the strongly connected components must give.
func firstByDFS(p *matchProg) [][]Range {
	n := len(p.ntStart)
	out := make([][]Range, n)
	for nt := range n {
		seen := map[int32]bool{int32(nt): true}
		stack := []int32{int32(nt)}
		var rs []Range
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			s := p.ntStart[x]
			for _, t := range p.clos[p.closOff[s]:p.closOff[s+1]] {
				switch p.kind[t] {
				case kindTerm:
					rs = append(rs, p.setRanges[p.arg[t]]...)
				case kindCall:
					if c := p.arg[t]; !seen[c] {
						seen[c] = true
						stack = append(stack, c)
					}
				}
			}
		}
		out[nt] = normalRanges(rs, false)
	}
	return out
}

// TestFirstSets: the first sets built from the call graph's components
// equal a search from every nonterminal, on the grammars of testdata/gbnf
// and on chains and cycles of calls.
func TestFirstSets(t *testing.T) {
	var grammars []string
	files, _ := filepath.Glob("../testdata/gbnf/*.txtar")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, sec := range txtar.Parse(b).Files {
			if strings.HasSuffix(sec.Name, ".gbnf") {
				grammars = append(grammars, string(sec.Data))
			}
		}
	}
	// A chain, as an object of optional members compiles, and a lattice of
	// shared callees, some nullable.
	var chain, lattice strings.Builder
	chain.WriteString("root ::= \"{\" r0 \"}\"\n")
	lattice.WriteString("root ::= c0 \"!\"\n")
	for i := range 300 {
		fmt.Fprintf(&chain, "r%d ::= \"k%d\" n%d | r%d\nn%d ::= \",\" r%d | \"\"\n", i, i, i+1, i+1, i+1, i+1)
		fmt.Fprintf(&lattice, "c%d ::= c%d c%d | c%d? \"%c\" | \"\"\n", i, i+1, i+2, i+3, 'a'+rune(i%26))
	}
	chain.WriteString("r300 ::= \"end\"\nn300 ::= \"\"\n")
	lattice.WriteString("c300 ::= \"z\"\nc301 ::= [0-9]\nc302 ::= \"\"\n")
	synthetic := []string{chain.String(), lattice.String()}
	grammars = append(grammars, synthetic...)
	checked := 0
	for i, text := range grammars {
		mustCheck := i >= len(grammars)-len(synthetic)
		g, err := Parse(text)
		if err == nil {
			var p *matchProg
			if p, err = compileProg(g, MatcherLimits{}.withDefaults()); err == nil {
				err = sameFirst(p, text)
			}
			if err == nil {
				checked++
			}
		}
		if err != nil && mustCheck {
			t.Fatal(err)
		}
	}
	t.Logf("%d grammars checked", checked)
	if checked < 30 {
		t.Fatalf("only %d grammars checked", checked)
	}
}

// sameFirst compares the first sets with a search's.
func sameFirst(p *matchProg, text string) error {
	want := firstByDFS(p)
	for nt := range want {
		if !slices.Equal(p.firstRanges[nt], want[nt]) {
			return fmt.Errorf("first(%s) = %v, a search finds %v\n%s", p.ntName[nt], p.firstRanges[nt], want[nt], text)
		}
	}
	return nil
}

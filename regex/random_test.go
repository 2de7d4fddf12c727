package regex

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/regex/dialects"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// alphabet holds the code points random grammars and texts are made of:
// a few letters, every character some dialect treats specially, controls,
// and non-ASCII up to the last code point.
var alphabet = []rune("abc\\][^-&~|.*+?(){}$#\"/ \n\t\x7f\u0085\u00a0é😀\U0010FFFF\uFFFD")

// grammarGen makes random grammars over alphabet.
type grammarGen struct {
	r         *rand.Rand
	nRules    int
	recursive bool // let rules reference earlier rules and themselves
}

func (gg *grammarGen) grammar() *gbnf.Grammar {
	g := &gbnf.Grammar{}
	for i := range gg.nRules {
		name := "root"
		if i > 0 {
			name = fmt.Sprintf("r%d", i)
		}
		g.Rules = append(g.Rules, &gbnf.Rule{Name: name, Expr: gg.expr(i, 0)})
	}
	return g
}

func (gg *grammarGen) expr(rule, depth int) gbnf.Expr {
	r := gg.r
	k := r.IntN(10)
	if depth >= 3 {
		k = 9
	}
	switch k {
	case 0, 1:
		n := 2 + r.IntN(2)
		alt := &gbnf.Alt{}
		for range n {
			alt.Alts = append(alt.Alts, gg.expr(rule, depth+1))
		}
		return alt
	case 2, 3:
		n := 2 + r.IntN(2)
		seq := &gbnf.Seq{}
		for range n {
			seq.Items = append(seq.Items, gg.expr(rule, depth+1))
		}
		return seq
	case 4, 5:
		bounds := [][2]int{{0, 1}, {0, -1}, {1, -1}, {2, 2}, {0, 3}, {2, 5}, {3, -1}, {1, 1}, {4, 2}, {0, 0}, {30, 40}, {0, 35}, {25, 45}}
		b := bounds[r.IntN(len(bounds))]
		return &gbnf.Repeat{Expr: gg.expr(rule, depth+1), Min: b[0], Max: b[1]}
	case 6:
		switch {
		case gg.recursive && r.IntN(3) == 0:
			return &gbnf.Ref{Name: gg.name(r.IntN(rule + 1))}
		case rule+1 < gg.nRules:
			return &gbnf.Ref{Name: gg.name(rule + 1 + r.IntN(gg.nRules-rule-1))}
		}
	}
	return gg.leaf()
}

func (gg *grammarGen) name(i int) string {
	if i == 0 {
		return "root"
	}
	return fmt.Sprintf("r%d", i)
}

func (gg *grammarGen) leaf() gbnf.Expr {
	r := gg.r
	switch r.IntN(20) {
	case 0:
		return &gbnf.Any{}
	case 1:
		return &gbnf.Lit{Text: ""}
	case 2, 3, 4, 5, 6, 7:
		c := &gbnf.Class{Negated: r.IntN(3) == 0}
		for range 1 + r.IntN(3) {
			lo := alphabet[r.IntN(len(alphabet))]
			hi := lo
			if r.IntN(2) == 0 {
				hi = alphabet[r.IntN(len(alphabet))]
			}
			c.Ranges = append(c.Ranges, gbnf.Range{Lo: min(lo, hi), Hi: max(lo, hi)})
		}
		return c
	}
	var b strings.Builder
	for range 1 + r.IntN(3) {
		b.WriteRune(alphabet[r.IntN(len(alphabet))])
	}
	return &gbnf.Lit{Text: b.String()}
}

// textGen makes texts from a grammar: derivations (with the deepest nesting
// of any rule they used) and near misses.
type textGen struct {
	r     *rand.Rand
	g     *gbnf.Grammar
	open  map[string]int
	depth int // deepest open count of any rule in this derivation
	work  int // derivation steps left for this text
}

func (tg *textGen) sample() (string, int) {
	tg.open, tg.depth, tg.work = map[string]int{}, 0, 2000
	var b strings.Builder
	tg.derive(&b, &gbnf.Ref{Name: "root"}, 0)
	return b.String(), tg.depth
}

func (tg *textGen) derive(b *strings.Builder, e gbnf.Expr, steps int) {
	r := tg.r
	tg.work--
	if steps > 200 || b.Len() > 5000 || tg.work < 0 {
		return // gives up: the text is then probably not in the grammar
	}
	switch e := e.(type) {
	case *gbnf.Alt:
		tg.derive(b, e.Alts[r.IntN(len(e.Alts))], steps+1)
	case *gbnf.Seq:
		for _, it := range e.Items {
			tg.derive(b, it, steps+1)
		}
	case *gbnf.Lit:
		b.WriteString(e.Text)
	case *gbnf.Any:
		b.WriteRune(alphabet[r.IntN(len(alphabet))])
	case *gbnf.Class:
		if !e.Negated && r.IntN(8) != 0 {
			rg := e.Ranges[r.IntN(len(e.Ranges))]
			c := rg.Lo + rune(r.IntN(int(rg.Hi-rg.Lo)+1))
			if utf8.ValidRune(c) {
				b.WriteRune(c)
				return
			}
		}
		b.WriteRune(alphabet[r.IntN(len(alphabet))])
	case *gbnf.Ref:
		tg.open[e.Name]++
		tg.depth = max(tg.depth, tg.open[e.Name])
		tg.derive(b, tg.g.Rule(e.Name).Expr, steps+1)
		tg.open[e.Name]--
	case *gbnf.Repeat:
		lo, hi := max(e.Min, 0), e.Max
		if hi >= 0 && hi < lo {
			hi = lo
		}
		n := lo + r.IntN(4)
		if hi >= 0 {
			n = min(n, hi)
			if r.IntN(4) == 0 {
				n = hi
			}
		}
		for range n {
			tg.derive(b, e.Expr, steps+1)
		}
	}
}

// mutate makes a near miss: one code point deleted, inserted or replaced,
// a piece doubled, or the text cut short.
func (tg *textGen) mutate(s string) string {
	r := tg.r
	rs := []rune(s)
	i := 0
	if len(rs) > 0 {
		i = r.IntN(len(rs))
	}
	c := alphabet[r.IntN(len(alphabet))]
	switch r.IntN(5) {
	case 0:
		if len(rs) > 0 {
			rs = append(rs[:i:i], rs[i+1:]...)
		}
	case 1:
		rs = append(rs[:i:i], append([]rune{c}, rs[i:]...)...)
	case 2:
		if len(rs) > 0 {
			rs[i] = c
		}
	case 3:
		j := i + r.IntN(len(rs)-i+1)
		rs = append(rs[:j:j], append(append([]rune(nil), rs[i:j]...), rs[j:]...)...)
	case 4:
		rs = rs[:i]
	}
	return string(rs)
}

// TestRandomGrammars compares the regex with the GBNF matcher on random
// grammars, their derivations and near misses, then replays a sample in
// Python's re.fullmatch and Rust's regex crate.
func TestRandomGrammars(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var py []dialects.Case
	grammars, texts, accepted := 0, 0, 0
	for i := range 120 {
		gg := &grammarGen{r: r, nRules: 1 + r.IntN(5)}
		g := gg.grammar()
		re, err := Emit(g, Options{})
		if err != nil {
			var list subsetcheck.ErrorList
			if errors.As(err, &list) && (list[0].Code == CodeNoText || list[0].Code == CodeTooLarge) {
				continue // a grammar of no text, or one whose repeats multiply past the size limit
			}
			t.Fatalf("grammar %d:\n%s\nEmit: %v", i, g, err)
		}
		rx := regexp.MustCompile(Anchored(re))
		m := newMatcher(t, g)
		grammars++
		tg := &textGen{r: r, g: g}
		for range 20 {
			s, _ := tg.sample()
			if r.IntN(2) == 0 {
				s = tg.mutate(s)
			}
			if len(s) > 400 {
				continue // long texts cost the matcher much and teach little
			}
			texts++
			ok := agree(t, g, m, re, rx, s)
			if ok {
				accepted++
			}
			if len(py) < 4000 && r.IntN(2) == 0 && len(re) < 20000 {
				py = append(py, dialects.Case{Re: re, Text: s, Want: ok})
			}
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d grammars, %d texts, %d accepted", grammars, texts, accepted)
	if grammars < 80 || accepted < texts/5 || accepted > texts*4/5 {
		t.Errorf("the random test lost its teeth: %d grammars, %d of %d texts accepted", grammars, accepted, texts)
	}
	t.Run("python", func(t *testing.T) { dialects.CheckPython(t, py) })
	t.Run("rust", func(t *testing.T) { dialects.CheckRust(t, py) })
}

// TestRandomRecursive checks unrolled recursive grammars: the regex accepts
// nothing the grammar rejects, and accepts every derivation that nests no
// deeper than MaxDepth.
func TestRandomRecursive(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	checked, within := 0, 0
	for range 150 {
		gg := &grammarGen{r: r, nRules: 1 + r.IntN(4), recursive: true}
		g := gg.grammar()
		depth := 1 + r.IntN(3)
		re, err := Emit(g, Options{MaxDepth: depth, MaxBytes: 200000})
		if err != nil {
			continue
		}
		rx := regexp.MustCompile(Anchored(re))
		m, err := gbnf.NewMatcher(g)
		if err != nil {
			continue // left recursion, which llama.cpp refuses too
		}
		tg := &textGen{r: r, g: g}
		for range 20 {
			s, d := tg.sample()
			mutated := r.IntN(3) == 0
			if mutated {
				s = tg.mutate(s)
			}
			if len(s) > 400 {
				continue
			}
			got, want := rx.MatchString(s), m.Accepts(s)
			checked++
			switch {
			case got && !want:
				t.Fatalf("regex accepts what the grammar rejects: %q\n%s\nregex %s", s, g, re)
			case !mutated && d <= depth && want:
				within++
				if !got {
					t.Fatalf("depth %d: regex rejects a derivation of depth %d: %q\n%s\nregex %s", depth, d, s, g, re)
				}
			}
		}
	}
	t.Logf("%d texts, %d derivations within the depth bound", checked, within)
	if within < 300 {
		t.Errorf("too few derivations within the bound: %d", within)
	}
}

// TestNestingLimitPython: the deepest regex MaxNesting lets through still
// compiles and matches in Python and Rust (and in Go).
func TestNestingLimitPython(t *testing.T) {
	var deepest string
	var deepestText string
	for levels := 1; ; levels++ {
		// root ::= ("xa" | "b" ("xa" | "b" (...)?)?)?, levels deep: unambiguous,
		// so Python's backtracking stays linear on the near miss
		var e gbnf.Expr = &gbnf.Lit{Text: "c"}
		text := "c"
		for range levels {
			e = &gbnf.Repeat{Expr: &gbnf.Alt{Alts: []gbnf.Expr{&gbnf.Lit{Text: "xa"}, &gbnf.Seq{Items: []gbnf.Expr{&gbnf.Lit{Text: "b"}, e}}}}, Min: 0, Max: 1}
			text = "b" + text
		}
		re, err := Emit(&gbnf.Grammar{Rules: []*gbnf.Rule{{Name: "root", Expr: e}}}, Options{})
		if err != nil {
			var list subsetcheck.ErrorList
			if !errors.As(err, &list) || list[0].Code != CodeTooDeep {
				t.Fatalf("levels %d: %v", levels, err)
			}
			break
		}
		deepest, deepestText = re, text
	}
	if !regexp.MustCompile(Anchored(deepest)).MatchString(deepestText) {
		t.Fatalf("Go rejects %q", deepestText)
	}
	cases := []dialects.Case{{Re: deepest, Text: deepestText, Want: true}, {Re: deepest, Text: deepestText + "x", Want: false}}
	t.Run("python", func(t *testing.T) { dialects.CheckPython(t, cases) })
	// Rust's parser has a nest limit of its own (250 by default), which
	// MaxNesting is set to respect.
	t.Run("rust", func(t *testing.T) { dialects.CheckRust(t, cases) })
}

// TestRandomRightLinear compares the regex with the GBNF matcher on random
// right-linear grammars: rules that refer to any rule, themselves included,
// but only at the end of an alternative (an automaton's states, as the
// compiler writes string languages). They are solved exactly, with no
// depth bound: regex and matcher must agree on every text.
func TestRandomRightLinear(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var py []dialects.Case
	grammars, texts, accepted := 0, 0, 0
	for i := range 150 {
		n := 1 + r.IntN(5)
		g := &gbnf.Grammar{}
		gg := &grammarGen{r: r, nRules: n}
		for k := range n {
			alt := &gbnf.Alt{}
			for range 1 + r.IntN(3) {
				seq := &gbnf.Seq{Items: []gbnf.Expr{gg.expr(n, 2)}} // no references: depth 2 of rule n
				if r.IntN(4) != 0 {
					seq.Items = append(seq.Items, &gbnf.Ref{Name: gg.name(r.IntN(n))})
				}
				alt.Alts = append(alt.Alts, seq)
			}
			if r.IntN(3) == 0 {
				alt.Alts = append(alt.Alts, &gbnf.Seq{})
			}
			g.Rules = append(g.Rules, &gbnf.Rule{Name: gg.name(k), Expr: alt})
		}
		re, err := Emit(g, Options{MaxBytes: 200000})
		if err != nil {
			var list subsetcheck.ErrorList
			if errors.As(err, &list) && (list[0].Code == CodeNoText || list[0].Code == CodeTooLarge) {
				continue
			}
			t.Fatalf("grammar %d:\n%s\nEmit: %v", i, g, err)
		}
		rx := regexp.MustCompile(Anchored(re))
		m, err := gbnf.NewMatcher(g)
		if err != nil {
			continue // left recursion through empty prefixes, which llama.cpp refuses too
		}
		grammars++
		tg := &textGen{r: r, g: g}
		for range 20 {
			s, _ := tg.sample()
			if r.IntN(2) == 0 {
				s = tg.mutate(s)
			}
			if len(s) > 400 {
				continue
			}
			texts++
			if agree(t, g, m, re, rx, s) {
				accepted++
			}
			// Python's re backtracks, and solved rules nest stars: short
			// texts only, or a late failure takes exponential time (Rust's
			// engine does not backtrack; it gets the same cases).
			if len(py) < 1000 && r.IntN(2) == 0 && len(re) < 5000 && utf8.RuneCountInString(s) <= 12 {
				py = append(py, dialects.Case{Re: re, Text: s, Want: m.Accepts(s)})
			}
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d grammars, %d texts, %d accepted", grammars, texts, accepted)
	if grammars < 80 || accepted < texts/5 || accepted > texts*4/5 {
		t.Errorf("the random test lost its teeth: %d grammars, %d of %d texts accepted", grammars, accepted, texts)
	}
	t.Run("python", func(t *testing.T) { dialects.CheckPython(t, py) })
	t.Run("rust", func(t *testing.T) { dialects.CheckRust(t, py) })
}

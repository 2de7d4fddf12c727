package main

import (
	"math"
	"math/rand/v2"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// walker draws random texts from a grammar by a random walk over its AST,
// steered by each rule's shortest text so that every walk ends within its
// budget. It is the stand-in used while gbnf has no sampler; callers keep
// only texts the matcher accepts.
type walker struct {
	g      *gbnf.Grammar
	rng    *rand.Rand
	minLen map[string]int // shortest text of each rule, in code points
}

const unreachable = math.MaxInt32

func newWalker(g *gbnf.Grammar, seed uint64) *walker {
	w := &walker{g: g, rng: rand.New(rand.NewPCG(seed, 1)), minLen: map[string]int{}}
	for _, r := range g.Rules {
		w.minLen[r.Name] = unreachable
	}
	for changed, round := true, 0; changed && round <= len(g.Rules)+1; round++ {
		changed = false
		for _, r := range g.Rules {
			if n := w.min(r.Expr); n < w.minLen[r.Name] {
				w.minLen[r.Name], changed = n, true
			}
		}
	}
	return w
}

func (w *walker) min(e gbnf.Expr) int {
	switch e := e.(type) {
	case *gbnf.Lit:
		return len([]rune(e.Text))
	case *gbnf.Class, *gbnf.Any:
		return 1
	case *gbnf.Ref:
		if n, ok := w.minLen[e.Name]; ok {
			return n
		}
		return unreachable
	case *gbnf.Seq:
		sum := 0
		for _, x := range e.Items {
			sum = min(sum+w.min(x), unreachable)
		}
		return sum
	case *gbnf.Alt:
		best := unreachable
		for _, x := range e.Alts {
			best = min(best, w.min(x))
		}
		return best
	case *gbnf.Repeat:
		return min(e.Min*w.min(e.Expr), unreachable)
	}
	return unreachable
}

// sample returns a text of the root rule of at most about budget code points.
func (w *walker) sample(budget int) (string, bool) {
	root := w.g.Rule("root")
	if root == nil || w.minLen["root"] > budget {
		return "", false
	}
	var out []rune
	w.walk(root.Expr, w.rng.IntN(budget+1-w.minLen["root"])+w.minLen["root"], 0, &out)
	return string(out), true
}

// walk appends a text of e to out using at most budget code points when it can.
func (w *walker) walk(e gbnf.Expr, budget, depth int, out *[]rune) {
	tight := depth > 60 // deep down, take the shortest way out
	switch e := e.(type) {
	case *gbnf.Lit:
		*out = append(*out, []rune(e.Text)...)
	case *gbnf.Any:
		*out = append(*out, 'a')
	case *gbnf.Class:
		*out = append(*out, w.member(e))
	case *gbnf.Ref:
		if r := w.g.Rule(e.Name); r != nil {
			w.walk(r.Expr, budget, depth+1, out)
		}
	case *gbnf.Seq:
		rest := 0
		for _, x := range e.Items {
			rest += w.min(x)
		}
		for _, x := range e.Items {
			rest -= w.min(x)
			before := len(*out)
			w.walk(x, budget-rest, depth+1, out)
			budget -= len(*out) - before
		}
	case *gbnf.Alt:
		var fit []gbnf.Expr
		best, bestLen := e.Alts[0], unreachable
		for _, x := range e.Alts {
			n := w.min(x)
			if n <= budget {
				fit = append(fit, x)
			}
			if n < bestLen {
				best, bestLen = x, n
			}
		}
		if !tight && len(fit) > 0 {
			best = fit[w.rng.IntN(len(fit))]
		}
		w.walk(best, budget, depth+1, out)
	case *gbnf.Repeat:
		one := max(w.min(e.Expr), 1)
		n := e.Min
		for !tight && (e.Max < 0 || n < e.Max) && n < e.Min+8 && (n+1)*one <= budget && w.rng.IntN(2) == 0 {
			n++
		}
		for i := 0; i < n; i++ {
			before := len(*out)
			w.walk(e.Expr, budget-(n-1-i)*one, depth+1, out)
			budget -= len(*out) - before
		}
	}
}

// member picks a code point of a class: a range edge or a random member.
func (w *walker) member(c *gbnf.Class) rune {
	if !c.Negated {
		if len(c.Ranges) == 0 {
			return 'a'
		}
		r := c.Ranges[w.rng.IntN(len(c.Ranges))]
		lo := max(r.Lo, 1) // never NUL
		if r.Hi < lo {
			return lo
		}
		return lo + rune(w.rng.IntN(int(r.Hi-lo)+1))
	}
	for _, cand := range []rune{rune(0x20 + w.rng.IntN(0x5f)), 'a', 'é', '中', '😀'} {
		in := false
		for _, r := range c.Ranges {
			if cand >= r.Lo && cand <= r.Hi {
				in = true
			}
		}
		if !in {
			return cand
		}
	}
	return 'a'
}

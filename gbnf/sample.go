package gbnf

import (
	"math/rand"
	"unicode/utf8"
)

// Sampler makes random texts that a grammar accepts, for testing grammars
// against validators. It is deterministic for a seed and not safe for
// concurrent use (it remembers what it has already visited).
type Sampler struct {
	info *grammarInfo
	rng  *rand.Rand

	ruleCost map[string]cost
	exprCost map[Expr]cost
	classSet map[*Class][]Range

	altSeen map[*Alt][]bool // alternatives already taken
	repSeen map[*Repeat]int // bit 0: took the fewest copies, bit 1: more
	reached map[string]bool // rules generated at least once

	shortest bool // Shortest is generating: no randomness
}

// cost is the shortest text an expression can produce, in code points, and
// the height of the derivation that produces it. Following the cheapest
// alternatives always ends because the height strictly decreases at every
// reference.
type cost struct{ n, height int }

// costInf marks an expression that produces no text at all (an empty
// alternative, a class with no member, a literal with NUL).
const costInf = 1 << 40

var infinite = cost{costInf, costInf}

func (a cost) less(b cost) bool { return a.n < b.n || a.n == b.n && a.height < b.height }

// samplerMaxDepth bounds how deep the sampler follows references and
// repetitions at random; below it, it takes the cheapest way out.
const samplerMaxDepth = 48

// samplerMaxExtra bounds the copies a repetition adds beyond its minimum when
// no bound or budget limits them, as with nullable bodies.
const samplerMaxExtra = 6

// NewSampler prepares g for sampling. It refuses grammars NewMatcher refuses
// and grammars whose root produces no text.
func NewSampler(g *Grammar, seed int64) (*Sampler, error) {
	info, err := analyzeGrammar(g, DefaultMaxExprDepth)
	if err != nil {
		return nil, err
	}
	if err := info.checkLeftRecursion(); err != nil {
		return nil, err
	}
	s := &Sampler{
		info:     info,
		rng:      rand.New(rand.NewSource(seed)),
		ruleCost: map[string]cost{},
		exprCost: map[Expr]cost{},
		classSet: map[*Class][]Range{},
		altSeen:  map[*Alt][]bool{},
		repSeen:  map[*Repeat]int{},
		reached:  map[string]bool{},
	}
	for _, name := range info.order {
		s.ruleCost[name] = infinite
	}
	// Costs only decrease and are well-founded, so this ends; a minimal
	// derivation never repeats a rule on a path, so few rounds are needed.
	for changed := true; changed; {
		changed = false
		for _, name := range info.order {
			if c := s.cost(info.rules[name].Expr, false); c.less(s.ruleCost[name]) {
				s.ruleCost[name] = c
				changed = true
			}
		}
	}
	if s.ruleCost["root"].n >= costInf {
		r := info.rules["root"]
		return nil, &MatcherError{Rule: "root", Pos: r.Pos, Reason: "the grammar accepts no text"}
	}
	return s, nil
}

// cost computes e's cost from the current rule costs; memo is set once the
// rule costs are final.
func (s *Sampler) cost(e Expr, memo bool) cost {
	if memo {
		if c, ok := s.exprCost[e]; ok {
			return c
		}
	}
	var c cost
	switch e := e.(type) {
	case *Alt:
		c = infinite
		for _, a := range e.Alts {
			if ac := s.cost(a, memo); ac.less(c) {
				c = ac
			}
		}
	case *Seq:
		for _, a := range e.Items {
			ac := s.cost(a, memo)
			c = cost{min(c.n+ac.n, costInf), max(c.height, ac.height)}
		}
	case *Lit:
		c = cost{utf8.RuneCountInString(e.Text), 0}
		for _, r := range e.Text {
			if r == 0 {
				c = infinite
			}
		}
	case *Class:
		if len(s.members(e)) == 0 {
			c = infinite
		} else {
			c = cost{1, 0}
		}
	case *Any:
		c = cost{1, 0}
	case *Ref:
		rc := s.ruleCost[e.Name]
		c = cost{rc.n, min(rc.height+1, costInf)}
	case *Repeat:
		lo, _ := effectiveBounds(e)
		if lo > 0 {
			xc := s.cost(e.Expr, memo)
			c = cost{min(satMul(xc.n, lo), costInf), xc.height}
			if xc.n >= costInf {
				c = infinite
			}
		}
	}
	if c.n >= costInf {
		c = infinite
	}
	if memo {
		s.exprCost[e] = c
	}
	return c
}

// members returns the code points a class can be sampled from: its matching
// ranges without NUL and without surrogates (which no Go string holds).
func (s *Sampler) members(c *Class) []Range {
	if rs, ok := s.classSet[c]; ok {
		return rs
	}
	var rs []Range
	for _, r := range normalRanges(c.Ranges, c.Negated) {
		if r.Lo < 0xD800 {
			rs = append(rs, Range{r.Lo, min(r.Hi, 0xD7FF)})
		}
		if r.Hi > 0xDFFF {
			rs = append(rs, Range{max(r.Lo, 0xE000), r.Hi})
		}
	}
	s.classSet[c] = rs
	return rs
}

// Sample returns a random text of at most maxRunes code points that the
// grammar accepts, or false when its shortest text is longer. Successive
// calls prefer alternatives not yet taken, so every reachable rule and
// alternative shows up over enough samples.
func (s *Sampler) Sample(maxRunes int) (string, bool) {
	if s.ruleCost["root"].n > maxRunes {
		return "", false
	}
	var out []rune
	s.reached["root"] = true
	s.gen(s.info.rules["root"].Expr, maxRunes, 0, &out)
	return string(out), true
}

// Shortest returns a shortest text the grammar accepts, the same one for
// the same grammar: at every choice the cheapest way (the first of equals),
// the fewest copies of a repetition, and from a class 'a', else '0', else
// its first member from the space on. Used to show a value that two
// grammars share.
func (s *Sampler) Shortest() string {
	s.shortest = true
	defer func() { s.shortest = false }()
	var out []rune
	s.gen(s.info.rules["root"].Expr, s.ruleCost["root"].n, 0, &out)
	return string(out)
}

// plainest is the member of rs that Shortest writes.
func plainest(rs []Range) rune {
	for _, want := range []rune{'a', '0'} {
		for _, r := range rs {
			if r.Lo <= want && want <= r.Hi {
				return want
			}
		}
	}
	for _, r := range rs {
		if r.Hi >= ' ' {
			return max(r.Lo, ' ')
		}
	}
	return rs[0].Lo
}

// gen appends to out a text of e of at most budget code points; budget is
// never below e's cost.
func (s *Sampler) gen(e Expr, budget, depth int, out *[]rune) {
	cheap := depth > samplerMaxDepth || s.shortest
	switch e := e.(type) {
	case *Lit:
		*out = append(*out, []rune(e.Text)...)
	case *Class:
		if s.shortest {
			*out = append(*out, plainest(s.members(e)))
			break
		}
		*out = append(*out, s.pick(s.members(e)))
	case *Any:
		if s.shortest {
			*out = append(*out, 'a')
			break
		}
		*out = append(*out, s.pick([]Range{{1, 0xD7FF}, {0xE000, utf8.MaxRune}}))
	case *Ref:
		s.reached[e.Name] = true
		s.gen(s.info.rules[e.Name].Expr, budget, depth+1, out)
	case *Seq:
		rest := 0
		for _, a := range e.Items {
			rest += s.cost(a, true).n
		}
		for _, a := range e.Items {
			rest -= s.cost(a, true).n
			start := len(*out)
			s.gen(a, budget-rest, depth, out)
			budget -= len(*out) - start
		}
	case *Alt:
		s.gen(e.Alts[s.chooseAlt(e, budget, cheap)], budget, depth+1, out)
	case *Repeat:
		lo, hi := effectiveBounds(e)
		each := s.cost(e.Expr, true).n
		count := lo
		if !cheap && each < costInf && hi != lo {
			count = s.chooseCount(e, lo, hi, each, budget)
		}
		for k := range count {
			start := len(*out)
			s.gen(e.Expr, budget-(count-1-k)*each, depth+1, out)
			budget -= len(*out) - start
		}
	}
}

// chooseAlt picks an affordable alternative: below the depth bound the
// cheapest one, else one not taken before, else any at random.
func (s *Sampler) chooseAlt(e *Alt, budget int, cheap bool) int {
	best, fresh, all := -1, []int(nil), []int(nil)
	seen := s.altSeen[e]
	if seen == nil {
		seen = make([]bool, len(e.Alts))
		s.altSeen[e] = seen
	}
	for i, a := range e.Alts {
		c := s.cost(a, true)
		if c.n > budget {
			continue
		}
		if best < 0 || c.less(s.cost(e.Alts[best], true)) {
			best = i
		}
		all = append(all, i)
		if !seen[i] {
			fresh = append(fresh, i)
		}
	}
	pick := best
	switch {
	case cheap:
	case len(fresh) > 0:
		pick = fresh[s.rng.Intn(len(fresh))]
	default:
		pick = all[s.rng.Intn(len(all))]
	}
	seen[pick] = true
	return pick
}

// chooseCount picks how many copies a repetition makes: the fewest and the
// most affordable at least once each, then mostly small counts.
func (s *Sampler) chooseCount(e *Repeat, lo, hi, each, budget int) int {
	most := lo + samplerMaxExtra
	if each > 0 {
		most = lo + (budget-lo*each)/each
	}
	if hi >= 0 {
		most = min(most, hi)
	}
	if most <= lo {
		return lo
	}
	seen := s.repSeen[e]
	switch {
	case seen&1 == 0:
		s.repSeen[e] |= 1
		return lo
	case seen&2 == 0:
		s.repSeen[e] |= 2
		return most
	}
	switch s.rng.Intn(8) {
	case 0:
		return lo
	case 1:
		return most
	}
	return lo + s.rng.Intn(min(most-lo, samplerMaxExtra)+1)
}

// pick returns a member of rs: half the time a range edge, else a random
// member of a random range.
func (s *Sampler) pick(rs []Range) rune {
	r := rs[s.rng.Intn(len(rs))]
	switch s.rng.Intn(4) {
	case 0:
		return r.Lo
	case 1:
		return r.Hi
	}
	return r.Lo + rune(s.rng.Int63n(int64(r.Hi-r.Lo)+1))
}

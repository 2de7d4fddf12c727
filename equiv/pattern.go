package equiv

import (
	"slices"

	"github.com/schema2gbnf/schema2gbnf/strlang"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Strings for pattern schemas: members of the string keywords' language
// (patterns, lengths) found by random walks of its automaton, at its
// length bounds and in its smallest members; and near misses, each one
// character inserted, deleted or changed at every position of a member.
// The language comes from strlang, as the compiler's does, but only picks
// the values: the oracle judges them by regexp2 on its own.

const (
	patternWalks     = 16  // random members per schema
	maxWalk          = 300 // code points of the longest walk: long enough for most bounds, short enough for a backtracking oracle
	maxNearMissChars = 40  // positions mutated in a long member: the first and last 20
	patternKeep      = 64  // values kept per pattern schema and side (keep)
)

// patternLanguage is the language of s's patterns and lengths, or nil when
// it passes strlang's limits (then only the usual strings are tried).
// Its $ref targets' string keywords hold too: they are intersected in.
func patternLanguage(s *subsetcheck.Schema) *strlang.Lang {
	l := strlang.All()
	var err error
	lo, hi := 0, -1
	for hops := 0; s != nil && hops < maxRefHops; s, hops = s.Ref, hops+1 {
		for _, p := range s.Patterns {
			if l, err = strlang.Intersect(l, p.Lang, strlang.Limits{}); err != nil {
				return nil
			}
		}
		lo = max(lo, s.MinLength)
		if s.MaxLength >= 0 && (hi < 0 || s.MaxLength < hi) {
			hi = s.MaxLength
		}
	}
	if l, err = strlang.WithLength(l, lo, hi, strlang.Limits{}); err != nil {
		return nil
	}
	return l
}

// patternStrings lists strings for a schema with patterns: members of its
// language when valid, near misses of them otherwise.
func (g *Generator) patternStrings(s *subsetcheck.Schema, valid bool) []string {
	l := patternLanguage(s)
	if l == nil {
		return nil
	}
	members := g.members(l)
	if valid {
		return members
	}
	var out []string
	for i, m := range members {
		if i >= 4 {
			break
		}
		out = append(out, nearMisses(l, m)...)
	}
	return out
}

// members are the language's strings worth trying: all of them when few,
// the shortest, random walks, and walks as long as the automaton allows
// (maxGenLength at most), which reach a maxLength bound.
func (g *Generator) members(l *strlang.Lang) []string {
	if l.IsEmpty() {
		return nil
	}
	if all, ok := l.Members(patternKeep); ok {
		return all
	}
	var out []string
	if s, ok := l.Shortest(); ok {
		out = append(out, s)
	}
	dist := distances(l)
	for i := 0; i < patternWalks; i++ {
		stop := []float64{0.3, 0.1, 0.02, 0}[i%4]
		if s, ok := g.walk(l, dist, stop); ok {
			out = append(out, s)
		}
	}
	return out
}

// walk is a random member of l: from state 0, a random edge and a random
// character of it, among the edges from which acceptance can still be
// reached; where the state accepts, it stops with probability stop (0:
// as late as it can, within maxWalk).
func (g *Generator) walk(l *strlang.Lang, dist []int, stop float64) (string, bool) {
	var b []rune
	q := 0
	for {
		if l.Accepting(q) && (g.rng.Float64() < stop || len(b) >= maxWalk) {
			return string(b), true
		}
		var ways []strlang.Edge
		for _, e := range l.Edges(q) {
			if dist[e.To] >= 0 && len(b)+1+dist[e.To] <= max(maxWalk, dist[0]) {
				ways = append(ways, e)
			}
		}
		if len(ways) == 0 {
			return string(b), l.Accepting(q)
		}
		e := ways[g.rng.IntN(len(ways))]
		b = append(b, g.pick(e.Set))
		q = e.To
	}
}

// pick is a character of set: its least or greatest, a character that
// converters get wrong when it is there, or a random one.
func (g *Generator) pick(set strlang.Set) rune {
	rs := set.Ranges()
	switch k := g.rng.IntN(6); {
	case k == 0:
		return rs[0].Lo
	case k == 1:
		return rs[len(rs)-1].Hi
	case k == 2:
		for _, c := range g.rng.Perm(len(charPool)) {
			if r := charPool[c]; set.Contains(r) {
				return r
			}
		}
	}
	r := rs[g.rng.IntN(len(rs))]
	return r.Lo + rune(g.rng.Int64N(int64(r.Hi-r.Lo)+1))
}

// distances is, per state, the fewest characters to acceptance (-1: none).
func distances(l *strlang.Lang) []int {
	n := l.NumStates()
	dist := make([]int, n)
	for q := range dist {
		dist[q] = -1
		if l.Accepting(q) {
			dist[q] = 0
		}
	}
	for changed := true; changed; {
		changed = false
		for q := range n {
			for _, e := range l.Edges(q) {
				if d := dist[e.To]; d >= 0 && (dist[q] < 0 || d+1 < dist[q]) {
					dist[q], changed = d+1, true
				}
			}
		}
	}
	return dist
}

// nearMisses are s with one character inserted, deleted or changed, at
// every position (at the first and last maxNearMissChars/2 of a long s),
// the characters chosen at each place from the edges of the automaton's
// state there: the ends of each edge's set, and one character no edge
// takes. Which of them are outside the language is for keep to sort out.
func nearMisses(l *strlang.Lang, s string) []string {
	rs := []rune(s)
	var out []string
	q := 0
	for i := 0; i <= len(rs); i++ {
		if i < maxNearMissChars/2 || i >= len(rs)-maxNearMissChars/2 {
			for _, c := range probeChars(l, q) {
				out = append(out, string(slices.Insert(slices.Clone(rs), i, c)))
				if i < len(rs) && c != rs[i] {
					changed := slices.Clone(rs)
					changed[i] = c
					out = append(out, string(changed))
				}
			}
			if i < len(rs) {
				out = append(out, string(slices.Delete(slices.Clone(rs), i, i+1)))
			}
		}
		if i < len(rs) {
			q = next(l, q, rs[i])
		}
	}
	return out
}

// probeChars are the characters tried at state q: each edge's least and
// greatest, and the least character no edge takes.
func probeChars(l *strlang.Lang, q int) []rune {
	var out []rune
	taken := strlang.NewSet()
	for _, e := range l.Edges(q) {
		rs := e.Set.Ranges()
		out = append(out, rs[0].Lo, rs[len(rs)-1].Hi)
		taken = taken.Union(e.Set)
	}
	if other := taken.Complement().Ranges(); len(other) > 0 {
		c := other[0].Lo
		if c == 0 && (other[0].Hi > 0 || len(other) > 1) { // NUL is never matched by llama.cpp; prefer another
			c = 1
			if other[0].Hi == 0 {
				c = other[1].Lo
			}
		}
		out = append(out, c)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// next is the state after c from q (q again if none: the walk goes on
// only to place the probes).
func next(l *strlang.Lang, q int, c rune) int {
	for _, e := range l.Edges(q) {
		if e.Set.Contains(c) {
			return e.To
		}
	}
	return q
}

package strlang

import (
	"slices"
	"strconv"
	"strings"
)

// Lang is a string language: a set of strings of code points, held as its
// minimal deterministic automaton, with transitions on sets of code
// points. It is canonical: equal languages have identical automata (same
// state numbers, same edges), so a printed Lang is the same bytes every
// run. A Lang is immutable and safe for concurrent use.
//
// States are numbered 0 to NumStates()-1 in breadth-first order from the
// start, state 0, following edges in code point order. Every state is
// reachable and can reach acceptance, except state 0 of the empty
// language; so a string leaves the language as soon as it takes a code
// point no edge holds.
type Lang struct {
	classes []Set   // disjoint, covering all scalar values, ordered by Min
	next    []int32 // next[q*len(classes)+c]: where class c leads from q, or -1
	accept  []bool
	iv      []classRange // the classes' ranges in code point order, for Match
}

// Edge is a transition: any code point of Set leads to state To.
type Edge struct {
	Set Set
	To  int
}

// NumStates is the number of states (at least 1).
func (l *Lang) NumStates() int { return len(l.accept) }

// Accepting reports whether the strings that lead to state q are in the
// language.
func (l *Lang) Accepting(q int) bool { return l.accept[q] }

// Edges returns the transitions out of q: one per target state, with
// disjoint sets, ordered by their least code point. A code point in no
// edge's set rejects.
func (l *Lang) Edges(q int) []Edge {
	k := len(l.classes)
	var edges []Edge
	var sets [][]Range
	slot := map[int32]int{}
	for c, to := range l.next[q*k : (q+1)*k] {
		if to < 0 {
			continue
		}
		i, ok := slot[to]
		if !ok {
			i = len(edges)
			slot[to] = i
			edges = append(edges, Edge{To: int(to)})
			sets = append(sets, nil)
		}
		sets[i] = append(sets[i], l.classes[c].r...)
	}
	for i := range edges {
		edges[i].Set = Set{normalize(sets[i])}
	}
	return edges
}

// Match reports whether s is in the language. s is read as UTF-8, as Go
// ranges over it: each byte of an invalid sequence reads as U+FFFD.
func (l *Lang) Match(s string) bool {
	k := len(l.classes)
	q := int32(0)
	for _, c := range s {
		cl := classOf(l.iv, c)
		if cl < 0 {
			return false
		}
		q = l.next[int(q)*k+int(cl)]
		if q < 0 {
			return false
		}
	}
	return l.accept[q]
}

// IsEmpty reports whether the language has no string.
func (l *Lang) IsEmpty() bool { return len(l.accept) == 1 && !l.accept[0] && l.deadEnd(0) }

func (l *Lang) deadEnd(q int) bool {
	k := len(l.classes)
	for _, to := range l.next[q*k : (q+1)*k] {
		if to >= 0 {
			return false
		}
	}
	return true
}

// IsAll reports whether every string is accepted from state q on: the
// pattern has matched, whatever follows.
func (l *Lang) IsAll(q int) bool {
	if !l.accept[q] {
		return false
	}
	k := len(l.classes)
	for _, to := range l.next[q*k : (q+1)*k] {
		if int(to) != q {
			return false
		}
	}
	return true
}

// Chain reports whether the strings accepted from state q on are exactly
// those of min to max code points of set (max < 0: no bound), as in
// [a-z]{2,8}; then a compiler may write them as one counted repetition
// instead of a rule per state. IsAll(q) is Chain with every code point,
// 0 and no bound. It walks the chain: time in its length.
func (l *Lang) Chain(q int) (set Set, min, max int, ok bool) {
	k := len(l.classes)
	var cls int32 = -1 // the classes of the chain's set, as a column of targets
	min = -1
	for i := 0; i <= len(l.accept); i++ {
		if l.accept[q] {
			if min < 0 {
				min = i
			}
		} else if min >= 0 {
			return Set{}, 0, 0, false // accepting, then not
		}
		row := l.next[q*k : (q+1)*k]
		to := int32(-1)
		var rs []Range
		for c, t := range row {
			if t < 0 {
				continue
			}
			if to >= 0 && t != to {
				return Set{}, 0, 0, false // two ways on
			}
			to = t
			rs = append(rs, l.classes[c].r...)
		}
		if to < 0 { // the end: an accepting state with no way on
			return set, min, i, true
		}
		s := Set{normalize(rs)}
		if cls < 0 {
			set, cls = s, 0
		} else if !s.Equal(set) {
			return Set{}, 0, 0, false
		}
		if int(to) == q {
			if min < 0 {
				return Set{}, 0, 0, false
			}
			return set, min, -1, true
		}
		q = int(to)
	}
	return Set{}, 0, 0, false // a cycle longer than one state
}

// String prints the automaton, a line per state: its number, * when it
// accepts, then its edges as set->state.
func (l *Lang) String() string {
	var b strings.Builder
	for q := range l.accept {
		b.WriteString(strconv.Itoa(q))
		if l.accept[q] {
			b.WriteByte('*')
		}
		for _, e := range l.Edges(q) {
			b.WriteByte(' ')
			b.WriteString(e.Set.String())
			b.WriteString("->")
			b.WriteString(strconv.Itoa(e.To))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Equal reports whether two languages have the same strings.
func Equal(a, b *Lang) bool {
	if !slices.Equal(a.accept, b.accept) || !slices.Equal(a.next, b.next) || len(a.classes) != len(b.classes) {
		return false
	}
	for i := range a.classes {
		if !a.classes[i].Equal(b.classes[i]) {
			return false
		}
	}
	return true
}

// table is the Lang as a DFA table, for the operations.
func (l *Lang) table() *table {
	return &table{classes: l.classes, next: l.next, accept: l.accept}
}

package strlang

import (
	"slices"
	"strings"
)

// Members of a language: the least one, as a witness for a message or a
// test, and all of them when there are few.

// distances is, per state, the fewest code points to acceptance (-1:
// none).
func (l *Lang) distances() []int {
	n, k := l.NumStates(), len(l.classes)
	dist := make([]int, n)
	// Reverse edges, then a breadth-first search from the accepting states.
	var rev [][]int32 = make([][]int32, n)
	for q := 0; q < n; q++ {
		for _, to := range l.next[q*k : (q+1)*k] {
			if to >= 0 {
				rev[to] = append(rev[to], int32(q))
			}
		}
	}
	var queue []int32
	for q := range dist {
		dist[q] = -1
		if l.accept[q] {
			dist[q] = 0
			queue = append(queue, int32(q))
		}
	}
	for i := 0; i < len(queue); i++ {
		q := queue[i]
		for _, p := range rev[q] {
			if dist[p] < 0 {
				dist[p] = dist[q] + 1
				queue = append(queue, p)
			}
		}
	}
	return dist
}

// Shortest returns the shortest string of the language, and of those the
// least by code points; ok is false when the language is empty.
func (l *Lang) Shortest() (s string, ok bool) {
	dist := l.distances()
	if dist[0] < 0 {
		return "", false
	}
	k := len(l.classes)
	var b strings.Builder
	for q := 0; dist[q] > 0; {
		// Classes are in code point order: the first that leads one step
		// closer holds the least code point.
		for c, to := range l.next[q*k : (q+1)*k] {
			if to >= 0 && dist[to] == dist[q]-1 {
				b.WriteRune(l.classes[c].Min())
				q = int(to)
				break
			}
		}
	}
	return b.String(), true
}

// maxMembers caps Members' limit, so that counts cannot overflow.
const maxMembers = 1 << 24

// Members returns every string of the language, shortest first and, at
// each length, in code point order, when the language is finite with at
// most limit strings (limit is capped at 2^24); otherwise nil, false.
func (l *Lang) Members(limit int) ([]string, bool) {
	limit = max(0, min(limit, maxMembers))
	n, k := l.NumStates(), len(l.classes)
	if l.IsEmpty() {
		return []string{}, true
	}
	// count[q]: strings accepted from q, at most limit+1; a cycle (every
	// state lies on a way to acceptance) makes the language infinite.
	count := make([]int, n)
	const (
		unseen = iota
		open
		done
	)
	mark := make([]uint8, n)
	var visit func(q int) bool
	visit = func(q int) bool {
		switch mark[q] {
		case open:
			return false
		case done:
			return true
		}
		mark[q] = open
		c := 0
		if l.accept[q] {
			c = 1
		}
		for cl, to := range l.next[q*k : (q+1)*k] {
			if to < 0 {
				continue
			}
			if !visit(int(to)) {
				return false
			}
			c = min(c+min(l.classes[cl].Size(), limit+1)*count[to], limit+1)
		}
		count[q] = c
		mark[q] = done
		return true
	}
	if !visit(0) || count[0] > limit {
		return nil, false
	}
	var out []string
	var prefix []rune
	var walk func(q int)
	walk = func(q int) {
		if l.accept[q] {
			out = append(out, string(prefix))
		}
		// In code point order across classes.
		type step struct {
			c  rune
			to int32
		}
		var steps []step
		for cl, to := range l.next[q*k : (q+1)*k] {
			if to < 0 {
				continue
			}
			for _, r := range l.classes[cl].r {
				for c := r.Lo; c <= r.Hi; c++ {
					steps = append(steps, step{c, to})
				}
			}
		}
		slices.SortFunc(steps, func(a, b step) int { return int(a.c - b.c) })
		for _, s := range steps {
			prefix = append(prefix, s.c)
			walk(int(s.to))
			prefix = prefix[:len(prefix)-1]
		}
	}
	walk(0)
	slices.SortStableFunc(out, func(a, b string) int {
		return len([]rune(a)) - len([]rune(b))
	})
	return out, true
}

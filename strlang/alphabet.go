package strlang

import (
	"math/bits"
	"slices"
)

func bits64TrailingZeros(x uint64) int { return bits.TrailingZeros64(x) }

// An automaton never has one transition per code point: the scalar values
// are split into classes, the coarsest partition in which every set the
// automaton reads is a union of classes (for `.` alone: two classes, the
// line terminators and the rest). Transitions go per class.

type alphabet struct {
	classes []Set     // disjoint, covering every scalar value, ordered by Min
	of      [][]int32 // of[i]: the classes that make up sets[i], ascending
}

// partition splits the scalar values by the given sets.
func partition(sets []Set) alphabet {
	type event struct {
		at  rune
		set int32 // the set that starts (>= 0) or ends (^set) here
	}
	// A set's starts and ends, alternately, are in order: merge the sets'
	// lists of them (as ranges Lo: where, Hi: 0 start, 1 end) rather than
	// sort them all.
	lists := make([][]Range, len(sets))
	n := 0
	for i, s := range sets {
		l := make([]Range, 0, 2*len(s.r))
		for _, r := range s.r {
			l = append(l, Range{r.Lo, 0}, Range{r.Hi + 1, 1})
		}
		lists[i] = l
		n += len(l)
	}
	events := make([]event, 0, n)
	mergeRanges(lists, func(i int, e Range) {
		if e.Hi == 0 {
			events = append(events, event{e.Lo, int32(i)})
		} else {
			events = append(events, event{e.Lo, ^int32(i)})
		}
	})

	words := (len(sets) + 63) / 64
	member := make([]uint64, words)
	key := make([]byte, 8*words)
	index := map[string]int32{}
	var ranges [][]Range
	var sigs [][]uint64
	emit := func(lo, hi rune) {
		for i, w := range member {
			for j := 0; j < 8; j++ {
				key[8*i+j] = byte(w >> (8 * j))
			}
		}
		c, ok := index[string(key)]
		if !ok {
			c = int32(len(ranges))
			index[string(key)] = c
			ranges = append(ranges, nil)
			sigs = append(sigs, slices.Clone(member))
		}
		ranges[c] = append(ranges[c], Range{lo, hi})
	}
	// Sweep from 0 to MaxRune, skipping the surrogates.
	pos := rune(0)
	flush := func(end rune) { // emit [pos, end)
		for pos < end {
			hi := end - 1
			if pos < surrogateLo && hi >= surrogateLo {
				hi = surrogateLo - 1
			}
			if pos >= surrogateLo && pos <= surrogateHi {
				pos = min(end, surrogateHi+1)
				continue
			}
			emit(pos, hi)
			pos = hi + 1
		}
	}
	for i := 0; i < len(events); {
		at := events[i].at
		flush(at)
		for ; i < len(events) && events[i].at == at; i++ {
			if s := events[i].set; s >= 0 {
				member[s/64] |= 1 << (s % 64)
			} else {
				member[^s/64] &^= 1 << (^s % 64)
			}
		}
	}
	flush(MaxRune + 1)

	al := alphabet{classes: make([]Set, len(ranges)), of: make([][]int32, len(sets))}
	for c, rs := range ranges {
		al.classes[c] = Set{normalize(rs)}
		for w, bits := range sigs[c] {
			for ; bits != 0; bits &= bits - 1 {
				i := 64*w + bits64TrailingZeros(bits)
				al.of[i] = append(al.of[i], int32(c))
			}
		}
	}
	return al
}

// classOf finds the class of a code point in a sorted list of class
// intervals.
type classRange struct {
	lo, hi rune
	class  int32
}

func intervals(classes []Set) []classRange {
	lists := make([][]Range, len(classes))
	n := 0
	for c, s := range classes {
		lists[c] = s.r
		n += len(s.r)
	}
	iv := make([]classRange, 0, n)
	mergeRanges(lists, func(c int, r Range) { iv = append(iv, classRange{r.Lo, r.Hi, int32(c)}) })
	return iv
}

// mergeRanges visits the ranges of sorted lists in order of Lo (a tie in
// list order), with a heap of the lists' next ranges.
func mergeRanges(lists [][]Range, visit func(list int, r Range)) {
	type head struct{ list, next int }
	var h []head
	less := func(a, b head) bool {
		x, y := lists[a.list][a.next].Lo, lists[b.list][b.next].Lo
		return x < y || x == y && a.list < b.list
	}
	down := func(i int) {
		for {
			l, m := 2*i+1, i
			if l < len(h) && less(h[l], h[m]) {
				m = l
			}
			if l+1 < len(h) && less(h[l+1], h[m]) {
				m = l + 1
			}
			if m == i {
				return
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
	}
	for i, l := range lists {
		if len(l) > 0 {
			h = append(h, head{i, 0})
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(i)
	}
	for len(h) > 0 {
		top := &h[0]
		visit(top.list, lists[top.list][top.next])
		top.next++
		if top.next == len(lists[top.list]) {
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		}
		down(0)
	}
}

func classOf(iv []classRange, c rune) int32 {
	i, j := 0, len(iv)
	for i < j {
		h := int(uint(i+j) >> 1)
		if iv[h].hi < c {
			i = h + 1
		} else {
			j = h
		}
	}
	if i < len(iv) && iv[i].lo <= c {
		return iv[i].class
	}
	return -1 // a surrogate or past MaxRune
}

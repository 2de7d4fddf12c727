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
	var events []event
	for i, s := range sets {
		for _, r := range s.r {
			events = append(events, event{r.Lo, int32(i)}, event{r.Hi + 1, ^int32(i)})
		}
	}
	slices.SortFunc(events, func(a, b event) int { return int(a.at - b.at) })

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
	var iv []classRange
	for c, s := range classes {
		for _, r := range s.r {
			iv = append(iv, classRange{r.Lo, r.Hi, int32(c)})
		}
	}
	slices.SortFunc(iv, func(a, b classRange) int { return int(a.lo - b.lo) })
	return iv
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

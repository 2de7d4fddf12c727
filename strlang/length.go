package strlang

import "strconv"

// Length bounds, as minLength and maxLength count: code points.
//
// The strings of l with min to max code points are the product of l's
// automaton with a counter. The counter is only as long as it must be:
// with no upper bound it stops at min (past min, length no longer
// matters), and a state pair is made only when reached. So a pattern whose
// states are each reached at one length only (^[a-z][a-z0-9_-]{0,63}$)
// keeps its size, and a language that is "any string" past some state
// becomes a chain of states that Chain recognises as one counted
// repetition. Limits.LengthStates bounds the product.

// WithLength is the strings of l with at least min and at most max code
// points (max < 0: no upper bound).
func WithLength(l *Lang, min, max int, lim Limits) (*Lang, error) {
	lim = lim.orDefaults()
	if min < 0 {
		min = 0
	}
	if max >= 0 && max < min {
		return Empty(), nil
	}
	if min == 0 && max < 0 {
		return l, nil
	}
	k := len(l.classes)
	// A pair is (state of l, code points read so far, capped at min when
	// there is no upper bound).
	type pair struct{ q, n int32 }
	index := map[pair]int32{}
	var queue []pair
	t := &table{classes: l.classes}
	state := func(p pair) (int32, error) {
		if q, ok := index[p]; ok {
			return q, nil
		}
		if full(len(queue), k, lim.LengthStates) {
			return 0, newError(ErrLimitLength, "", -1, "the language between %d and %s code points needs more than %d states (Limits.LengthStates)",
				min, bound(max), lim.LengthStates)
		}
		q := int32(len(queue))
		index[p] = q
		queue = append(queue, p)
		t.accept = append(t.accept, l.accept[p.q] && int(p.n) >= min)
		t.next = append(t.next, make([]int32, k)...)
		return q, nil
	}
	if _, err := state(pair{0, 0}); err != nil {
		return nil, err
	}
	for i := 0; i < len(queue); i++ {
		p := queue[i]
		n := int(p.n) + 1
		if max < 0 && n > min {
			n = min
		}
		for c := 0; c < k; c++ {
			to := l.next[int(p.q)*k+c]
			if to < 0 || max >= 0 && n > max {
				t.next[i*k+c] = -1
				continue
			}
			s, err := state(pair{to, int32(n)})
			if err != nil {
				return nil, err
			}
			t.next[i*k+c] = s
		}
	}
	return finish(t), nil
}

func bound(max int) string {
	if max < 0 {
		return "any number of"
	}
	return strconv.Itoa(max)
}

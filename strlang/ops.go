package strlang

// Boolean operations on languages, as products of their automata over the
// classes both split the code points into. Complement is with respect to
// all strings of scalar values.

// Intersect is the strings in both a and b.
func Intersect(a, b *Lang, lim Limits) (*Lang, error) {
	return product(a, b, lim, func(x, y bool) bool { return x && y }, false)
}

// Union is the strings in a or b.
func Union(a, b *Lang, lim Limits) (*Lang, error) {
	return product(a, b, lim, func(x, y bool) bool { return x || y }, true)
}

// Minus is the strings in a and not in b.
func Minus(a, b *Lang, lim Limits) (*Lang, error) {
	return product(a, b, lim, func(x, y bool) bool { return x && !y }, true)
}

// Subset reports whether every string of a is in b.
func Subset(a, b *Lang, lim Limits) (bool, error) {
	d, err := Minus(a, b, lim)
	if err != nil {
		return false, err
	}
	return d.IsEmpty(), nil
}

// Complement is the strings not in l. It has at most one state more.
func (l *Lang) Complement() *Lang {
	n, k := l.NumStates(), len(l.classes)
	t := &table{classes: l.classes, next: make([]int32, (n+1)*k), accept: make([]bool, n+1)}
	sink := int32(n)
	for i := range t.next {
		t.next[i] = sink
		if i < n*k && l.next[i] >= 0 {
			t.next[i] = l.next[i]
		}
	}
	for q := range l.accept {
		t.accept[q] = !l.accept[q]
	}
	t.accept[n] = true
	return finish(t)
}

// All is the language of every string.
func All() *Lang {
	return finish(&table{classes: []Set{anySet}, next: []int32{0}, accept: []bool{true}})
}

// Empty is the language of no string.
func Empty() *Lang {
	return finish(&table{classes: []Set{anySet}, next: []int32{-1}, accept: []bool{false}})
}

// product runs a and b side by side. keepDead says whether a pair with one
// side dead (-1) can still accept (union, minus), so must be kept.
func product(a, b *Lang, lim Limits, accept func(x, y bool) bool, keepDead bool) (*Lang, error) {
	lim = lim.orDefaults()
	classes, pairs := refine(a, b)
	k := len(classes)
	ka, kb := len(a.classes), len(b.classes)
	t := &table{classes: classes}
	index := map[[2]int32]int32{}
	var queue [][2]int32
	state := func(p [2]int32) (int32, error) {
		if q, ok := index[p]; ok {
			return q, nil
		}
		if !keepDead && (p[0] < 0 || p[1] < 0) || p[0] < 0 && p[1] < 0 {
			return -1, nil
		}
		if full(len(queue), k, lim.States) {
			return 0, newError(ErrLimitStates, "", -1, "the product of two languages needs more than %d states (Limits.States)", lim.States)
		}
		q := int32(len(queue))
		index[p] = q
		queue = append(queue, p)
		acc := accept(p[0] >= 0 && a.accept[p[0]], p[1] >= 0 && b.accept[p[1]])
		t.accept = append(t.accept, acc)
		t.next = append(t.next, make([]int32, k)...)
		return q, nil
	}
	if _, err := state([2]int32{0, 0}); err != nil {
		return nil, err
	}
	for q := 0; q < len(queue); q++ {
		p := queue[q]
		for c, pc := range pairs {
			to := [2]int32{-1, -1}
			if p[0] >= 0 {
				to[0] = a.next[int(p[0])*ka+int(pc[0])]
			}
			if p[1] >= 0 {
				to[1] = b.next[int(p[1])*kb+int(pc[1])]
			}
			s, err := state(to)
			if err != nil {
				return nil, err
			}
			t.next[q*k+c] = s
		}
	}
	return finish(t), nil
}

// refine splits the code points by the classes of both languages: each new
// class lies in one class of a and one of b (pairs).
func refine(a, b *Lang) (classes []Set, pairs [][2]int32) {
	index := map[[2]int32]int32{}
	var ranges [][]Range
	i, j := 0, 0
	for i < len(a.iv) && j < len(b.iv) {
		x, y := a.iv[i], b.iv[j]
		lo, hi := max(x.lo, y.lo), min(x.hi, y.hi)
		if lo <= hi {
			p := [2]int32{x.class, y.class}
			c, ok := index[p]
			if !ok {
				c = int32(len(pairs))
				index[p] = c
				pairs = append(pairs, p)
				ranges = append(ranges, nil)
			}
			ranges[c] = append(ranges[c], Range{lo, hi})
		}
		if x.hi < y.hi {
			i++
		} else {
			j++
		}
	}
	classes = make([]Set, len(ranges))
	for c, rs := range ranges {
		classes[c] = Set{normalize(rs)}
	}
	return classes, pairs
}

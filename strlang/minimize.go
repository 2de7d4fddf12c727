package strlang

import "slices"

// Every language ends here: a DFA over classes is trimmed, minimized
// (Hopcroft's partition refinement), numbered in a canonical order, and its
// classes merged into the coarsest ones that still tell its transitions
// apart. The result depends only on the language, so two equal languages
// give identical automata, byte for byte in any printed form.

// finish turns a DFA table (state 0 starts) into its canonical minimal Lang.
func finish(t *table) *Lang {
	n, k := t.n(), t.k()
	// Complete the DFA with a dead state where a transition is missing.
	dead := int32(n)
	next := make([]int32, (n+1)*k)
	copy(next, t.next)
	for i := range next {
		if i >= n*k || next[i] < 0 {
			next[i] = dead
		}
	}
	accept := append(slices.Clip(t.accept), false)
	blockOf, blocks := hopcroft(n+1, k, next, accept)

	// The quotient: one representative per block.
	rep := make([]int32, blocks)
	for i := range rep {
		rep[i] = -1
	}
	for q := n; q >= 0; q-- {
		rep[blockOf[q]] = int32(q)
	}
	// The block whose language is empty: the dead state's, since every
	// state of empty language is equivalent to it.
	deadBlock := blockOf[dead]

	// Number the blocks in breadth-first order from the start, following
	// classes in code point order; the dead block gets no number.
	num := make([]int32, blocks)
	for i := range num {
		num[i] = -1
	}
	var order []int32
	if b := blockOf[0]; b != deadBlock {
		num[b] = 0
		order = append(order, b)
	}
	for i := 0; i < len(order); i++ {
		q := rep[order[i]]
		for c := 0; c < k; c++ {
			b := blockOf[next[int(q)*k+c]]
			if b != deadBlock && num[b] < 0 {
				num[b] = int32(len(order))
				order = append(order, b)
			}
		}
	}

	// Merge the classes that lead to the same place from every state.
	m := len(order)
	column := make([]byte, 0, 4*m)
	index := map[string]int32{}
	var merged []int32 // class → merged class
	var mergedSets [][]Range
	for c := 0; c < k; c++ {
		column = column[:0]
		for _, b := range order {
			to := num[blockOf[next[int(rep[b])*k+c]]]
			column = append(column, byte(to), byte(to>>8), byte(to>>16), byte(to>>24))
		}
		mc, ok := index[string(column)]
		if !ok {
			mc = int32(len(mergedSets))
			index[string(column)] = mc
			mergedSets = append(mergedSets, nil)
		}
		merged = append(merged, mc)
		mergedSets[mc] = append(mergedSets[mc], t.classes[c].r...)
	}
	// Merged classes are numbered by first appearance, and classes come in
	// order of their least code point: so merged ones do too.
	l := &Lang{classes: make([]Set, len(mergedSets)), accept: make([]bool, m)}
	for i, rs := range mergedSets {
		l.classes[i] = Set{normalize(rs)}
	}
	mk := len(mergedSets)
	l.next = make([]int32, m*mk)
	for i, b := range order {
		q := rep[b]
		l.accept[i] = accept[q]
		for c := 0; c < k; c++ {
			l.next[i*mk+int(merged[c])] = num[blockOf[next[int(q)*k+c]]]
		}
	}
	if m == 0 { // the empty language: one state, rejecting, going nowhere
		l.accept = []bool{false}
		l.next = make([]int32, mk)
		for i := range l.next {
			l.next[i] = -1
		}
	}
	l.iv = intervals(l.classes)
	return l
}

// hopcroft partitions the states of a complete DFA into blocks of
// equivalent states.
func hopcroft(n, k int, next []int32, accept []bool) (blockOf []int32, blocks int) {
	// Predecessors by class and target, packed: pred[predStart[c*n+t]:predStart[c*n+t+1]].
	predStart := make([]int32, k*n+1)
	for q := 0; q < n; q++ {
		for c := 0; c < k; c++ {
			predStart[c*n+int(next[q*k+c])+1]++
		}
	}
	for i := 1; i < len(predStart); i++ {
		predStart[i] += predStart[i-1]
	}
	pred := make([]int32, n*k)
	fill := slices.Clone(predStart[:k*n])
	for q := 0; q < n; q++ {
		for c := 0; c < k; c++ {
			i := c*n + int(next[q*k+c])
			pred[fill[i]] = int32(q)
			fill[i]++
		}
	}

	// The refinable partition: elems holds the states block by block;
	// block b is elems[first[b]:past[b]], its marked states first.
	elems := make([]int32, 0, n)
	for q := 0; q < n; q++ {
		if accept[q] {
			elems = append(elems, int32(q))
		}
	}
	nAccept := len(elems)
	for q := 0; q < n; q++ {
		if !accept[q] {
			elems = append(elems, int32(q))
		}
	}
	loc := make([]int32, n)
	for i, q := range elems {
		loc[q] = int32(i)
	}
	blockOf = make([]int32, n)
	var first, past, marked []int32
	newBlock := func(lo, hi int32) int32 {
		b := int32(len(first))
		first, past, marked = append(first, lo), append(past, hi), append(marked, lo)
		for _, q := range elems[lo:hi] {
			blockOf[q] = b
		}
		return b
	}
	var work []int32
	var inWork []bool
	push := func(b int32) {
		for int(b) >= len(inWork) {
			inWork = append(inWork, false)
		}
		if !inWork[b] {
			inWork[b] = true
			work = append(work, b)
		}
	}
	switch {
	case nAccept == 0 || nAccept == n:
		newBlock(0, int32(n))
		return blockOf, 1
	case nAccept <= n-nAccept:
		push(newBlock(0, int32(nAccept)))
		newBlock(int32(nAccept), int32(n))
	default:
		newBlock(0, int32(nAccept))
		push(newBlock(int32(nAccept), int32(n)))
	}

	var touched []int32
	var splitter []int32
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		inWork[b] = false
		splitter = append(splitter[:0], elems[first[b]:past[b]]...)
		for c := 0; c < k; c++ {
			touched = touched[:0]
			for _, t := range splitter {
				i := c*n + int(t)
				for _, q := range pred[predStart[i]:predStart[i+1]] {
					qb := blockOf[q]
					if loc[q] < marked[qb] {
						continue
					}
					if marked[qb] == first[qb] {
						touched = append(touched, qb)
					}
					// Swap q into the marked part.
					j := marked[qb]
					other := elems[j]
					elems[j], elems[loc[q]] = q, other
					loc[other], loc[q] = loc[q], j
					marked[qb]++
				}
			}
			for _, qb := range touched {
				lo, mid, hi := first[qb], marked[qb], past[qb]
				marked[qb] = lo
				if mid == hi {
					continue // every state of the block was marked
				}
				// The smaller part becomes the new block.
				var nb int32
				if mid-lo <= hi-mid {
					first[qb] = mid
					marked[qb] = mid
					nb = newBlock(lo, mid)
				} else {
					past[qb] = mid
					nb = newBlock(mid, hi)
				}
				// Hopcroft: if qb waits as a splitter, both parts must;
				// if not, the smaller part is enough.
				push(nb)
			}
		}
	}
	return blockOf, len(first)
}

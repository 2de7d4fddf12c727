package strlang

import "slices"

// Subset construction, with the pattern unanchored and its assertions
// decided on the way.
//
// A DFA state is the set of NFA states reached (its kernel) and what the
// last code point read was: nothing yet, a word character or another one.
// An assertion needs the code point before and the one after; before is
// in the state, after is the class being read (or the end of the string,
// for acceptance), so the closure of a kernel is taken once per kind of
// next code point. \b and \B are thus exact, with the classes split into
// word and non-word characters when the pattern has either.
//
// Unanchored: the NFA's start is added to every kernel (a match may begin
// anywhere), unless it can only match at the start of the string. Once
// the NFA matches, whatever follows is accepted: the DFA goes to one state
// that accepts every string (allState), which also makes "the pattern has
// matched" easy for a compiler to see.

// table is a DFA over classes: state 0 starts; next[q*k+c] is where class
// c leads from q, or -1 (no string from there is accepted).
type table struct {
	classes []Set
	next    []int32
	accept  []bool
}

func (t *table) k() int { return len(t.classes) }
func (t *table) n() int { return len(t.accept) }

// context is what lies on one side of a position in the string.
type context uint8

const (
	ctxStart context = iota // the start of the string (before)
	ctxEnd                  // the end of the string (after)
	ctxOther                // a code point; with words: a non-word one
	ctxWord                 // a word character (only with words)
)

// workPerState bounds the closure steps allowed, times Limits.States, so
// that a pattern whose kernels are huge stops within milliseconds too (a
// step takes about 10 ns). The corpus's costliest pattern takes about 200
// per state, 50,000 in all; the default allows 5,000,000.
const workPerState = 500

type determinizer struct {
	n       *nfa
	pattern string
	lim     Limits
	al      alphabet
	ctxOf   []context // per class: ctxOther or ctxWord
	always  bool      // the NFA's start joins every kernel

	seen  []uint32 // closure marks, by NFA state: == gen when visited
	gen   uint32
	stack []int32
	chars []int32 // closure's result, reused
	key   []byte  // state's key, reused
	work  int

	keys    map[string]int32
	empty   [4]int32 // the state of an empty kernel, by context, +1 (0: none yet)
	kernels [][]int32
	prevs   []context
	t       table
	all     int32 // the state that accepts everything, -1 until made
}

func determinize(pattern string, n *nfa, lim Limits) (*table, error) {
	sets := n.sets
	if n.words {
		sets = append(slices.Clip(sets), wordSet)
	}
	// Most patterns need about as many states as the NFA has.
	hint := min(len(n.states)+2, lim.States)
	d := &determinizer{n: n, pattern: pattern, lim: lim, al: partition(sets), all: -1,
		seen: make([]uint32, len(n.states)), keys: make(map[string]int32, hint),
		kernels: make([][]int32, 0, hint), prevs: make([]context, 0, hint)}
	d.t.classes = d.al.classes
	d.t.accept = make([]bool, 0, hint)
	d.t.next = make([]int32, 0, hint*len(d.al.classes))
	d.ctxOf = make([]context, len(d.al.classes))
	for c := range d.ctxOf {
		d.ctxOf[c] = ctxOther
		if n.words && wordSet.Contains(d.al.classes[c].Min()) {
			d.ctxOf[c] = ctxWord
		}
	}
	d.always = d.startMatters()

	if _, err := d.state(ctxStart, nil); err != nil {
		return nil, err
	}
	k := len(d.al.classes)
	buckets := make([][]int32, k)
	nexts := []context{ctxEnd, ctxOther}
	if n.words {
		nexts = append(nexts, ctxWord)
	}
	for q := int32(0); int(q) < len(d.kernels); q++ {
		if q == d.all {
			continue
		}
		kernel, prev := d.kernels[q], d.prevs[q]
		for i := range buckets {
			buckets[i] = buckets[i][:0]
		}
		matched := [4]bool{}
		for _, nc := range nexts {
			chars, m := d.closure(kernel, d.always || prev == ctxStart, prev, nc)
			matched[nc] = m
			if nc == ctxEnd || m {
				continue
			}
			for _, s := range chars {
				st := &d.n.states[s]
				for _, c := range d.al.of[st.set] {
					if d.ctxOf[c] == nc {
						buckets[c] = append(buckets[c], st.out)
					}
				}
			}
		}
		if d.work > d.lim.States*workPerState {
			return nil, d.tooMany()
		}
		d.t.accept[q] = matched[ctxEnd]
		for c := 0; c < k; c++ {
			var to int32
			var err error
			if matched[d.ctxOf[c]] {
				to, err = d.allState()
			} else {
				d.work += len(buckets[c])
				slices.Sort(buckets[c])
				to, err = d.state(d.ctxOf[c], slices.Compact(buckets[c]))
			}
			if err != nil {
				return nil, err
			}
			d.t.next[int(q)*k+c] = to
		}
	}
	return &d.t, nil
}

func (d *determinizer) tooMany() *Error {
	return newError(ErrLimitStates, d.pattern, -1,
		"the pattern's automaton needs more than %d states (Limits.States), or too big a table of states by %d classes of code points",
		d.lim.States, len(d.al.classes))
}

// startMatters reports whether a match can start after the first code
// point: false when every way from the start meets ^ first.
func (d *determinizer) startMatters() bool {
	for _, prev := range []context{ctxOther, ctxWord} {
		for _, next := range []context{ctxEnd, ctxOther, ctxWord} {
			if chars, m := d.closure(nil, true, prev, next); m || len(chars) > 0 {
				return true
			}
		}
	}
	return false
}

// state finds or adds the DFA state of a kernel (sorted, distinct).
func (d *determinizer) state(prev context, kernel []int32) (int32, error) {
	if len(kernel) == 0 && d.empty[prev] > 0 {
		return d.empty[prev] - 1, nil // most classes lead nowhere new
	}
	key := append(d.key[:0], byte(prev))
	for _, s := range kernel {
		key = append(key, byte(s), byte(s>>8), byte(s>>16), byte(s>>24))
	}
	d.key = key
	if q, ok := d.keys[string(key)]; ok {
		return q, nil
	}
	return d.add(string(key), prev, slices.Clone(kernel))
}

func (d *determinizer) add(key string, prev context, kernel []int32) (int32, error) {
	if full(len(d.kernels), len(d.al.classes), d.lim.States) {
		return 0, d.tooMany()
	}
	q := int32(len(d.kernels))
	d.keys[key] = q
	if len(kernel) == 0 && key != "*" {
		d.empty[prev] = q + 1
	}
	d.kernels = append(d.kernels, kernel)
	d.prevs = append(d.prevs, prev)
	d.t.accept = append(d.t.accept, false)
	d.t.next = append(d.t.next, make([]int32, len(d.al.classes))...)
	return q, nil
}

// allState is the state that accepts every string.
func (d *determinizer) allState() (int32, error) {
	if d.all >= 0 {
		return d.all, nil
	}
	q, err := d.add("*", ctxOther, nil)
	if err != nil {
		return 0, err
	}
	d.all = q
	d.t.accept[q] = true
	for c := range d.al.classes {
		d.t.next[int(q)*len(d.al.classes)+c] = q
	}
	return q, nil
}

// closure follows forks and the assertions that hold between prev and
// next from the kernel (and the NFA's start, withStart), and returns the
// NFA states that read a code point, and whether the match state was
// reached. chars is valid until the next call.
func (d *determinizer) closure(kernel []int32, withStart bool, prev, next context) (chars []int32, matched bool) {
	d.gen++
	d.stack = d.stack[:0]
	push := func(s int32) {
		if d.seen[s] != d.gen {
			d.seen[s] = d.gen
			d.stack = append(d.stack, s)
		}
	}
	for _, s := range kernel {
		push(s)
	}
	if withStart {
		push(d.n.start)
	}
	out := d.chars[:0]
	for len(d.stack) > 0 {
		s := d.stack[len(d.stack)-1]
		d.stack = d.stack[:len(d.stack)-1]
		d.work++
		st := &d.n.states[s]
		switch st.op {
		case nChar:
			out = append(out, s)
		case nMatch:
			matched = true
		case nSplit:
			push(st.out1)
			push(st.out)
		case nAssert:
			if holds(st.assert, prev, next) {
				push(st.out)
			}
		}
	}
	d.chars = out
	return out, matched
}

// holds decides an assertion between two contexts; the start and the end
// of the string count as non-word.
func holds(a op, prev, next context) bool {
	switch a {
	case opBegin:
		return prev == ctxStart
	case opEnd:
		return next == ctxEnd
	case opWordBoundary:
		return (prev == ctxWord) != (next == ctxWord)
	}
	return (prev == ctxWord) == (next == ctxWord) // opNotWordBoundary
}

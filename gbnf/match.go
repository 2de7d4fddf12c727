package gbnf

import (
	"slices"
	"sync"
	"unicode/utf8"
)

// Matcher says whether a grammar accepts a text, as llama.cpp's grammar
// engine would. It is safe for concurrent use.
type Matcher struct {
	p    *matchProg
	lim  MatcherLimits
	pool sync.Pool // *earley scratch, each with its own DFA cache
}

// MatchResult is the verdict on one text. Offset is len(text) when the text
// is accepted or when every code point was taken but the text is an
// unfinished prefix; otherwise it is the byte offset of the first code point
// the grammar could not take.
type MatchResult struct {
	Accepted bool
	Offset   int
}

// NewMatcher compiles g for matching with the default limits. It refuses a
// grammar without root, with an undefined rule or with left recursion.
func NewMatcher(g *Grammar) (*Matcher, error) {
	return NewMatcherLimits(g, MatcherLimits{})
}

// NewMatcherLimits is NewMatcher with explicit limits.
func NewMatcherLimits(g *Grammar, lim MatcherLimits) (*Matcher, error) {
	lim = lim.withDefaults()
	p, err := compileProg(g, lim)
	if err != nil {
		return nil, err
	}
	return &Matcher{p: p, lim: lim}, nil
}

// Accepts reports whether the grammar accepts the whole text.
func (m *Matcher) Accepts(text string) bool {
	return m.Match(text).Accepted
}

// Match runs the grammar over text. When the text needs more than
// MaxItems Earley items, Match reports it rejected at the offset reached;
// use Check to tell that case apart.
func (m *Matcher) Match(text string) MatchResult {
	r, _ := m.Check(text)
	return r
}

// Check is Match that also returns a *MatcherLimitError when the text
// needed more than MaxItems Earley items; the result is then a rejection at
// the offset reached.
func (m *Matcher) Check(text string) (MatchResult, error) {
	e, _ := m.pool.Get().(*earley)
	if e == nil || e.p != m.p {
		e = newEarley(m.p)
	}
	r, err := e.run(text, m.lim.MaxItems)
	e.release()
	m.pool.Put(e)
	return r, err
}

// dstate is a set of automaton states, all begun at the same origin: the
// lazily built DFA state of the Earley sets. Grouping states this way turns
// the nondeterminism inside a rule (alternatives, optional copies) into one
// cached transition per code point, so a set usually holds one item.
type dstate struct {
	terms   []int32 // states that scan a code point
	calls   []int32 // states that call a nonterminal
	accepts []int32 // nonterminals that end here
	// callFirst is the union of the first sets of the called nonterminals:
	// when the next code point is not in it, no call needs predicting.
	callFirst runeSet
	ascii     *[128]int32
	other     map[rune]int32
}

// Transition cache values: 0 unknown, dead none, else the dstate id + 1.
const dead = -1

// dstateCost is what one dstate counts against MaxItems, for its memory.
const dstateCost = 128

// earleyItem is an Earley item: a dstate and the set (code point index)
// where its nonterminal began.
type earleyItem struct{ state, origin int32 }

// earley is the scratch of one recognition and its DFA cache, reused
// through the pool by one goroutine at a time.
type earley struct {
	p       *matchProg
	dstates []dstate
	index   map[string]int32 // dstate by its sorted state list
	startD  []int32          // per nonterminal: dstate of its start, or -1
	nextD   []int32          // per call state: dstate after the call, or -1
	scratch []int32
	keyBuf  []byte

	items    []earleyItem
	link     []int32 // next item of the current set with the same dstate, or -1
	setStart []int32 // set k is items[setStart[k]:setStart[k+1]]
	// stamp[d] == cur says head[d] is the first item of the current set in
	// dstate d; stamps grow across runs so nothing needs clearing.
	stamp     []uint32
	head      []int32
	count     []int32             // items of the current set per dstate
	many      map[uint64]struct{} // (dstate, origin) of the current set, for crowded dstates
	waiters   []waiter
	waitRange []struct{ lo, hi int32 } // set k's waiters once indexed; lo < 0 before
	predicted []uint32                 // stamp of the set where a nonterminal was last predicted
	cur       uint32
	maxItems  int
	overflow  bool
}

// maxCachedDstates bounds the DFA cache kept between runs.
const maxCachedDstates = 1 << 14

func newEarley(p *matchProg) *earley {
	e := &earley{p: p, predicted: make([]uint32, len(p.ntStart))}
	e.resetCache()
	return e
}

func (e *earley) resetCache() {
	e.dstates = e.dstates[:0]
	e.index = map[string]int32{}
	e.startD = make([]int32, len(e.p.ntStart))
	for i := range e.startD {
		e.startD[i] = -1
	}
	e.nextD = make([]int32, len(e.p.kind))
	for i := range e.nextD {
		e.nextD[i] = -1
	}
	e.stamp, e.head, e.count = e.stamp[:0], e.head[:0], e.count[:0]
}

// release drops big buffers so that one huge text does not pin memory in
// the pool.
func (e *earley) release() {
	const keep = 1 << 22
	if cap(e.items) > keep {
		e.items, e.link = nil, nil
	}
	if cap(e.setStart) > keep {
		e.setStart, e.waitRange = nil, nil
	}
	if cap(e.waiters) > keep {
		e.waiters = nil
	}
	if len(e.dstates) > maxCachedDstates {
		e.resetCache()
	}
}

// intern returns the dstate of the states in e.scratch (any order,
// duplicates allowed).
func (e *earley) intern() int32 {
	slices.Sort(e.scratch)
	e.scratch = slices.Compact(e.scratch)
	st := e.scratch
	e.keyBuf = e.keyBuf[:0]
	for _, s := range st {
		e.keyBuf = append(e.keyBuf, byte(s), byte(s>>8), byte(s>>16), byte(s>>24))
	}
	if id, ok := e.index[string(e.keyBuf)]; ok {
		return id
	}
	p := e.p
	var d dstate
	for _, s := range st {
		switch p.kind[s] {
		case kindTerm:
			d.terms = append(d.terms, s)
		case kindCall:
			d.calls = append(d.calls, s)
		case kindAccept:
			d.accepts = append(d.accepts, p.arg[s])
		}
	}
	if len(d.calls) > 0 {
		var rs []Range
		for _, c := range d.calls {
			rs = append(rs, p.firstRanges[p.arg[c]]...)
		}
		d.callFirst = newRuneSet(normalRanges(rs, false))
	}
	id := int32(len(e.dstates))
	e.dstates = append(e.dstates, d)
	e.index[string(e.keyBuf)] = id
	e.stamp = append(e.stamp, 0)
	e.head = append(e.head, 0)
	e.count = append(e.count, 0)
	if len(e.items)+dstateCost*len(e.dstates) >= e.maxItems {
		e.overflow = true
	}
	return id
}

// closureD returns the dstate of the closure of automaton state s.
func (e *earley) closureD(s int32) int32 {
	p := e.p
	e.scratch = append(e.scratch[:0], p.clos[p.closOff[s]:p.closOff[s+1]]...)
	return e.intern()
}

// step returns the dstate reached from d by scanning r, or dead.
func (e *earley) step(d int32, r rune) int32 {
	ds := &e.dstates[d]
	if r < 128 {
		if ds.ascii != nil {
			if v := ds.ascii[r]; v != 0 {
				if v == dead {
					return dead
				}
				return v - 1
			}
		}
	} else if v, ok := ds.other[r]; ok {
		return v
	}
	p := e.p
	e.scratch = e.scratch[:0]
	for _, t := range ds.terms {
		if p.sets[p.arg[t]].has(r) {
			n := p.next[t]
			e.scratch = append(e.scratch, p.clos[p.closOff[n]:p.closOff[n+1]]...)
		}
	}
	next := int32(dead)
	if len(e.scratch) > 0 {
		next = e.intern()
	}
	ds = &e.dstates[d] // intern may have moved the slice
	if r < 128 {
		if ds.ascii == nil {
			ds.ascii = new([128]int32)
		}
		if next == dead {
			ds.ascii[r] = dead
		} else {
			ds.ascii[r] = next + 1
		}
	} else if len(ds.other) < 64 {
		if ds.other == nil {
			ds.other = map[rune]int32{}
		}
		ds.other[r] = next
	}
	return next
}

// nextSet starts a new Earley set for deduplication.
func (e *earley) nextSet() {
	e.cur++
	if e.cur == 0 { // wrapped: clear the stamps once every 2^32 sets
		clear(e.stamp)
		clear(e.predicted)
		e.cur = 1
	}
	if len(e.many) > 0 {
		clear(e.many)
	}
	e.setStart = append(e.setStart, int32(len(e.items)))
	e.waitRange = append(e.waitRange, struct{ lo, hi int32 }{-1, -1})
}

// chainMax is how many items of one dstate a set holds before deduplication
// switches from walking their list to a hash set, which keeps ambiguous
// grammars (many origins per dstate) from going quartic.
const chainMax = 8

func (e *earley) add(d, origin int32) {
	if e.stamp[d] == e.cur {
		if e.count[d] >= chainMax {
			key := uint64(d)<<32 | uint64(uint32(origin))
			if _, dup := e.many[key]; dup {
				return
			}
			e.many[key] = struct{}{}
		} else {
			for k := e.head[d]; k >= 0; k = e.link[k] {
				if e.items[k].origin == origin {
					return
				}
			}
			if e.count[d] == chainMax-1 {
				if e.many == nil {
					e.many = map[uint64]struct{}{}
				}
				for k := e.head[d]; k >= 0; k = e.link[k] {
					e.many[uint64(d)<<32|uint64(uint32(e.items[k].origin))] = struct{}{}
				}
				e.many[uint64(d)<<32|uint64(uint32(origin))] = struct{}{}
			}
		}
		e.count[d]++
		e.link = append(e.link, e.head[d])
	} else {
		e.stamp[d] = e.cur
		e.count[d] = 1
		e.link = append(e.link, -1)
	}
	if len(e.items)+dstateCost*len(e.dstates) >= e.maxItems {
		e.overflow = true
	}
	e.head[d] = int32(len(e.items))
	e.items = append(e.items, earleyItem{d, origin})
}

// waitersOf returns the items of the finished set o that call nonterminal
// nt. The first completion into a set indexes the set's calls by
// nonterminal; most sets never receive one, so indexing is lazy.
func (e *earley) waitersOf(o, nt int32) []waiter {
	r := &e.waitRange[o]
	if r.lo < 0 {
		r.lo = int32(len(e.waiters))
		for _, it := range e.items[e.setStart[o]:e.setStart[o+1]] {
			for _, c := range e.dstates[it.state].calls {
				e.waiters = append(e.waiters, waiter{e.p.arg[c], c, it.origin})
			}
		}
		r.hi = int32(len(e.waiters))
		if w := e.waiters[r.lo:r.hi]; len(w) > 1 {
			slices.SortFunc(w, func(a, b waiter) int { return int(a.nt - b.nt) })
		}
	}
	ws := e.waiters[r.lo:r.hi]
	j, _ := slices.BinarySearchFunc(ws, nt, func(w waiter, nt int32) int { return int(w.nt - nt) })
	end := j
	for end < len(ws) && ws[end].nt == nt {
		end++
	}
	return ws[j:end]
}

// waiter is an item of a finished set that calls nonterminal nt.
type waiter struct{ nt, call, origin int32 }

// run is the recogniser: for each code point, complete the current set
// (predictions and completions), then scan the code point into the next.
func (e *earley) run(text string, maxItems int) (MatchResult, error) {
	e.items, e.link, e.setStart = e.items[:0], e.link[:0], e.setStart[:0]
	e.waiters, e.waitRange = e.waiters[:0], e.waitRange[:0]
	e.maxItems, e.overflow = maxItems, false
	e.nextSet()
	e.add(e.start(0), 0)
	pos := 0
	for k := int32(0); ; k++ {
		next := rune(-1) // no prediction can scan past the end
		if pos < len(text) {
			next = rune(text[pos])
			if next >= utf8.RuneSelf {
				next, _ = utf8.DecodeRuneInString(text[pos:])
			}
		}
		e.complete(k, next)
		if e.overflow {
			return MatchResult{Offset: pos}, &MatcherLimitError{Limit: "MaxItems", Value: maxItems}
		}
		if pos == len(text) {
			break
		}
		r, w := rune(text[pos]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRuneInString(text[pos:])
		}
		end := int32(len(e.items))
		e.nextSet()
		if r != 0 {
			for i := e.setStart[k]; i < end; i++ {
				it := e.items[i]
				if d := e.step(it.state, r); d != dead {
					e.add(d, it.origin)
				}
			}
		}
		if e.overflow {
			return MatchResult{Offset: pos}, &MatcherLimitError{Limit: "MaxItems", Value: maxItems}
		}
		if int32(len(e.items)) == e.setStart[k+1] {
			return MatchResult{Offset: pos}, nil
		}
		pos += w
	}
	for _, it := range e.items[e.setStart[len(e.setStart)-1]:] {
		if it.origin == 0 {
			for _, nt := range e.dstates[it.state].accepts {
				if nt == 0 {
					return MatchResult{Accepted: true, Offset: pos}, nil
				}
			}
		}
	}
	return MatchResult{Offset: pos}, nil
}

func (e *earley) start(nt int32) int32 {
	if e.startD[nt] < 0 {
		e.startD[nt] = e.closureD(e.p.ntStart[nt])
	}
	return e.startD[nt]
}

func (e *earley) after(call int32) int32 {
	if e.nextD[call] < 0 {
		e.nextD[call] = e.closureD(e.p.next[call])
	}
	return e.nextD[call]
}

// complete runs predictions and completions over set k until it stops
// growing. Completions of empty nonterminals are not needed: the closures
// already step over calls of nullable nonterminals (Aycock–Horspool).
//
// A nonterminal that cannot start with the next code point is not
// predicted: its items could never scan it.
func (e *earley) complete(k int32, next rune) {
	for i := int(e.setStart[k]); i < len(e.items); i++ {
		it := e.items[i]
		ds := &e.dstates[it.state]
		if next >= 0 && len(ds.calls) > 0 && ds.callFirst.has(next) {
			e.predict(ds, k, next)
		}
		o := it.origin
		if o == k {
			continue
		}
		for _, nt := range e.dstates[it.state].accepts {
			for _, w := range e.waitersOf(o, nt) {
				e.add(e.after(w.call), w.origin)
			}
		}
	}
}

// predict adds the start of every nonterminal ds calls that can begin with
// the next code point, once per set.
func (e *earley) predict(ds *dstate, k int32, next rune) {
	p := e.p
	for _, c := range ds.calls {
		nt := p.arg[c]
		if e.predicted[nt] != e.cur {
			e.predicted[nt] = e.cur
			if p.first[nt].has(next) {
				e.add(e.start(nt), k)
			}
		}
	}
}

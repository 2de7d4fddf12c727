package gbnf

import (
	"sync"
	"unicode/utf8"
)

// Matcher says whether a grammar accepts a text, as llama.cpp's grammar
// engine would. It is safe for concurrent use.
type Matcher struct {
	p     *matchProg
	lim   MatcherLimits
	pool  sync.Pool // *earley scratch
	root  int32
	nStat int
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
	return &Matcher{p: p, lim: lim, root: 0, nStat: len(p.kind)}, nil
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
	if e == nil {
		e = &earley{stamp: make([]uint32, m.nStat), head: make([]int32, m.nStat), predicted: make([]uint32, len(m.p.ntStart))}
	}
	r, err := e.run(m.p, text, m.lim.MaxItems)
	e.release()
	m.pool.Put(e)
	return r, err
}

// earleyItem is an Earley item: a state of a nonterminal's automaton and the set
// (code point index) where that nonterminal began.
type earleyItem struct{ state, origin int32 }

// earley is the scratch of one recognition, reused through the pool.
type earley struct {
	items    []earleyItem
	link     []int32 // next earleyItem of the current set with the same state, or -1
	setStart []int32 // set k is items[setStart[k]:setStart[k+1]]
	// stamp[s] == cur says head[s] is the first earleyItem of the current set in
	// state s; stamps grow across runs so nothing needs clearing.
	stamp     []uint32
	head      []int32
	predicted []uint32 // stamp of the set where a nonterminal was last predicted
	cur       uint32
	maxItems  int
	overflow  bool
}

// release drops big buffers so that one huge text does not pin memory in
// the pool.
func (e *earley) release() {
	const keep = 1 << 20
	if cap(e.items) > keep {
		e.items, e.link = nil, nil
	}
	if cap(e.setStart) > keep {
		e.setStart = nil
	}
}

// nextSet starts a new Earley set for deduplication.
func (e *earley) nextSet() {
	e.cur++
	if e.cur == 0 { // wrapped: clear the stamps once every 2^32 sets
		clear(e.stamp)
		clear(e.predicted)
		e.cur = 1
	}
	e.setStart = append(e.setStart, int32(len(e.items)))
}

func (e *earley) add(s, origin int32) {
	if e.stamp[s] == e.cur {
		for k := e.head[s]; k >= 0; k = e.link[k] {
			if e.items[k].origin == origin {
				return
			}
		}
		if len(e.items) >= e.maxItems {
			e.overflow = true
			return
		}
		e.link = append(e.link, e.head[s])
	} else {
		if len(e.items) >= e.maxItems {
			e.overflow = true
			return
		}
		e.stamp[s] = e.cur
		e.link = append(e.link, -1)
	}
	e.head[s] = int32(len(e.items))
	e.items = append(e.items, earleyItem{s, origin})
}

func (e *earley) addClosure(p *matchProg, s, origin int32) {
	for _, t := range p.clos[p.closOff[s]:p.closOff[s+1]] {
		e.add(t, origin)
	}
}

// run is the recogniser: for each code point, complete the current set
// (predictions and completions), then scan the code point into the next.
func (e *earley) run(p *matchProg, text string, maxItems int) (MatchResult, error) {
	e.items, e.link, e.setStart = e.items[:0], e.link[:0], e.setStart[:0]
	e.maxItems, e.overflow = maxItems, false
	e.nextSet()
	e.addClosure(p, p.ntStart[0], 0)
	pos := 0
	for k := int32(0); ; k++ {
		e.complete(p, k)
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
				if p.kind[it.state] == kindTerm && p.sets[p.arg[it.state]].has(r) {
					e.addClosure(p, p.next[it.state], it.origin)
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
	acc := p.ntAccept[0]
	if e.stamp[acc] == e.cur {
		for i := e.head[acc]; i >= 0; i = e.link[i] {
			if e.items[i].origin == 0 {
				return MatchResult{Accepted: true, Offset: pos}, nil
			}
		}
	}
	return MatchResult{Offset: pos}, nil
}

// complete runs predictions and completions over set k until it stops
// growing. Completions of empty nonterminals are not needed: the closures
// already step over calls of nullable nonterminals (Aycock–Horspool).
func (e *earley) complete(p *matchProg, k int32) {
	for i := int(e.setStart[k]); i < len(e.items); i++ {
		it := e.items[i]
		switch p.kind[it.state] {
		case kindCall:
			nt := p.arg[it.state]
			if e.predicted[nt] != e.cur {
				e.predicted[nt] = e.cur
				e.addClosure(p, p.ntStart[nt], k)
			}
		case kindAccept:
			o := it.origin
			if o == k {
				continue
			}
			nt := p.arg[it.state]
			for j := e.setStart[o]; j < e.setStart[o+1]; j++ {
				w := e.items[j]
				if p.kind[w.state] == kindCall && p.arg[w.state] == nt {
					e.addClosure(p, p.next[w.state], w.origin)
				}
			}
		}
	}
}

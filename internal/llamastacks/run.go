package llamastacks

import "slices"

// Cost is what llama.cpp's engine does for one text.
type Cost struct {
	// CodePoints is how many code points were taken: all of the text, or
	// up to and including the first one no stack could take.
	CodePoints int
	// Accepted says whether some stack is empty after the whole text.
	Accepted bool
	// InitStacks is the number of stacks before the first code point.
	InitStacks int
	// Stacks is the sum over code points of the live stacks after each;
	// MaxStacks the largest of them.
	Stacks, MaxStacks int
	// Built is how many stacks advancing built (each a vector copy in
	// llama.cpp), and Elements how many elements they held.
	Built, Elements int
	// Compares is the stack comparisons of llama.cpp's linear duplicate
	// check of each new stack against those kept so far in the step.
	Compares int
	// CharTests is the character or range tests made by matching.
	CharTests int
}

// MeanStacks is the mean number of live stacks after a code point.
func (c Cost) MeanStacks() float64 {
	if c.CodePoints == 0 {
		return 0
	}
	return float64(c.Stacks) / float64(c.CodePoints)
}

// EngineNanos estimates llama.cpp's time to accept the text, in ns on the
// machine it was fitted on (node-llama-cpp 3.21.1, x86-64, 2025): 130 ns per
// stack built and 4.7 per duplicate-check comparison. Fitted on synthetic
// grammars whose ambiguity multiplies stacks (1 to 16 readings of a
// 1000-character string; the fit is within 10% on each); a fixed ~300 ns
// per code point comes on top. Use it for ratios, not absolute times.
func (c Cost) EngineNanos() float64 {
	return 130*float64(c.Built) + 4.7*float64(c.Compares)
}

// Add sums two costs (MaxStacks is the larger, Accepted true if both are).
func (c Cost) Add(d Cost) Cost {
	return Cost{
		CodePoints: c.CodePoints + d.CodePoints,
		Accepted:   c.Accepted && d.Accepted,
		InitStacks: c.InitStacks + d.InitStacks,
		Stacks:     c.Stacks + d.Stacks,
		MaxStacks:  max(c.MaxStacks, d.MaxStacks),
		Built:      c.Built + d.Built,
		Elements:   c.Elements + d.Elements,
		Compares:   c.Compares + d.Compares,
		CharTests:  c.CharTests + d.CharTests,
	}
}

// stack is a pushdown stack of element positions, top last.
type stack []int32

// key is a map key for a stack's contents.
func (s stack) key(buf []byte) []byte {
	buf = buf[:0]
	for _, p := range s {
		buf = append(buf, byte(p), byte(p>>8), byte(p>>16), byte(p>>24))
	}
	return buf
}

// machine runs one text.
type machine struct {
	g      *Grammar
	blame  map[string]int // with Blame: live stacks per rule of their top
	lim    Limits
	cost   Cost
	next   []stack
	kept   map[string]bool // stacks in next
	seen   map[string]bool // stacks expanded in this advance
	keyBuf []byte
	err    error
}

// Run feeds text to the grammar code point by code point, as
// node-llama-cpp's isTextCompatible does, and counts the work, with
// DefaultLimits. Invalid UTF-8 decodes to U+FFFD per bad byte.
func (g *Grammar) Run(text string) (Cost, error) { return g.RunLimits(text, Limits{}) }

// RunLimits is Run with the limits given.
func (g *Grammar) RunLimits(text string, lim Limits) (Cost, error) {
	m := &machine{g: g, lim: lim.withDefaults()}
	return m.run(text)
}

func (m *machine) run(text string) (Cost, error) {
	stacks := m.initial()
	m.cost.InitStacks = len(stacks)
	for _, r := range text {
		if m.err != nil {
			return m.cost, m.err
		}
		m.cost.CodePoints++
		stacks = m.accept(stacks, uint32(r))
		m.cost.Stacks += len(stacks)
		m.cost.MaxStacks = max(m.cost.MaxStacks, len(stacks))
		if m.blame != nil {
			for _, s := range stacks {
				name := "(done)"
				if len(s) > 0 {
					name = m.g.ruleName(s[len(s)-1])
				}
				m.blame[name]++
			}
		}
		if len(stacks) == 0 {
			return m.cost, m.err
		}
	}
	for _, s := range stacks {
		if len(s) == 0 {
			m.cost.Accepted = true
		}
	}
	return m.cost, m.err
}

// Blame runs text like Run and counts, per rule of the grammar text, the
// live stacks whose top element lies in it, summed over code points: where
// a grammar's stacks are. Rules llama.cpp makes of groups and repetitions
// count for the rule they were written in.
func (g *Grammar) Blame(text string) (map[string]int, error) {
	m := &machine{g: g, lim: DefaultLimits, blame: map[string]int{}}
	_, err := m.run(text)
	return m.blame, err
}

// initial is one stack per alternative of root, advanced.
func (m *machine) initial() []stack {
	m.begin()
	m.seen = map[string]bool{}
	m.alternatives(nil, m.g.root, -1)
	return m.next
}

func (m *machine) begin() {
	m.next = nil
	m.kept = map[string]bool{}
}

// accept is llama_grammar_accept: every stack whose top matches r moves on.
func (m *machine) accept(stacks []stack, r uint32) []stack {
	m.begin()
	for _, s := range stacks {
		if len(s) == 0 {
			continue
		}
		ok, after := m.match(s[len(s)-1], r)
		if !ok {
			continue
		}
		ns := append(stack(nil), s[:len(s)-1]...)
		if k := m.g.elems[after].kind; k != kEnd && k != kAlt {
			ns = append(ns, after)
		}
		m.advance(ns)
	}
	return m.next
}

// match is llama_grammar_match_char: does the class at pos take r, and
// where does the class end.
func (m *machine) match(pos int32, r uint32) (bool, int32) {
	e := m.g.elems
	positive := e[pos].kind == kChar || e[pos].kind == kAny
	found := false
	for {
		m.cost.CharTests++
		switch {
		case e[pos+1].kind == kRngUpper:
			found = found || e[pos].value <= r && r <= e[pos+1].value
			pos += 2
		case e[pos].kind == kAny:
			found = true
			pos++
		default:
			found = found || e[pos].value == r
			pos++
		}
		if e[pos].kind != kCharAlt {
			return found == positive, pos
		}
	}
}

// advance is llama_grammar_advance_stack: it expands rule references on top
// of s until every resulting stack has a character element on top or is
// empty, and keeps the new ones.
func (m *machine) advance(s stack) {
	m.seen = map[string]bool{}
	m.advanceFrom(s)
}

func (m *machine) advanceFrom(s stack) {
	if m.err != nil {
		return
	}
	m.cost.Built++
	m.cost.Elements += len(s)
	if len(s) > m.lim.MaxDepth {
		m.err = &LimitError{"MaxDepth", m.lim.MaxDepth}
		return
	}
	if m.cost.Built > m.lim.MaxStacks*(m.cost.CodePoints+1) {
		m.err = &LimitError{"MaxStacks", m.lim.MaxStacks}
		return
	}
	m.keyBuf = s.key(m.keyBuf)
	if m.seen[string(m.keyBuf)] {
		return
	}
	m.seen[string(m.keyBuf)] = true
	if len(s) == 0 || m.g.elems[s[len(s)-1]].kind != kRef {
		m.keep(s)
		return
	}
	top := s[len(s)-1]
	m.alternatives(s[:len(s)-1], int32(m.g.elems[top].value), top+1)
}

// alternatives pushes each alternative of rule on below (after the
// element at after, if any, that follows the reference) and advances it.
func (m *machine) alternatives(below stack, rule, after int32) {
	e := m.g.elems
	pos := m.g.start[rule]
	for {
		ns := make(stack, len(below), len(below)+2)
		copy(ns, below)
		if after >= 0 && e[after].kind != kEnd && e[after].kind != kAlt {
			ns = append(ns, after)
		}
		if k := e[pos].kind; k != kEnd && k != kAlt {
			ns = append(ns, pos)
		}
		m.advanceFrom(ns)
		for e[pos].kind != kEnd && e[pos].kind != kAlt {
			pos++
		}
		if e[pos].kind == kEnd {
			return
		}
		pos++
	}
}

// keep adds s to the new stacks unless it is there already.
func (m *machine) keep(s stack) {
	m.cost.Compares += len(m.next)
	m.keyBuf = s.key(m.keyBuf)
	if m.kept[string(m.keyBuf)] {
		return
	}
	if len(m.next) >= m.lim.MaxStacks {
		m.err = &LimitError{"MaxStacks", m.lim.MaxStacks}
		return
	}
	m.kept[string(m.keyBuf)] = true
	m.next = append(m.next, s)
}

// ruleName is the name of the rule written in the text that holds pos.
func (g *Grammar) ruleName(pos int32) string {
	id, _ := slices.BinarySearch(g.start, pos+1)
	return g.base[id-1]
}

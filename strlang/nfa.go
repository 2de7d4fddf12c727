package strlang

import "strconv"

// The tree becomes a Thompson automaton: states that read one code point
// of a set, forks, assertions, and one match state. Counted repetitions
// are written out, x{2,4} as x x (x (x)?)?, which is why Limits.Repeat
// bounds the size of the tree with its counts multiplied out before any
// state is made.

type nop uint8

const (
	nChar   nop = iota // read one code point of sets[set], go to out
	nSplit             // go to out and to out1
	nAssert            // go to out if the assertion holds here
	nMatch             // the pattern has matched
)

type nstate struct {
	op        nop
	assert    op    // nAssert: opBegin, opEnd, opWordBoundary or opNotWordBoundary
	set       int32 // nChar: index in nfa.sets
	out, out1 int32
}

type nfa struct {
	states []nstate
	sets   []Set // the distinct sets read
	start  int32
	words  bool // some assertion depends on word characters
}

// treeSize is the number of states the tree makes, at most maxCount.
func treeSize(n *node) int {
	switch n.op {
	case opEmpty:
		return 0
	case opChar, opBegin, opEnd, opWordBoundary, opNotWordBoundary:
		return 1
	case opConcat, opAlt:
		s := len(n.subs) - 1
		if n.op == opConcat {
			s = 0
		}
		for _, sub := range n.subs {
			s = min(s+treeSize(sub), maxCount)
		}
		return s
	}
	// opRepeat
	sub := treeSize(n.subs[0])
	copies := n.max
	if n.max < 0 {
		copies = n.min + 1
	}
	if sub > 0 && copies > maxCount/sub {
		return maxCount
	}
	return min(sub*copies+copies-n.min+1, maxCount)
}

// buildNFA makes the automaton of a tree.
func buildNFA(pattern string, tree *node, lim Limits) (*nfa, error) {
	if size := treeSize(tree); size > lim.Repeat {
		return nil, newError(ErrLimitRepeat, pattern, -1, "written out, the pattern's counted repetitions make %s positions, more than the limit of %d (Limits.Repeat)",
			atLeast(size), lim.Repeat)
	}
	b := &nfaBuilder{nfa: &nfa{}, setIndex: map[string]int32{}, nodeSet: map[*node]int32{}}
	match := b.add(nstate{op: nMatch})
	b.nfa.start = b.build(tree, match)
	return b.nfa, nil
}

// atLeast prints a count that may stand for "maxCount or more".
func atLeast(n int) string {
	if n >= maxCount {
		return "over a billion"
	}
	return strconv.Itoa(n)
}

type nfaBuilder struct {
	nfa      *nfa
	setIndex map[string]int32 // by Set.key
	nodeSet  map[*node]int32  // by node: a counted repetition copies its nodes
}

func (b *nfaBuilder) add(s nstate) int32 {
	b.nfa.states = append(b.nfa.states, s)
	return int32(len(b.nfa.states) - 1)
}

// build adds the states of n, to go on to next when n has matched, and
// returns the state to start n in.
func (b *nfaBuilder) build(n *node, next int32) int32 {
	switch n.op {
	case opEmpty:
		return next
	case opChar:
		i, ok := b.nodeSet[n]
		if !ok {
			key := n.set.key()
			i, ok = b.setIndex[key]
			if !ok {
				i = int32(len(b.nfa.sets))
				b.nfa.sets = append(b.nfa.sets, n.set)
				b.setIndex[key] = i
			}
			b.nodeSet[n] = i
		}
		return b.add(nstate{op: nChar, set: i, out: next})
	case opBegin, opEnd, opWordBoundary, opNotWordBoundary:
		if n.op == opWordBoundary || n.op == opNotWordBoundary {
			b.nfa.words = true
		}
		return b.add(nstate{op: nAssert, assert: n.op, out: next})
	case opConcat:
		for i := len(n.subs) - 1; i >= 0; i-- {
			next = b.build(n.subs[i], next)
		}
		return next
	case opAlt:
		entry := b.build(n.subs[len(n.subs)-1], next)
		for i := len(n.subs) - 2; i >= 0; i-- {
			entry = b.add(nstate{op: nSplit, out: b.build(n.subs[i], next), out1: entry})
		}
		return entry
	}
	// opRepeat
	sub := n.subs[0]
	cur := next
	if n.max < 0 {
		loop := b.add(nstate{op: nSplit, out1: next})
		b.nfa.states[loop].out = b.build(sub, loop)
		cur = loop
	} else {
		for i := 0; i < n.max-n.min; i++ {
			cur = b.add(nstate{op: nSplit, out: b.build(sub, cur), out1: next})
		}
	}
	for i := 0; i < n.min; i++ {
		cur = b.build(sub, cur)
	}
	return cur
}

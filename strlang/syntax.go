package strlang

import (
	"strconv"
	"strings"
)

// The parse tree: what a pattern means as a language, with everything that
// does not change the language gone (captures, group names, laziness).

type op uint8

const (
	opEmpty           op = iota // the empty string
	opChar                      // one code point of set (none when set is empty)
	opConcat                    // subs, one after another
	opAlt                       // any one of subs
	opRepeat                    // subs[0], min to max times (max < 0: no bound)
	opBegin                     // ^: at the start of the string
	opEnd                       // $: at the end of the string
	opWordBoundary              // \b: between a word character and a non-word one
	opNotWordBoundary           // \B: not there
)

type node struct {
	op       op
	set      Set
	subs     []*node
	min, max int
}

var emptyNode = &node{op: opEmpty}

func charNode(s Set) *node { return &node{op: opChar, set: s} }

func concatNode(subs []*node) *node {
	var flat []*node
	for _, s := range subs {
		switch s.op {
		case opEmpty:
		case opConcat:
			flat = append(flat, s.subs...)
		default:
			flat = append(flat, s)
		}
	}
	switch len(flat) {
	case 0:
		return emptyNode
	case 1:
		return flat[0]
	}
	return &node{op: opConcat, subs: flat}
}

func altNode(subs []*node) *node {
	if len(subs) == 1 {
		return subs[0]
	}
	return &node{op: opAlt, subs: subs}
}

func repeatNode(sub *node, min, max int) *node {
	switch {
	case max == 0 || sub.op == opEmpty:
		return emptyNode
	case min == 1 && max == 1:
		return sub
	}
	return &node{op: opRepeat, subs: []*node{sub}, min: min, max: max}
}

// String dumps the tree compactly, for tests: a, [a-z], cat{a b},
// alt{a|b}, rep{2,5 a} (rep{2, a}: no bound), ^ $ \b \B, emp{}.
func (n *node) String() string {
	var b strings.Builder
	n.dump(&b)
	return b.String()
}

func (n *node) dump(b *strings.Builder) {
	switch n.op {
	case opEmpty:
		b.WriteString("emp{}")
	case opChar:
		if rs := n.set.r; len(rs) == 1 && rs[0].Lo == rs[0].Hi {
			s := n.set.String()
			b.WriteString(s[1 : len(s)-1])
		} else {
			b.WriteString(n.set.String())
		}
	case opConcat, opAlt:
		open, sep := "cat{", " "
		if n.op == opAlt {
			open, sep = "alt{", "|"
		}
		b.WriteString(open)
		for i, s := range n.subs {
			if i > 0 {
				b.WriteString(sep)
			}
			s.dump(b)
		}
		b.WriteByte('}')
	case opRepeat:
		b.WriteString("rep{")
		b.WriteString(strconv.Itoa(n.min))
		b.WriteByte(',')
		if n.max >= 0 {
			b.WriteString(strconv.Itoa(n.max))
		}
		b.WriteByte(' ')
		n.subs[0].dump(b)
		b.WriteByte('}')
	case opBegin:
		b.WriteByte('^')
	case opEnd:
		b.WriteByte('$')
	case opWordBoundary:
		b.WriteString(`\b`)
	case opNotWordBoundary:
		b.WriteString(`\B`)
	}
}

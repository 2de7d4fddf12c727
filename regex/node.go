package regex

import (
	"sort"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// op is the kind of a regex node.
type op uint8

const (
	opNone   op = iota // matches no text at all
	opEmpty            // matches only ""
	opLit              // matches runes, in order
	opClass            // matches one code point in ranges
	opConcat           // matches subs one after another
	opAlt              // matches any one of subs
	opRepeat           // matches subs[0] at least min and at most max times (max < 0: no bound)
)

// node is the emitter's own small regex tree. Nodes are immutable once
// built and shared freely (one node per inlined rule), so the tree is a DAG
// whose printed size can be far bigger than its memory size.
type node struct {
	op       op
	runes    []rune       // opLit: never empty, never NUL
	ranges   []gbnf.Range // opClass: sorted, disjoint, not empty, no NUL, no surrogates
	subs     []*node      // opConcat, opAlt: two or more; opRepeat: one
	min, max int          // opRepeat
}

var (
	noneNode  = &node{op: opNone}
	emptyNode = &node{op: opEmpty}
)

// surrogates are the code points UTF-8 cannot carry: no text holds them, and
// Go and Rust refuse them in a pattern.
const surrogateLo, surrogateHi = 0xD800, 0xDFFF

// newLit matches runes. A NUL makes it match nothing: llama.cpp's engine
// (and our matcher) never matches NUL.
func newLit(runes []rune) *node {
	if len(runes) == 0 {
		return emptyNode
	}
	for _, r := range runes {
		if r == 0 {
			return noneNode
		}
	}
	return &node{op: opLit, runes: runes}
}

// newClass matches one code point of ranges (of their complement when
// negated), with NUL and surrogates removed.
func newClass(ranges []gbnf.Range, negated bool) *node {
	rs := normalRanges(ranges, negated)
	switch {
	case len(rs) == 0:
		return noneNode
	case len(rs) == 1 && rs[0].Lo == rs[0].Hi:
		return &node{op: opLit, runes: []rune{rs[0].Lo}}
	}
	return &node{op: opClass, ranges: rs}
}

// normalRanges clips ranges to the code points a text can hold (1 to
// U+10FFFF, surrogates excluded), drops reversed ones, sorts and merges them,
// and applies negation: the same set the matcher uses, minus surrogates.
func normalRanges(ranges []gbnf.Range, negated bool) []gbnf.Range {
	var rs []gbnf.Range
	for _, r := range ranges {
		lo, hi := max(r.Lo, 0), min(r.Hi, utf8.MaxRune)
		if lo <= hi {
			rs = append(rs, gbnf.Range{Lo: lo, Hi: hi})
		}
	}
	rs = mergeRanges(rs)
	if negated {
		rs = complement(rs)
	}
	return subtract(rs, []gbnf.Range{{Lo: 0, Hi: 0}, {Lo: surrogateLo, Hi: surrogateHi}})
}

// mergeRanges sorts ranges and joins overlapping or touching ones.
func mergeRanges(rs []gbnf.Range) []gbnf.Range {
	sort.Slice(rs, func(i, j int) bool { return rs[i].Lo < rs[j].Lo })
	var out []gbnf.Range
	for _, r := range rs {
		if n := len(out); n > 0 && r.Lo <= out[n-1].Hi+1 {
			out[n-1].Hi = max(out[n-1].Hi, r.Hi)
			continue
		}
		out = append(out, r)
	}
	return out
}

// complement returns the code points 0..U+10FFFF not in the sorted,
// disjoint ranges rs.
func complement(rs []gbnf.Range) []gbnf.Range {
	var out []gbnf.Range
	next := rune(0)
	for _, r := range rs {
		if r.Lo > next {
			out = append(out, gbnf.Range{Lo: next, Hi: r.Lo - 1})
		}
		next = r.Hi + 1
	}
	if next <= utf8.MaxRune {
		out = append(out, gbnf.Range{Lo: next, Hi: utf8.MaxRune})
	}
	return out
}

// subtract removes the sorted, disjoint ranges cut from the sorted, disjoint
// ranges rs.
func subtract(rs, cut []gbnf.Range) []gbnf.Range {
	var out []gbnf.Range
	for _, r := range rs {
		lo := r.Lo
		for _, c := range cut {
			if c.Hi < lo || c.Lo > r.Hi {
				continue
			}
			if c.Lo > lo {
				out = append(out, gbnf.Range{Lo: lo, Hi: c.Lo - 1})
			}
			lo = c.Hi + 1
		}
		if lo <= r.Hi {
			out = append(out, gbnf.Range{Lo: lo, Hi: r.Hi})
		}
	}
	return out
}

// newConcat matches items one after another: nested concatenations are
// flattened, "" items dropped, adjacent literals joined, and any item that
// matches nothing makes the whole match nothing.
func newConcat(items ...*node) *node {
	var out []*node
	var runes []rune // literal text not yet added to out
	flush := func() {
		if len(runes) > 0 {
			out = append(out, &node{op: opLit, runes: runes})
			runes = nil
		}
	}
	var add func(n *node) bool
	add = func(n *node) bool {
		switch n.op {
		case opNone:
			return false
		case opEmpty:
		case opConcat:
			for _, s := range n.subs {
				if !add(s) {
					return false
				}
			}
		case opLit:
			runes = append(runes, n.runes...)
		default:
			flush()
			out = append(out, n)
		}
		return true
	}
	for _, n := range items {
		if !add(n) {
			return noneNode
		}
	}
	if len(out) == 0 && len(runes) > 0 && len(items) == 1 {
		return items[0] // a lone literal stays the same node
	}
	flush()
	switch len(out) {
	case 0:
		return emptyNode
	case 1:
		return out[0]
	}
	return &node{op: opConcat, subs: out}
}

// newAlt matches any one of alts: nested alternations are flattened,
// alternatives that match nothing dropped, repeated ones kept once,
// single-code-point alternatives merged into one class, and an empty
// alternative turned into "?" on the rest.
func newAlt(alts ...*node) *node {
	var out []*node
	var chars []gbnf.Range
	charsAt := -1
	nullable := false
	seen := map[*node]bool{}
	var add func(n *node)
	add = func(n *node) {
		switch {
		case n.op == opNone:
		case n.op == opEmpty:
			nullable = true
		case n.op == opAlt:
			for _, s := range n.subs {
				add(s)
			}
		case n.op == opClass || n.op == opLit && len(n.runes) == 1:
			if charsAt < 0 {
				charsAt = len(out)
				out = append(out, nil) // the merged class goes here
			}
			if n.op == opClass {
				chars = append(chars, n.ranges...)
			} else {
				chars = append(chars, gbnf.Range{Lo: n.runes[0], Hi: n.runes[0]})
			}
		case !seen[n]:
			seen[n] = true
			out = append(out, n)
		}
	}
	for _, n := range alts {
		add(n)
	}
	if charsAt >= 0 {
		out[charsAt] = newClass(chars, false)
	}
	var n *node
	switch len(out) {
	case 0:
		if nullable {
			return emptyNode
		}
		return noneNode
	case 1:
		n = out[0]
	default:
		n = &node{op: opAlt, subs: out}
	}
	if nullable {
		return newRepeat(n, 0, 1)
	}
	return n
}

// newRepeat matches x at least lo and at most hi times (hi < 0: no bound),
// with llama.cpp's reading of bounds: a negative lo is 0, and hi < lo means
// exactly lo.
func newRepeat(x *node, lo, hi int) *node {
	lo = max(lo, 0)
	if hi >= 0 && hi < lo {
		hi = lo
	}
	switch {
	case hi == 0 || x.op == opEmpty:
		return emptyNode
	case x.op == opNone:
		if lo == 0 {
			return emptyNode
		}
		return noneNode
	case lo == 1 && hi == 1:
		return x
	}
	if x.op == opRepeat {
		in := x
		switch {
		case in.min == 0 && in.max < 0: // (x*){lo,hi} is x*
			return in
		case in.min == 0 && in.max == 1: // (x?){lo,hi} is x{0,hi}
			return newRepeat(in.subs[0], 0, hi)
		case in.min == 1 && in.max < 0 && lo == 0: // (x+)? and (x+)* are x*
			return newRepeat(in.subs[0], 0, -1)
		case lo == 0 && hi == 1 && in.min == 0: // (x{0,n})? is x{0,n}
			return in
		}
	}
	return &node{op: opRepeat, subs: []*node{x}, min: lo, max: hi}
}

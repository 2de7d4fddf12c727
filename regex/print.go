package regex

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// ctx is where a node is printed, which decides whether it needs a group.
type ctx uint8

const (
	ctxTop    ctx = iota // the whole regex, or a branch of an alternation
	ctxConcat            // an item of a concatenation: an alternation needs (?:)
	ctxAtom              // the operand of a repetition: anything but one code point needs (?:)
)

// grouped reports whether n printed in c needs (?:...) around it.
func grouped(n *node, c ctx) bool {
	switch c {
	case ctxConcat:
		return n.op == opAlt || n.op == opEmpty
	case ctxAtom:
		return !(n.op == opClass || n.op == opLit && len(n.runes) == 1)
	}
	return false
}

// childCtx is the context of n's children.
func childCtx(n *node) ctx {
	switch n.op {
	case opConcat:
		return ctxConcat
	case opRepeat:
		return ctxAtom
	}
	return ctxTop
}

// printer measures and prints node trees. Sizes and depths are memoized per
// node, so measuring a DAG costs its memory size, not its printed size.
type printer struct {
	sizes  map[*node]int
	depths map[*node]int
}

func newPrinter() *printer {
	return &printer{sizes: map[*node]int{}, depths: map[*node]int{}}
}

// sizeCap keeps sums of sizes from overflowing; any size above it is
// refused by MaxBytes anyway.
const sizeCap = 1 << 40

// size is the length in bytes of n printed in c.
func (p *printer) size(n *node, c ctx) int {
	s, ok := p.sizes[n]
	if !ok {
		s = p.bareSize(n)
		p.sizes[n] = s
	}
	if grouped(n, c) {
		s += len("(?:)")
	}
	return min(s, sizeCap)
}

func (p *printer) bareSize(n *node) int {
	s := 0
	switch n.op {
	case opLit:
		for _, r := range n.runes {
			s += len(litRune(nil, r))
		}
	case opClass:
		s = len(classText(nil, n.ranges))
	case opConcat, opAlt:
		for _, sub := range n.subs {
			s = min(s+p.size(sub, childCtx(n)), sizeCap)
		}
		if n.op == opAlt {
			s += len(n.subs) - 1
		}
	case opRepeat:
		s = p.size(n.subs[0], ctxAtom) + len(repeatSuffix(nil, n))
	}
	return min(s, sizeCap)
}

// nesting is how deep n printed in c nests, counted as Rust's regex parser
// counts toward its nest limit: each group, repetition, alternation,
// concatenation and bracketed class is one level.
func (p *printer) nesting(n *node, c ctx) int {
	d, ok := p.depths[n]
	if !ok {
		switch n.op {
		case opLit:
			d = min(len(n.runes)-1, 1)
		case opClass:
			d = 1
		case opConcat, opAlt, opRepeat:
			for _, sub := range n.subs {
				d = max(d, p.nesting(sub, childCtx(n)))
			}
			d++
		}
		p.depths[n] = d
	}
	if grouped(n, c) {
		d++
	}
	return d
}

// print writes the whole regex. Call it only after size said it is small.
func (p *printer) print(n *node) string {
	var b []byte
	b = make([]byte, 0, p.size(n, ctxTop))
	b = p.append(b, n, ctxTop)
	return string(b)
}

func (p *printer) append(b []byte, n *node, c ctx) []byte {
	g := grouped(n, c)
	if g {
		b = append(b, "(?:"...)
	}
	switch n.op {
	case opLit:
		for _, r := range n.runes {
			b = litRune(b, r)
		}
	case opClass:
		b = classText(b, n.ranges)
	case opConcat:
		for _, sub := range n.subs {
			b = p.append(b, sub, ctxConcat)
		}
	case opAlt:
		for i, sub := range n.subs {
			if i > 0 {
				b = append(b, '|')
			}
			b = p.append(b, sub, ctxTop)
		}
	case opRepeat:
		b = p.append(b, n.subs[0], ctxAtom)
		b = repeatSuffix(b, n)
	}
	if g {
		b = append(b, ')')
	}
	return b
}

// repeatSuffix appends ?, *, +, {n}, {n,} or {m,n}; never {,n}, which
// Python and Go read differently.
func repeatSuffix(b []byte, n *node) []byte {
	switch {
	case n.min == 0 && n.max == 1:
		return append(b, '?')
	case n.min == 0 && n.max < 0:
		return append(b, '*')
	case n.min == 1 && n.max < 0:
		return append(b, '+')
	}
	b = append(b, '{')
	b = strconv.AppendInt(b, int64(n.min), 10)
	switch {
	case n.max < 0:
		b = append(b, ',')
	case n.max != n.min:
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(n.max), 10)
	}
	return append(b, '}')
}

// Metacharacters, escaped with a backslash. Outside a class these are the
// ones Go, Rust and Python give a meaning; inside, also those that Python
// treats as (future) set operations and Rust as class syntax.
const (
	litMeta   = `\.+*?()|[]{}^$`
	classMeta = `\]-[^&~|`
)

// litRune appends r as it must be written outside a class.
func litRune(b []byte, r rune) []byte {
	return escRune(b, r, litMeta)
}

// escRune writes control characters as \xHH (a code point in all three
// dialects), metacharacters with a backslash, and everything else raw.
func escRune(b []byte, r rune, meta string) []byte {
	switch {
	case r < 0x20 || 0x7F <= r && r <= 0x9F:
		const hex = "0123456789abcdef"
		return append(b, '\\', 'x', hex[r>>4], hex[r&15])
	case r < utf8.RuneSelf && strings.ContainsRune(meta, r):
		return append(b, '\\', byte(r))
	}
	return utf8.AppendRune(b, r)
}

// classText appends the class of ranges, or of their complement when that
// is shorter. The complement leaves out surrogates (no pattern may hold
// them; no text does either) and so covers NUL, which must not match.
func classText(b []byte, ranges []gbnf.Range) []byte {
	neg := subtract(complement(ranges), []gbnf.Range{{Lo: surrogateLo, Hi: surrogateHi}})
	if len(rangesText(nil, neg)) < len(rangesText(nil, ranges)) {
		b = append(b, '[', '^')
		b = rangesText(b, neg)
		return append(b, ']')
	}
	b = append(b, '[')
	b = rangesText(b, ranges)
	return append(b, ']')
}

func rangesText(b []byte, ranges []gbnf.Range) []byte {
	for _, r := range ranges {
		b = escRune(b, r.Lo, classMeta)
		switch {
		case r.Hi == r.Lo:
		case r.Hi == r.Lo+1:
			b = escRune(b, r.Hi, classMeta)
		default:
			b = append(b, '-')
			b = escRune(b, r.Hi, classMeta)
		}
	}
	return b
}

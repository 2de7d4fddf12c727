package regex

import (
	"fmt"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// fitter rewrites counted repetitions so Go's regexp/syntax accepts them: a
// count is at most 1000, and the counts of nested repetitions multiply into
// the same budget of 1000 (regexp/syntax's repeatIsValid). A repetition over
// the budget left by its enclosing counts becomes a run of chunks that fit:
// x{0,2500} at budget 1000 is x{0,1000}x{0,1000}x{0,500}. Sibling chunks do
// not multiply, so the language is unchanged and the size grows only by the
// number of chunks.
type fitter struct {
	memo     map[fitKey]*node
	maxParts int // chunks the fitter may create in total (MaxBytes: each prints at least one byte)
	parts    int
	err      *subsetcheck.Problem
}

type fitKey struct {
	n      *node
	budget int
}

func newFitter(maxBytes int) *fitter {
	return &fitter{memo: map[fitKey]*node{}, maxParts: maxBytes}
}

// counted reports whether a repetition prints as {..}, the form Go budgets
// (?, * and + are not counted).
func counted(n *node) bool {
	switch {
	case n.min == 0 && n.max == 1, n.min == 0 && n.max < 0, n.min == 1 && n.max < 0:
		return false
	}
	return true
}

// fit returns n rewritten to fit budget, the product of counts that may
// still be nested at this place.
func (f *fitter) fit(n *node, budget int) *node {
	if f.err != nil {
		return n
	}
	switch n.op {
	case opConcat, opAlt, opRepeat:
	default:
		return n
	}
	key := fitKey{n, budget}
	if out, ok := f.memo[key]; ok {
		return out
	}
	var out *node
	switch n.op {
	case opConcat, opAlt:
		subs := make([]*node, len(n.subs))
		changed := false
		for i, s := range n.subs {
			subs[i] = f.fit(s, budget)
			changed = changed || subs[i] != s
		}
		out = n
		if changed {
			out = &node{op: n.op, subs: subs}
		}
	case opRepeat:
		out = f.fitRepeat(n, budget)
	}
	f.memo[key] = out
	return out
}

func (f *fitter) fitRepeat(n *node, budget int) *node {
	x := n.subs[0]
	if !counted(n) {
		sub := f.fit(x, budget)
		if sub == x {
			return n
		}
		return &node{op: opRepeat, subs: []*node{sub}, min: n.min, max: n.max}
	}
	m := n.max
	if m < 0 {
		m = n.min
	}
	if m <= budget {
		sub := f.fit(x, budget/m)
		if sub == x {
			return n
		}
		return &node{op: opRepeat, subs: []*node{sub}, min: n.min, max: n.max}
	}
	// Over budget: chunks of at most budget copies each.
	chunk := budget
	if n.min/chunk+max(n.max-n.min, 0)/chunk > f.maxParts-f.parts {
		f.err = problem(CodeTooLarge, fmt.Sprintf("a repetition of %d needs more chunks than a regex of %d bytes holds (-max-regex-bytes, regex.Options.MaxBytes); lower the bound, or raise the limit", m, f.maxParts))
		return n
	}
	var parts []*node
	add := func(count int, optional bool) {
		for count > 0 && f.err == nil {
			c := min(count, chunk)
			count -= c
			f.parts++
			if f.parts > f.maxParts {
				f.err = problem(CodeTooLarge, fmt.Sprintf("a repetition of %d needs more chunks than a regex of %d bytes holds (-max-regex-bytes, regex.Options.MaxBytes); lower the bound, or raise the limit", m, f.maxParts))
				return
			}
			lo := c
			if optional {
				lo = 0
			}
			var part *node
			if c == 1 {
				part = newRepeat(f.fit(x, budget), lo, 1)
			} else {
				part = newRepeat(f.fit(x, budget/c), lo, c)
			}
			if part.op == opConcat {
				// A chunk of one copy is x itself, whose items the
				// concatenation of the chunks takes one by one: each is a
				// part (at budget 1, under counts that multiply to 1000,
				// maxLength 10^12 made 79 million of them before the limit).
				f.parts += len(part.subs) - 1
			}
			parts = append(parts, part)
		}
	}
	add(n.min, false)
	if n.max < 0 {
		parts = append(parts, newRepeat(f.fit(x, budget), 0, -1))
	} else {
		add(n.max-n.min, true)
	}
	if f.err == nil && f.parts > f.maxParts {
		f.err = problem(CodeTooLarge, fmt.Sprintf("a repetition of %d needs more chunks than a regex of %d bytes holds (-max-regex-bytes, regex.Options.MaxBytes); lower the bound, or raise the limit", m, f.maxParts))
	}
	if f.err != nil {
		return n
	}
	return newConcat(parts...)
}

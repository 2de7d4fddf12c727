package compile

import (
	"fmt"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// contains, minContains, maxContains: see items.go for the construction.

// containsArray is the grammar of p's arrays with between MinContains and
// MaxContains items matching p.Contains; maxN is arrayMax(p).
func (cp *compiler) containsArray(p *subsetcheck.Schema, base string, maxN int) gbnf.Expr {
	minC, maxC := p.MinContains, -1
	if p.MaxContains != nil {
		maxC = *p.MaxContains
	}
	if maxC >= 0 && minC > maxC {
		cp.noteCause("the array at %q needs at least %d and at most %d items matching contains", p.Pointer, minC, maxC)
		return nil
	}
	if minC == 0 && maxC < 0 { // every array has at least no matching item
		q := *p
		q.Contains = nil
		return cp.arrayExpr(&q, base)
	}
	// Each position's items that match and those that do not.
	positions := len(p.PrefixItems) + 1
	if maxN >= 0 && maxN < positions {
		positions = maxN
	}
	match := make([]gbnf.Expr, positions)
	other := make([]gbnf.Expr, positions)
	for i := range positions {
		var ok bool
		if match[i], other[i], ok = cp.splitItems(p, itemSchema(p, i), i); !ok {
			return nil
		}
	}
	// The states: items so far n, matches so far k. Past the prefix and
	// past minItems with no maxItems, n no longer matters; past minContains
	// with no maxContains, neither does k.
	nCap := maxN
	if nCap < 0 {
		nCap = max(p.MinItems, len(p.PrefixItems), 1) // the first item has no comma before it
	}
	kCap := maxC
	if kCap < 0 {
		kCap = minC
	}
	type state struct{ n, k int }
	type edge struct {
		item gbnf.Expr
		to   state
	}
	norm := func(s state) state {
		if maxN < 0 {
			s.n = min(s.n, nCap)
		}
		if maxC < 0 {
			s.k = min(s.k, kCap)
		}
		return s
	}
	// Walk the reachable states, then keep those from which the array can
	// end: a loop (n and k at their caps) needs a rule before its body.
	edges := map[state][]edge{}
	var order []state
	start := state{0, 0}
	queue := []state{start}
	edges[start] = nil
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		order = append(order, s)
		if len(order) > cp.maxCountStates {
			cp.problem(p, subsetcheck.CodeGrammarTooLarge, fmt.Sprintf(
				"counting the items of this array that match contains (minContains %d, maxContains %s, minItems %d, maxItems %s) needs more than %d states (Options.MaxCountStates); lower the counts or raise the limit",
				minC, countLimit(maxC), p.MinItems, countLimit(maxN), cp.maxCountStates))
			return nil
		}
		if maxN >= 0 && s.n >= maxN {
			continue
		}
		pos := min(s.n, positions-1)
		var out []edge
		for _, e := range []edge{{match[pos], state{s.n + 1, s.k + 1}}, {other[pos], state{s.n + 1, s.k}}} {
			if e.item == nil || maxC >= 0 && e.to.k > maxC {
				continue
			}
			e.to = norm(e.to)
			out = append(out, e)
			if _, seen := edges[e.to]; !seen {
				edges[e.to] = nil
				queue = append(queue, e.to)
			}
		}
		edges[s] = out
	}
	end := func(s state) bool { return s.n >= p.MinItems && s.k >= minC }
	live := map[state]bool{}
	for changed := true; changed; {
		changed = false
		for _, s := range order {
			if live[s] {
				continue
			}
			ok := end(s)
			for _, e := range edges[s] {
				ok = ok || live[e.to]
			}
			if ok {
				live[s], changed = true, true
			}
		}
	}
	if !live[start] {
		cp.noteCause("no array at %q has %s items matching contains within its item bounds", p.Pointer, countRange(minC, maxC))
		return nil
	}
	ws := cp.w()
	rules := map[state]*gbnf.Rule{}
	for _, s := range order {
		if live[s] {
			rules[s] = cp.newRule(cp.newName(base+"-contains"), nil)
		}
	}
	for _, s := range order {
		r := rules[s]
		if r == nil {
			continue
		}
		// An item that leads back to the same state (past every cap) is
		// a repetition, not a rule that names itself: the grammar stays
		// free of recursion (a regex can be made of it) and llama.cpp
		// expands no rule per item.
		var alts, loops []gbnf.Expr
		if end(s) {
			alts = append(alts, epsilon())
		}
		for _, e := range edges[s] {
			if !live[e.to] {
				continue
			}
			item := seq(e.item, ws)
			if s.n > 0 {
				item = seq(lit(","), ws, item)
			}
			if e.to == s {
				loops = append(loops, item)
				continue
			}
			alts = append(alts, seq(item, cp.ref(rules[e.to].Name)))
		}
		r.Expr = alt(alts...)
		if len(loops) > 0 {
			r.Expr = seq(&gbnf.Repeat{Expr: alt(loops...), Min: 0, Max: -1}, r.Expr)
		}
	}
	return seq(lit("["), ws, cp.ref(rules[start].Name), lit("]"))
}

// splitItems is the grammar of the items of schema s (position i of p)
// that match p.Contains, and of those that do not; either nil when none.
// The items that do not match are s met with the negation of contains
// (not.go), or, when s's values can be listed, the listed values contains
// rejects.
func (cp *compiler) splitItems(p, s *subsetcheck.Schema, i int) (match, other gbnf.Expr, ok bool) {
	c := target(p.Contains)
	switch {
	case isTrue(c):
		return cp.schemaRef(s), nil, true
	case c.False:
		return nil, cp.schemaRef(s), true
	}
	if vs, ok := cp.finiteValues(s, maxListedItems, 0); ok {
		var in, out []string
		for _, v := range vs {
			if accepts(c, v) {
				in = append(in, plainText(v))
			} else {
				out = append(out, plainText(v))
			}
		}
		return literals(in), literals(out), true
	}
	if why := cp.complementReason(c); why != "" {
		cp.problem(p, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
			"contains is enforced where the items that do not match it can be described, and the items at %s that fail %q cannot: %s; "+
				"list the items in enum, or drop contains and check it after decoding",
			itemPointer(p, i), c.Pointer, why))
		return nil, nil, false
	}
	m, ok := cp.conj(s, c)
	if !ok {
		return nil, nil, false
	}
	n, ok := cp.conj(s, cp.negation(c))
	if !ok {
		return nil, nil, false
	}
	return cp.schemaRef(m), cp.schemaRef(n), true
}

// literals is the union of texts, nil for none.
func literals(texts []string) gbnf.Expr {
	if len(texts) == 0 {
		return nil
	}
	return literalTrie(texts)
}

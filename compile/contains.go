package compile

import (
	"fmt"
	"math/big"
	"slices"

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
	within := cp.mayTypes(s, 0)
	parts, ok := complementParts(c, within)
	var otherStrings gbnf.Expr // strings outside c's enum, when c is one
	if !ok {
		parts, otherStrings, ok = cp.enumComplement(c, s, within)
	}
	if !ok {
		cp.problem(p, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
			"contains is enforced where the items that do not match it can be described, and the items at %s that fail %q cannot: "+
				"write contains with only a type, numeric bounds, string lengths or item counts, list the items in enum, or drop contains and check it after decoding",
			itemPointer(p, i), c.Pointer))
		return nil, nil, false
	}
	m, ok := cp.conj(s, c)
	if !ok {
		return nil, nil, false
	}
	match = cp.schemaRef(m)
	var outs []gbnf.Expr
	for _, part := range parts {
		n, ok := cp.conj(s, part)
		if !ok {
			return nil, nil, false
		}
		outs = append(outs, cp.schemaRef(n))
	}
	return match, alt(append(outs, otherStrings)...), true
}

// enumComplement writes the values outside c's enum of scalars (c has
// nothing else) within the item schema s: the other types, the other
// booleans, the numbers between the members as open ranges, and (when s
// admits every string) the strings spelled canonically that are none of
// the members, as the extra-name grammar writes them. ok is false for an
// enum holding an array or an object, or beside other keywords, or when
// s's strings are constrained.
func (cp *compiler) enumComplement(c, s *subsetcheck.Schema, within subsetcheck.Type) (parts []*subsetcheck.Schema, strs gbnf.Expr, ok bool) {
	rest := *c
	rest.Enum = nil
	if c.Enum == nil || !isTrue(&rest) {
		return nil, nil, false
	}
	const numbers = subsetcheck.TNumber | subsetcheck.TInteger
	part := func(types subsetcheck.Type) *subsetcheck.Schema {
		return &subsetcheck.Schema{Pointer: c.Pointer, Node: c.Node, Types: types, MaxItems: -1, MaxLength: -1}
	}
	others := within
	var nums []*big.Rat
	var names []string
	var bools []bool
	for _, m := range c.Enum {
		switch m.Kind {
		case subsetcheck.Null:
			others &^= subsetcheck.TNull
		case subsetcheck.Bool:
			others &^= subsetcheck.TBoolean
			bools = append(bools, m.Bool)
		case subsetcheck.Number:
			others &^= numbers
			r, ok := m.Rat()
			if !ok {
				return nil, nil, false
			}
			nums = append(nums, r)
		case subsetcheck.String:
			others &^= subsetcheck.TString
			names = append(names, m.Str)
		default:
			return nil, nil, false
		}
	}
	if others != 0 {
		parts = append(parts, part(others))
	}
	if within&subsetcheck.TBoolean != 0 && others&subsetcheck.TBoolean == 0 {
		for _, b := range []bool{true, false} {
			if !slices.Contains(bools, b) {
				p := part(subsetcheck.AllTypes)
				p.Enum = []*subsetcheck.Value{{Kind: subsetcheck.Bool, Bool: b}}
				parts = append(parts, p)
			}
		}
	}
	if within&numbers != 0 && others&numbers == 0 {
		slices.SortFunc(nums, func(a, b *big.Rat) int { return a.Cmp(b) })
		nums = slices.CompactFunc(nums, func(a, b *big.Rat) bool { return a.Cmp(b) == 0 })
		for i := 0; i <= len(nums); i++ {
			p := part(numbers)
			if i > 0 {
				p.Lower = &subsetcheck.Bound{Value: nums[i-1], Exclusive: true}
			}
			if i < len(nums) {
				p.Upper = &subsetcheck.Bound{Value: nums[i], Exclusive: true}
			}
			parts = append(parts, p)
		}
	}
	if within&subsetcheck.TString != 0 && others&subsetcheck.TString == 0 {
		if !cp.allStrings(s) {
			return nil, nil, false
		}
		strs = seq(lit(`"`), cp.extraName(names))
	}
	return parts, strs, true
}

// allStrings says whether s admits every string or none: some alternative
// admits strings without constraining them, or none admits a string.
func (cp *compiler) allStrings(s *subsetcheck.Schema) bool {
	s = target(s)
	if s == nil || isTrue(s) {
		return true
	}
	alts, ok := cp.expand(s)
	if !ok {
		return false
	}
	some := false
	for _, a := range alts {
		if a.opaque != nil {
			if cp.allStrings(a.opaque) {
				return true
			}
			some = some || cp.mayTypes(a.opaque, 0)&subsetcheck.TString != 0
			continue
		}
		p := a.plain
		if p.False || p.Types&subsetcheck.TString == 0 {
			continue
		}
		if p.Enum == nil && p.MinLength == 0 && p.MaxLength < 0 && p.Format == "" {
			return true
		}
		some = true
	}
	return !some
}

// literals is the union of texts, nil for none.
func literals(texts []string) gbnf.Expr {
	if len(texts) == 0 {
		return nil
	}
	return literalTrie(texts)
}

// complementParts writes the values c rejects as a union of plain schemas,
// where c's own keywords bound only types, numbers, string lengths and
// item counts (each bound applies to its own type, so the values c rejects
// are the other types, and per bounded type the values past a bound).
// Only the types in within matter (the item's own): the numbers that are
// not integers have no schema, so an integer-only c is complemented only
// where no such number can come. ok is false for anything else: the
// combinators' "not" will cover more.
func complementParts(c *subsetcheck.Schema, within subsetcheck.Type) ([]*subsetcheck.Schema, bool) {
	if c.Ref != nil || c.AnyOf != nil || c.Enum != nil || c.Format != "" || counts(c) ||
		len(c.Properties) > 0 || len(c.Required) > 0 || c.AdditionalProperties != nil ||
		len(c.PrefixItems) > 0 || c.Items != nil {
		return nil, false
	}
	const numbers = subsetcheck.TNumber | subsetcheck.TInteger
	t := c.Types
	if t&subsetcheck.TInteger != 0 && t&subsetcheck.TNumber == 0 && within&subsetcheck.TNumber != 0 {
		return nil, false // the numbers that are not integers have no schema here
	}
	if t&subsetcheck.TNumber != 0 {
		t |= numbers
	}
	part := func(types subsetcheck.Type) *subsetcheck.Schema {
		return &subsetcheck.Schema{Pointer: c.Pointer, Node: c.Node, Types: types, MaxItems: -1, MaxLength: -1}
	}
	var parts []*subsetcheck.Schema
	if others := within &^ t; others != 0 {
		parts = append(parts, part(others))
	}
	if t&numbers != 0 {
		if b := c.Lower; b != nil && b.Value != nil {
			below := part(numbers)
			below.Upper = &subsetcheck.Bound{Value: b.Value, Exclusive: !b.Exclusive}
			parts = append(parts, below)
		}
		if b := c.Upper; b != nil && b.Value != nil {
			above := part(numbers)
			above.Lower = &subsetcheck.Bound{Value: b.Value, Exclusive: !b.Exclusive}
			parts = append(parts, above)
		}
	}
	if t&subsetcheck.TString != 0 {
		if c.MinLength > 0 {
			short := part(subsetcheck.TString)
			short.MaxLength = c.MinLength - 1
			parts = append(parts, short)
		}
		if c.MaxLength >= 0 {
			long := part(subsetcheck.TString)
			long.MinLength = c.MaxLength + 1
			parts = append(parts, long)
		}
	}
	if t&subsetcheck.TArray != 0 {
		if c.MinItems > 0 {
			short := part(subsetcheck.TArray)
			short.MaxItems = c.MinItems - 1
			parts = append(parts, short)
		}
		if c.MaxItems >= 0 {
			long := part(subsetcheck.TArray)
			long.MinItems = c.MaxItems + 1
			parts = append(parts, long)
		}
	}
	return parts, true
}

// mayTypes is the set of types some value of s has, as far as its
// alternatives' type keywords tell (AllTypes when unsure).
func (cp *compiler) mayTypes(s *subsetcheck.Schema, depth int) subsetcheck.Type {
	s = target(s)
	if s == nil || isTrue(s) || depth > maxTypeDepth {
		return subsetcheck.AllTypes
	}
	alts, ok := cp.expand(s)
	if !ok {
		return subsetcheck.AllTypes
	}
	var t subsetcheck.Type
	for _, a := range alts {
		if a.opaque != nil {
			t |= cp.mayTypes(a.opaque, depth+1)
		} else if !a.plain.False {
			t |= a.plain.Types
		}
	}
	if t&subsetcheck.TInteger != 0 && t&subsetcheck.TNumber != 0 {
		t |= subsetcheck.TNumber | subsetcheck.TInteger
	}
	return t
}

// maxTypeDepth bounds mayTypes' walk through opaque alternatives.
const maxTypeDepth = 32

package compile

import (
	"fmt"
	"math/big"
	"strconv"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Arrays under "uniqueItems" and "contains" (issue 21). arrayExpr hands
// such a schema here first.
//
// uniqueItems: true constrains nothing when the array can hold at most one
// item; otherwise it is exact when every position's values are few enough
// to list (Options.MaxUniqueItems, counted over all positions): the grammar
// then walks the items with the set of values used so far, so no value
// comes twice (a state per position and set, not one list per ordering).
// Anything else is refused (C402): a grammar cannot remember an unbounded
// set of values.
//
// contains: each item either matches the contains schema C or not, so
// each position's language splits into I∧C (compile/expand.go meets them)
// and I∧¬C, which exists where ¬C can be written: C is true or false, the
// position's values can be listed, or C only bounds types, numbers,
// string lengths or item counts (complementParts). The grammar counts the
// matching items with the items, a state per (items so far, matches so
// far) up to where neither count can change the verdict, bounded by
// Options.MaxCountStates (C403).

// maxListedItems bounds the values of one position that contains lists to
// tell matching items from the others.
const maxListedItems = 256

// constrainedArray is the grammar of an array with uniqueItems or contains;
// ok false when arrayExpr has nothing more to do.
func (cp *compiler) constrainedArray(p *subsetcheck.Schema, base string) gbnf.Expr {
	maxN := cp.arrayMax(p)
	q := *p
	if q.UniqueItems && maxN >= 0 && maxN <= 1 {
		q.UniqueItems = false // at most one item: no two can be equal
	}
	if q.Contains != nil && !q.UniqueItems {
		return cp.containsArray(&q, base, maxN)
	}
	if q.Contains != nil {
		cp.problem(p, subsetcheck.CodeNotExactlyCompilable,
			"uniqueItems beside contains is not supported: the grammar would count matching items and remember every value at once; drop one of them, or list the allowed items in enum")
		return nil
	}
	if !q.UniqueItems {
		return cp.arrayExpr(&q, base)
	}
	return cp.uniqueArray(&q, base, maxN)
}

// arrayMax is the most items an array can have: maxItems, or the first
// position no value fits (nil prefix schema, items false); -1 for none.
func (cp *compiler) arrayMax(p *subsetcheck.Schema) int {
	maxN := p.MaxItems
	for i, s := range p.PrefixItems {
		if maxN >= 0 && i >= maxN {
			return maxN
		}
		if cp.schemaRef(s) == nil {
			return i
		}
	}
	if maxN < 0 || maxN > len(p.PrefixItems) {
		if t := target(p.Items); t != nil && t.False || !isTrue(p.Items) && cp.schemaRef(p.Items) == nil {
			return len(p.PrefixItems)
		}
	}
	return maxN
}

// uniqueArray is the grammar of the arrays of p whose items differ, p's
// values listed.
func (cp *compiler) uniqueArray(p *subsetcheck.Schema, base string, maxN int) gbnf.Expr {
	positions := len(p.PrefixItems) + 1 // the prefix, then the rest
	if maxN >= 0 && maxN < positions {
		positions = maxN
	}
	var all []*subsetcheck.Value // every value, each once
	index := map[string]int{}
	vals := make([][]int, positions)
	for i := range positions {
		s := itemSchema(p, i)
		vs, ok := cp.finiteValues(s, cp.maxUniqueItems, 0)
		if !ok {
			cp.problem(p, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
				"uniqueItems is enforced only where an array holds at most one item or its items can be listed (at most %d values in all, Options.MaxUniqueItems), and the items at %s can take %s; "+
					"drop uniqueItems and check uniqueness after decoding, or list the items in enum",
				cp.maxUniqueItems, itemPointer(p, i), finiteReason(len(vs), cp.maxUniqueItems)))
			return nil
		}
		for _, v := range vs {
			key := subsetcheck.CanonicalKey(v)
			j, seen := index[key]
			if !seen {
				j = len(all)
				index[key] = j
				all = append(all, v)
			}
			vals[i] = append(vals[i], j)
		}
	}
	if len(all) > cp.maxUniqueItems {
		cp.problem(p, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
			"uniqueItems is enforced by listing the items, and these items take %d values, more than %d (Options.MaxUniqueItems); drop uniqueItems and check uniqueness after decoding, or raise the limit",
			len(all), cp.maxUniqueItems))
		return nil
	}
	texts := make([]gbnf.Expr, len(all))
	for j, v := range all {
		texts[j] = lit(plainText(v))
	}
	ws := cp.w()
	type state struct {
		n    int
		used uint64
	}
	memo := map[state]gbnf.Expr{}
	failed := false
	var rule func(n int, used uint64) gbnf.Expr
	rule = func(n int, used uint64) gbnf.Expr {
		key := state{n, used}
		if e, ok := memo[key]; ok {
			return e
		}
		if len(memo) >= cp.maxCountStates {
			if !failed {
				failed = true
				cp.problem(p, subsetcheck.CodeGrammarTooLarge, fmt.Sprintf(
					"uniqueItems over %d listed values needs more than %d states, one per set of values used (Options.MaxCountStates); lower MaxUniqueItems or raise MaxCountStates", len(all), cp.maxCountStates))
			}
			return nil
		}
		var alts []gbnf.Expr
		if n >= p.MinItems {
			alts = append(alts, epsilon())
		}
		if maxN < 0 || n < maxN {
			for _, j := range vals[min(n, positions-1)] {
				if used&(1<<j) != 0 {
					continue
				}
				next := rule(n+1, used|1<<j)
				if next == nil {
					continue
				}
				item := seq(texts[j], ws, next)
				if n > 0 {
					item = seq(lit(","), ws, item)
				}
				alts = append(alts, item)
			}
		}
		e := alt(alts...)
		if e != nil && !isEpsilon(e) {
			e = cp.addRule(cp.newName(base+"-unique"), e)
		}
		memo[key] = e
		return e
	}
	if positions == 0 { // no item fits: the empty array alone
		if p.MinItems > 0 {
			return nil
		}
		return seq(lit("["), ws, lit("]"))
	}
	body := rule(0, 0)
	if failed {
		return nil
	}
	if body == nil {
		cp.noteCause("the array at %q cannot have %d different items", p.Pointer, p.MinItems)
		return nil
	}
	return seq(lit("["), ws, body, lit("]"))
}

// itemPointer spells where position i's schema is, for a message.
func itemPointer(p *subsetcheck.Schema, i int) string {
	if s := itemSchema(p, i); s != nil {
		return strconv.Quote(s.Pointer)
	}
	return "position " + strconv.Itoa(i) + " (any value)"
}

func finiteReason(n, limit int) string {
	if n > limit {
		return "more than " + strconv.Itoa(limit) + " values"
	}
	return "values without end (a string, a number, an array or an object)"
}

// finiteValues lists the values s accepts when there are at most limit of
// them and the compiler can see it (enum and const, null and booleans, an
// integer range); ok false otherwise, with more than limit values when
// that is why.
func (cp *compiler) finiteValues(s *subsetcheck.Schema, limit, depth int) (vs []*subsetcheck.Value, ok bool) {
	s = target(s)
	if s == nil || isTrue(s) || depth > MaxValueDepth {
		return nil, false
	}
	if s.False {
		return nil, true
	}
	alts, ok := cp.expand(s)
	if !ok {
		return nil, false
	}
	seen := map[string]bool{}
	add := func(v *subsetcheck.Value) bool {
		key := subsetcheck.CanonicalKey(v)
		if !seen[key] {
			seen[key] = true
			vs = append(vs, v)
		}
		return len(vs) <= limit
	}
	for _, a := range alts {
		if a.opaque != nil {
			more, ok := cp.finiteValues(a.opaque, limit, depth+1)
			if !ok {
				return more, false
			}
			for _, v := range more {
				if !add(v) {
					return vs, false
				}
			}
			continue
		}
		p := a.plain
		if p.Enum != nil {
			rest := *p
			rest.Enum = nil
			for _, m := range p.Enum {
				if accepts(&rest, m) && !add(m) {
					return vs, false
				}
			}
			continue
		}
		if p.Types&^(subsetcheck.TNull|subsetcheck.TBoolean|subsetcheck.TInteger) != 0 {
			return nil, false
		}
		cands := []*subsetcheck.Value{{Kind: subsetcheck.Null}, {Kind: subsetcheck.Bool, Bool: true}, {Kind: subsetcheck.Bool}}
		if p.Types&subsetcheck.TInteger != 0 {
			lo, hi := integerBounds(p.Lower, p.Upper)
			if lo == nil || hi == nil || new(big.Int).Sub(hi, lo).Cmp(big.NewInt(int64(limit)*max(1, multipleStep(p)))) > 0 {
				return nil, false
			}
			for i := new(big.Int).Set(lo); i.Cmp(hi) <= 0; i.Add(i, big.NewInt(1)) {
				cands = append(cands, &subsetcheck.Value{Kind: subsetcheck.Number, Num: i.String()})
			}
		}
		for _, v := range cands {
			if accepts(p, v) && !add(v) {
				return vs, false
			}
		}
	}
	return vs, true
}

// multipleStep is how far apart an integer schema's values lie at least:
// its multipleOf when that is a whole number.
func multipleStep(p *subsetcheck.Schema) int64 {
	if d := p.MultipleOf; d != nil && d.IsInt() && d.Num().IsInt64() && d.Num().Int64() < 1<<20 {
		return d.Num().Int64()
	}
	return 1
}

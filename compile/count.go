package compile

import (
	"fmt"
	"math/bits"
	"strconv"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// meetCounts puts the counting keywords of a and b into their meet m: the
// larger minimum, the smaller maximum, a multipleOf both divide. Two
// different contains schemas cannot share one counter, so their meet is
// refused (C402).
func (cp *compiler) meetCounts(m, a, b *subsetcheck.Schema) bool {
	m.MinProperties = max(a.MinProperties, b.MinProperties)
	m.MaxProperties = minCount(a.MaxProperties, b.MaxProperties)
	m.MultipleOf = lcmRat(a.MultipleOf, b.MultipleOf)
	m.UniqueItems = a.UniqueItems || b.UniqueItems
	switch {
	case a.Contains == nil:
		m.Contains, m.MinContains, m.MaxContains = b.Contains, b.MinContains, b.MaxContains
	case b.Contains == nil || target(a.Contains) == target(b.Contains):
		m.Contains, m.MinContains, m.MaxContains = a.Contains, a.MinContains, a.MaxContains
		if b.Contains != nil {
			m.MinContains = max(a.MinContains, b.MinContains)
			m.MaxContains = minCount(a.MaxContains, b.MaxContains)
		}
	default:
		cp.problem(b, subsetcheck.CodeNotExactlyCompilable,
			"two different contains schemas meet here (through $ref, anyOf or a dependency), and one array grammar counts the items of one contains only; merge them into one contains schema")
		return false
	}
	m.Dependencies = append(append([]subsetcheck.Dependency(nil), a.Dependencies...), b.Dependencies...)
	return true
}

// minCount is the smaller of two optional maximums (nil: none).
func minCount(a, b *int) *int {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case *b < *a:
		return b
	}
	return a
}

// Member counts ("minProperties", "maxProperties") and the names
// dependencies bring in (dependencies.go): the object grammar walks the
// members in declaration order, as objectExpr does, and also carries how
// many members it has written and which names it still owes. A state is
// (the next declared member, the count so far, the names owed); once the
// members still to come can no longer take the count out of bounds, the
// count is forgotten (-1), so a bound that every object meets adds
// nothing. Extra members come last, counted by a bounded repetition
// (repeat.go), so a large maximum costs a few block rules, not a state per
// count. The states other than free ones are bounded by
// Options.MaxCountStates (C403).

// countsHold says whether every object of p's members meets its counts
// anyway: its required members reach minProperties, and without extra
// members all of them stay within maxProperties. Then the object grammar
// is the one without counts.
func (cp *compiler) countsHold(p *subsetcheck.Schema, members []objectMember) bool {
	required := 0
	for _, m := range members {
		if m.required {
			required++
		}
	}
	if required < p.MinProperties {
		return false
	}
	if p.MaxProperties == nil {
		return true
	}
	if ap := p.AdditionalProperties; ap == nil || !ap.False && cp.schemaRef(ap) != nil || len(p.PatternProperties) > 0 {
		return false // extra members may pass any maximum
	}
	return len(members) <= *p.MaxProperties
}

// countedObject is objectExpr for a schema with member counts or
// dependencies the grammar carries.
func (cp *compiler) countedObject(p *subsetcheck.Schema, base string, members []objectMember, names []string) gbnf.Expr {
	c := &objectCounter{cp: cp, p: p, base: base, members: members, lo: p.MinProperties, hi: -1,
		req: make([]int, len(members)+1), ws: cp.w(), rules: map[[3]int]gbnf.Expr{}}
	if p.MaxProperties != nil {
		c.hi = *p.MaxProperties
	}
	for i := len(members) - 1; i >= 0; i-- {
		c.req[i] = c.req[i+1]
		if members[i].required {
			c.req[i]++
		}
	}
	if !c.owing() {
		return nil
	}
	if c.extra = cp.extraMember(p, names, base, c.ws); c.extra != nil {
		c.extraMember = cp.addRule(cp.newName(base+"-extra"), seq(lit(","), c.ws, lit(`"`), c.extra))
	}
	most := len(members)
	if c.extra != nil {
		most = -1
	}
	if c.hi >= 0 && c.hi < c.req[0] || most >= 0 && c.lo > most {
		cp.noteCause("the object at %q needs %s members, and it can have %d to %s", p.Pointer,
			countRange(c.lo, c.hi), c.req[0], countLimit(most))
		return nil
	}
	first, ok := c.more(0, 0, 0, false)
	if !ok || c.failed {
		return nil
	}
	return seq(lit("{"), c.ws, first, lit("}"))
}

// owing fills in what each member's presence brings in: the members whose
// names it owes (all after it: dependencies.go keeps only such lists), or
// that it cannot be present (a name it brings in admits no value). false
// when that would not fit the owed bits, which settleDependencies rules
// out.
func (c *objectCounter) owing() bool {
	n := len(c.members)
	c.owes = make([]uint64, n)
	c.never = make([]bool, n)
	c.triggers = make([]bool, n+1)
	if c.p.Dependencies == nil {
		return true
	}
	at := make(map[string]int, n)
	for i, m := range c.members {
		at[m.name] = i
	}
	for _, d := range c.p.Dependencies {
		t, ok := at[d.Name]
		if !ok {
			continue // the trigger admits no value: it never comes
		}
		c.triggers[t] = true
		for _, r := range d.Required {
			j, ok := at[r]
			switch {
			case !ok:
				c.never[t] = true
			case c.members[j].required:
			case j <= t || j >= maxOwed:
				c.cp.problem(c.p, subsetcheck.CodeNotExactlyCompilable, "internal: a dependency's name comes before its trigger in the object grammar")
				c.failed = true
				return false
			default:
				c.owes[t] |= 1 << j
			}
		}
	}
	for i := n - 1; i >= 0; i-- {
		c.triggers[i] = c.triggers[i] || c.triggers[i+1]
	}
	return true
}

// objectCounter builds the states of one counted object.
type objectCounter struct {
	cp      *compiler
	p       *subsetcheck.Schema
	base    string
	members []objectMember
	lo, hi  int   // hi < 0: no maximum
	req     []int // req[i]: the required members from i on
	ws      gbnf.Expr
	// extra is an extra member after its opening quote, extraMember the
	// same after a comma; nil when no extra member may come.
	extra, extraMember gbnf.Expr
	// owes[i] has the bit of each member member i's presence makes owed;
	// never[i]: member i cannot be present; triggers[i]: some member from
	// i on owes names.
	owes     []uint64
	never    []bool
	triggers []bool
	rules    map[[3]int]gbnf.Expr // rest rules by state (count -1: forgotten)
	states   int                  // states made, against Options.MaxCountStates
	failed   bool
}

// free says whether no way on from (i, k) can break the count bounds.
func (c *objectCounter) free(i, k int) bool {
	return k < 0 || k+c.req[i] >= c.lo && (c.hi < 0 || c.extra == nil && k+len(c.members)-i <= c.hi)
}

// more is what may follow k members when member i is the next declared
// one, the names in owed still owed: a comma and the rest, or the end.
// comma false: the object's start, where no comma comes. ok is false when
// nothing may follow, not even the end.
func (c *objectCounter) more(i, k int, owed uint64, comma bool) (gbnf.Expr, bool) {
	if c.free(i, k) {
		k = -1
	}
	endOK := c.req[i] == 0 && owed == 0 && (k < 0 || k >= c.lo)
	if i == len(c.members) && c.extra != nil && comma {
		// Only extras may follow: count them by repetition.
		if k < 0 {
			return &gbnf.Repeat{Expr: c.extraMember, Min: 0, Max: -1}, true
		}
		hi := -1
		if c.hi >= 0 {
			hi = c.hi - k
		}
		return c.cp.repeat(c.extraMember, max(0, c.lo-k), hi), true
	}
	var next gbnf.Expr
	if r := c.rest(i, k, owed); r != nil {
		next = seq(lit(`"`), r)
		if comma {
			next = seq(lit(","), c.ws, next)
		}
	}
	switch {
	case next == nil && !endOK:
		return nil, false
	case next == nil:
		return epsilon(), true
	case endOK:
		return opt(next), true
	}
	return next, true
}

// rest is the members from i on, after the opening quote of a name, k
// members written before (k < 0: forgotten), the names in owed still owed;
// nil when no member may come. Each state is a rule: two places refer to
// most of them.
func (c *objectCounter) rest(i, k int, owed uint64) gbnf.Expr {
	if c.failed || c.hi >= 0 && k >= c.hi || i == len(c.members) && owed != 0 {
		return nil
	}
	key := [3]int{i, k, int(owed)}
	if r, ok := c.rules[key]; ok {
		return r
	}
	if k >= 0 || owed != 0 || c.triggers[i] {
		if c.states++; c.states > c.cp.maxCountStates {
			c.failed = true
			c.cp.problem(c.p, subsetcheck.CodeGrammarTooLarge, fmt.Sprintf(
				"counting the members of this object (minProperties %d, maxProperties %s, %d dependencies) over its %d declared members needs more than %d states (Options.MaxCountStates); lower the counts, declare fewer optional members, or raise the limit",
				c.lo, countLimit(c.hi), len(c.p.Dependencies), len(c.members), c.cp.maxCountStates))
			return nil
		}
	}
	c.rules[key] = nil // a state never refers to itself: members only move on
	var alts []gbnf.Expr
	nk := k
	if k >= 0 {
		nk = k + 1
	}
	if i == len(c.members) {
		if c.extra != nil {
			if m, ok := c.more(i, nk, 0, true); ok {
				alts = append(alts, seq(c.extra, m))
			}
		}
	} else {
		m := c.members[i]
		bit := uint64(0)
		if i < maxOwed {
			bit = 1 << i
		}
		if !c.never[i] {
			if after, ok := c.more(i+1, nk, owed&^bit|c.owes[i], true); ok {
				alts = append(alts, seq(lit(quotedName(m.name)[1:]), c.ws, lit(":"), c.ws, m.value, c.ws, after))
			}
		}
		if !m.required && owed&bit == 0 {
			if r := c.rest(i+1, k, owed); r != nil {
				alts = append(alts, r)
			}
		}
	}
	e := alt(alts...)
	if e == nil || c.failed {
		return nil
	}
	suffix := "-any"
	if k >= 0 {
		suffix = "-" + strconv.Itoa(k)
	}
	if owed != 0 {
		suffix += "-owing" + strconv.Itoa(bits.OnesCount64(owed))
	}
	r := c.cp.addRule(c.cp.newName(c.base+"-count"+strconv.Itoa(i+1)+suffix), e)
	c.rules[key] = r
	return r
}

func countLimit(n int) string {
	if n < 0 {
		return "any number of"
	}
	return strconv.Itoa(n)
}

func countRange(lo, hi int) string {
	switch {
	case hi < 0:
		return "at least " + strconv.Itoa(lo)
	case lo == 0:
		return "at most " + strconv.Itoa(hi)
	}
	return strconv.Itoa(lo) + " to " + strconv.Itoa(hi)
}

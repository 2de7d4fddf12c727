package compile

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Some member breaks additionalProperties: its complement (not.go), and
// that of an excluded object (except.go), as Schema.SomeMember, a list of
// requirements each that some member whose name is not among its Names
// (the properties of the schema that was negated) has a value its Schema
// accepts. A schema with a requirement declares every one of its Names
// (so do its meets, which declare what either side does): its extra
// members are all outside them. A meet may declare more names (another
// schema's properties): a member so declared can be the one, beside the
// extra members; requirements met from both sides are both kept.
//
// The object grammar writes the requirements one by one as a union by the
// first member that meets it (so the parts are disjoint, and llama.cpp
// follows one): for each member outside the Names in order, the objects
// where it is present with a value the Schema accepts and every such
// member before it, if present, one it rejects; then the objects where
// every such member has a value it rejects, which leave the requirement
// to the extra members. Those are written last, by which of the
// requirements left they still owe (a subset, so 2^k states for k
// requirements): each extra member's value meets some of them and
// breaks the others, and the object may end once none is owed.

// meetSomeMember puts the requirements of a and b into their meet m.
func meetSomeMember(m, a, b *subsetcheck.Schema) {
	m.SomeMember = a.SomeMember
	for _, r := range b.SomeMember {
		if !slices.ContainsFunc(m.SomeMember, func(x subsetcheck.SomeMember) bool { return sameRequirement(x, r) }) {
			m.SomeMember = append(slices.Clip(m.SomeMember), r)
		}
	}
}

func sameRequirement(x, y subsetcheck.SomeMember) bool {
	return x.Schema == y.Schema && slices.Equal(x.Names, y.Names)
}

// someMemberHolds says whether object v meets every requirement of s.
func someMemberHolds(s *subsetcheck.Schema, v *subsetcheck.Value, depth int) bool {
	for _, r := range s.SomeMember {
		if !slices.ContainsFunc(v.Members, func(m subsetcheck.Member) bool {
			return !slices.Contains(r.Names, m.Name) && acceptsDepth(r.Schema, m.Value, depth+1)
		}) {
			return false
		}
	}
	return true
}

// propertyNames is the names p declares, in order.
func propertyNames(p *subsetcheck.Schema) []string {
	names := make([]string, len(p.Properties))
	for i, pr := range p.Properties {
		names[i] = pr.Name
	}
	return names
}

// maxSomeMember bounds the requirements one object grammar meets at once
// (3^k schemas for the extras' states and classes).
const maxSomeMember = 4

// someMemberObject is the grammar of p's objects, p having requirements:
// the union by the first member that meets each (see above).
func (cp *compiler) someMemberObject(p *subsetcheck.Schema, base string) gbnf.Expr {
	refuse := func(why string) gbnf.Expr {
		cp.problem(p, subsetcheck.CodeNotExactlyCompilable, why+"; state what is allowed instead, or drop the keyword and check it after decoding")
		cp.noteNoComplement(&noComplement{at: p, why: why})
		return nil
	}
	switch {
	case p.Dependencies != nil || p.MinProperties > 0 || p.MaxProperties != nil:
		return refuse("an object that needs a member breaking additionalProperties (or unlike an excluded object) cannot also count its members or bring in dependencies here")
	case hasNameRules(p): // names.go: the extra members' values depend on their names there
		return refuse("an object that needs a member breaking additionalProperties (or unlike an excluded object) cannot also have patternProperties or propertyNames here")
	case len(p.SomeMember) > maxSomeMember:
		return refuse(fmt.Sprintf("an object needs members breaking %d additionalProperties (or unlike %d excluded objects) at once, more than %d", len(p.SomeMember), len(p.SomeMember), maxSomeMember))
	}
	for _, r := range p.SomeMember {
		for _, n := range r.Names {
			if !declared(p, n) { // never so (see above): an extra named n would count
				cp.problem(p, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf("internal: a complement of additionalProperties lost the declared member %q; please report this schema", n))
				return nil
			}
		}
	}
	// The members objectExpr writes, the required names it does not
	// declare declared after the others in required order (the same text).
	q := *p
	q.SomeMember = nil
	q.Properties = slices.Clip(p.Properties)
	for _, r := range p.Required {
		if !declared(p, r) {
			q.Properties = append(q.Properties, subsetcheck.Property{Name: r, Schema: p.AdditionalProperties})
		}
	}
	var alts []gbnf.Expr
	n := 0
	if !cp.splitSome(&q, p.SomeMember, nil, base, &alts, &n) {
		return nil
	}
	if len(alts) == 0 {
		cp.noteCause("no object at %q has the member that not requires (one breaking additionalProperties, or unlike an excluded object)", p.Pointer)
	}
	return alt(alts...)
}

// splitSome appends to alts the objects of q that meet the requirements
// reqs: by a declared member each, or by the extra members (pending).
// n counts the objects against Options.MaxAlternatives.
func (cp *compiler) splitSome(q *subsetcheck.Schema, reqs, pending []subsetcheck.SomeMember, base string, alts *[]gbnf.Expr, n *int) bool {
	if len(reqs) == 0 {
		if *n++; *n > cp.maxAlts {
			cp.problem(q, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
				"an object that needs members breaking additionalProperties (or unlike excluded objects) takes one alternative per choice of the members that do, more than %d here (-max-alternatives, Options.MaxAlternatives); state what is allowed instead, or raise the limit", cp.maxAlts))
			return false
		}
		if e := cp.objectWithExtras(q, base, pending); e != nil {
			*alts = append(*alts, e)
		}
		return true
	}
	r := reqs[0]
	one, none := r.Schema, cp.negation(r.Schema)
	var outside []int // the members that can be the one, in order
	for i, pr := range q.Properties {
		if !slices.Contains(r.Names, pr.Name) {
			outside = append(outside, i)
		}
	}
	for k := 0; k <= len(outside); k++ {
		w := *q
		w.Properties = slices.Clone(q.Properties)
		for j, i := range outside {
			if j > k {
				break
			}
			side := none
			if j == k {
				side = one
				w.Required = append(slices.Clip(q.Required), w.Properties[i].Name)
			}
			var ok bool
			if w.Properties[i].Schema, ok = cp.conj(w.Properties[i].Schema, side); !ok {
				return false
			}
		}
		var ok bool
		if k < len(outside) {
			ok = cp.splitSome(&w, reqs[1:], pending, base+"-"+strconv.Itoa(k+1), alts, n)
		} else { // every member outside in none: an extra member is the one
			ok = cp.splitSome(&w, reqs[1:], append(slices.Clip(pending), r), base+"-x", alts, n)
		}
		if !ok {
			return false
		}
	}
	return true
}

// someMemberTail is the extra members of an object that owe the
// requirements reqs (rest, after the opening quote of the first; more,
// after a declared member): by the set still owed, each extra member's
// value meeting some of them and breaking the others, then, none owed,
// any extras (additionalProperties). nil rest when none can be met.
func (cp *compiler) someMemberTail(p *subsetcheck.Schema, base string, names []string, reqs []subsetcheck.SomeMember) (rest, more gbnf.Expr) {
	ws, quote := cp.w(), lit(`"`)
	name := cp.extraName(names)
	ap := p.AdditionalProperties
	var after gbnf.Expr = epsilon() // none owed: any extras
	if v := cp.schemaRef(ap); v != nil {
		member := cp.addRule(cp.newName(base+"-extra"), seq(lit(","), ws, quote, name, ws, lit(":"), ws, v, ws))
		after = &gbnf.Repeat{Expr: member, Min: 0, Max: -1}
	}
	owed := map[int]gbnf.Expr{} // by the set owed: the extras from an opening quote on
	var from func(set int) gbnf.Expr
	from = func(set int) gbnf.Expr {
		if e, ok := owed[set]; ok {
			return e
		}
		value := func(meets int) gbnf.Expr { // an extra member's value meeting those of set in meets, breaking the others
			s := ap
			for i, r := range reqs {
				if set&(1<<i) == 0 {
					continue
				}
				side := cp.negation(r.Schema)
				if meets&(1<<i) != 0 {
					side = r.Schema
				}
				var ok bool
				if s, ok = cp.conj(s, side); !ok {
					return nil
				}
			}
			return cp.schemaRef(s)
		}
		var parts []gbnf.Expr
		for meets := set; meets > 0; meets = (meets - 1) & set { // the subsets that meet some
			v := value(meets)
			if v == nil {
				continue
			}
			var cont gbnf.Expr = after
			if left := set &^ meets; left != 0 {
				next := from(left)
				if next == nil {
					continue
				}
				cont = seq(lit(","), ws, quote, next)
			}
			parts = append(parts, seq(name, ws, lit(":"), ws, v, ws, cont))
		}
		if len(parts) == 0 {
			owed[set] = nil
			return nil
		}
		r := cp.newRule(cp.newName(base+"-owed"+strconv.Itoa(bits.OnesCount(uint(set)))), nil)
		owed[set] = cp.ref(r.Name)
		if v := value(0); v != nil { // meeting none of them: still owed
			parts = append(parts, seq(name, ws, lit(":"), ws, v, ws, lit(","), ws, quote, cp.ref(r.Name)))
		}
		r.Expr = alt(parts...)
		return owed[set]
	}
	all := 1<<len(reqs) - 1
	rest = from(all)
	if rest == nil {
		return nil, nil
	}
	return rest, seq(lit(","), ws, quote, rest)
}

package compile

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Some member that additionalProperties governs breaks it: the complement
// of additionalProperties (not.go), as Schema.SomeExtra: at least one
// member whose name is not in SomeExtraNames (the properties of the schema
// that was negated) has a value SomeExtra accepts. A schema with SomeExtra
// declares every one of those names (so do its meets, which declare what
// either side does): its extra members are all outside them. In a meet the
// object may declare more names (another schema's properties): a member so
// declared can be the one, beside the extra members.
//
// The object grammar writes it as a union, by the first member that is
// the one (so the parts are disjoint, and llama.cpp follows one): for each
// member outside the names in order, the objects where it is present with
// a value SomeExtra accepts and every such member before it, if present,
// has a value SomeExtra rejects; then the objects where every such member
// has a value it rejects and some extra member one it accepts, written as
// extras that it rejects, the one, then any extras.

// meetSomeExtra puts the SomeExtra of a and b into their meet m; two
// different ones cannot be one object grammar's: C402.
func (cp *compiler) meetSomeExtra(m, a, b *subsetcheck.Schema) bool {
	switch {
	case a.SomeExtra == nil:
		m.SomeExtra, m.SomeExtraNames = b.SomeExtra, b.SomeExtraNames
	case b.SomeExtra == nil || a.SomeExtra == b.SomeExtra && slices.Equal(a.SomeExtraNames, b.SomeExtraNames):
		m.SomeExtra, m.SomeExtraNames = a.SomeExtra, a.SomeExtraNames
	default:
		why := "two objects that each need a member breaking their additionalProperties meet here, and one object grammar finds one such member only"
		cp.problem(m, subsetcheck.CodeNotExactlyCompilable, why+"; state what is allowed instead, or drop the keyword and check it after decoding")
		cp.noteNoComplement(&noComplement{at: m, why: why})
		return false
	}
	return true
}

// someExtraHolds says whether some member of object v outside
// s.SomeExtraNames has a value s.SomeExtra accepts.
func someExtraHolds(s *subsetcheck.Schema, v *subsetcheck.Value, depth int) bool {
	for _, m := range v.Members {
		if !slices.Contains(s.SomeExtraNames, m.Name) && acceptsDepth(s.SomeExtra, m.Value, depth+1) {
			return true
		}
	}
	return false
}

// propertyNames is the names p declares, in order.
func propertyNames(p *subsetcheck.Schema) []string {
	names := make([]string, len(p.Properties))
	for i, pr := range p.Properties {
		names[i] = pr.Name
	}
	return names
}

// someExtraObject is the grammar of p's objects, p having SomeExtra: the
// union by the first member that matches it (see above).
func (cp *compiler) someExtraObject(p *subsetcheck.Schema, base string) gbnf.Expr {
	if p.Dependencies != nil || p.MinProperties > 0 || p.MaxProperties != nil {
		why := "an object that needs a member breaking additionalProperties cannot also count its members or bring in dependencies here"
		cp.problem(p, subsetcheck.CodeNotExactlyCompilable, why+"; state what is allowed instead, or drop the keyword and check it after decoding")
		cp.noteNoComplement(&noComplement{at: p, why: why})
		return nil
	}
	for _, n := range p.SomeExtraNames {
		if !declared(p, n) { // never so (see above): an extra named n is no extra here
			cp.problem(p, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf("internal: the complement of additionalProperties lost the declared member %q; please report this schema", n))
			return nil
		}
	}
	one, none := p.SomeExtra, cp.negation(p.SomeExtra)
	// The members objectExpr writes, required names it does not declare
	// declared after the others in required order (the same text).
	q := *p
	q.SomeExtra, q.SomeExtraNames = nil, nil
	q.Properties = slices.Clip(p.Properties)
	for _, r := range p.Required {
		if !declared(p, r) {
			q.Properties = append(q.Properties, subsetcheck.Property{Name: r, Schema: p.AdditionalProperties})
		}
	}
	var outside []int // the members that can be the one, in order
	for i, pr := range q.Properties {
		if !slices.Contains(p.SomeExtraNames, pr.Name) {
			outside = append(outside, i)
		}
	}
	if len(outside)+1 > cp.maxAlts {
		cp.problem(p, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
			"an object that needs a member breaking additionalProperties takes one alternative per member that can be it, more than %d here (-max-alternatives, Options.MaxAlternatives); state what is allowed instead, or raise the limit", cp.maxAlts))
		return nil
	}
	var alts []gbnf.Expr
	// with is q with the members outside the names before the k-th in
	// none, and the k-th (k < len(outside)) in one and required.
	with := func(k int) (*subsetcheck.Schema, bool) {
		w := q
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
				return nil, false
			}
		}
		return &w, true
	}
	for k := range outside {
		w, ok := with(k)
		if !ok {
			return nil
		}
		if e := cp.objectExpr(w, base+"-some"+strconv.Itoa(k+1)); e != nil {
			alts = append(alts, e)
		}
	}
	w, ok := with(len(outside)) // every member outside in none: an extra is the one
	if !ok {
		return nil
	}
	if ap := w.AdditionalProperties; ap == nil || !ap.False {
		good, ok1 := cp.conj(ap, none)
		bad, ok2 := cp.conj(ap, one)
		if !ok1 || !ok2 {
			return nil
		}
		if e := cp.objectWithExtras(w, base+"-some", &someExtras{good: good, bad: bad}); e != nil {
			alts = append(alts, e)
		}
	}
	if len(alts) == 0 {
		cp.noteCause("no object at %q has a member that breaks additionalProperties", p.Pointer)
	}
	return alt(alts...)
}

// someExtraTail is the extra members of an object with some (rest, after
// the opening quote of the first; more, after a declared member): extras
// in good, then one in bad, then any (additionalProperties); nil rest
// when no value is in bad.
func (cp *compiler) someExtraTail(p *subsetcheck.Schema, base string, names []string, some *someExtras) (rest, more gbnf.Expr) {
	vBad := cp.schemaRef(some.bad)
	if vBad == nil {
		return nil, nil
	}
	ws, quote := cp.w(), lit(`"`)
	name := cp.extraName(names)
	bad := seq(name, ws, lit(":"), ws, vBad, ws)
	after := epsilon() // any extras after the one
	if v := cp.schemaRef(p.AdditionalProperties); v != nil {
		member := cp.addRule(cp.newName(base+"-extra"), seq(lit(","), ws, quote, name, ws, lit(":"), ws, v, ws))
		after = &gbnf.Repeat{Expr: member, Min: 0, Max: -1}
	}
	badRest := cp.addRule(cp.newName(base+"-extra-one"), seq(bad, after))
	vGood := cp.schemaRef(some.good)
	if vGood == nil {
		return badRest, seq(lit(","), ws, quote, badRest)
	}
	// until ::= "," ws quote (good until | bad after)
	good := seq(name, ws, lit(":"), ws, vGood, ws)
	until := cp.newRule(cp.newName(base+"-extra-until"), nil)
	rest = alt(seq(good, cp.ref(until.Name)), badRest)
	until.Expr = seq(lit(","), ws, quote, rest)
	return rest, cp.ref(until.Name)
}

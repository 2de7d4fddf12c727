package compile

import (
	"math/big"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Explain's share of the counting keywords and the dependencies, as
// acceptsCounts and acceptsItemCounts judge them.

// explainMemberCounts says why an object breaks minProperties,
// maxProperties or a dependency, or nil.
func explainMemberCounts(s *subsetcheck.Schema, v *subsetcheck.Value, inst string, depth int) *Failure {
	n := len(v.Members)
	if n < s.MinProperties {
		return fail(s, inst, kw("minProperties"), "%d members, fewer than the minimum %d", n, s.MinProperties)
	}
	if s.MaxProperties != nil && n > *s.MaxProperties {
		return fail(s, inst, kw("maxProperties"), "%d members, more than the maximum %d", n, *s.MaxProperties)
	}
	for _, d := range s.Dependencies {
		if v.Get(d.Name) == nil {
			continue
		}
		for _, r := range d.Required {
			if v.Get(r) == nil {
				return fail(s, inst, kw("dependentRequired", "dependencies"), "member %q is present, so %q is required, and it is missing", d.Name, r)
			}
		}
		if d.Schema != nil {
			if f := explain(d.Schema, v, inst, depth+1); f != nil {
				return f
			}
		}
	}
	return nil
}

// explainItemCounts says why an array breaks uniqueItems or the contains
// counts, or nil.
func explainItemCounts(s *subsetcheck.Schema, v *subsetcheck.Value, inst string, depth int) *Failure {
	if s.UniqueItems {
		for i := range v.Items {
			for j := range i {
				if equal(v.Items[i], v.Items[j]) {
					return fail(s, inst, kw("uniqueItems"), "items %d and %d are equal", j, i)
				}
			}
		}
	}
	if s.Contains != nil {
		n := 0
		for _, it := range v.Items {
			if acceptsDepth(s.Contains, it, depth+1) {
				n++
			}
		}
		if n < s.MinContains {
			return fail(s, inst, kw("minContains", "contains"), "%d items match contains, fewer than the minimum %d", n, s.MinContains)
		}
		if s.MaxContains != nil && n > *s.MaxContains {
			return fail(s, inst, kw("maxContains", "contains"), "%d items match contains, more than the maximum %d", n, *s.MaxContains)
		}
	}
	return nil
}

// explainMultipleOf says why a number is not a multiple of multipleOf, or
// nil.
func explainMultipleOf(s *subsetcheck.Schema, v *subsetcheck.Value, inst string) *Failure {
	if s.MultipleOf == nil {
		return nil
	}
	d, ok := parseDecimal(v.Num)
	if !ok {
		return fail(s, inst, kw("multipleOf"), "the number %s is beyond the exponent the validator compares (MaxExponent %d)", v.Num, MaxExponent)
	}
	if !new(big.Rat).Quo(d.rat(), s.MultipleOf).IsInt() {
		return fail(s, inst, kw("multipleOf"), "%s is not a multiple of %s", v.Num, s.MultipleOf.RatString())
	}
	return nil
}

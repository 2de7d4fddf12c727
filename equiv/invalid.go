package equiv

import (
	"math/big"
	"slices"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// typeReps are one value of each JSON type, for wrong-type near misses.
var typeReps = []struct {
	t subsetcheck.Type
	v *subsetcheck.Value
}{
	{subsetcheck.TNull, vNull()},
	{subsetcheck.TBoolean, vBool(false)},
	{subsetcheck.TInteger, vNum("3")},
	{subsetcheck.TNumber, vNum("2.5")},
	{subsetcheck.TString, vStr("s")},
	{subsetcheck.TArray, vArr()},
	{subsetcheck.TObject, vObj()},
}

// invalid lists values one step outside s: a wrong type, a non-member of
// the enum, a bound crossed by one, an item too many or too few, a required
// member missing, a forbidden extra member, or one of those inside a member
// or item of an otherwise valid value. Only values Holds rejects are kept.
func (g *Generator) invalid(s *subsetcheck.Schema, depth int) []*subsetcheck.Value {
	if s == nil || depth > g.MaxDepth {
		return nil
	}
	if s.False {
		return []*subsetcheck.Value{vNull(), vNum("0"), vStr(""), vObj(), vArr()}
	}
	var out []*subsetcheck.Value
	if s.Ref != nil {
		out = append(out, g.invalid(s.Ref, depth+1)...)
		if g.c.Draft < subsetcheck.Draft2019 {
			return g.keep(s, out, false)
		}
	}
	for _, r := range typeReps {
		if s.Types&r.t == 0 || r.t == subsetcheck.TNumber && s.Types&subsetcheck.TNumber == 0 {
			out = append(out, r.v)
		}
	}
	for _, e := range s.Enum {
		out = append(out, nonMembers(e)...)
	}
	for _, b := range s.AnyOf {
		out = append(out, g.invalid(b, depth+1)...)
	}
	out = append(out, g.combinatorNearMisses(s, depth)...)
	if s.Types&(subsetcheck.TInteger|subsetcheck.TNumber) != 0 {
		out = append(out, g.integers(s, false)...)
		out = append(out, g.fractions(s, false)...)
		if s.Types&subsetcheck.TNumber == 0 {
			out = append(out, vNum("0.5"), vNum("1.25"), vNum("1e-3"))
		}
		out = append(out, g.multiples(s, false)...) // gencount.go
	}
	if s.Types&subsetcheck.TString != 0 {
		out = append(out, g.strings(s, false)...)
	}
	if s.Types&subsetcheck.TArray != 0 {
		out = append(out, g.badArrays(s, depth)...)
		out = append(out, g.uniqueArrays(s, depth)...)   // gencount.go
		out = append(out, g.containsArrays(s, depth)...) // gencount.go
	}
	if s.Types&subsetcheck.TObject != 0 {
		out = append(out, g.badObjects(s, depth)...)
		out = append(out, g.countedObjects(s, depth)...)    // gencount.go
		out = append(out, g.dependencyObjects(s, depth)...) // gencount.go
	}
	return g.keep(s, out, false)
}

// nonMembers are values close to an enum member but different from it.
func nonMembers(e *subsetcheck.Value) []*subsetcheck.Value {
	switch e.Kind {
	case subsetcheck.Null:
		return []*subsetcheck.Value{vStr("null")}
	case subsetcheck.Bool:
		return []*subsetcheck.Value{vBool(!e.Bool)}
	case subsetcheck.Number:
		out := []*subsetcheck.Value{vStr(e.Num)}
		if r, ok := numRat(e.Num); ok {
			for _, d := range []*big.Rat{big.NewRat(1, 1), big.NewRat(-1, 1), big.NewRat(1, 2)} {
				if t, ok := decimalText(new(big.Rat).Add(r, d)); ok {
					out = append(out, vNum(t))
				}
			}
		}
		return out
	case subsetcheck.String:
		out := []*subsetcheck.Value{vStr(e.Str + "x"), vStr("x" + e.Str)}
		if r := []rune(e.Str); len(r) > 0 {
			out = append(out, vStr(string(r[:len(r)-1])), vStr(string(r[1:])))
		}
		return out
	case subsetcheck.Array:
		out := []*subsetcheck.Value{vArr(append(slices.Clone(e.Items), vNull())...)}
		if len(e.Items) > 0 {
			out = append(out, vArr(e.Items[:len(e.Items)-1]...))
			for _, w := range nonMembers(e.Items[0]) {
				out = append(out, withItem(e, 0, w))
			}
		}
		return out
	case subsetcheck.Object:
		out := []*subsetcheck.Value{withMember(e, "zz", vNull())}
		if len(e.Members) > 0 {
			m := e.Members[0]
			out = append(out, withoutMember(e, m.Name))
			for _, w := range nonMembers(m.Value) {
				out = append(out, withMember(e, m.Name, w))
			}
		}
		return out
	}
	return nil
}

func (g *Generator) badArrays(s *subsetcheck.Schema, depth int) []*subsetcheck.Value {
	var out []*subsetcheck.Value
	for _, n := range g.arrayLengths(s, false) {
		a := g.baseArray(s, n, 0, depth)
		if a == nil && n > 0 {
			// The position past the prefix may admit nothing (items: false):
			// fill it with any value at all.
			if b := g.baseArray(s, n-1, 0, depth); b != nil {
				a = vArr(append(slices.Clone(b.Items), vNum("1"))...)
			}
		}
		if a != nil {
			out = append(out, a)
		}
	}
	// One bad item inside an array of valid length.
	var a *subsetcheck.Value
	for _, v := range g.valid(s, depth) {
		if v.Kind == subsetcheck.Array && (a == nil || len(v.Items) > len(a.Items)) {
			a = v
		}
	}
	if a != nil {
		for i := range a.Items {
			for _, bad := range firstN(g.invalid(itemSchema(s, i), depth+1), 4) {
				out = append(out, withItem(a, i, bad))
			}
			if i >= len(s.PrefixItems) {
				break
			}
		}
	}
	return out
}

func (g *Generator) badObjects(s *subsetcheck.Schema, depth int) []*subsetcheck.Value {
	var out []*subsetcheck.Value
	var full *subsetcheck.Value
	for _, v := range g.valid(s, depth) {
		if v.Kind == subsetcheck.Object && (full == nil || len(v.Members) > len(full.Members)) {
			full = v
		}
	}
	if full == nil {
		full = vObj()
	}
	for _, name := range s.Required {
		out = append(out, withoutMember(full, name))
	}
	if ap := s.AdditionalProperties; ap != nil {
		for k := range 3 {
			name, ok := g.extraName(s, k)
			if !ok {
				break
			}
			if ap.False {
				out = append(out, withMember(full, name, vNum("1")))
				continue
			}
			for _, bad := range firstN(g.invalid(ap, depth+1), 3) {
				out = append(out, withMember(full, name, bad))
			}
		}
	}
	for _, p := range s.Properties {
		for _, ps := range memberSchemas(s, p.Name) { // its own, and its patterns' (names.go)
			for _, bad := range firstN(g.invalid(ps, depth+1), 4) {
				out = append(out, withMember(full, p.Name, bad))
			}
		}
	}
	if len(s.PatternProperties) > 0 || s.PropertyNames != nil {
		out = append(out, g.ruledObjects(s, full, depth, false)...) // names.go
	}
	return out
}

// firstN picks n values spread evenly over vs: the wrong-type values come
// first in every list, and the nested near misses last.
func firstN(vs []*subsetcheck.Value, n int) []*subsetcheck.Value {
	if len(vs) <= n {
		return vs
	}
	out := make([]*subsetcheck.Value, n)
	for i := range n {
		out[i] = vs[i*(len(vs)-1)/(n-1)]
	}
	return out
}

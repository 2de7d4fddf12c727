package equiv

import (
	"math/big"
	"strconv"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Values for the counting keywords and the dependencies (issue 21): at,
// just inside and just outside every count and bound. gen.go and
// invalid.go call these once per keyword family; Holds sorts the values
// into valid and invalid, and the oracle has the last word.

// countsAround are the counts worth trying near lo and hi (hi < 0: none),
// and a few more, all at least 0 and at most maxGenLength.
func countsAround(lo, hi int) []int {
	var ns []int
	for _, n := range []int{0, 1, 2, lo - 1, lo, lo + 1, hi - 1, hi, hi + 1} {
		if n >= 0 && n <= maxGenLength && (n <= lo+1 || hi >= 0 && n <= hi+1) {
			ns = append(ns, n)
		}
	}
	if hi < 0 {
		ns = append(ns, lo+5)
	}
	return ns
}

// countedObjects are objects with as many members as the counts near
// minProperties and maxProperties: the declared members first (each with
// its first valid value), then extra ones when the schema allows them.
func (g *Generator) countedObjects(s *subsetcheck.Schema, depth int) []*subsetcheck.Value {
	if s.MinProperties == 0 && s.MaxProperties == nil {
		return nil
	}
	hi := -1
	if s.MaxProperties != nil {
		hi = *s.MaxProperties
	}
	var out []*subsetcheck.Value
	for _, n := range countsAround(s.MinProperties, hi) {
		if o := g.objectOfSize(s, n, depth); o != nil {
			out = append(out, o)
		}
	}
	return out
}

// objectOfSize is an object of s with n members: the required ones, then
// the other declared ones, then extras named x0, x1, …; nil when s cannot
// give that many.
func (g *Generator) objectOfSize(s *subsetcheck.Schema, n, depth int) *subsetcheck.Value {
	o := vObj()
	add := func(name string, ps *subsetcheck.Schema) bool {
		if len(o.Members) >= n || o.Get(name) != nil {
			return true
		}
		v := g.first(ps, depth+1)
		if v == nil {
			return false
		}
		o = withMember(o, name, v)
		return true
	}
	for _, name := range s.Required {
		ps := s.AdditionalProperties
		if p := declared(s, name); p != nil {
			ps = p
		}
		add(name, ps)
	}
	for _, p := range s.Properties {
		add(p.Name, p.Schema)
	}
	for k := 0; len(o.Members) < n && k < maxGenLength; k++ {
		if ap := s.AdditionalProperties; ap != nil && ap.False {
			break
		}
		name := "x" + strconv.Itoa(k)
		if declared(s, name) != nil {
			continue
		}
		if !add(name, s.AdditionalProperties) {
			break
		}
	}
	if len(o.Members) != n {
		return nil
	}
	return o
}

// dependencyObjects are objects around each dependency: its member with
// and without what it brings in, and without the member.
func (g *Generator) dependencyObjects(s *subsetcheck.Schema, depth int) []*subsetcheck.Value {
	var out []*subsetcheck.Value
	base := g.objectOfSize(s, len(s.Required), depth)
	if base == nil {
		base = vObj()
	}
	valueOf := func(name string) *subsetcheck.Value {
		ps := s.AdditionalProperties
		if p := declared(s, name); p != nil {
			ps = p
		}
		if v := g.first(ps, depth+1); v != nil {
			return v
		}
		return vNull()
	}
	for _, d := range s.Dependencies {
		with := withMember(base, d.Name, valueOf(d.Name))
		out = append(out, with, withoutMember(base, d.Name))
		full := with
		for _, r := range d.Required {
			full = withMember(full, r, valueOf(r))
			out = append(out, full)
		}
		if d.Schema != nil {
			for _, v := range firstN(g.valid(d.Schema, depth+1), 6) {
				if v.Kind != subsetcheck.Object {
					continue
				}
				m := full
				for _, vm := range v.Members {
					m = withMember(m, vm.Name, vm.Value)
				}
				out = append(out, m, withoutMember(m, d.Name))
			}
			for _, v := range firstN(g.invalid(d.Schema, depth+1), 6) {
				if v.Kind != subsetcheck.Object {
					continue
				}
				m := full
				for _, vm := range v.Members {
					m = withMember(m, vm.Name, vm.Value)
				}
				out = append(out, m)
			}
		}
	}
	return out
}

// multiples are numbers near the bounds that are multiples of multipleOf
// (valid) or halfway between two (invalid), and a few far ones.
func (g *Generator) multiples(s *subsetcheck.Schema, valid bool) []*subsetcheck.Value {
	d := s.MultipleOf
	if d == nil {
		return nil
	}
	var ks []*big.Int
	addK := func(k *big.Int, deltas ...int64) {
		for _, dk := range deltas {
			ks = append(ks, new(big.Int).Add(k, big.NewInt(dk)))
		}
	}
	addK(new(big.Int), 0, 1, -1, 2, 7, -13)
	addK(new(big.Int).Exp(big.NewInt(10), big.NewInt(20), nil), 0, 1)
	for _, b := range []*subsetcheck.Bound{s.Lower, s.Upper} {
		if b != nil && b.Value != nil {
			q := new(big.Rat).Quo(b.Value, d)
			addK(floor(q), -1, 0, 1, 2)
		}
	}
	var out []*subsetcheck.Value
	for _, k := range ks {
		x := new(big.Rat).Mul(new(big.Rat).SetInt(k), d)
		if !valid {
			x.Add(x, new(big.Rat).Quo(d, big.NewRat(2, 1)))
		}
		if t, ok := decimalText(x); ok {
			out = append(out, vNum(t))
		}
		if valid && x.IsInt() && x.Sign() != 0 {
			out = append(out, vNum(x.Num().String()+".0"), vNum(x.Num().String()+"e0"))
		}
	}
	return out
}

// uniqueArrays are arrays that repeat a valid item (invalid) and arrays of
// distinct ones (valid), at the item bounds.
func (g *Generator) uniqueArrays(s *subsetcheck.Schema, depth int) []*subsetcheck.Value {
	if !s.UniqueItems {
		return nil
	}
	var out []*subsetcheck.Value
	for _, n := range g.lengths(s.MinItems, s.MaxItems, true) {
		if n > 64 {
			continue
		}
		items := make([]*subsetcheck.Value, 0, n)
		ok := true
		for i := range n {
			var pick *subsetcheck.Value
			for _, v := range g.valid(itemSchema(s, i), depth+1) {
				dup := false
				for _, it := range items {
					dup = dup || Equal(it, v)
				}
				if !dup {
					pick = v
					break
				}
			}
			if pick == nil {
				ok = false
				break
			}
			items = append(items, pick)
		}
		if !ok {
			continue
		}
		a := vArr(items...)
		out = append(out, a)
		if n >= 1 { // the first item again, and an equal number spelled otherwise
			out = append(out, vArr(append(items, items[0])...))
			if items[0].Kind == subsetcheck.Number && !strings.ContainsAny(items[0].Num, "eE") {
				out = append(out, vArr(append(items, vNum(items[0].Num+"e0"))...))
			}
		}
	}
	return out
}

// containsArrays are arrays with as many items matching contains as the
// counts near minContains and maxContains, the others not matching.
func (g *Generator) containsArrays(s *subsetcheck.Schema, depth int) []*subsetcheck.Value {
	if s.Contains == nil {
		return nil
	}
	hi := -1
	if s.MaxContains != nil {
		hi = *s.MaxContains
	}
	var yes, no []*subsetcheck.Value
	for _, v := range append(g.valid(s.Items, depth+1), g.valid(s.Contains, depth+1)...) {
		if !holds(g.c.Draft, s.Items, v, 0) {
			continue
		}
		if holds(g.c.Draft, s.Contains, v, 0) {
			yes = append(yes, v)
		} else {
			no = append(no, v)
		}
	}
	no = append(no, g.invalid(s.Contains, depth+1)...)
	var out []*subsetcheck.Value
	for _, k := range countsAround(s.MinContains, hi) {
		for _, e := range []int{0, 1, 3} {
			if k > 0 && len(yes) == 0 || e > 0 && len(no) == 0 || k+e > 64 {
				continue
			}
			// k matching items and e others, interleaved.
			items := make([]*subsetcheck.Value, 0, k+e)
			y, n := 0, 0
			for y+n < k+e {
				if n < e && (y == k || (y+n)%2 == 1) {
					items = append(items, no[(n+y)%len(no)])
					n++
				} else {
					items = append(items, yes[y%len(yes)])
					y++
				}
			}
			out = append(out, vArr(items...))
		}
	}
	return out
}

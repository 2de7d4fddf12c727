package equiv

import (
	"slices"
	"strconv"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Values for the combinators allOf, oneOf, not and if/then/else. Every
// list is filtered by Holds afterwards (keep), so a candidate may land on
// either side: what matters is that values near every branch's edges are
// tried.

// combinatorCandidates are candidate valid values of s's combinators: each
// branch's valid values, objects merged across allOf branches, values
// one branch accepts and another rejects for oneOf, the near misses of the
// negated schema for not, and the values of each part of if/then/else.
func (g *Generator) combinatorCandidates(s *subsetcheck.Schema, depth int) []*subsetcheck.Value {
	var out []*subsetcheck.Value
	if len(s.AllOf) > 0 {
		var lists [][]*subsetcheck.Value
		for _, b := range s.AllOf {
			vs := g.valid(b, depth+1)
			out = append(out, vs...)
			lists = append(lists, vs)
		}
		out = append(out, mergeObjects(lists)...)
	}
	for _, b := range s.OneOf {
		out = append(out, g.valid(b, depth+1)...)
		// Where branches overlap, the values one rejects may be those
		// another accepts alone (or all a branch true leaves).
		out = append(out, g.invalid(b, depth+1)...)
	}
	for k, list := range [][]*subsetcheck.Schema{s.AllOf, s.OneOf} {
		var lists [][]*subsetcheck.Value
		for _, b := range list {
			if w := g.withOwn(s, b); w != nil {
				vs := g.valid(w, depth+1)
				out = append(out, vs...)
				lists = append(lists, vs)
			}
		}
		if k == 0 && len(lists) > 1 { // allOf: objects of every branch at once
			out = append(out, mergeObjects(lists)...)
		}
	}
	if len(s.OneOf) > 1 { // values of one branch with members of another, which may still match one
		out = append(out, mergeObjects([][]*subsetcheck.Value{g.valid(s.OneOf[0], depth+1), g.valid(s.OneOf[1], depth+1)})...)
	}
	if s.Not != nil {
		out = append(out, g.invalid(s.Not, depth+1)...)
		out = append(out, anyValues(g.small(depth))...)
		for _, v := range g.valid(s.Not, depth+1) { // values next to the excluded ones
			out = append(out, nonMembers(v)...)
		}
	}
	if s.If != nil {
		for _, part := range []*subsetcheck.Schema{s.If, s.Then, s.Else} {
			if part != nil {
				out = append(out, g.valid(part, depth+1)...)
			}
		}
		out = append(out, g.invalid(s.If, depth+1)...)
		// A value of if made to match then as well.
		out = append(out, mergeObjects([][]*subsetcheck.Value{g.valid(s.If, depth+1), g.valid(s.Then, depth+1)})...)
	}
	return out
}

// combinatorNearMisses are candidate invalid values of s's combinators.
func (g *Generator) combinatorNearMisses(s *subsetcheck.Schema, depth int) []*subsetcheck.Value {
	var out []*subsetcheck.Value
	for _, b := range s.AllOf {
		out = append(out, g.invalid(b, depth+1)...)
	}
	for _, b := range s.OneOf {
		out = append(out, g.invalid(b, depth+1)...)
		out = append(out, g.valid(b, depth+1)...) // the ones two branches accept
	}
	// Objects made to match two branches at once, and so none of oneOf.
	for i := range s.OneOf {
		for j := i + 1; j < len(s.OneOf) && j < i+4; j++ {
			out = append(out, mergeObjects([][]*subsetcheck.Value{g.valid(s.OneOf[i], depth+1), g.valid(s.OneOf[j], depth+1)})...)
		}
	}
	if s.Not != nil {
		for _, v := range g.valid(s.Not, depth+1) {
			out = append(out, v)
			out = append(out, respelled(v)...)
		}
	}
	if s.If != nil {
		out = append(out, g.valid(s.If, depth+1)...)
		out = append(out, g.invalid(s.If, depth+1)...)
		for _, part := range []*subsetcheck.Schema{s.Then, s.Else} {
			if part != nil {
				out = append(out, g.invalid(part, depth+1)...)
			}
		}
	}
	return out
}

// withOwn is branch b with s's own object keywords around it: s's
// properties that b does not declare, s's required names, and s's
// additionalProperties where b has none; nil when s declares no property.
// A branch that only requires names (oneOf [{"required": ["a"]}, ...]
// beside properties) so gets members of the types s gives them.
func (g *Generator) withOwn(s, b *subsetcheck.Schema) *subsetcheck.Schema {
	if len(s.Properties) == 0 || b.False || b.Types&subsetcheck.TObject == 0 {
		return nil
	}
	key := [2]*subsetcheck.Schema{s, b}
	if w, ok := g.within[key]; ok {
		return w
	}
	w := *b
	w.Types &= s.Types & subsetcheck.TObject // the other types need no members
	w.Properties = slices.Clip(b.Properties)
	for _, p := range s.Properties {
		if declared(b, p.Name) == nil {
			w.Properties = append(w.Properties, p)
		}
	}
	w.Required = append(slices.Clip(b.Required), s.Required...)
	if w.AdditionalProperties == nil {
		w.AdditionalProperties = s.AdditionalProperties
	}
	if g.within == nil {
		g.within = map[[2]*subsetcheck.Schema]*subsetcheck.Schema{}
	}
	g.within[key] = &w
	return &w
}

// mergeObjects joins the first objects of each list member by member
// (the first list's value wins a name), so that an object can meet the
// required members of several branches at once.
func mergeObjects(lists [][]*subsetcheck.Value) []*subsetcheck.Value {
	merged := []*subsetcheck.Value{vObj()}
	for _, vs := range lists {
		var next []*subsetcheck.Value
		for _, m := range merged {
			for _, v := range firstN(objectsOf(vs), 4) {
				o := m
				for _, vm := range v.Members {
					if o.Get(vm.Name) == nil {
						o = withMember(o, vm.Name, vm.Value)
					}
				}
				next = append(next, o)
			}
		}
		if len(next) == 0 {
			return nil
		}
		merged = firstN(next, 8)
	}
	return merged
}

func objectsOf(vs []*subsetcheck.Value) []*subsetcheck.Value {
	var out []*subsetcheck.Value
	for _, v := range vs {
		if v.Kind == subsetcheck.Object {
			out = append(out, v)
		}
	}
	return out
}

// respelled are other spellings of a number, for a value that must be
// rejected in every spelling: 3 as 3.0, 30e-1 and 3E0; 2.5 as 2.50 and
// 25e-1. (Strings get theirs from Spellings.)
func respelled(v *subsetcheck.Value) []*subsetcheck.Value {
	if v.Kind != subsetcheck.Number || strings.ContainsAny(v.Num, "eE") {
		return nil
	}
	n := v.Num
	out := []*subsetcheck.Value{vNum(n + "E0"), vNum(n + "e+0")}
	if i := strings.IndexByte(n, '.'); i >= 0 {
		sign, mant := "", n
		if strings.HasPrefix(n, "-") {
			sign, mant = "-", n[1:]
		}
		out = append(out, vNum(n+"0"))
		if digits := strings.TrimLeft(strings.Replace(mant, ".", "", 1), "0"); digits != "" {
			out = append(out, vNum(sign+digits+"e-"+strconv.Itoa(len(n)-i-1)))
		}
	} else {
		out = append(out, vNum(n+".0"), vNum(n+".000"))
		if n != "0" && n != "-0" {
			out = append(out, vNum(n+"0e-1"))
		} else {
			out = append(out, vNum("-0"), vNum("0e5"))
		}
	}
	return out
}

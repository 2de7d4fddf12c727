package equiv

import (
	"slices"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Member names under patternProperties and propertyNames, as JSON Schema
// reads them: a member's value must match its declared schema and those of
// the patterns its name matches, or additionalProperties when neither;
// every name must be a string propertyNames accepts. The generator picks
// names in each pattern's language (random walks, as for pattern strings),
// names propertyNames accepts and rejects, and values for each.

// memberSchemas are the schemas a member named name must match under s;
// nil stands for additionalProperties absent (any value).
func memberSchemas(s *subsetcheck.Schema, name string) []*subsetcheck.Schema {
	var out []*subsetcheck.Schema
	if p := declared(s, name); p != nil {
		out = append(out, p)
	}
	for _, pp := range s.PatternProperties {
		if pp.Pattern.Lang.Match(name) {
			out = append(out, pp.Schema)
		}
	}
	if len(out) == 0 {
		out = append(out, s.AdditionalProperties)
	}
	return out
}

// memberHolds says whether a member of s named name with value v holds:
// its value under every schema of its name, its name under propertyNames.
func memberHolds(d subsetcheck.Draft, s *subsetcheck.Schema, name string, v *subsetcheck.Value) bool {
	for _, ps := range memberSchemas(s, name) {
		if !holds(d, ps, v, 0) {
			return false
		}
	}
	return s.PropertyNames == nil || holds(d, s.PropertyNames, vStr(name), 0)
}

// memberValues are values that hold for a member named name of s.
func (g *Generator) memberValues(s *subsetcheck.Schema, name string, depth int) []*subsetcheck.Value {
	var out []*subsetcheck.Value
	for _, ps := range memberSchemas(s, name) {
		for _, v := range g.valid(ps, depth+1) {
			if memberHolds(g.c.Draft, s, name, v) {
				out = append(out, v)
			}
		}
	}
	return dedupe(out)
}

// memberValue is the first value of memberValues, or nil.
func (g *Generator) memberValue(s *subsetcheck.Schema, name string, depth int) *subsetcheck.Value {
	if vs := g.memberValues(s, name, depth); len(vs) > 0 {
		return vs[0]
	}
	return nil
}

// ruledNames are names for extra members of s, which has
// patternProperties or propertyNames: members of each pattern's language,
// strings propertyNames accepts (valid) or rejects, and the usual extra
// names; none declared or required.
func (g *Generator) ruledNames(s *subsetcheck.Schema, depth int, valid bool) []string {
	var out []string
	for _, pp := range s.PatternProperties {
		out = append(out, firstStrings(g.members(pp.Pattern.Lang), 4)...)
	}
	if s.PropertyNames != nil {
		vs := g.valid(s.PropertyNames, depth+1)
		if !valid {
			vs = g.invalid(s.PropertyNames, depth+1)
		}
		for _, v := range firstN(vs, 8) {
			if v.Kind == subsetcheck.String {
				out = append(out, v.Str)
			}
		}
	}
	out = append(out, extraNames...)
	var keep []string
	for _, n := range out {
		if declared(s, n) == nil && !slices.Contains(s.Required, n) && !slices.Contains(keep, n) {
			keep = append(keep, n)
		}
	}
	return keep
}

func firstStrings(ss []string, n int) []string {
	if len(ss) > n {
		return ss[:n]
	}
	return ss
}

// ruledObjects are objects of s with extra members under its name rules:
// valid ones (valid), or ones whose member breaks a pattern's schema or
// has a name propertyNames rejects.
func (g *Generator) ruledObjects(s *subsetcheck.Schema, base *subsetcheck.Value, depth int, valid bool) []*subsetcheck.Value {
	var out []*subsetcheck.Value
	for _, name := range g.ruledNames(s, depth, valid) {
		if valid {
			for _, v := range firstN(g.memberValues(s, name, depth), 3) {
				out = append(out, withMember(base, name, v))
			}
			continue
		}
		for _, ps := range memberSchemas(s, name) {
			for _, bad := range firstN(g.invalid(ps, depth+1), 2) {
				out = append(out, withMember(base, name, bad))
			}
		}
		if v := g.first(nil, depth+1); v != nil {
			out = append(out, withMember(base, name, v)) // a name propertyNames rejects
		}
	}
	return out
}

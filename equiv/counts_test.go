package equiv

import "github.com/schema2gbnf/schema2gbnf/subsetcheck"

// countsMembers says whether some object schema of c counts members from
// below (minProperties), anywhere a value can reach. A text that repeats
// a member name then has more members for the grammar, which counts each
// one written, than for a reader, which keeps one value per name: such
// texts are outside the soundness claim (DESIGN.md §2, README), as the
// grammar cannot forbid repeats among extra members.
func countsMembers(c *subsetcheck.Checked) bool {
	seen := map[*subsetcheck.Schema]bool{}
	var walk func(s *subsetcheck.Schema) bool
	walk = func(s *subsetcheck.Schema) bool {
		if s == nil || seen[s] {
			return false
		}
		seen[s] = true
		if s.MinProperties > 0 {
			return true
		}
		subs := append([]*subsetcheck.Schema{s.AdditionalProperties, s.Items, s.Ref, s.Contains}, s.PrefixItems...)
		subs = append(subs, s.AnyOf...)
		subs = append(append(subs, s.AllOf...), s.OneOf...)
		subs = append(subs, s.Not, s.If, s.Then, s.Else)
		for _, p := range s.Properties {
			subs = append(subs, p.Schema)
		}
		for _, d := range s.Dependencies {
			subs = append(subs, d.Schema)
		}
		for _, sub := range subs {
			if walk(sub) {
				return true
			}
		}
		return false
	}
	return walk(c.Root)
}

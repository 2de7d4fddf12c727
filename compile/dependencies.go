package compile

import (
	"fmt"
	"slices"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Dependencies ("dependentRequired", "dependentSchemas", draft-04/07
// "dependencies"): the presence of a member brings in requirements on the
// whole object, members before it as much as after.
//
// A list of names whose members all come after the trigger (in the order
// objectExpr writes members: declared, required, then the names
// dependencies bring in, dependencyNames) is kept on the plain schema and
// enforced in the object grammar (count.go), which carries the names it
// still owes: the trigger written, its names are owed; a name owed cannot
// be skipped; the object cannot end owing one. Anything else needs what
// the grammar has already written: the schema is split by cases on the
// trigger member instead. An object either lacks it (the member declared
// false) or has it (the member required) and then meets the dependency
// (its names required, its schema met with the object's,
// compile/expand.go). The cases are disjoint, so the union is exact and
// Canonical picks the one case that holds; non-objects take a case of their
// own, so that no value is in two cases. llama.cpp reads the cases in
// parallel, so splitting costs decoding work the owed names do not.
//
// A trigger that is required anyway needs no split (its dependency simply
// holds); a dependency whose names are all required anyway, and no schema,
// brings in nothing. A dependent schema that leads back to the schema
// (dependentSchemas: {"a": {"$ref": "#"}}) is refused (C402) as any $ref
// cycle that enters no member is: the validator, too, stops such a loop
// and calls the value invalid. t splitting triggers make 2^t cases,
// bounded by Options.MaxAlternatives (C402), checked before any case is
// built.

// dependencyCases crosses the alternatives of s's own keywords with the
// cases of its dependencies, and keeps the lists of names that the object
// grammar can carry.
func (cp *compiler) dependencyCases(s *subsetcheck.Schema, alts []alternative) ([]alternative, bool) {
	base := own(s)
	var always, split, kept []subsetcheck.Dependency
	for _, d := range s.Dependencies {
		switch {
		case trivialDependency(s, d, base.Required):
		case slices.Contains(base.Required, d.Name):
			always = append(always, d)
		case d.Schema == nil:
			kept = append(kept, d)
		default:
			split = append(split, d)
		}
	}
	if len(always) == 0 && len(split) == 0 && len(kept) == 0 {
		return alts, true
	}
	cases := len(alts)
	for range split {
		if cases *= 2; cases > cp.maxAlts {
			cp.tooManyCases(s, len(split))
			return nil, false
		}
	}
	var others []alternative // the non-objects, untouched by dependencies
	if s.Types&^subsetcheck.TObject != 0 {
		var ok bool
		if others, ok = cp.cross(alts, []alternative{{plain: typesOnly(s, s.Types&^subsetcheck.TObject)}}); !ok {
			return nil, false
		}
		if alts, ok = cp.cross(alts, []alternative{{plain: typesOnly(s, subsetcheck.TObject)}}); !ok {
			return nil, false
		}
	}
	for _, d := range always {
		var ok bool
		if alts, ok = cp.cross(alts, cp.present(s, d)); !ok {
			return nil, false
		}
	}
	for _, d := range split {
		var ok bool
		if alts, ok = cp.cross(alts, cp.dependencyCase(s, d)); !ok {
			return nil, false
		}
	}
	if len(kept) > 0 {
		names := typesOnly(s, subsetcheck.AllTypes)
		names.Dependencies = kept
		var ok bool
		if alts, ok = cp.cross(alts, []alternative{{plain: names}}); !ok {
			return nil, false
		}
		if alts, ok = cp.settleDependencies(s, alts); !ok {
			return nil, false
		}
	}
	return append(alts, others...), true
}

// dependencyCase is d's two cases: its member absent, or present with
// what it brings in.
func (cp *compiler) dependencyCase(s *subsetcheck.Schema, d subsetcheck.Dependency) []alternative {
	absent := typesOnly(s, subsetcheck.AllTypes)
	absent.Properties = []subsetcheck.Property{{Name: d.Name, Schema: &subsetcheck.Schema{Pointer: s.Pointer, Node: s.Node, False: true}}}
	return append([]alternative{{plain: absent}}, cp.present(s, d)...)
}

// settleDependencies splits by cases each plain alternative's lists of
// names that do not all come after their trigger there (meets with $ref
// targets, anyOf branches and other cases may have moved members).
func (cp *compiler) settleDependencies(s *subsetcheck.Schema, alts []alternative) ([]alternative, bool) {
	var out []alternative
	for _, a := range alts {
		p := a.plain
		if p == nil || p.Dependencies == nil {
			out = append(out, a)
			continue
		}
		var forward, back []subsetcheck.Dependency
		pos := positions(p)
		for _, d := range p.Dependencies {
			if forwardDependency(p, d, pos) {
				forward = append(forward, d)
			} else {
				back = append(back, d)
			}
		}
		if len(back) == 0 {
			out = append(out, a)
			continue
		}
		if len(back) >= 30 || len(out)+1<<len(back) > cp.maxAlts { // before any case is built
			cp.tooManyCases(s, len(back))
			return nil, false
		}
		q := *p
		q.Dependencies = forward
		sub := []alternative{{plain: &q}}
		for _, d := range back {
			var ok bool
			if sub, ok = cp.cross(sub, cp.dependencyCase(s, d)); !ok {
				return nil, false
			}
		}
		sub, ok := cp.settleDependencies(s, sub)
		if !ok {
			return nil, false
		}
		if out = append(out, sub...); len(out) > cp.maxAlts {
			cp.tooManyCases(s, len(back))
			return nil, false
		}
	}
	return out, true
}

func (cp *compiler) tooManyCases(s *subsetcheck.Schema, n int) {
	cp.problem(s, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
		"the %d dependencies here (dependentRequired, dependentSchemas, dependencies) split the object into more than %d cases, one per set of trigger members present (Options.MaxAlternatives); "+
			"make some trigger members required, declare the names a trigger brings in after it, or move the dependencies into anyOf branches that spell out the cases", n, cp.maxAlts))
}

// dependencyNames are the names p's dependencies bring in that p neither
// declares nor requires, in the order of the dependencies (a trigger, then
// its names): objectExpr writes their members after the required ones, so
// that the grammar knows where each comes, and Canonical writes them there.
func dependencyNames(p *subsetcheck.Schema) []string {
	var out []string
	for _, d := range p.Dependencies {
		for i := -1; i < len(d.Required); i++ {
			n := d.Name
			if i >= 0 {
				n = d.Required[i]
			}
			if !declared(p, n) && !slices.Contains(p.Required, n) && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// positions is where each member of p comes in the object grammar.
func positions(p *subsetcheck.Schema) map[string]int {
	pos := map[string]int{}
	for _, pr := range p.Properties {
		pos[pr.Name] = len(pos)
	}
	for _, r := range p.Required {
		if _, ok := pos[r]; !ok {
			pos[r] = len(pos)
		}
	}
	for _, n := range dependencyNames(p) {
		pos[n] = len(pos)
	}
	return pos
}

// forwardDependency says whether every name d brings in that p does not
// require comes after d's trigger, within the first maxOwed members: then
// the object grammar carries it (count.go).
func forwardDependency(p *subsetcheck.Schema, d subsetcheck.Dependency, pos map[string]int) bool {
	if d.Schema != nil {
		return false
	}
	t := pos[d.Name]
	for _, r := range d.Required {
		if slices.Contains(p.Required, r) {
			continue
		}
		if pos[r] <= t || pos[r] >= maxOwed {
			return false
		}
	}
	return true
}

// maxOwed is how many members the owed names of the object grammar can
// name: a bit each.
const maxOwed = 64

// present is the case of an object that has d's member: the member and
// d's names required, and d's schema.
func (cp *compiler) present(s *subsetcheck.Schema, d subsetcheck.Dependency) []alternative {
	p := typesOnly(s, subsetcheck.AllTypes)
	p.Required = append([]string{d.Name}, d.Required...)
	if d.Schema == nil {
		return []alternative{{plain: p}}
	}
	// The member present and the schema: one alternative whose $ref is
	// the schema, expanded by cross like any other.
	p.Ref = d.Schema
	return []alternative{{opaque: p}}
}

// trivialDependency says whether d brings in nothing beyond what s
// already demands: no schema, and names all required.
func trivialDependency(s *subsetcheck.Schema, d subsetcheck.Dependency, required []string) bool {
	if d.Schema != nil && !isTrue(d.Schema) {
		return false
	}
	for _, r := range d.Required {
		if !slices.Contains(required, r) {
			return false
		}
	}
	return true
}

// typesOnly is a schema that allows the types t and constrains nothing
// else, located at s.
func typesOnly(s *subsetcheck.Schema, t subsetcheck.Type) *subsetcheck.Schema {
	return &subsetcheck.Schema{Pointer: s.Pointer, Node: s.Node, Types: t, MaxItems: -1, MaxLength: -1}
}

package compile

import (
	"fmt"
	"slices"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Dependencies ("dependentRequired", "dependentSchemas", draft-04/07
// "dependencies"): the presence of a member brings in requirements on the
// whole object, members before it as much as after. The object grammar
// writes members in declaration order, so rather than carry what it has
// seen, the schema is split by cases on each trigger member: an object
// either lacks it (the member declared false) or has it (the member
// required) and then meets the dependency (its names required, its schema
// met with the object's, compile/expand.go). The cases are disjoint, so the
// union is exact and Canonical picks the one case that holds. Non-objects
// take a case of their own, so that no value is in two cases.
//
// A trigger that is required anyway needs no split (its dependency simply
// holds); a dependency whose names are all required anyway, and no schema,
// brings in nothing. A dependent schema that leads back to the schema
// (dependentSchemas: {"a": {"$ref": "#"}}) is refused (C402) as any $ref
// cycle that enters no member is: the validator, too, stops such a loop
// and calls the value invalid. t splitting triggers make 2^t
// cases, bounded by Options.MaxAlternatives (C402), checked before any
// case is built.

// dependencyCases crosses the alternatives of s's own keywords with the
// cases of its dependencies.
func (cp *compiler) dependencyCases(s *subsetcheck.Schema, alts []alternative) ([]alternative, bool) {
	base := own(s)
	var always, split []subsetcheck.Dependency
	for _, d := range s.Dependencies {
		switch {
		case trivialDependency(s, d, base.Required):
		case slices.Contains(base.Required, d.Name):
			always = append(always, d)
		default:
			split = append(split, d)
		}
	}
	if len(always) == 0 && len(split) == 0 {
		return alts, true
	}
	cases := len(alts)
	for range split {
		if cases *= 2; cases > cp.maxAlts {
			cp.problem(s, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
				"the %d dependencies here (dependentRequired, dependentSchemas, dependencies) split the object into more than %d cases, one per set of trigger members present (Options.MaxAlternatives); "+
					"make some trigger members required, or move the dependencies into anyOf branches that spell out the cases", len(split), cp.maxAlts))
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
		absent := typesOnly(s, subsetcheck.AllTypes)
		absent.Properties = []subsetcheck.Property{{Name: d.Name, Schema: &subsetcheck.Schema{Pointer: s.Pointer, Node: s.Node, False: true}}}
		var ok bool
		if alts, ok = cp.cross(alts, append([]alternative{{plain: absent}}, cp.present(s, d)...)); !ok {
			return nil, false
		}
	}
	return append(alts, others...), true
}

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

package compile

import (
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// countsComplement is the share of the counting keywords in the complement
// of a plain schema p (for "not", compile/not.go on the combinators'
// side): plain schemas whose union is the values of p's types that break
// one of p's counting keywords, each made by part (a schema allowing the
// given types and nothing else, located at p). why, when not "", says
// which keyword has no complement here; the caller must then refuse the
// complement, since leaving a keyword out would make "not" unsound. A part
// with a Ref (dependentSchemas, through negation) is not plain: it is an
// opaque alternative.
//
//	minProperties k       objects with at most k-1 members
//	maxProperties m       objects with at least m+1 members
//	contains, counts n..m arrays with at most n-1, or at least m+1, matching items
//	dependentRequired     objects with the trigger and without one of its names
//	multipleOf            none here: the numbers that are not multiples
//	uniqueItems           none: the arrays with a repeated item
//	dependentSchemas      objects with the trigger and a value the schema rejects
func countsComplement(p *subsetcheck.Schema, part func(subsetcheck.Type) *subsetcheck.Schema, negation func(*subsetcheck.Schema) *subsetcheck.Schema) (parts []*subsetcheck.Schema, why string) {
	if p.Types&subsetcheck.TObject != 0 {
		if p.MinProperties > 0 {
			s := part(subsetcheck.TObject)
			m := p.MinProperties - 1
			s.MaxProperties = &m
			parts = append(parts, s)
		}
		if p.MaxProperties != nil {
			s := part(subsetcheck.TObject)
			s.MinProperties = *p.MaxProperties + 1
			parts = append(parts, s)
		}
		for _, d := range p.Dependencies {
			if d.Schema != nil {
				if negation == nil {
					return nil, "the objects that break a dependentSchemas schema need that schema's negation, which is not built here"
				}
				s := part(subsetcheck.TObject) // the trigger, and a value the schema rejects
				s.Required = []string{d.Name}
				s.Ref = negation(d.Schema)
				parts = append(parts, s)
			}
			for _, r := range d.Required {
				s := part(subsetcheck.TObject)
				s.Required = []string{d.Name}
				s.Properties = []subsetcheck.Property{{Name: r, Schema: &subsetcheck.Schema{Pointer: p.Pointer, Node: p.Node, False: true}}}
				parts = append(parts, s)
			}
		}
	}
	if p.Types&subsetcheck.TArray != 0 {
		if p.UniqueItems {
			return nil, "the arrays that repeat an item have no grammar (a grammar cannot compare two items)"
		}
		if p.Contains != nil {
			if p.MinContains > 0 {
				s := part(subsetcheck.TArray)
				m := p.MinContains - 1
				s.Contains, s.MaxContains = p.Contains, &m
				parts = append(parts, s)
			}
			if p.MaxContains != nil {
				s := part(subsetcheck.TArray)
				s.Contains, s.MinContains = p.Contains, *p.MaxContains+1
				parts = append(parts, s)
			}
		}
	}
	if p.Types&(subsetcheck.TNumber|subsetcheck.TInteger) != 0 && p.MultipleOf != nil {
		return nil, "the numbers that are not multiples of multipleOf " + p.MultipleOf.RatString() + " have no grammar here"
	}
	return parts, ""
}

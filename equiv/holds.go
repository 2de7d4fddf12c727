package equiv

import (
	"math/big"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// maxRefHops bounds how many $ref steps Holds follows without descending
// into the value: a cycle that never progresses ends as "not valid".
const maxRefHops = 64

// Holds says whether v satisfies s, reading the checked schema the way
// subsetcheck.Schema documents it. The generator uses it to keep only
// values on the side of the line it means them to be; the oracle validator,
// which reads the original schema text, has the last word, so a
// disagreement between the two shows a bug in the generator or the checker.
func Holds(c *subsetcheck.Checked, s *subsetcheck.Schema, v *subsetcheck.Value) bool {
	return holds(c.Draft, s, v, 0)
}

func holds(d subsetcheck.Draft, s *subsetcheck.Schema, v *subsetcheck.Value, hops int) bool {
	if s == nil {
		return true
	}
	if s.False || hops > maxRefHops {
		return false
	}
	if s.Ref != nil {
		if !holds(d, s.Ref, v, hops+1) {
			return false
		}
		if d < subsetcheck.Draft2019 {
			return true // siblings of $ref are ignored before 2019-09
		}
	}
	if !typeHolds(s.Types, v) {
		return false
	}
	if s.Enum != nil {
		found := false
		for _, e := range s.Enum {
			if Equal(e, v) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	switch v.Kind {
	case subsetcheck.Number:
		r, ok := numRat(v.Num)
		if !ok {
			return false
		}
		if s.MultipleOf != nil && !new(big.Rat).Quo(r, s.MultipleOf).IsInt() {
			return false
		}
		if b := s.Lower; b != nil {
			if c := r.Cmp(b.Value); c < 0 || c == 0 && b.Exclusive {
				return false
			}
		}
		if b := s.Upper; b != nil {
			if c := r.Cmp(b.Value); c > 0 || c == 0 && b.Exclusive {
				return false
			}
		}
	case subsetcheck.String:
		n := runeLen(v.Str)
		if n < s.MinLength || s.MaxLength >= 0 && n > s.MaxLength {
			return false
		}
		if s.Format != "" && !formatHolds(s.Format, v.Str) {
			return false
		}
		for _, p := range s.Patterns {
			if !p.Lang.Match(v.Str) {
				return false
			}
		}
	case subsetcheck.Array:
		n := len(v.Items)
		if n < s.MinItems || s.MaxItems >= 0 && n > s.MaxItems {
			return false
		}
		for i, it := range v.Items {
			var is *subsetcheck.Schema
			if i < len(s.PrefixItems) {
				is = s.PrefixItems[i]
			} else {
				is = s.Items
			}
			if !holds(d, is, it, 0) {
				return false
			}
		}
		if !itemCountsHold(d, s, v) {
			return false
		}
	case subsetcheck.Object:
		for _, name := range s.Required {
			if v.Get(name) == nil {
				return false
			}
		}
		for _, m := range v.Members {
			if !memberHolds(d, s, m.Name, m.Value) { // names.go
				return false
			}
		}
		if !memberCountsHold(d, s, v) {
			return false
		}
	}
	if s.AnyOf != nil {
		some := false
		for _, b := range s.AnyOf {
			if holds(d, b, v, hops+1) {
				some = true
				break
			}
		}
		if !some {
			return false
		}
	}
	for _, b := range s.AllOf {
		if !holds(d, b, v, hops+1) {
			return false
		}
	}
	if s.OneOf != nil {
		n := 0
		for _, b := range s.OneOf {
			if holds(d, b, v, hops+1) {
				n++
			}
		}
		if n != 1 {
			return false
		}
	}
	if s.Not != nil && holds(d, s.Not, v, hops+1) {
		return false
	}
	if s.If != nil {
		if holds(d, s.If, v, hops+1) {
			return holds(d, s.Then, v, hops+1)
		}
		return holds(d, s.Else, v, hops+1)
	}
	return true
}

// declared returns the schema of the declared property name, or nil.
func declared(s *subsetcheck.Schema, name string) *subsetcheck.Schema {
	for _, p := range s.Properties {
		if p.Name == name {
			return p.Schema
		}
	}
	return nil
}

func typeHolds(t subsetcheck.Type, v *subsetcheck.Value) bool {
	switch v.Kind {
	case subsetcheck.Null:
		return t&subsetcheck.TNull != 0
	case subsetcheck.Bool:
		return t&subsetcheck.TBoolean != 0
	case subsetcheck.String:
		return t&subsetcheck.TString != 0
	case subsetcheck.Array:
		return t&subsetcheck.TArray != 0
	case subsetcheck.Object:
		return t&subsetcheck.TObject != 0
	case subsetcheck.Number:
		if t&subsetcheck.TNumber != 0 && t&subsetcheck.TInteger != 0 {
			return true
		}
		if t&(subsetcheck.TNumber|subsetcheck.TInteger) == 0 {
			return false
		}
		r, ok := numRat(v.Num)
		return ok && r.IsInt() == (t&subsetcheck.TInteger != 0) // TNumber alone: the non-integers
	}
	return false
}

// memberCountsHold reads minProperties, maxProperties and the
// dependencies.
func memberCountsHold(d subsetcheck.Draft, s *subsetcheck.Schema, v *subsetcheck.Value) bool {
	n := len(v.Members)
	if n < s.MinProperties || s.MaxProperties != nil && n > *s.MaxProperties {
		return false
	}
	for _, dep := range s.Dependencies {
		if v.Get(dep.Name) == nil {
			continue
		}
		for _, r := range dep.Required {
			if v.Get(r) == nil {
				return false
			}
		}
		if dep.Schema != nil && !holds(d, dep.Schema, v, 0) {
			return false
		}
	}
	return true
}

// itemCountsHold reads uniqueItems and the contains counts.
func itemCountsHold(d subsetcheck.Draft, s *subsetcheck.Schema, v *subsetcheck.Value) bool {
	if s.UniqueItems {
		for i := range v.Items {
			for j := range i {
				if Equal(v.Items[i], v.Items[j]) {
					return false
				}
			}
		}
	}
	if s.Contains != nil {
		n := 0
		for _, it := range v.Items {
			if holds(d, s.Contains, it, 0) {
				n++
			}
		}
		if n < s.MinContains || s.MaxContains != nil && n > *s.MaxContains {
			return false
		}
	}
	return true
}

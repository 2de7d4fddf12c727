package compile

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Expansion: a schema's language as a union of alternatives, each either a
// plain schema (no $ref, no anyOf at its top) or an opaque reference to
// another schema's rule. A schema's own keywords, its $ref target and its
// anyOf branches are conjuncts; meet intersects plain schemas exactly, so
// the alternatives of {"type":"object","anyOf":[A,B]} are object∧A and
// object∧B. Canonical walks the same alternatives, in the same order, so
// the text it writes is one the grammar has.

type alternative struct {
	plain  *subsetcheck.Schema // Ref and AnyOf nil
	opaque *subsetcheck.Schema // the whole language of this schema
}

// onlyRef says whether s is a bare $ref: its own keywords constrain nothing.
func onlyRef(s *subsetcheck.Schema) bool {
	return s.Ref != nil && s.AnyOf == nil && noCombinators(s) && unconstrained(s)
}

// unconstrained says whether s's own keywords (not $ref, not anyOf, not
// the other combinators) allow every value.
func unconstrained(s *subsetcheck.Schema) bool {
	return !s.False && s.Types&subsetcheck.AllTypes == subsetcheck.AllTypes && s.Enum == nil &&
		len(s.Properties) == 0 && len(s.Required) == 0 && s.AdditionalProperties == nil &&
		len(s.PrefixItems) == 0 && s.Items == nil && s.MinItems == 0 && s.MaxItems < 0 &&
		s.MinLength == 0 && s.MaxLength < 0 && s.Format == "" && len(s.Patterns) == 0 && s.Lower == nil && s.Upper == nil &&
		len(s.PatternProperties) == 0 && s.PropertyNames == nil &&
		len(s.Except) == 0 && s.SomeMember == nil && !counts(s)
}

// counts says whether s has a counting keyword or a dependency (count.go,
// multipleof.go, dependencies.go, items.go), none of which is trivial.
func counts(s *subsetcheck.Schema) bool {
	return s.MinProperties > 0 || s.MaxProperties != nil || s.MultipleOf != nil || s.UniqueItems ||
		s.Contains != nil || len(s.Dependencies) > 0
}

// noCombinators says whether s has none of allOf, oneOf, not and
// if/then/else (combinator.go).
func noCombinators(s *subsetcheck.Schema) bool {
	return s.AllOf == nil && s.OneOf == nil && s.Not == nil && s.If == nil
}

// isPlain says whether s is its own keywords alone: no $ref, no anyOf, no
// other combinator.
func isPlain(s *subsetcheck.Schema) bool {
	return s.Ref == nil && s.AnyOf == nil && noCombinators(s)
}

// isTrue says whether s accepts every value, as far as a cheap look tells.
func isTrue(s *subsetcheck.Schema) bool {
	return s == nil || unconstrained(s) && isPlain(s)
}

// target follows bare $refs to the schema that says something.
func target(s *subsetcheck.Schema) *subsetcheck.Schema {
	for i := 0; i < MaxValueDepth && s != nil && onlyRef(s); i++ {
		s = s.Ref
	}
	return s
}

// own is a copy of s without $ref, anyOf, the other combinators and the
// dependencies: its own keywords.
func own(s *subsetcheck.Schema) *subsetcheck.Schema {
	c := *s
	c.Ref, c.AnyOf, c.Dependencies = nil, nil, nil
	c.AllOf, c.OneOf, c.Not, c.If, c.Then, c.Else = nil, nil, nil, nil, nil, nil
	return &c
}

// plainAlternative is the one alternative of a schema without $ref and
// anyOf, s itself (its own keywords already: no copy). It is cut from a
// block rather than remembered: making it again costs less than a lookup,
// and one allocation per schema was a tenth of a small compile's.
func (cp *compiler) plainAlternative(s *subsetcheck.Schema) []alternative {
	if len(cp.altBlock) == cap(cp.altBlock) {
		cp.altBlock = make([]alternative, 0, 32)
	}
	cp.altBlock = append(cp.altBlock, alternative{plain: s})
	n := len(cp.altBlock)
	return cp.altBlock[n-1 : n : n]
}

// expand returns the alternatives of s, in order. ok is false after a
// problem was reported.
func (cp *compiler) expand(s *subsetcheck.Schema) ([]alternative, bool) {
	if s.False {
		return nil, true
	}
	if isPlain(s) && s.Dependencies == nil { // most schemas: nothing to combine, no way back to s
		return cp.plainAlternative(s), true
	}
	if alts, ok := cp.expanded[s]; ok {
		return alts, true
	}
	if cp.expanding[s] {
		cp.problem(s, subsetcheck.CodeNotExactlyCompilable,
			"this schema refers back to itself through $ref, anyOf or dependentSchemas without entering a property or item, "+
				"next to other keywords; move those keywords into the referenced schema")
		return nil, false
	}
	put(&cp.expanding, s, true)
	defer delete(cp.expanding, s)
	if cp.complemented[s] {
		cp.pruning++
		defer func() { cp.pruning-- }()
	}

	alts := []alternative{{plain: own(s)}}
	if s.Ref != nil {
		var ok bool
		if alts, ok = cp.cross(alts, []alternative{{opaque: s.Ref}}); !ok {
			return nil, false
		}
	}
	if s.AnyOf != nil {
		var branches []alternative
		for _, b := range s.AnyOf {
			if !b.False {
				branches = append(branches, alternative{opaque: b})
			}
		}
		var ok bool
		if alts, ok = cp.cross(alts, branches); !ok {
			return nil, false
		}
	}
	if !noCombinators(s) {
		var ok bool
		if alts, ok = cp.combinators(s, alts); !ok {
			return nil, false
		}
	}
	if s.Dependencies != nil {
		var ok bool
		if alts, ok = cp.dependencyCases(s, alts); !ok {
			return nil, false
		}
	}
	put(&cp.expanded, s, alts)
	return alts, true
}

// cross is the pairwise meet of two unions, in order.
func (cp *compiler) cross(as, bs []alternative) ([]alternative, bool) {
	return cp.crossing(as, bs, false)
}

// crossing is cross; with prune, or inside a complement, meets whose
// keywords evidently admit no value are left out before they count
// against Options.MaxAlternatives: complements cross many parts that
// contradict (not.go). (Elsewhere they are kept, to be found empty when
// compiled, as grammars have always been built.)
func (cp *compiler) crossing(as, bs []alternative, prune bool) ([]alternative, bool) {
	prune = prune || cp.pruning > 0
	var out []alternative
	for _, a := range as {
		for _, b := range bs {
			m, ok := cp.meetAlt(a, b, prune)
			if !ok {
				return nil, false
			}
			for _, x := range m {
				if !prune || x.plain == nil || !noValueEvident(x.plain) {
					out = append(out, x)
				}
			}
			if len(out) > cp.maxAlts {
				s := a.plain
				if s == nil {
					s = a.opaque
				}
				cp.problem(s, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
					"combining this schema's keywords with its $ref and the branches of anyOf, allOf, oneOf, not and if/then/else gives more than %d alternatives (-max-alternatives, Options.MaxAlternatives); "+
						"move the sibling keywords into the branches, simplify the nesting, or raise the limit", cp.maxAlts))
				return nil, false
			}
		}
	}
	return out, true
}

func (cp *compiler) meetAlt(a, b alternative, prune bool) ([]alternative, bool) {
	switch {
	case a.plain != nil && isTrue(a.plain):
		return []alternative{b}, true
	case b.plain != nil && isTrue(b.plain):
		return []alternative{a}, true
	case a.opaque != nil:
		as, ok := cp.expand(a.opaque)
		if !ok {
			return nil, false
		}
		return cp.crossing(as, []alternative{b}, prune)
	case b.opaque != nil:
		bs, ok := cp.expand(b.opaque)
		if !ok {
			return nil, false
		}
		return cp.crossing([]alternative{a}, bs, prune)
	}
	m, ok := cp.meet(a.plain, b.plain)
	if !ok {
		return nil, false
	}
	if m.False {
		return nil, true
	}
	return []alternative{{plain: m}}, true
}

// countMeet counts one merged schema against Options.MaxMeets: the
// conjunctions (conjOf) and the meets of plain schemas, whose number a chain
// of combinators can make quadratic. False, with a problem at s, past it.
func (cp *compiler) countMeet(s *subsetcheck.Schema) bool {
	*cp.nMeets++
	if *cp.nMeets <= cp.maxMeets {
		return true
	}
	cp.problem(s, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
		"combining this schema with $ref targets and the branches of anyOf, allOf, oneOf, not and if/then/else needs more than %d merged schemas (-max-meets, Options.MaxMeets); "+
			"move sibling keywords into every branch, simplify the nesting, or raise the limit", cp.maxMeets))
	return false
}

// meet is the exact intersection of two plain schemas. Subschemas met by
// name or position become conjunction schemas (conj), compiled lazily.
func (cp *compiler) meet(a, b *subsetcheck.Schema) (*subsetcheck.Schema, bool) {
	if !cp.countMeet(a) {
		return nil, false
	}
	if a.False || b.False {
		return &subsetcheck.Schema{Pointer: a.Pointer, Node: a.Node, False: true}, true
	}
	m := &subsetcheck.Schema{Pointer: a.Pointer, Node: a.Node, Types: a.Types & b.Types}
	switch {
	case a.Enum != nil && b.Enum != nil:
		m.Enum = []*subsetcheck.Value{}
		for _, x := range a.Enum {
			for _, y := range b.Enum {
				if equal(x, y) {
					m.Enum = append(m.Enum, x)
					break
				}
			}
		}
	case a.Enum != nil:
		m.Enum = a.Enum
	case b.Enum != nil:
		m.Enum = b.Enum
	}

	// Objects: a name declared on one side meets the other side's schema for
	// it, which is additionalProperties when undeclared there (with
	// patternProperties: memberSchema).
	var ok bool
	for _, p := range a.Properties {
		other := b.AdditionalProperties
		if hasNameRules(b) {
			if other, ok = cp.memberSchema(b, p.Name); !ok {
				return nil, false
			}
		} else if declared(b, p.Name) {
			other = property(b, p.Name) // nil: any value
		}
		var s *subsetcheck.Schema
		if s, ok = cp.conj(p.Schema, other); !ok {
			return nil, false
		}
		m.Properties = append(m.Properties, subsetcheck.Property{Name: p.Name, Schema: s})
	}
	for _, p := range b.Properties {
		if declared(a, p.Name) {
			continue
		}
		other := a.AdditionalProperties
		if hasNameRules(a) {
			if other, ok = cp.memberSchema(a, p.Name); !ok {
				return nil, false
			}
		}
		var s *subsetcheck.Schema
		if s, ok = cp.conj(other, p.Schema); !ok {
			return nil, false
		}
		m.Properties = append(m.Properties, subsetcheck.Property{Name: p.Name, Schema: s})
	}
	m.Required = append(append([]string(nil), a.Required...), b.Required...)
	m.Required = dedupe(m.Required)
	if m.AdditionalProperties, ok = cp.conj(a.AdditionalProperties, b.AdditionalProperties); !ok {
		return nil, false
	}
	if hasNameRules(a) || hasNameRules(b) {
		if m.PatternProperties, ok = cp.meetPatternProperties(a, b); !ok {
			return nil, false
		}
		if m.PropertyNames, ok = cp.conj(a.PropertyNames, b.PropertyNames); !ok {
			return nil, false
		}
	}

	// Arrays: position by position, then the rest.
	n := max(len(a.PrefixItems), len(b.PrefixItems))
	for i := 0; i < n; i++ {
		var s *subsetcheck.Schema
		if s, ok = cp.conj(itemSchema(a, i), itemSchema(b, i)); !ok {
			return nil, false
		}
		if s == nil {
			s = &subsetcheck.Schema{Pointer: a.Pointer, Node: a.Node, Types: subsetcheck.AllTypes, MaxItems: -1, MaxLength: -1}
		}
		m.PrefixItems = append(m.PrefixItems, s)
	}
	if m.Items, ok = cp.conj(a.Items, b.Items); !ok {
		return nil, false
	}
	m.MinItems = max(a.MinItems, b.MinItems)
	m.MaxItems = minLimit(a.MaxItems, b.MaxItems)
	m.MinLength = max(a.MinLength, b.MinLength)
	m.MaxLength = minLimit(a.MaxLength, b.MaxLength)
	m.Patterns = unionPatterns(a.Patterns, b.Patterns)
	m.Format = cmp.Or(a.Format, b.Format)
	if a.Format != "" && b.Format != "" && a.Format != b.Format {
		m.Types &^= subsetcheck.TString // no string has two of the asserted formats
	}
	m.Lower = tighter(a.Lower, b.Lower, 1)
	m.Upper = tighter(a.Upper, b.Upper, -1)
	if !cp.meetCounts(m, a, b) {
		return nil, false
	}
	m.Except = exceptBoth(a.Except, b.Except)
	meetSomeMember(m, a, b)
	cp.noteMeet(m, a, b)
	return m, true
}

// unionPatterns is both lists of patterns, each once: a string must match
// every one.
func unionPatterns(a, b []*subsetcheck.Pattern) []*subsetcheck.Pattern {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := slices.Clone(a)
	for _, p := range b {
		if !slices.ContainsFunc(out, func(q *subsetcheck.Pattern) bool { return q.Source == p.Source }) {
			out = append(out, p)
		}
	}
	return out
}

func property(s *subsetcheck.Schema, name string) *subsetcheck.Schema {
	for _, p := range s.Properties {
		if p.Name == name {
			return p.Schema
		}
	}
	return nil
}

func dedupe(names []string) []string {
	seen := map[string]bool{}
	out := names[:0]
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// minLimit is the smaller of two maximums where negative means none.
func minLimit(a, b int) int {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	return min(a, b)
}

// tighter picks the stricter of two bounds: the larger lower bound (dir 1)
// or the smaller upper bound (dir -1); exclusive wins a tie.
func tighter(a, b *subsetcheck.Bound, dir int) *subsetcheck.Bound {
	if a == nil || a.Value == nil {
		return b
	}
	if b == nil || b.Value == nil {
		return a
	}
	switch c := a.Value.Cmp(b.Value) * dir; {
	case c > 0:
		return a
	case c < 0:
		return b
	}
	return &subsetcheck.Bound{Value: new(big.Rat).Set(a.Value), Exclusive: a.Exclusive || b.Exclusive}
}

// conj is a schema accepting what both x and y accept (nil: any value),
// written with existing fields ($ref first part, anyOf [the rest]) so that
// it compiles and validates like any other. A conjunction is kept as the set
// of its parts, one schema per set: the meet of a conjunction with one of
// its parts is itself, so meets of recursive schemas stay finite.
func (cp *compiler) conj(x, y *subsetcheck.Schema) (*subsetcheck.Schema, bool) {
	x, y = target(x), target(y)
	switch {
	case isTrue(x) || y != nil && y.False:
		return y, true
	case isTrue(y) || x == y || x.False:
		return x, true
	}
	parts := append([]*subsetcheck.Schema(nil), cp.partsOf(x)...)
	for _, p := range cp.partsOf(y) {
		if !slices.Contains(parts, p) {
			parts = append(parts, p)
		}
	}
	return cp.conjOf(parts)
}

// partsOf is the set of schemas a conjunction was made of; s alone otherwise.
func (cp *compiler) partsOf(s *subsetcheck.Schema) []*subsetcheck.Schema {
	if p, ok := cp.parts[s]; ok {
		return p
	}
	return []*subsetcheck.Schema{s}
}

// conjOf is the one schema for the conjunction of parts (two or more).
func (cp *compiler) conjOf(parts []*subsetcheck.Schema) (*subsetcheck.Schema, bool) {
	if len(parts) == 1 {
		return parts[0], true
	}
	key := cp.setKey(parts)
	if s, ok := cp.meets[key]; ok {
		return s, true
	}
	if !cp.countMeet(parts[0]) {
		return nil, false
	}
	rest, ok := cp.conjOf(parts[1:])
	if !ok {
		return nil, false
	}
	x := parts[0]
	s := &subsetcheck.Schema{Pointer: x.Pointer, Node: x.Node, Types: subsetcheck.AllTypes, MaxItems: -1, MaxLength: -1,
		Ref: x, AnyOf: []*subsetcheck.Schema{rest}}
	put(&cp.meets, key, s)
	put(&cp.parts, s, parts)
	return s, true
}

// setKey names a set of schemas independently of order, by the number each
// schema got when first seen (deterministic, unlike addresses).
func (cp *compiler) setKey(parts []*subsetcheck.Schema) string {
	ids := make([]int, len(parts))
	for i, p := range parts {
		id, ok := cp.ids[p]
		if !ok {
			id = len(cp.ids)
			put(&cp.ids, p, id)
		}
		ids[i] = id
	}
	slices.Sort(ids)
	var b strings.Builder
	for _, id := range ids {
		b.WriteString(strconv.Itoa(id))
		b.WriteByte(',')
	}
	return b.String()
}

// exceptBoth is the values either list excludes, each once.
func exceptBoth(a, b []*subsetcheck.Value) []*subsetcheck.Value {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := slices.Clip(a) // appends copy: a stays as it is
	seen := make(map[string]bool, len(a)+len(b))
	for _, v := range a {
		seen[subsetcheck.CanonicalKey(v)] = true
	}
	for _, v := range b {
		if k := subsetcheck.CanonicalKey(v); !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	return out
}

package compile

import (
	"errors"
	"fmt"
	"slices"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// not: the complement of a schema, built inside the compiler's algebra. A
// schema's language is the union of its alternatives (expand.go), so its
// complement is the meet of the alternatives' complements; a plain
// alternative is a conjunction of keywords, each constraining one type, so
// its complement is the union of: the types it does not allow, and per
// allowed type, the values of that type breaking one keyword. Each such
// part is a plain schema again; where it needs the complement of a
// subschema (a property's, an item's), that is the schema {"not": sub},
// compiled lazily as a rule of its own (negation), so recursive schemas
// stay finite. Keywords whose complement no plain schema can state are
// refused with the reason (noComplement).

// noComplement says why the complement of a schema cannot be built.
type noComplement struct {
	at  *subsetcheck.Schema // the schema whose keyword has no complement
	why string
}

func (e *noComplement) Error() string { return e.why }

// errReported is complement's error when a problem was reported already
// (by expand).
var errReported = errors.New("compile: problem reported")

// complement returns alternatives whose union is every value s rejects
// (nil s: any value, whose complement is empty). Its error is a
// *noComplement, or errReported.
func (cp *compiler) complement(s *subsetcheck.Schema) ([]alternative, error) {
	s = target(s)
	switch {
	case isTrue(s):
		return nil, nil
	case s.False:
		return []alternative{{plain: trueSchema(s)}}, nil
	case onlyNot(s):
		return []alternative{{opaque: s.Not}}, nil // not not X is X
	}
	if cp.proofs != nil {
		cp.proofs.complement++ // see oneof.go
	}
	alts, ok := cp.expand(s)
	if !ok {
		return nil, errReported
	}
	out := []alternative{{plain: trueSchema(s)}}
	for _, a := range alts {
		var c []alternative
		if a.opaque != nil {
			c = []alternative{{opaque: cp.negation(a.opaque)}}
		} else {
			var why string
			if c, why = cp.complementPlain(a.plain); why != "" {
				return nil, &noComplement{at: a.plain, why: why + cp.meetNote(a.plain)}
			}
		}
		if out, ok = cp.crossing(out, c, true); !ok {
			return nil, errReported
		}
	}
	return out, nil
}

// noValueEvident says whether plain schema p admits no value by its own
// keywords, as a cheap look tells: false, no type, an empty enum, or its
// one type's bounds contradict (a required member that must not be
// there, lengths, counts or a range that admit nothing).
func noValueEvident(p *subsetcheck.Schema) bool {
	switch {
	case p.False || p.Types == 0 || p.Enum != nil && len(p.Enum) == 0:
		return true
	case p.Types == subsetcheck.TObject:
		for _, r := range p.Required {
			s := p.AdditionalProperties
			if declared(p, r) {
				s = property(p, r) // nil: any value
			}
			if s = target(s); s != nil && s.False {
				return true
			}
		}
	case p.Types == subsetcheck.TArray:
		return p.MaxItems >= 0 && p.MinItems > p.MaxItems
	case p.Types == subsetcheck.TString:
		return p.MaxLength >= 0 && p.MinLength > p.MaxLength
	case p.Types&^(subsetcheck.TNumber|subsetcheck.TInteger) == 0:
		lo, hi := p.Lower, p.Upper
		if lo == nil || hi == nil || lo.Value == nil || hi.Value == nil {
			return false
		}
		c := lo.Value.Cmp(hi.Value)
		return c > 0 || c == 0 && (lo.Exclusive || hi.Exclusive)
	}
	return false
}

// ComplementReason says why the complement of s cannot be built at its top
// level, or "" when it can: for keywords that need the values a subschema
// rejects (contains needs the items that do not match it). The
// complements of s's subschemas are built, and refused, when compiled.
func (cp *compiler) complementReason(s *subsetcheck.Schema) string {
	saved := len(cp.errs)
	_, err := cp.complement(s)
	var nc *noComplement
	switch {
	case errors.As(err, &nc):
		return nc.why
	case err != nil:
		why := "it cannot be compiled"
		if len(cp.errs) > saved {
			why = cp.errs[saved].Message
		}
		return why
	}
	return ""
}

// onlyNot says whether s is "not" alone: {"not": X}.
func onlyNot(s *subsetcheck.Schema) bool {
	return s.Not != nil && s.Ref == nil && s.AnyOf == nil && s.AllOf == nil && s.OneOf == nil && s.If == nil && unconstrained(s)
}

// negation is a schema accepting exactly the values s rejects: s's own
// negation when s is false, true or {"not": X}, else the schema {"not": s}
// (one per s, so that a recursive schema's complement refers to itself).
func (cp *compiler) negation(s *subsetcheck.Schema) *subsetcheck.Schema {
	s = target(s)
	switch {
	case s == nil:
		return &subsetcheck.Schema{False: true}
	case isTrue(s):
		return falseSchema(s)
	case s.False:
		return trueSchema(s)
	case onlyNot(s):
		return s.Not
	}
	if n, ok := cp.negations[s]; ok {
		return n
	}
	n := trueSchema(s)
	n.Not = s
	put(&cp.negations, s, n)
	put(&cp.complemented, n, true)
	return n
}

// complementPlain is the complement of a plain schema as a union of plain
// schemas, or why it cannot be built. The parts overlap at most where p's
// keywords contradict each other.
func (cp *compiler) complementPlain(p *subsetcheck.Schema) ([]alternative, string) {
	if p.False {
		return []alternative{{plain: trueSchema(p)}}, ""
	}
	if isTrue(p) {
		return nil, ""
	}
	mk := func(t subsetcheck.Type) *subsetcheck.Schema {
		s := trueSchema(p)
		s.Types = t
		return s
	}
	if p.Enum != nil {
		// p accepts exactly the members its other keywords accept:
		// its complement is every other value.
		rest := *p
		rest.Enum = nil
		var in []*subsetcheck.Value
		for _, m := range p.Enum {
			if accepts(&rest, m) {
				in = append(in, m)
			}
		}
		var scalars, compounds []*subsetcheck.Value
		for _, m := range in {
			if m.Kind == subsetcheck.Array || m.Kind == subsetcheck.Object {
				compounds = append(compounds, m)
			} else {
				scalars = append(scalars, m)
			}
		}
		s := mk(subsetcheck.AllTypes)
		s.Except = scalars
		switch {
		case len(compounds) == 0:
			return []alternative{{plain: s}}, ""
		case len(compounds) == 1 && len(scalars) == 0:
			return cp.otherThan(p, compounds[0]), "" // except.go
		}
		for _, c := range compounds { // each of them excluded too: one more conjunct each
			s.AllOf = append(s.AllOf, cp.negation(constOf(p, c)))
		}
		put(&cp.complemented, s, true)
		return []alternative{{opaque: s}}, ""
	}
	var out []alternative
	add := func(s *subsetcheck.Schema) { out = append(out, alternative{plain: s}) }
	if rest := subsetcheck.AllTypes &^ p.Types; rest != 0 {
		add(mk(rest))
	}
	if len(p.Except) > 0 {
		s := mk(subsetcheck.AllTypes)
		s.Enum = p.Except
		add(s)
	}
	if nc := p.Types & (subsetcheck.TNumber | subsetcheck.TInteger); nc != 0 {
		if b := p.Lower; b != nil && b.Value != nil {
			s := mk(nc)
			s.Upper = &subsetcheck.Bound{Value: b.Value, Exclusive: !b.Exclusive}
			add(s)
		}
		if b := p.Upper; b != nil && b.Value != nil {
			s := mk(nc)
			s.Lower = &subsetcheck.Bound{Value: b.Value, Exclusive: !b.Exclusive}
			add(s)
		}
	}
	if p.Types&subsetcheck.TString != 0 {
		switch {
		case len(p.Patterns) > 0 || p.Format != "":
			// The strings outside p's string language (its patterns,
			// lengths and format): the automaton's complement.
			s, why := cp.stringComplement(p, mk(subsetcheck.TString))
			if why != "" {
				return nil, why
			}
			add(s)
		default:
			if p.MinLength > 0 {
				s := mk(subsetcheck.TString)
				s.MaxLength = p.MinLength - 1
				add(s)
			}
			if p.MaxLength >= 0 {
				s := mk(subsetcheck.TString)
				s.MinLength = p.MaxLength + 1
				add(s)
			}
		}
	}
	if p.Types&subsetcheck.TArray != 0 {
		if p.MinItems > 0 {
			s := mk(subsetcheck.TArray)
			s.MaxItems = p.MinItems - 1
			add(s)
		}
		if p.MaxItems >= 0 {
			s := mk(subsetcheck.TArray)
			s.MinItems = p.MaxItems + 1
			add(s)
		}
		// The first item that breaks its schema is at i: at least i+1
		// items, those before i in their schemas, item i in the negation.
		// (Earlier items held to their schemas keep the parts disjoint, so
		// llama.cpp follows one part of an array, not several.)
		at := func(i int, item *subsetcheck.Schema) *subsetcheck.Schema {
			s := mk(subsetcheck.TArray)
			s.MinItems = i + 1
			for j := range i {
				if is := itemSchema(p, j); is != nil {
					s.PrefixItems = append(s.PrefixItems, is)
				} else {
					s.PrefixItems = append(s.PrefixItems, trueSchema(p))
				}
			}
			s.PrefixItems = append(s.PrefixItems, cp.negation(item))
			return s
		}
		for i, it := range p.PrefixItems {
			if !isTrue(target(it)) {
				add(at(i, it))
			}
		}
		if it := target(p.Items); !isTrue(it) {
			// Some later item breaks items: positions up to maxItems one
			// by one (the arrays longer than that are a part already);
			// with no maximum and no positional items, contains of its
			// negation; after positional ones, contains would count them
			// too.
			k := len(p.PrefixItems)
			switch {
			case p.MaxItems < 0 && k == 0 && p.Contains == nil:
				// Some item breaks items: contains its negation (items.go).
				s := mk(subsetcheck.TArray)
				s.Contains, s.MinContains = cp.negation(it), 1
				add(s)
			case p.MaxItems < 0:
				return nil, "an array with some item past the positional ones that breaks items needs contains"
			case p.MaxItems-k > cp.maxAlts:
				return nil, fmt.Sprintf("an array with some item that breaks items takes one alternative per position up to maxItems %d, more than %d (Options.MaxAlternatives)", p.MaxItems, cp.maxAlts)
			}
			for i := k; i < p.MaxItems; i++ {
				s := at(i, it)
				s.MaxItems = p.MaxItems
				add(s)
			}
		}
	}
	if p.Types&subsetcheck.TObject != 0 {
		switch {
		case len(p.PatternProperties) > 0:
			return nil, "an object with some member whose name matches a patternProperties pattern and whose value breaks its schema has no grammar here"
		case p.PropertyNames != nil:
			return nil, "an object with some member name that propertyNames rejects has no grammar here"
		}
		// The parts are disjoint, as for items: the first required name
		// missing, or, all present, the first property whose value breaks
		// its schema.
		for i, r := range p.Required { // the objects with the names before r, without r
			s := mk(subsetcheck.TObject)
			s.Required = p.Required[:i:i]
			s.Properties = []subsetcheck.Property{{Name: r, Schema: falseSchema(p)}}
			add(s)
		}
		var held []subsetcheck.Property // the properties before, in their schemas
		for _, pr := range p.Properties {
			if isTrue(target(pr.Schema)) {
				continue
			}
			s := mk(subsetcheck.TObject)
			s.Required = append(slices.Clip(p.Required), pr.Name)
			s.Properties = append(slices.Clip(held), subsetcheck.Property{Name: pr.Name, Schema: cp.negation(pr.Schema)})
			add(s)
			held = append(held, pr)
		}
		if ap := target(p.AdditionalProperties); !isTrue(ap) {
			// All of those held, some member that properties does not
			// declare breaks additionalProperties (somemember.go). The part
			// declares every name the negated properties do, so that its
			// meets do too, and only members outside them are extras.
			s := mk(subsetcheck.TObject)
			s.Required = slices.Clip(p.Required)
			s.Properties = slices.Clip(p.Properties)
			s.SomeMember = []subsetcheck.SomeMember{{Schema: cp.negation(ap), Names: propertyNames(p)}}
			add(s)
		}
		for _, r := range p.SomeMember {
			// No member outside r.Names has a value r.Schema accepts.
			s := mk(subsetcheck.TObject)
			for _, n := range r.Names {
				s.Properties = append(s.Properties, subsetcheck.Property{Name: n})
			}
			s.AdditionalProperties = cp.negation(r.Schema)
			add(s)
		}
	}
	// The counting keywords (countnot.go): left out, not would drop them.
	parts, why := countsComplement(p, mk, cp.negation)
	if why != "" {
		return nil, why
	}
	for _, s := range parts {
		if s.Ref != nil {
			out = append(out, alternative{opaque: s})
		} else {
			add(s)
		}
	}
	return out, ""
}

// clip shortens s to about n bytes for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && s[cut]&0xC0 == 0x80 { // not inside a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…"
}

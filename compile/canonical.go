package compile

import (
	"fmt"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// The canonical serialization (DESIGN.md §2): compact; an object's declared
// members first in the schema's order (required names the schema does not
// declare next, in "required" order, then the names its dependencies
// bring in, dependencyNames), then extra members in the value's order; a
// value matched by enum/const written as that member is; strings with
// minimal escapes; numbers in plain decimal. Under anyOf, the first
// alternative that accepts the value decides. It walks the same
// alternatives as the compiler, so the grammar always has this text.

func (cp *compiler) canonical(s *subsetcheck.Schema, v *subsetcheck.Value) (string, error) {
	if !accepts(s, v) {
		return "", fmt.Errorf("compile.Canonical: the schema does not accept the value")
	}
	var b strings.Builder
	if err := cp.write(&b, s, v, 0); err != nil {
		return "", err
	}
	return b.String(), nil
}

// write writes v, which s accepts, under s (nil: any value).
func (cp *compiler) write(b *strings.Builder, s *subsetcheck.Schema, v *subsetcheck.Value, depth int) error {
	if depth > MaxValueDepth {
		return fmt.Errorf("compile.Canonical: value or schema nested deeper than %d (MaxValueDepth)", MaxValueDepth)
	}
	s = target(s)
	if isTrue(s) {
		return writePlain(b, v)
	}
	alts, ok := cp.expand(s)
	if !ok {
		return cp.errs.Err()
	}
	for _, a := range alts {
		if a.opaque != nil {
			if accepts(a.opaque, v) {
				return cp.write(b, a.opaque, v, depth+1)
			}
			continue
		}
		if accepts(a.plain, v) {
			return cp.writeUnder(b, a.plain, v, depth)
		}
	}
	return fmt.Errorf("compile.Canonical: no alternative of %q accepts the value", s.Pointer)
}

// writeUnder writes v under a plain schema that accepts it.
func (cp *compiler) writeUnder(b *strings.Builder, p *subsetcheck.Schema, v *subsetcheck.Value, depth int) error {
	if p.Enum != nil {
		for _, m := range p.Enum {
			if equal(m, v) {
				return writePlain(b, m)
			}
		}
	}
	switch v.Kind {
	case subsetcheck.Object:
		p, ok := cp.fold(p) // the members as objectExpr writes them (names.go)
		if !ok {
			return cp.errs.Err()
		}
		b.WriteByte('{')
		n := 0
		member := func(name string, s *subsetcheck.Schema, mv *subsetcheck.Value) error {
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			quote(b, name)
			b.WriteByte(':')
			return cp.write(b, s, mv, depth+1)
		}
		for _, pr := range p.Properties {
			if mv := v.Get(pr.Name); mv != nil {
				if err := member(pr.Name, pr.Schema, mv); err != nil {
					return err
				}
			}
		}
		for _, r := range p.Required {
			if !declared(p, r) {
				if err := member(r, p.AdditionalProperties, v.Get(r)); err != nil {
					return err
				}
			}
		}
		depNames := dependencyNames(p) // members placed for dependencies, as objectExpr does
		for _, n := range depNames {
			if mv := v.Get(n); mv != nil {
				if err := member(n, p.AdditionalProperties, mv); err != nil {
					return err
				}
			}
		}
		for _, m := range v.Members {
			if !declared(p, m.Name) && !contains(p.Required, m.Name) && !contains(depNames, m.Name) {
				s, ok := cp.memberSchema(p, m.Name)
				if !ok {
					return cp.errs.Err()
				}
				if err := member(m.Name, s, m.Value); err != nil {
					return err
				}
			}
		}
		b.WriteByte('}')
		return nil
	case subsetcheck.Array:
		b.WriteByte('[')
		for i, it := range v.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			s, err := cp.canonicalItem(p, i, it)
			if err != nil {
				return err
			}
			if err := cp.write(b, s, it, depth+1); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	}
	return writePlain(b, v)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// writePlain writes v canonically with members in the value's own order.
func writePlain(b *strings.Builder, v *subsetcheck.Value) error {
	switch v.Kind {
	case subsetcheck.Null:
		b.WriteString("null")
	case subsetcheck.Bool:
		if v.Bool {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case subsetcheck.Number:
		d, ok := parseDecimal(v.Num)
		if !ok {
			return fmt.Errorf("compile.Canonical: number %.40q: %w", v.Num, ErrBeyondExponent)
		}
		b.WriteString(d.text())
	case subsetcheck.String:
		quote(b, v.Str)
	case subsetcheck.Array:
		b.WriteByte('[')
		for i, it := range v.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writePlain(b, it); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case subsetcheck.Object:
		b.WriteByte('{')
		for i, m := range v.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			quote(b, m.Name)
			b.WriteByte(':')
			if err := writePlain(b, m.Value); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	}
	return nil
}

// plainText is writePlain to a string, for enum literals (the checker has
// already refused numbers too large to write).
func plainText(v *subsetcheck.Value) string {
	var b strings.Builder
	if err := writePlain(&b, v); err != nil {
		return v.Num
	}
	return b.String()
}

// canonicalItem is the schema item i of p's arrays is written under, as
// containsArray writes it (splitItems): an item that matches contains
// under its schema and contains, another under its schema and the
// negation of contains, whose declared members may come first.
func (cp *compiler) canonicalItem(p *subsetcheck.Schema, i int, it *subsetcheck.Value) (*subsetcheck.Schema, error) {
	s := itemSchema(p, i)
	if p.Contains == nil || p.MinContains == 0 && p.MaxContains == nil {
		return s, nil // arrayExpr, contains left out
	}
	c := target(p.Contains)
	if isTrue(c) || c.False {
		return s, nil
	}
	if _, ok := cp.finiteValues(s, maxListedItems, 0); ok {
		return s, nil // the items are listed, in their plain texts
	}
	var ok bool
	if accepts(c, it) {
		s, ok = cp.conj(s, c)
	} else {
		s, ok = cp.conj(s, cp.negation(c))
	}
	if !ok {
		return nil, cp.errs.Err()
	}
	return s, nil
}

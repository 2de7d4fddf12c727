package compile

import (
	"math/big"
	"strings"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// A small validator for the checked subset. Canonical needs it (anyOf is
// serialized under the first branch that accepts the value, enum members are
// filtered by the rest of the schema), and it must agree with a JSON Schema
// validator on every value the subset can express.

// decimal is a number's exact value: ±digits × 10^exp, digits free of
// leading and trailing zeros ("" for zero), so that equal numbers are equal
// structs (1 == 1.0 == 1e0).
type decimal struct {
	neg    bool
	digits string
	exp    int
}

// parseDecimal reads a JSON number's text. ok is false for text that is not
// a JSON number or whose exponent is beyond MaxExponent.
func parseDecimal(num string) (d decimal, ok bool) {
	s := num
	if strings.HasPrefix(s, "-") {
		d.neg = true
		s = s[1:]
	}
	mant, exp := s, 0
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant = s[:i]
		e := s[i+1:]
		eneg := false
		if e != "" && (e[0] == '+' || e[0] == '-') {
			eneg = e[0] == '-'
			e = e[1:]
		}
		if e == "" {
			return d, false
		}
		for _, c := range e {
			if c < '0' || c > '9' {
				return d, false
			}
			exp = exp*10 + int(c-'0')
			if exp > 10*MaxExponent {
				return d, false
			}
		}
		if eneg {
			exp = -exp
		}
	}
	intPart, frac := mant, ""
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac = mant[:i], mant[i+1:]
		if frac == "" {
			return d, false
		}
	}
	if intPart == "" {
		return d, false
	}
	for _, c := range intPart + frac {
		if c < '0' || c > '9' {
			return d, false
		}
	}
	digits := strings.TrimLeft(intPart+frac, "0")
	exp -= len(frac)
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed)
	d.digits = trimmed
	if d.digits == "" {
		d.neg, d.exp = false, 0
		return d, true
	}
	d.exp = exp
	if e := exp + len(d.digits); e > MaxExponent || e < -MaxExponent {
		return d, false
	}
	return d, true
}

func (d decimal) isInteger() bool { return d.digits == "" || d.exp >= 0 }

// text is the canonical spelling: plain decimal, no exponent, no trailing
// fraction zeros, no "-0".
func (d decimal) text() string {
	if d.digits == "" {
		return "0"
	}
	var b strings.Builder
	if d.neg {
		b.WriteByte('-')
	}
	switch point := len(d.digits) + d.exp; {
	case d.exp >= 0:
		b.WriteString(d.digits)
		b.WriteString(strings.Repeat("0", d.exp))
	case point > 0:
		b.WriteString(d.digits[:point])
		b.WriteByte('.')
		b.WriteString(d.digits[point:])
	default:
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -point))
		b.WriteString(d.digits)
	}
	return b.String()
}

func (d decimal) rat() *big.Rat {
	r, _ := new(big.Rat).SetString(d.text())
	return r
}

// equal is JSON Schema equality: numbers by value (1 == 1.0), objects
// regardless of member order.
func equal(a, b *subsetcheck.Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case subsetcheck.Null:
		return true
	case subsetcheck.Bool:
		return a.Bool == b.Bool
	case subsetcheck.Number:
		da, oka := parseDecimal(a.Num)
		db, okb := parseDecimal(b.Num)
		if !oka || !okb {
			return a.Num == b.Num
		}
		return da == db
	case subsetcheck.String:
		return a.Str == b.Str
	case subsetcheck.Array:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !equal(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	case subsetcheck.Object:
		if len(a.Members) != len(b.Members) {
			return false
		}
		for _, m := range a.Members {
			o := b.Get(m.Name)
			if o == nil || !equal(m.Value, o) {
				return false
			}
		}
		return true
	}
	return false
}

// accepts says whether schema s (nil: any value) accepts v.
func accepts(s *subsetcheck.Schema, v *subsetcheck.Value) bool {
	return acceptsDepth(s, v, 0)
}

func acceptsDepth(s *subsetcheck.Schema, v *subsetcheck.Value, depth int) bool {
	if s == nil {
		return true
	}
	if s.False || depth > MaxValueDepth {
		return false
	}
	if !acceptsType(s.Types, v) {
		return false
	}
	if s.Enum != nil {
		found := false
		for _, m := range s.Enum {
			if equal(m, v) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	switch v.Kind {
	case subsetcheck.Object:
		for _, p := range s.Properties {
			if mv := v.Get(p.Name); mv != nil && !acceptsDepth(p.Schema, mv, depth+1) {
				return false
			}
		}
		for _, r := range s.Required {
			if v.Get(r) == nil {
				return false
			}
		}
		for _, m := range v.Members {
			matched := false
			for _, pp := range s.PatternProperties {
				if pp.Pattern.Lang.Match(m.Name) {
					matched = true
					if !acceptsDepth(pp.Schema, m.Value, depth+1) {
						return false
					}
				}
			}
			if matched || declared(s, m.Name) {
				continue
			}
			if !acceptsDepth(s.AdditionalProperties, m.Value, depth+1) {
				return false
			}
		}
		if s.PropertyNames != nil {
			for _, m := range v.Members {
				if !acceptsDepth(s.PropertyNames, nameValue(m.Name), depth+1) {
					return false
				}
			}
		}
		if !acceptsCounts(s, v, depth) {
			return false
		}
	case subsetcheck.Array:
		n := len(v.Items)
		if n < s.MinItems || s.MaxItems >= 0 && n > s.MaxItems {
			return false
		}
		for i, it := range v.Items {
			if !acceptsDepth(itemSchema(s, i), it, depth+1) {
				return false
			}
		}
		if !acceptsItemCounts(s, v, depth) {
			return false
		}
	case subsetcheck.String:
		n := utf8.RuneCountInString(v.Str)
		if n < s.MinLength || s.MaxLength >= 0 && n > s.MaxLength {
			return false
		}
		if s.Format != "" && !formatValid(s.Format, v.Str) {
			return false
		}
		for _, pt := range s.Patterns {
			if !pt.Lang.Match(v.Str) {
				return false
			}
		}
	case subsetcheck.Number:
		if s.Lower != nil || s.Upper != nil || s.MultipleOf != nil {
			d, ok := parseDecimal(v.Num)
			if !ok {
				return false
			}
			r := d.rat()
			if s.MultipleOf != nil && !new(big.Rat).Quo(r, s.MultipleOf).IsInt() {
				return false
			}
			if b := s.Lower; b != nil && b.Value != nil {
				if c := r.Cmp(b.Value); c < 0 || c == 0 && b.Exclusive {
					return false
				}
			}
			if b := s.Upper; b != nil && b.Value != nil {
				if c := r.Cmp(b.Value); c > 0 || c == 0 && b.Exclusive {
					return false
				}
			}
		}
	}
	for _, x := range s.Except {
		if equal(x, v) {
			return false
		}
	}
	if s.SomeMember != nil && v.Kind == subsetcheck.Object && !someMemberHolds(s, v, depth) {
		return false
	}
	if s.Ref != nil && !acceptsDepth(s.Ref, v, depth+1) {
		return false
	}
	if s.AnyOf != nil && !acceptsAny(s.AnyOf, v, depth) {
		return false
	}
	return noCombinators(s) || acceptsCombinators(s, v, depth)
}

// acceptsAny says whether some branch accepts v.
func acceptsAny(branches []*subsetcheck.Schema, v *subsetcheck.Value, depth int) bool {
	for _, b := range branches {
		if acceptsDepth(b, v, depth+1) {
			return true
		}
	}
	return false
}

// acceptsCombinators checks allOf, oneOf, not and if/then/else.
func acceptsCombinators(s *subsetcheck.Schema, v *subsetcheck.Value, depth int) bool {
	for _, b := range s.AllOf {
		if !acceptsDepth(b, v, depth+1) {
			return false
		}
	}
	if s.OneOf != nil {
		n := 0
		for _, b := range s.OneOf {
			if acceptsDepth(b, v, depth+1) {
				n++
			}
		}
		if n != 1 {
			return false
		}
	}
	if s.Not != nil && acceptsDepth(s.Not, v, depth+1) {
		return false
	}
	if s.If != nil {
		branch := s.Else
		if acceptsDepth(s.If, v, depth+1) {
			branch = s.Then
		}
		return acceptsDepth(branch, v, depth+1)
	}
	return true
}

func acceptsType(t subsetcheck.Type, v *subsetcheck.Value) bool {
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
		const number = subsetcheck.TNumber | subsetcheck.TInteger
		switch t & number {
		case number:
			return true
		case 0:
			return false
		}
		d, ok := parseDecimal(v.Num)
		if !ok {
			return false
		}
		if d.isInteger() {
			return t&subsetcheck.TInteger != 0
		}
		return t&subsetcheck.TNumber != 0
	}
	return false
}

// nameValue is a member name as the string value propertyNames judges.
func nameValue(name string) *subsetcheck.Value {
	return &subsetcheck.Value{Kind: subsetcheck.String, Str: name}
}

func declared(s *subsetcheck.Schema, name string) bool {
	for _, p := range s.Properties {
		if p.Name == name {
			return true
		}
	}
	return false
}

// itemSchema is the schema of the i-th item: positional, then Items (nil:
// any value).
func itemSchema(s *subsetcheck.Schema, i int) *subsetcheck.Schema {
	if i < len(s.PrefixItems) {
		return s.PrefixItems[i]
	}
	return s.Items
}

// acceptsCounts checks an object's member counts and dependencies.
func acceptsCounts(s *subsetcheck.Schema, v *subsetcheck.Value, depth int) bool {
	n := len(v.Members)
	if n < s.MinProperties || s.MaxProperties != nil && n > *s.MaxProperties {
		return false
	}
	for _, d := range s.Dependencies {
		if v.Get(d.Name) == nil {
			continue
		}
		for _, r := range d.Required {
			if v.Get(r) == nil {
				return false
			}
		}
		if d.Schema != nil && !acceptsDepth(d.Schema, v, depth+1) {
			return false
		}
	}
	return true
}

// acceptsItemCounts checks uniqueItems and the contains counts.
func acceptsItemCounts(s *subsetcheck.Schema, v *subsetcheck.Value, depth int) bool {
	if s.UniqueItems {
		for i := range v.Items {
			for j := range i {
				if equal(v.Items[i], v.Items[j]) {
					return false
				}
			}
		}
	}
	if s.Contains != nil {
		n := 0
		for _, it := range v.Items {
			if acceptsDepth(s.Contains, it, depth+1) {
				n++
			}
		}
		if n < s.MinContains || s.MaxContains != nil && n > *s.MaxContains {
			return false
		}
	}
	return true
}

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
			if declared(s, m.Name) {
				continue
			}
			if !acceptsDepth(s.AdditionalProperties, m.Value, depth+1) {
				return false
			}
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
		if s.Lower != nil || s.Upper != nil {
			d, ok := parseDecimal(v.Num)
			if !ok {
				return false
			}
			r := d.rat()
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
	if s.Ref != nil && !acceptsDepth(s.Ref, v, depth+1) {
		return false
	}
	if s.AnyOf != nil {
		for _, b := range s.AnyOf {
			if acceptsDepth(b, v, depth+1) {
				return true
			}
		}
		return false
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
		if t&subsetcheck.TNumber != 0 {
			return true
		}
		if t&subsetcheck.TInteger != 0 {
			d, ok := parseDecimal(v.Num)
			return ok && d.isInteger()
		}
	}
	return false
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

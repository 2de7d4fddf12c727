package equiv

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Value constructors. Generated values are shared between candidates, so
// nothing here mutates a value in place: edits copy along their path.

func vNull() *subsetcheck.Value { return &subsetcheck.Value{Kind: subsetcheck.Null} }
func vBool(b bool) *subsetcheck.Value {
	return &subsetcheck.Value{Kind: subsetcheck.Bool, Bool: b}
}
func vNum(text string) *subsetcheck.Value {
	return &subsetcheck.Value{Kind: subsetcheck.Number, Num: text}
}
func vStr(s string) *subsetcheck.Value {
	return &subsetcheck.Value{Kind: subsetcheck.String, Str: s}
}
func vArr(items ...*subsetcheck.Value) *subsetcheck.Value {
	return &subsetcheck.Value{Kind: subsetcheck.Array, Items: items}
}
func vObj(members ...subsetcheck.Member) *subsetcheck.Value {
	return &subsetcheck.Value{Kind: subsetcheck.Object, Members: members}
}
func member(name string, v *subsetcheck.Value) subsetcheck.Member {
	return subsetcheck.Member{Name: name, Value: v}
}

// withMember returns a copy of obj with name set to v: replaced in place
// when present, appended otherwise.
func withMember(obj *subsetcheck.Value, name string, v *subsetcheck.Value) *subsetcheck.Value {
	ms := make([]subsetcheck.Member, 0, len(obj.Members)+1)
	done := false
	for _, m := range obj.Members {
		if m.Name == name {
			m.Value = v
			done = true
		}
		ms = append(ms, m)
	}
	if !done {
		ms = append(ms, member(name, v))
	}
	return vObj(ms...)
}

// withoutMember returns a copy of obj without the member called name.
func withoutMember(obj *subsetcheck.Value, name string) *subsetcheck.Value {
	ms := make([]subsetcheck.Member, 0, len(obj.Members))
	for _, m := range obj.Members {
		if m.Name != name {
			ms = append(ms, m)
		}
	}
	return vObj(ms...)
}

// withItem returns a copy of arr with item i replaced by v.
func withItem(arr *subsetcheck.Value, i int, v *subsetcheck.Value) *subsetcheck.Value {
	items := append([]*subsetcheck.Value(nil), arr.Items...)
	items[i] = v
	return vArr(items...)
}

// numRat parses a JSON number's text exactly. Texts with huge exponents are
// refused (ok false) rather than expanded.
func numRat(text string) (*big.Rat, bool) {
	if i := strings.IndexAny(text, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(text[i+1:], "+"))
		if err != nil || e > 4000 || e < -4000 {
			return nil, false
		}
	}
	r, ok := new(big.Rat).SetString(text)
	return r, ok
}

// decimalText spells r as a JSON number when its decimal expansion is finite
// (and short enough); ok is false otherwise.
func decimalText(r *big.Rat) (string, bool) {
	if r.IsInt() {
		return r.Num().String(), true
	}
	for scale := 1; scale <= 60; scale++ {
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
		if new(big.Int).Mod(p, r.Denom()).Sign() == 0 {
			return r.FloatString(scale), true
		}
	}
	return "", false
}

// decimalScale is the number of decimal places r needs (0 for integers, at
// most 60; 60 also for non-decimal fractions).
func decimalScale(r *big.Rat) int {
	for scale := 0; scale < 60; scale++ {
		p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil)
		if new(big.Int).Mod(p, r.Denom()).Sign() == 0 {
			return scale
		}
	}
	return 60
}

// Equal is JSON equality, as enum and const judge it: numbers by value
// (1 == 1.0), objects regardless of member order.
func Equal(a, b *subsetcheck.Value) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case subsetcheck.Null:
		return true
	case subsetcheck.Bool:
		return a.Bool == b.Bool
	case subsetcheck.Number:
		if a.Num == b.Num {
			return true
		}
		x, ok1 := numRat(a.Num)
		y, ok2 := numRat(b.Num)
		return ok1 && ok2 && x.Cmp(y) == 0
	case subsetcheck.String:
		return a.Str == b.Str
	case subsetcheck.Array:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !Equal(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	case subsetcheck.Object:
		if len(a.Members) != len(b.Members) {
			return false
		}
		for _, m := range a.Members {
			w := b.Get(m.Name)
			if w == nil || !Equal(m.Value, w) {
				return false
			}
		}
		return true
	}
	return false
}

// Spelling says how Text writes a value. Every spelling is valid JSON for
// the same value; only Compact is close to the canonical form.
type Spelling struct {
	Spaced   bool // ", " and ": " between parts, newlines inside objects
	Reversed bool // object members in reverse order
	Escaped  bool // every non-ASCII code point and "/" written as an escape
	// EscapedNames writes every character of member names as \uXXXX: a
	// grammar that keeps extra members away from declared names must do
	// so for every spelling of the name, not just the literal one.
	EscapedNames bool
	// EscapedStrings does the same for every string value: "\u0061" is
	// one code point however many bytes spell it.
	EscapedStrings bool
}

// Spellings are the ways each invalid value is written: a grammar must
// reject the value in all of them.
var Spellings = []Spelling{{}, {Spaced: true}, {Reversed: true}, {Escaped: true}, {Spaced: true, Reversed: true}, {EscapedNames: true}, {EscapedStrings: true}}

// Compact writes v as compact JSON in member order with minimal escapes.
func Compact(v *subsetcheck.Value) string { return Text(v, Spelling{}) }

// Text writes v in the given spelling.
func Text(v *subsetcheck.Value, sp Spelling) string {
	var b strings.Builder
	writeValue(&b, v, sp, 0)
	return b.String()
}

func writeValue(b *strings.Builder, v *subsetcheck.Value, sp Spelling, indent int) {
	switch v.Kind {
	case subsetcheck.Null:
		b.WriteString("null")
	case subsetcheck.Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case subsetcheck.Number:
		b.WriteString(v.Num)
	case subsetcheck.String:
		if sp.EscapedStrings {
			writeAllEscaped(b, v.Str)
		} else {
			writeString(b, v.Str, sp.Escaped)
		}
	case subsetcheck.Array:
		b.WriteByte('[')
		for i, it := range v.Items {
			if i > 0 {
				b.WriteByte(',')
				if sp.Spaced {
					b.WriteByte(' ')
				}
			}
			writeValue(b, it, sp, indent+1)
		}
		b.WriteByte(']')
	case subsetcheck.Object:
		b.WriteByte('{')
		n := len(v.Members)
		for i := range n {
			m := v.Members[i]
			if sp.Reversed {
				m = v.Members[n-1-i]
			}
			if i > 0 {
				b.WriteByte(',')
			}
			if sp.Spaced {
				b.WriteString("\n" + strings.Repeat("  ", min(indent+1, 10)))
			}
			if sp.EscapedNames {
				writeAllEscaped(b, m.Name)
			} else {
				writeString(b, m.Name, sp.Escaped)
			}
			b.WriteByte(':')
			if sp.Spaced {
				b.WriteByte(' ')
			}
			writeValue(b, m.Value, sp, indent+1)
		}
		if sp.Spaced && n > 0 {
			b.WriteString("\n" + strings.Repeat("  ", min(indent, 10)))
		}
		b.WriteByte('}')
	}
}

// writeString quotes s. Minimal escaping writes only '"', '\\' and control
// characters as escapes; escaped spelling also escapes "/" and every
// non-ASCII code point (astral ones as surrogate pairs).
func writeString(b *strings.Builder, s string, escaped bool) {
	const hex = "0123456789abcdef"
	u4 := func(c rune) {
		b.WriteString(`\u`)
		b.WriteByte(hex[c>>12&15])
		b.WriteByte(hex[c>>8&15])
		b.WriteByte(hex[c>>4&15])
		b.WriteByte(hex[c&15])
	}
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c < 0x20:
			u4(c)
		case escaped && c == '/':
			b.WriteString(`\/`)
		case escaped && c > 0x7f && c <= 0xffff:
			u4(c)
		case escaped && c > 0xffff:
			c -= 0x10000
			u4(0xd800 + c>>10)
			u4(0xdc00 + c&0x3ff)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
}

// runeLen is a string's length as JSON Schema counts it: in code points.
func runeLen(s string) int { return utf8.RuneCountInString(s) }

// writeAllEscaped quotes s with every code point as a \u escape.
func writeAllEscaped(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, c := range s {
		if c > 0xffff {
			c -= 0x10000
			fmt.Fprintf(b, `\u%04x\u%04x`, 0xd800+c>>10, 0xdc00+c&0x3ff)
			continue
		}
		fmt.Fprintf(b, `\u%04X`, c)
	}
	b.WriteByte('"')
}

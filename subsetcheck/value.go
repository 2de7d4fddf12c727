// JSON values as Read builds them: kinds, members, equality as enum and
// const judge it, and a canonical key per value.

package subsetcheck

import (
	"math/big"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
)

// Kind is the JSON type of a Value.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// Value is a JSON value read strictly, with object members in document order
// and the byte offset of every value, so that errors can name a line:column.
// Numbers keep their exact text: bounds beyond 64 bits and 1 == 1.0 must work.
type Value struct {
	Kind    Kind
	Bool    bool     // Kind == Bool
	id      uint32   // 1, 2, ... in reading order, unique in its Document; 0 when made by hand
	Num     string   // Kind == Number: the number's text, as written
	Str     string   // Kind == String: the decoded string
	Items   []*Value // Kind == Array
	Members []Member // Kind == Object, in document order, names unique
	Offset  int      // byte offset of the value's first byte in its document
}

// Member is one "name": value pair of an object.
type Member struct {
	Name       string
	NameOffset int // byte offset of the name's opening quote
	Value      *Value
}

// Get returns the value of the member called name, or nil.
func (v *Value) Get(name string) *Value {
	for i := range v.Members {
		if v.Members[i].Name == name {
			return v.Members[i].Value
		}
	}
	return nil
}

// Document is a schema file that has been read: its bytes, its name for
// error messages, and its root value.
type Document struct {
	Name string // file name used in messages; "<stdin>" or "schema" when unnamed
	Data []byte
	Root *Value

	lineStarts atomic.Pointer[[]int] // offsets at which lines begin, found by the first Position
	values     int                   // ids Read gave: 1 to values
}

// Rat returns the exact value of a number. The reader's MaxNumberDigits
// limit keeps the result small.
func (v *Value) Rat() (*big.Rat, bool) {
	if v == nil || v.Kind != Number {
		return nil, false
	}
	return new(big.Rat).SetString(v.Num)
}

// Equal reports whether a and b are the same JSON value, as JSON Schema's
// enum and const compare them: numbers by exact value (1 == 1.0 == 1e0),
// objects whatever the order of their members, arrays item by item.
func Equal(a, b *Value) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Null:
		return true
	case Bool:
		return a.Bool == b.Bool
	case String:
		return a.Str == b.Str
	case Number:
		if a.Num == b.Num {
			return true
		}
		x, ok1 := a.Rat()
		y, ok2 := b.Rat()
		return ok1 && ok2 && x.Cmp(y) == 0
	case Array:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !Equal(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	default:
		if len(a.Members) != len(b.Members) {
			return false
		}
		get := b.Get
		if len(b.Members) > 16 { // avoid quadratic work on large objects
			index := make(map[string]*Value, len(b.Members))
			for _, m := range b.Members {
				index[m.Name] = m.Value
			}
			get = func(name string) *Value { return index[name] }
		}
		for _, m := range a.Members {
			if !Equal(m.Value, get(m.Name)) {
				return false
			}
		}
		return true
	}
}

// kindName names a kind in messages ("an object").
func kindName(k Kind) string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

// CanonicalKey returns a string that is the same for two values exactly when
// Equal says they are equal: numbers as normalised decimals, members sorted
// by name. It is cheap enough to deduplicate a million-member enum: numbers
// are keyed from their text, never through a big.Rat of a huge exponent.
func CanonicalKey(v *Value) string {
	var b strings.Builder
	writeKey(&b, v)
	return b.String()
}

func writeKey(b *strings.Builder, v *Value) {
	switch v.Kind {
	case Null:
		b.WriteString("n")
	case Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case Number:
		b.WriteByte('#')
		writeDecimalKey(b, v.Num)
	case String:
		b.WriteString(strconv.Quote(v.Str))
	case Array:
		b.WriteByte('[')
		for _, item := range v.Items {
			writeKey(b, item)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case Object:
		ms := append([]Member(nil), v.Members...)
		sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
		b.WriteByte('{')
		for _, m := range ms {
			b.WriteString(strconv.Quote(m.Name))
			b.WriteByte(':')
			writeKey(b, m.Value)
			b.WriteByte(',')
		}
		b.WriteByte('}')
	}
}

// writeDecimalKey writes a JSON number's exact value as sign, significant
// digits and exponent ("-12e3" for -12000, "" digits for zero), one spelling
// per value: 1, 1.0, 10e-1 and 0.1e1 all give "1e0".
func writeDecimalKey(b *strings.Builder, num string) {
	neg := strings.HasPrefix(num, "-")
	mant, exp := strings.TrimPrefix(num, "-"), 0
	if i := strings.IndexAny(mant, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(mant[i+1:], "+"))
		if err != nil { // beyond int: the reader's limits refuse it; key by text
			b.WriteString(num)
			return
		}
		mant, exp = mant[:i], e
	}
	digits := mant
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		digits = mant[:i] + mant[i+1:]
		exp -= len(mant) - i - 1
	}
	digits = strings.TrimLeft(digits, "0")
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed)
	if trimmed == "" {
		b.WriteString("0")
		return
	}
	if neg {
		b.WriteByte('-')
	}
	b.WriteString(trimmed)
	b.WriteByte('e')
	b.WriteString(strconv.Itoa(exp))
}

package strlang

import (
	"fmt"
	"slices"
	"strings"
)

// MaxRune is the largest code point.
const MaxRune = 0x10FFFF

// The surrogates D800–DFFF are code points but not scalar values: no UTF-8
// text and no JSON string that a validator reads holds one, so no Set does.
const surrogateLo, surrogateHi = 0xD800, 0xDFFF

// Range is the code points Lo..Hi, both included.
type Range struct{ Lo, Hi rune }

// Set is a set of Unicode scalar values (the code points 0–10FFFF other than
// the surrogates), held as sorted, disjoint, non-adjacent ranges. The zero
// Set is empty. A Set is a value: nothing changes it once made.
type Set struct{ r []Range }

// NewSet is the union of the given ranges, less the surrogates. A range
// with Lo > Hi is empty; code points past MaxRune are dropped.
func NewSet(ranges ...Range) Set {
	var rs []Range
	for _, r := range ranges {
		if r.Lo < 0 {
			r.Lo = 0
		}
		if r.Hi > MaxRune {
			r.Hi = MaxRune
		}
		if r.Lo > r.Hi {
			continue
		}
		// Cut out the surrogates.
		if r.Lo < surrogateLo && r.Hi >= surrogateLo {
			rs = append(rs, Range{r.Lo, surrogateLo - 1})
			r.Lo = surrogateLo
		}
		if r.Lo >= surrogateLo && r.Lo <= surrogateHi {
			r.Lo = surrogateHi + 1
		}
		if r.Lo <= r.Hi {
			rs = append(rs, r)
		}
	}
	return Set{normalize(rs)}
}

// normalize sorts and merges ranges that are already free of surrogates.
func normalize(rs []Range) []Range {
	if len(rs) == 0 {
		return nil
	}
	slices.SortFunc(rs, func(a, b Range) int { return int(a.Lo - b.Lo) })
	out := rs[:1]
	for _, r := range rs[1:] {
		last := &out[len(out)-1]
		if r.Lo <= last.Hi+1 {
			last.Hi = max(last.Hi, r.Hi)
			continue
		}
		out = append(out, r)
	}
	return slices.Clip(out)
}

// runeSet is the set of one code point (empty for a surrogate).
func runeSet(c rune) Set { return NewSet(Range{c, c}) }

// anySet is every scalar value.
var anySet = NewSet(Range{0, MaxRune})

// Ranges returns the set's ranges, sorted, disjoint and non-adjacent
// (a copy: changing it does not change the set).
func (s Set) Ranges() []Range { return slices.Clone(s.r) }

// IsEmpty reports whether the set has no code point.
func (s Set) IsEmpty() bool { return len(s.r) == 0 }

// Contains reports whether c is in the set.
func (s Set) Contains(c rune) bool {
	_, found := slices.BinarySearchFunc(s.r, c, func(r Range, c rune) int {
		switch {
		case r.Hi < c:
			return -1
		case r.Lo > c:
			return 1
		}
		return 0
	})
	return found
}

// Min is the set's least code point (-1 when it is empty).
func (s Set) Min() rune {
	if len(s.r) == 0 {
		return -1
	}
	return s.r[0].Lo
}

// Size is the number of code points in the set.
func (s Set) Size() int {
	n := 0
	for _, r := range s.r {
		n += int(r.Hi-r.Lo) + 1
	}
	return n
}

// Equal reports whether both sets hold the same code points.
func (s Set) Equal(t Set) bool { return slices.Equal(s.r, t.r) }

// key is the set as a string, for maps.
func (s Set) key() string {
	b := make([]byte, 0, 8*len(s.r))
	for _, r := range s.r {
		b = append(b, byte(r.Lo), byte(r.Lo>>8), byte(r.Lo>>16), byte(r.Hi), byte(r.Hi>>8), byte(r.Hi>>16))
	}
	return string(b)
}

func (s Set) union(t Set) Set {
	if len(s.r) == 0 {
		return t
	}
	if len(t.r) == 0 {
		return s
	}
	// Merge the two sorted lists, joining what overlaps or touches.
	out := make([]Range, 0, len(s.r)+len(t.r))
	add := func(r Range) {
		if n := len(out); n > 0 && r.Lo <= out[n-1].Hi+1 {
			out[n-1].Hi = max(out[n-1].Hi, r.Hi)
			return
		}
		out = append(out, r)
	}
	i, j := 0, 0
	for i < len(s.r) || j < len(t.r) {
		if j == len(t.r) || i < len(s.r) && s.r[i].Lo <= t.r[j].Lo {
			add(s.r[i])
			i++
		} else {
			add(t.r[j])
			j++
		}
	}
	return Set{slices.Clip(out)}
}

func (s Set) intersect(t Set) Set {
	var out []Range
	i, j := 0, 0
	for i < len(s.r) && j < len(t.r) {
		a, b := s.r[i], t.r[j]
		lo, hi := max(a.Lo, b.Lo), min(a.Hi, b.Hi)
		if lo <= hi {
			out = append(out, Range{lo, hi})
		}
		if a.Hi < b.Hi {
			i++
		} else {
			j++
		}
	}
	return Set{out}
}

// Union is the code points in s or t.
func (s Set) Union(t Set) Set { return s.union(t) }

// Intersect is the code points in both s and t.
func (s Set) Intersect(t Set) Set { return s.intersect(t) }

// Minus is the code points of s that are not in t.
func (s Set) Minus(t Set) Set { return s.minus(t) }

// Complement is every scalar value not in s: a grammar may write a set as
// a negated class when that is shorter.
func (s Set) Complement() Set { return s.complement() }

func (s Set) complement() Set {
	var out []Range
	next := rune(0)
	for _, r := range s.r {
		if r.Lo > next {
			out = append(out, Range{next, r.Lo - 1})
		}
		next = r.Hi + 1
	}
	if next <= MaxRune {
		out = append(out, Range{next, MaxRune})
	}
	return NewSet(out...)
}

func (s Set) minus(t Set) Set { return s.intersect(t.complement()) }

// String prints the set as a class: [a-z\u{e9}]. Printable ASCII stands as
// itself, except \ ] [ ^ - which are escaped; everything else is \u{hex}.
func (s Set) String() string {
	var b strings.Builder
	b.WriteByte('[')
	for _, r := range s.r {
		writeClassRune(&b, r.Lo)
		if r.Hi > r.Lo {
			if r.Hi > r.Lo+1 {
				b.WriteByte('-')
			}
			writeClassRune(&b, r.Hi)
		}
	}
	b.WriteByte(']')
	return b.String()
}

func writeClassRune(b *strings.Builder, c rune) {
	switch {
	case c == '\\' || c == ']' || c == '[' || c == '^' || c == '-':
		b.WriteByte('\\')
		b.WriteRune(c)
	case c > ' ' && c < 0x7F:
		b.WriteRune(c)
	default:
		fmt.Fprintf(b, `\u{%x}`, c)
	}
}

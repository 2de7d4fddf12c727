package hostile

import (
	"fmt"
	"strings"
)

// Hostile shapes of the combinators (allOf, oneOf, not, if/then/else).

// oneOfConsts is a oneOf of n const branches: n(n-1)/2 pairs to prove
// disjoint.
func oneOfConsts(n int) string {
	var b strings.Builder
	b.WriteString(`{"oneOf":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"const":%d}`, i)
	}
	b.WriteString("]}")
	return b.String()
}

// oneOfTagged is a oneOf of n object branches told apart by the const of
// one member, each with a few members of its own.
func oneOfTagged(n int) string {
	var b strings.Builder
	b.WriteString(`{"oneOf":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"type":"object","properties":{"kind":{"const":"k%d"},"a%d":{"type":"integer"},"b":{"type":"string","maxLength":%d}},"required":["kind"]}`, i, i, i+1)
	}
	b.WriteString("]}")
	return b.String()
}

// oneOfOverlapping is a oneOf of n integer branches, each a lower bound,
// every pair overlapping: each branch met with the complement of the
// others.
func oneOfOverlapping(n int) string {
	var b strings.Builder
	b.WriteString(`{"type":"integer","oneOf":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"minimum":%d}`, i)
	}
	b.WriteString("]}")
	return b.String()
}

// oneOfNest is oneOf nested k deep, each level a oneOf of the level below
// and a range that overlaps it: complements of complements.
func oneOfNest(k int) string {
	s := `{"type":"integer"}`
	for i := 0; i < k; i++ {
		s = fmt.Sprintf(`{"oneOf":[%s,{"type":"integer","minimum":%d,"maximum":%d}]}`, s, i, i+5)
	}
	return s
}

// oneOfObjects is a oneOf of n object branches that each require a member
// of their own and constrain another, every pair overlapping: exactly one
// branch takes 2^(n-1) object shapes per branch.
func oneOfObjects(n int) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","oneOf":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"properties":{"m%d":{"type":"integer"}},"required":["r%d"]}`, i, i)
	}
	b.WriteString("]}")
	return b.String()
}

// allOfNest is allOf nested k deep, a bound at each level.
func allOfNest(k int) string {
	return strings.Repeat(`{"type":"integer","allOf":[`, k) + `{"minimum":-5}` + strings.Repeat(`],"maximum":100}`, k)
}

// notNest is not nested k deep around a string schema.
func notNest(k int) string {
	return strings.Repeat(`{"not":`, k) + `{"type":"string"}` + strings.Repeat(`}`, k)
}

// ifChain is an else-if chain of k cases on an integer.
func ifChain(k int) string {
	var b strings.Builder
	for i := 0; i < k; i++ {
		fmt.Fprintf(&b, `{"type":"integer","if":{"const":%d},"then":{"maximum":%d},"else":`, i, i)
	}
	b.WriteString(`{"minimum":0}`)
	b.WriteString(strings.Repeat("}", k))
	return b.String()
}

// notEnum is not of an enum of the integers 0..n-1: n+1 ranges.
func notEnum(n int) string {
	return `{"not":` + numberEnum(n) + `}`
}

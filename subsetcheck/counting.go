package subsetcheck

import (
	"math"
	"slices"
	"strconv"
)

// The counting keywords and the dependencies (issue 21): how each is read
// into Schema. buildObject's switch calls one function per keyword; the
// contains counts are settled after the loop (containsCounts), since
// "minContains" and "maxContains" mean something only beside "contains".

// keywordCtx is what a keyword's reader needs from buildObject.
type keywordCtx struct {
	c   *checker
	s   *Schema
	m   *Member
	kp  func() string // the keyword's pointer, spelled on first use
	bad func(format string, args ...any)
	ctx buildContext
}

// exactCount reads a count keyword's value: a non-negative integer that
// fits int64. Validators read larger counts differently (the oracle wraps
// them modulo 2^64: maxProperties 2^64 reads as 0), so no grammar can
// agree with them all; such a count is refused.
func (k keywordCtx) exactCount() (int, bool) {
	n, ok := count(k.m.Value)
	if !ok {
		k.bad("must be a non-negative integer")
		return 0, false
	}
	if n == math.MaxInt {
		if r, _ := k.m.Value.Rat(); !r.Num().IsInt64() {
			k.bad("%s is beyond 2^63-1, which validators read differently (some wrap it to a small or negative count); write 9223372036854775807 or less", k.m.Value.Num)
			return 0, false
		}
	}
	return n, true
}

// propertyCount reads minProperties or maxProperties.
func (k keywordCtx) propertyCount() {
	n, ok := k.exactCount()
	if !ok {
		return
	}
	if k.m.Name == "minProperties" {
		k.s.MinProperties = n
	} else {
		k.s.MaxProperties = &n
	}
}

// multipleOf reads a number greater than 0.
func (k keywordCtx) multipleOf() {
	r, ok := k.m.Value.Rat()
	if !ok || r.Sign() <= 0 {
		k.bad("must be a number greater than 0")
		return
	}
	k.s.MultipleOf = r
}

// uniqueItems reads true or false.
func (k keywordCtx) uniqueItems() {
	if k.m.Value.Kind != Bool {
		k.bad("must be true or false")
		return
	}
	k.s.UniqueItems = k.m.Value.Bool
}

// contains builds the schema some items must match.
func (k keywordCtx) contains() {
	k.s.Contains = k.c.build(k.kp(), k.m.Value, k.ctx.child())
}

// containsCount reads minContains or maxContains into *n.
func (k keywordCtx) containsCount(n **int) {
	v, ok := k.exactCount()
	if !ok {
		return
	}
	*n = &v
}

// containsCounts settles the counts of "contains": at least one matching
// item unless "minContains" says otherwise. Without "contains" the counts
// constrain nothing, as validators judge.
func containsCounts(s *Schema, minC, maxC *int) {
	if s.Contains == nil {
		return
	}
	s.MinContains = 1
	if minC != nil {
		s.MinContains = *minC
	}
	s.MaxContains = maxC
}

// dependencies reads "dependentRequired" (arrays of names),
// "dependentSchemas" (schemas) or "dependencies" (either, per member).
func (k keywordCtx) dependencies() {
	val := k.m.Value
	if val.Kind != Object {
		k.bad("must be an object")
		return
	}
	for j := range val.Members {
		pm := &val.Members[j]
		ptr := func() string { return join(k.kp(), pm.Name) }
		names := k.m.Name == "dependentRequired" || k.m.Name == "dependencies" && pm.Value.Kind == Array
		if !names {
			if k.m.Name == "dependentRequired" {
				k.c.errorAt(CodeBadKeywordValue, ptr(), pm.Value.Offset, "%s: each value must be an array of member names", k.m.Name)
				continue
			}
			sub := k.c.build(k.c.spell.join(k.kp(), pm.Name), pm.Value, k.ctx.child())
			k.s.Dependencies = append(k.s.Dependencies, Dependency{Name: pm.Name, Schema: sub})
			continue
		}
		if pm.Value.Kind != Array {
			k.c.errorAt(CodeBadKeywordValue, ptr(), pm.Value.Offset, "%s: each value must be an array of member names", k.m.Name)
			continue
		}
		if k.c.draft == Draft4 && len(pm.Value.Items) == 0 {
			k.c.errorAt(CodeBadKeywordValue, ptr(), pm.Value.Offset, "%s: a list of names must not be empty in draft-04; remove the member", k.m.Name)
			continue
		}
		required := []string{}
		for i, item := range pm.Value.Items {
			if item.Kind != String || slices.Contains(required, item.Str) {
				k.c.errorAt(CodeBadKeywordValue, join(ptr(), strconv.Itoa(i)), item.Offset, "%s: each value must be an array of unique member names", k.m.Name)
				required = nil
				break
			}
			required = append(required, item.Str)
		}
		if required != nil {
			k.s.Dependencies = append(k.s.Dependencies, Dependency{Name: pm.Name, Required: required})
		}
	}
}

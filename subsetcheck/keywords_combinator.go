package subsetcheck

import "strconv"

// The combinators: allOf, oneOf, not, if/then/else (anyOf is read beside
// the other keywords). The checker only reads them into Schema; what each
// means for the grammar is compile's (compile/combinator.go, oneof.go,
// not.go).

// schemaBranches reads allOf or oneOf: a non-empty array of schemas.
func (c *checker) schemaBranches(kp string, val *Value, ctx buildContext, bad func(string, ...any)) []*Schema {
	if val.Kind != Array || len(val.Items) == 0 {
		bad("must be a non-empty array of schemas")
		return nil
	}
	return c.schemaList(kp, val, ctx, bad)
}

// conditional holds the members "if", "then" and "else" of one schema
// until all its members are read: each means something only beside the
// others.
type conditional struct {
	ifm, thenm, elsem *Member
}

// note records one of the three members.
func (cd *conditional) note(m *Member) {
	switch m.Name {
	case "if":
		cd.ifm = m
	case "then":
		cd.thenm = m
	case "else":
		cd.elsem = m
	}
}

// buildConditional sets s.If, s.Then and s.Else. As validators read them,
// then and else without if, and if without both, constrain nothing: they
// are accepted with a warning and not built (the meta pass still checks
// their keyword values).
func (c *checker) buildConditional(s *Schema, cd *conditional, ctx buildContext) {
	if cd.ifm == nil && cd.thenm == nil && cd.elsem == nil {
		return
	}
	if cd.ifm == nil {
		for _, m := range []*Member{cd.thenm, cd.elsem} {
			if m != nil {
				c.warnAt(CodeIgnoredKeyword, join(s.Pointer, m.Name), m.NameOffset, "%s has an effect only beside if, and validators ignore it here; add the if or remove the %s", m.Name, m.Name)
			}
		}
		return
	}
	if cd.thenm == nil && cd.elsem == nil {
		c.warnAt(CodeIgnoredKeyword, join(s.Pointer, "if"), cd.ifm.NameOffset, "if without then or else constrains nothing (validators only annotate with it); add then or else, or remove the if")
		return
	}
	build := func(m *Member) *Schema {
		if m == nil {
			return nil
		}
		return c.build(c.spell.join(s.Pointer, m.Name), m.Value, ctx.child())
	}
	s.If, s.Then, s.Else = build(cd.ifm), build(cd.thenm), build(cd.elsem)
}

// cycleEdges is the number of edges findRefCycles follows from s: the
// subschemas a value must also match without descending into it ($ref and
// the combinators' branches).
func cycleEdges(s *Schema) int {
	n := len(s.AnyOf) + len(s.AllOf) + len(s.OneOf)
	for _, t := range [...]*Schema{s.Ref, s.Not, s.If, s.Then, s.Else} {
		if t != nil {
			n++
		}
	}
	return n
}

// cycleEdge returns the target of edge k of s, the keyword it goes
// through, and the branch's index in that keyword's list (-1 for a
// keyword holding one schema).
func cycleEdge(s *Schema, k int) (*Schema, string, int) {
	for _, one := range [...]struct {
		kw string
		to *Schema
	}{{"$ref", s.Ref}, {"not", s.Not}, {"if", s.If}, {"then", s.Then}, {"else", s.Else}} {
		if one.to == nil {
			continue
		}
		if k == 0 {
			return one.to, one.kw, -1
		}
		k--
	}
	for _, list := range [...]struct {
		kw string
		to []*Schema
	}{{"anyOf", s.AnyOf}, {"allOf", s.AllOf}, {"oneOf", s.OneOf}} {
		if k < len(list.to) {
			return list.to[k], list.kw, k
		}
		k -= len(list.to)
	}
	return nil, "", -1
}

// cycleEdgePointer spells the pointer of an edge, for a report.
func cycleEdgePointer(s *Schema, kw string, index int) string {
	ptr := join(s.Pointer, kw)
	if index >= 0 {
		ptr = join(ptr, strconv.Itoa(index))
	}
	return ptr
}

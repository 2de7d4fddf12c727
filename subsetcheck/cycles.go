// Cycle finding: recursion through $ref and the combinators alone, which never
// consumes input.

package subsetcheck

import (
	"slices"
	"strconv"
	"strings"
)

// findRefCycles refuses recursion that never consumes input: a cycle through
// $ref and anyOf alone ({"$ref": "#"}, a -> b -> a), which validators loop on
// and a grammar cannot express. Recursion through properties or items is fine.
func (c *checker) findRefCycles() {
	const (
		unseen = iota
		onStack
		done
	)
	type frameT struct {
		s    *Schema
		next int // the next edge to follow (see cycleEdge)
	}
	// Visit in pointer order so that reports are deterministic. A schema
	// with no $ref and no anyOf starts no cycle: only the others are
	// visited from, and only the schemas a walk meets get a state.
	starts := make([]*Schema, 0, c.nBuilt)
	for _, s := range c.built {
		if s != nil && cycleEdges(s) > 0 {
			starts = append(starts, s)
		}
	}
	for _, s := range c.schemas {
		if cycleEdges(s) > 0 {
			starts = append(starts, s)
		}
	}
	// Pointers are unique (one per value): any sort gives one order.
	slices.SortFunc(starts, func(a, b *Schema) int { return strings.Compare(a.Pointer, b.Pointer) })
	if len(starts) == 0 {
		return
	}
	// A schema's state is kept by the id of its value when the memo holds
	// it under that id (a map insert per schema was most of this walk's
	// work), in a map otherwise.
	byID := make([]uint8, len(c.built))
	var others map[*Schema]uint8
	slot := func(s *Schema) (int, bool) {
		id := int(s.Node.id)
		return id, id != 0 && id < len(c.built) && c.built[id] == s
	}
	get := func(s *Schema) uint8 {
		if id, ok := slot(s); ok {
			return byID[id]
		}
		return others[s]
	}
	set := func(s *Schema, st uint8) {
		if id, ok := slot(s); ok {
			byID[id] = st
			return
		}
		if others == nil {
			others = map[*Schema]uint8{}
		}
		others[s] = st
	}
	var stack []frameT
	for _, start := range starts {
		if get(start) != unseen {
			continue
		}
		stack = append(stack[:0], frameT{s: start})
		set(start, onStack)
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next == cycleEdges(top.s) {
				set(top.s, done)
				stack = stack[:len(stack)-1]
				continue
			}
			to, kw, index := cycleEdge(top.s, top.next)
			top.next++
			switch get(to) {
			case onStack:
				// The edge's pointer is spelled only here, for the report.
				off := top.s.Node.Offset
				ptr := cycleEdgePointer(top.s, kw, index)
				if n := top.s.Node.Get(kw); n != nil && index < 0 {
					off = n.Offset
				}
				c.errorAt(CodeRefCycle, ptr, off, "this reference leads back to %q without passing through a property or an item, so it never ends; make the recursion go through properties or items", pointerOrRoot(to.Pointer))
			case unseen:
				set(to, onStack)
				stack = append(stack, frameT{s: to})
			}
		}
	}
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

// The lenient profile's polarity: the graph of the schemas a value is held
// to, the relaxations applied (which schemas are reached, positively or
// negatively), and the decisions it drives: a relaxation reached through a
// keyword that negates its subschema relaxes that keyword as a whole, and a
// dropped keyword takes the keywords whose meaning depends on it.

package subsetcheck

import (
	"fmt"
	"strings"
)

// edgeKind is how a subschema bears on the schema holding it.
type edgeKind uint8

const (
	edgeMonotone edgeKind = iota // wider subschema, wider schema
	edgeNegating                 // wider subschema, narrower schema (not)
	edgeMixed                    // either (if, oneOf, contains below maxContains)
)

// monotone lists the keywords whose subschemas bear on the schema
// monotonically: widening one widens the schema. Every keyword of the table
// that holds schemas and constrains values is here or in keywordEdge
// (TestEveryKeywordHasAPolarity); one that is not counts as mixed.
var monotone = map[string]bool{
	"properties": true, "patternProperties": true, "additionalProperties": true,
	"items": true, "prefixItems": true, "additionalItems": true,
	"anyOf": true, "allOf": true, "then": true, "else": true,
	"dependentSchemas": true, "dependencies": true, "propertyNames": true,
	"unevaluatedItems": true, "unevaluatedProperties": true, "contains": true,
}

// keywordEdge is the kind of the edges through keyword m of schema v, the
// relaxations decided so far applied.
func (l *leniency) keywordEdge(v *Value, m *Member) edgeKind {
	switch m.Name {
	case "not":
		return edgeNegating
	case "if":
		return edgeMixed
	case "oneOf":
		if r := l.decided[m]; r != nil && r.kind == relaxAsAnyOf {
			return edgeMonotone
		}
		return edgeMixed
	case "contains":
		if mc := memberNamed(v, "maxContains"); mc != nil && l.decided[mc] == nil {
			return edgeMixed // more matching items may pass the maximum
		}
	}
	if monotone[m.Name] {
		return edgeMonotone
	}
	return edgeMixed
}

// Reached positively, negatively.
const (
	reachPos uint8 = 1 << iota
	reachNeg
)

// liveGraph is the graph of the schemas a value is held to, the
// relaxations applied: which schemas are reached, and how.
type liveGraph struct {
	reach map[*Value]uint8
	in    map[*Value][]inEdge
}

// inEdge is an edge into a schema: from the schema from, through its
// keyword m.
type inEdge struct {
	from *Value
	m    *Member
	kind edgeKind
}

// liveGraph walks the schemas from the root through the keywords that
// constrain values and are not dropped, and through $refs.
func (c *checker) liveGraph() *liveGraph {
	l := c.lenient
	g := &liveGraph{reach: map[*Value]uint8{c.doc.Root: reachPos}, in: map[*Value][]inEdge{}}
	queue := []*Value{c.doc.Root}
	edge := func(from *Value, m *Member, kind edgeKind, to *Value) {
		g.in[to] = append(g.in[to], inEdge{from, m, kind})
		r := g.reach[from]
		switch kind {
		case edgeNegating:
			r = r&reachPos<<1 | r&reachNeg>>1
		case edgeMixed:
			r = reachPos | reachNeg
		}
		if old := g.reach[to]; old|r != old {
			g.reach[to] = old | r
			queue = append(queue, to)
		}
	}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		if v.Kind != Object || l.whole[v] != nil {
			continue
		}
		s := c.builtAt(v)
		if c.draft <= Draft7 && v.Get("$ref") != nil {
			if m := memberNamed(v, "$ref"); l.decided[m] == nil && s != nil && s.Ref != nil {
				edge(v, m, edgeMonotone, s.Ref.Node)
			}
			continue
		}
		cond := l.conditionAt(v)
		for i := range v.Members {
			m := &v.Members[i]
			kw := LookupKeyword(m.Name, c.draft)
			if kw == nil || kw.Exact == Annotation {
				continue
			}
			branch := cond != nil && (m.Name == "then" || m.Name == "else")
			switch r := l.decided[m]; {
			case branch && (v.Get("then") == nil || v.Get("else") == nil):
				continue // dropped with the if
			case branch:
				// a branch of the anyOf the if became, whatever else was
				// decided for it
			case r != nil && r.kind != relaxAsAnyOf:
				continue // dropped, or the if of an anyOf of then and else
			}
			if m.Name == "$ref" {
				if s != nil && s.Ref != nil {
					edge(v, m, edgeMonotone, s.Ref.Node)
				}
				continue
			}
			kind := l.keywordEdge(v, m)
			if branch {
				kind = edgeMonotone
			}
			eachSubschema(kw, m.Value, func(sub *Value) { edge(v, m, kind, sub) })
		}
	}
	return g
}

// eachSubschema calls f on each schema in the value of keyword kw.
func eachSubschema(kw *Keyword, val *Value, f func(*Value)) {
	switch shape := kw.Shape; {
	case shape == ShapeSchema, shape == ShapeItems && val.Kind != Array:
		f(val)
	case shape == ShapeSchemaMap, shape == ShapeDependency:
		if val.Kind != Object {
			return
		}
		for j := range val.Members {
			if shape != ShapeDependency || val.Members[j].Value.Kind != Array {
				f(val.Members[j].Value)
			}
		}
	case shape == ShapeSchemaList, shape == ShapeItems:
		if val.Kind == Array {
			for _, it := range val.Items {
				f(it)
			}
		}
	}
}

// decide turns the walk's wishes into relaxations, and relaxes as a whole
// every negating or mixed keyword through which the root reaches a
// relaxation; it reports whether anything new was decided (then the walk
// is run again with it).
func (l *leniency) decide(c *checker, g *liveGraph) bool {
	before := l.settled()
	for i := range l.wishes {
		w := &l.wishes[i]
		if g.reach[w.at] != 0 {
			l.add(c, *w)
		}
	}
	for i := 0; i < len(l.order); i++ { // grows as the negations above are relaxed
		r := l.order[i]
		if reach := g.reach[r.at]; reach&reachNeg != 0 {
			l.relaxAbove(c, g, r)
		}
	}
	return l.settled() > before
}

// add decides relaxation w (unless its keyword already is), and the
// keywords whose meaning depends on it.
func (l *leniency) add(c *checker, w relaxation) {
	if w.m == nil {
		if l.whole[w.at] == nil {
			r := w
			l.whole[w.at] = &r
			l.order = append(l.order, &r)
		}
		return
	}
	if l.decided[w.m] != nil {
		return
	}
	r := w
	l.decided[w.m] = &r
	l.order = append(l.order, &r)
	if w.kind != relaxDrop {
		return
	}
	for _, name := range dependents(c.draft, w.at, w.m) {
		if d := memberNamed(w.at, name); d != nil && l.decided[d] == nil {
			l.add(c, relaxation{at: w.at, doc: w.doc, m: d, kind: relaxDrop, code: w.code, pointer: siblingPointer(w.pointer, name),
				message: fmt.Sprintf("%s is not enforced either: its meaning depends on %s, which is relaxed here, and would narrow without it", name, w.m.Name)})
		}
	}
}

// dependents are the keywords beside m whose meaning narrows when m is
// dropped, so that they are dropped with it.
func dependents(d Draft, at *Value, m *Member) []string {
	switch m.Name {
	case "properties", "patternProperties":
		return []string{"additionalProperties"} // would apply to the names m matched
	case "prefixItems":
		return []string{"items"} // would apply from the first item on
	case "items":
		if m.Value.Kind == Array {
			return []string{"additionalItems"} // is ignored without an items array: the checker warns
		}
	case "minContains":
		if n, ok := count(m.Value); ok && n == 0 {
			return []string{"contains"} // without minContains: at least one item must match
		}
	case "contains":
		return []string{"minContains", "maxContains"} // count nothing without it
	case "minimum", "maximum":
		if d == Draft4 {
			return []string{"exclusive" + strings.ToUpper(m.Name[:1]) + m.Name[1:]} // needs its bound (S203)
		}
	}
	return nil
}

// relaxAbove relaxes every negating or mixed keyword on a path from the
// root to the relaxation r: after it, every path to r goes through
// monotone keywords only, so r widens the whole schema.
func (l *leniency) relaxAbove(c *checker, g *liveGraph, r *relaxation) {
	seen := map[*Value]bool{r.at: true}
	stack := []*Value{r.at}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range g.in[v] {
			if e.kind != edgeMonotone {
				l.relaxNegation(c, e, r)
			}
			if !seen[e.from] {
				seen[e.from] = true
				stack = append(stack, e.from)
			}
		}
	}
}

// relaxNegation relaxes, as a whole, the keyword of edge e, through which
// the root reaches the relaxation inner.
func (l *leniency) relaxNegation(c *checker, e inEdge, inner *relaxation) {
	ptr, doc := c.schemaPointer(e.from)
	why := fmt.Sprintf("a constraint inside it is relaxed (%s), and relaxing inside a negation would narrow the schema", pointerOrRoot(inner.pointer))
	switch e.m.Name {
	case "contains":
		if mc := memberNamed(e.from, "maxContains"); mc != nil {
			l.add(c, relaxation{at: e.from, doc: doc, m: mc, kind: relaxDrop, code: CodeRelaxedNegation, pointer: join(ptr, "maxContains"),
				message: "maxContains is not enforced: arrays with more items that match contains are accepted; " + why})
		}
		return
	}
	w := keywordWish(e.from, e.m, join(ptr, e.m.Name), why)
	w.doc = doc
	if w.kind == relaxDrop {
		w.code = CodeRelaxedNegation
		if e.m.Name != "not" {
			w.message = e.m.Name + " is not enforced: " + why
		}
	}
	l.add(c, w)
}

// schemaPointer is the pointer of the schema at v, as built, and its
// document.
func (c *checker) schemaPointer(v *Value) (string, *Document) {
	if s := c.builtAt(v); s != nil {
		if s.Doc != nil {
			return s.Pointer, s.Doc
		}
		return s.Pointer, c.main
	}
	return "", c.main
}

package compile

import (
	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// prune removes what can derive no text: rules left empty (a nil Expr), and
// rules that can only recurse forever (a required property that needs
// itself), then every reference to them, then unreachable rules. A model
// must never be led into a part of the grammar it cannot finish. It reports
// whether root still derives some text.
func (cp *compiler) prune() bool {
	// A worklist: when a rule turns productive, only the rules that use it
	// are looked at again. Sweeping every rule until nothing changes took
	// one sweep per link of a chain (first[i] -> first[i+1] of a wide
	// object), quadratic: half a minute for 10,000 properties.
	productive := map[string]bool{}
	users := map[string][]*gbnf.Rule{}
	for _, r := range cp.g.Rules {
		seen := map[string]bool{}
		walkRefs(r.Expr, func(name string) {
			if !seen[name] {
				seen[name] = true
				users[name] = append(users[name], r)
			}
		})
	}
	// Backwards: a rule is mostly created before the rules it uses, so the
	// stack pops used rules first.
	work := append([]*gbnf.Rule(nil), cp.g.Rules...)
	for len(work) > 0 {
		r := work[len(work)-1]
		work = work[:len(work)-1]
		if !productive[r.Name] && r.Expr != nil && derives(r.Expr, productive) {
			productive[r.Name] = true
			work = append(work, users[r.Name]...)
		}
	}
	if !productive["root"] {
		return false
	}
	byName := map[string]*gbnf.Rule{}
	var kept []*gbnf.Rule
	for _, r := range cp.g.Rules {
		if productive[r.Name] {
			r.Expr = simplify(r.Expr, productive)
			kept = append(kept, r)
			byName[r.Name] = r
		}
	}
	skipAliases(kept)
	// Keep the rules reachable from root, in their first-created order.
	reach := map[string]bool{"root": true}
	stack := []string{"root"}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		walkRefs(byName[n].Expr, func(name string) {
			if !reach[name] {
				reach[name] = true
				stack = append(stack, name)
			}
		})
	}
	cp.g.Rules = cp.g.Rules[:0]
	for _, r := range kept {
		if reach[r.Name] {
			cp.g.Rules = append(cp.g.Rules, r)
		}
	}
	return true
}

// derives says whether e can derive some finite text, given the rules known
// to do so.
func derives(e gbnf.Expr, productive map[string]bool) bool {
	switch e := e.(type) {
	case nil:
		return false
	case *gbnf.Seq:
		for _, x := range e.Items {
			if !derives(x, productive) {
				return false
			}
		}
		return true
	case *gbnf.Alt:
		for _, x := range e.Alts {
			if derives(x, productive) {
				return true
			}
		}
		return false
	case *gbnf.Repeat:
		return e.Min == 0 || derives(e.Expr, productive)
	case *gbnf.Ref:
		return productive[e.Name]
	}
	return true // Lit, Class, Any
}

// simplify drops the parts of e that derive nothing; e itself derives some
// text, so the result is never nil.
func simplify(e gbnf.Expr, productive map[string]bool) gbnf.Expr {
	if !derives(e, productive) {
		return nil
	}
	if clean(e, productive) {
		return e
	}
	switch e := e.(type) {
	case *gbnf.Seq:
		items := make([]gbnf.Expr, len(e.Items))
		for i, x := range e.Items {
			items[i] = simplify(x, productive)
		}
		return &gbnf.Seq{Items: items}
	case *gbnf.Alt:
		var alts []gbnf.Expr
		for _, x := range e.Alts {
			if s := simplify(x, productive); s != nil {
				alts = append(alts, s)
			}
		}
		if len(alts) == 1 {
			return alts[0]
		}
		return &gbnf.Alt{Alts: alts}
	case *gbnf.Repeat:
		if !derives(e.Expr, productive) {
			return epsilon() // only zero repetitions are possible
		}
		return &gbnf.Repeat{Expr: simplify(e.Expr, productive), Min: e.Min, Max: e.Max}
	}
	return e
}

// skipAliases points every reference to a rule that is only another
// rule's name (properties-age ::= integer) at that rule, so the alias is
// left unreachable and dropped: llama.cpp parses the whole grammar text
// again for each text node-llama-cpp checks, so every rule costs.
func skipAliases(rules []*gbnf.Rule) {
	alias := map[string]string{}
	for _, r := range rules {
		if to, ok := r.Expr.(*gbnf.Ref); ok && r.Name != "root" && to.Name != r.Name {
			alias[r.Name] = to.Name
		}
	}
	if len(alias) == 0 {
		return
	}
	resolve := func(n string) string {
		for steps := 0; steps <= len(alias); steps++ { // bounded: a cycle of aliases stays as it is
			to, ok := alias[n]
			if !ok {
				return n
			}
			n = to
		}
		return n
	}
	for _, r := range rules {
		renameRefs(r.Expr, resolve)
	}
}

// renameRefs replaces the name of every reference in e by to(name).
func renameRefs(e gbnf.Expr, to func(string) string) {
	switch e := e.(type) {
	case *gbnf.Seq:
		for _, x := range e.Items {
			renameRefs(x, to)
		}
	case *gbnf.Alt:
		for _, x := range e.Alts {
			renameRefs(x, to)
		}
	case *gbnf.Repeat:
		renameRefs(e.Expr, to)
	case *gbnf.Ref:
		e.Name = to(e.Name)
	}
}

// walkRefs calls f with the name of every rule e refers to.
func walkRefs(e gbnf.Expr, f func(string)) {
	switch e := e.(type) {
	case *gbnf.Seq:
		for _, x := range e.Items {
			walkRefs(x, f)
		}
	case *gbnf.Alt:
		for _, x := range e.Alts {
			walkRefs(x, f)
		}
	case *gbnf.Repeat:
		walkRefs(e.Expr, f)
	case *gbnf.Ref:
		f(e.Name)
	}
}

// clean says whether e refers only to productive rules: nothing to drop.
func clean(e gbnf.Expr, productive map[string]bool) bool {
	ok := true
	walkRefs(e, func(name string) {
		if !productive[name] {
			ok = false
		}
	})
	return ok
}

// maxNesting bounds how deeply groups nest inside one rule body; deeper
// parts move into rules of their own. A long property name (the extra-name
// trie nests one group per character) or a bound with hundreds of digits
// would otherwise pass the nesting limits of GBNF parsers (gbnf.Limits.MaxDepth,
// llama.cpp's recursive parser).
const maxNesting = 100

// outline moves every composite part nested deeper than maxNesting into its
// own rule.
func (cp *compiler) outline() {
	for i := 0; i < len(cp.g.Rules); i++ { // the list grows as parts move out
		r := cp.g.Rules[i]
		r.Expr = cp.outlineExpr(r.Expr, r.Name, 0)
	}
}

func (cp *compiler) outlineExpr(e gbnf.Expr, rule string, depth int) gbnf.Expr {
	switch x := e.(type) {
	case *gbnf.Seq, *gbnf.Alt, *gbnf.Repeat:
		if depth >= maxNesting {
			name := cp.newName(rule + "-part")
			cp.g.Rules = append(cp.g.Rules, &gbnf.Rule{Name: name, Expr: x})
			return ref(name)
		}
	}
	switch x := e.(type) {
	case *gbnf.Seq:
		for i, it := range x.Items {
			x.Items[i] = cp.outlineExpr(it, rule, depth+1)
		}
	case *gbnf.Alt:
		for i, it := range x.Alts {
			x.Alts[i] = cp.outlineExpr(it, rule, depth+1)
		}
	case *gbnf.Repeat:
		x.Expr = cp.outlineExpr(x.Expr, rule, depth+1)
	}
	return e
}

package gbnf

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Validate checks what llama.cpp checks when it loads a grammar, and what
// the printer needs: every node well formed (no nil expression, no class
// without ranges, no choice without alternatives, sane repeat bounds, valid
// names and UTF-8), every referenced rule defined, a rule named root, and no
// left recursion, direct or behind a nullable prefix. Its error is an
// ErrorList holding every problem. Like llama.cpp, it refuses an unbounded
// repetition (*, +, {m,}) of an item that can match the empty string, since
// llama.cpp expands it into a left-recursive rule.
//
// It is stricter than llama.cpp in two corners, both grammars llama.cpp
// cannot run safely: references inside a rule later redefined must still be
// defined, and nullability is computed exactly (llama.cpp only sees a rule
// as nullable when one alternative is empty, so it misses left recursion
// behind a rule like a ::= b, b ::= "" and then loops forever).
func Validate(g *Grammar) error {
	v := &validator{}
	if g == nil {
		return ErrorList{{Msg: "nil grammar"}}
	}
	defined := map[string]bool{}
	for i, r := range g.Rules {
		if r == nil {
			v.add(Pos{}, "rule %d is nil", i)
			continue
		}
		defined[r.Name] = true
	}
	for _, r := range g.Rules {
		if r == nil {
			continue
		}
		if !validName(r.Name) {
			v.add(r.Pos, "rule name %q is not a GBNF name: use letters, digits and -", r.Name)
		}
		v.expr(r.Name, r.Expr, defined)
	}
	if !defined["root"] {
		v.add(Pos{}, "no rule named root: matching starts there")
	}
	if len(v.errs) == 0 {
		v.leftRecursion(g)
	}
	if len(v.errs) == 0 {
		return nil
	}
	v.errs.sort()
	return v.errs
}

type validator struct{ errs ErrorList }

func (v *validator) add(pos Pos, format string, args ...any) {
	v.errs = append(v.errs, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func validName(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !isNameByte(name[i]) {
			return false
		}
	}
	return true
}

// expr checks one rule body node by node.
func (v *validator) expr(rule string, e Expr, defined map[string]bool) {
	switch e := e.(type) {
	case nil:
		v.add(Pos{}, "rule %s: nil expression", rule)
	case *Alt:
		if e == nil || len(e.Alts) == 0 {
			v.add(Pos{}, "rule %s: choice without alternatives (GBNF cannot spell \"nothing\")", rule)
			return
		}
		for _, a := range e.Alts {
			v.expr(rule, a, defined)
		}
	case *Seq:
		if e == nil {
			v.add(Pos{}, "rule %s: nil sequence", rule)
			return
		}
		for _, it := range e.Items {
			v.expr(rule, it, defined)
		}
	case *Lit:
		if e == nil || !utf8.ValidString(e.Text) {
			v.add(Pos{}, "rule %s: literal is not valid UTF-8", rule)
		}
	case *Class:
		if e == nil || len(e.Ranges) == 0 {
			v.add(Pos{}, "rule %s: character class without ranges (llama.cpp reads [] as the empty string)", rule)
			return
		}
		for _, r := range e.Ranges {
			if r.Lo < 0 || r.Hi < 0 {
				v.add(Pos{}, "rule %s: negative code point in class range", rule)
			}
		}
	case *Any:
	case *Ref:
		if e == nil {
			v.add(Pos{}, "rule %s: nil reference", rule)
			return
		}
		if !validName(e.Name) {
			v.add(e.Pos, "rule %s: reference %q is not a GBNF name", rule, e.Name)
		} else if !defined[e.Name] {
			v.add(e.Pos, "rule %s: undefined rule %s", rule, e.Name)
		}
	case *Repeat:
		if e == nil {
			v.add(Pos{}, "rule %s: nil repeat", rule)
			return
		}
		if e.Min < 0 || e.Max < -1 || e.Max >= 0 && e.Max < e.Min {
			v.add(Pos{}, "rule %s: repeat bounds {%d,%d} are not 0 <= min <= max (max -1 means unbounded)", rule, e.Min, e.Max)
		}
		v.expr(rule, e.Expr, defined)
	default:
		v.add(Pos{}, "rule %s: unknown expression type %T", rule, e)
	}
}

// leftRecursion reports every cycle in the left-corner graph: rule a has an
// edge to rule b when b can be the first thing a matches, directly or after
// parts that match the empty string. llama.cpp refuses such grammars (and
// would loop on them). Only the effective definition of each name counts.
func (v *validator) leftRecursion(g *Grammar) {
	rules := map[string]*Rule{}
	var names []string // effective rules in first-definition order
	for _, r := range g.Rules {
		if rules[r.Name] == nil {
			names = append(names, r.Name)
		}
		rules[r.Name] = r
	}
	nullable := nullableRules(rules, names)
	for _, name := range names {
		if nullableStar(rules[name].Expr, nullable) {
			v.add(rules[name].Pos, "rule %s: *, + or {m,} over an item that can match the empty string: llama.cpp expands it into a left-recursive rule and refuses it; make the item non-empty or the repetition bounded", name)
		}
	}

	edges := map[string][]string{}
	for _, name := range names {
		seen := map[string]bool{}
		leftCorner(rules[name].Expr, nullable, func(ref string) {
			if !seen[ref] {
				seen[ref] = true
				edges[name] = append(edges[name], ref)
			}
		})
	}

	// Iterative depth-first search; a back edge closes a cycle.
	const (
		unvisited = iota
		onPath
		done
	)
	state := map[string]int{}
	type frame struct {
		name string
		next int
	}
	for _, start := range names {
		if state[start] != unvisited {
			continue
		}
		path := []frame{{name: start}}
		state[start] = onPath
		for len(path) > 0 {
			top := &path[len(path)-1]
			if top.next == len(edges[top.name]) {
				state[top.name] = done
				path = path[:len(path)-1]
				continue
			}
			to := edges[top.name][top.next]
			top.next++
			switch state[to] {
			case unvisited:
				state[to] = onPath
				path = append(path, frame{name: to})
			case onPath:
				var chain []string
				for i := len(path) - 1; i >= 0; i-- {
					chain = append(chain, path[i].name)
					if path[i].name == to {
						break
					}
				}
				for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
					chain[i], chain[j] = chain[j], chain[i]
				}
				chain = append(chain, to)
				v.add(rules[to].Pos, "left recursion: %s (llama.cpp refuses it; move the recursive reference after something that consumes input)", strings.Join(chain, " -> "))
			}
		}
	}
}

// nullableRules finds the rules that match the empty string: a worklist
// fixpoint that re-examines a rule only when a rule it uses becomes nullable.
func nullableRules(rules map[string]*Rule, names []string) map[string]bool {
	nullable := map[string]bool{}
	users := map[string][]string{} // rule -> rules that reference it
	for _, name := range names {
		seen := map[string]bool{}
		walkRefs(rules[name].Expr, func(ref string) {
			if !seen[ref] {
				seen[ref] = true
				users[ref] = append(users[ref], name)
			}
		})
	}
	work := append([]string(nil), names...)
	for len(work) > 0 {
		name := work[len(work)-1]
		work = work[:len(work)-1]
		if nullable[name] || !leftCorner(rules[name].Expr, nullable, nil) {
			continue
		}
		nullable[name] = true
		work = append(work, users[name]...)
	}
	return nullable
}

// leftCorner reports whether e matches the empty string, given the nullable
// rules, and calls visit (when not nil) with each rule e can start with.
func leftCorner(e Expr, nullable map[string]bool, visit func(string)) bool {
	switch e := e.(type) {
	case *Alt:
		some := false
		for _, a := range e.Alts {
			if leftCorner(a, nullable, visit) {
				some = true
			}
		}
		return some
	case *Seq:
		for _, it := range e.Items {
			if !leftCorner(it, nullable, visit) {
				return false
			}
		}
		return true
	case *Lit:
		return e.Text == ""
	case *Ref:
		if visit != nil {
			visit(e.Name)
		}
		return nullable[e.Name]
	case *Repeat:
		if e.Max == 0 {
			return true // x{0} never runs x
		}
		return leftCorner(e.Expr, nullable, visit) || e.Min == 0
	}
	return false // Class, Any
}

// nullableStar reports whether e holds an unbounded repetition of an item
// that matches the empty string.
func nullableStar(e Expr, nullable map[string]bool) bool {
	switch e := e.(type) {
	case *Alt:
		for _, a := range e.Alts {
			if nullableStar(a, nullable) {
				return true
			}
		}
	case *Seq:
		for _, it := range e.Items {
			if nullableStar(it, nullable) {
				return true
			}
		}
	case *Repeat:
		if e.Max < 0 && leftCorner(e.Expr, nullable, nil) {
			return true
		}
		return nullableStar(e.Expr, nullable)
	}
	return false
}

// walkRefs calls visit with every rule name e references.
func walkRefs(e Expr, visit func(string)) {
	switch e := e.(type) {
	case *Alt:
		for _, a := range e.Alts {
			walkRefs(a, visit)
		}
	case *Seq:
		for _, it := range e.Items {
			walkRefs(it, visit)
		}
	case *Ref:
		visit(e.Name)
	case *Repeat:
		walkRefs(e.Expr, visit)
	}
}

package regex

import (
	"fmt"
	"slices"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// Right-linear recursion. A cycle of rules that refer to one another only
// at the very end of their alternatives (the states of an automaton: the
// compiler writes a string language so, pattern.go) is a regular language,
// not a nesting one. Each rule is an equation X_i = Σ_j A_ij X_j | B_i,
// where A_ij and B_i mention no rule of the cycle; Arden's lemma solves
// X = A X | B as X = A* B, and eliminating the rules one at a time (state
// elimination) leaves each X_i as a regex. This is exact: no depth bound,
// no length bound. Any other recursion is nesting, refused (R601) or
// unrolled (MaxDepth).

// rightLinear reports whether every reference inside cycle comp to a rule
// of comp stands at the end of an alternative of its rule's body.
func (b *builder) rightLinear(comp int) bool {
	for _, name := range b.members[comp] {
		if !b.tailOnly(b.rules[name].Expr, comp, true, 0) {
			return false
		}
	}
	return true
}

// tailOnly reports whether e refers to rules of comp only where tail says
// it is at the end of its rule.
func (b *builder) tailOnly(e gbnf.Expr, comp int, tail bool, depth int) bool {
	if depth > buildDepthLimit {
		return false
	}
	switch e := e.(type) {
	case *gbnf.Alt:
		for _, a := range e.Alts {
			if !b.tailOnly(a, comp, tail, depth+1) {
				return false
			}
		}
	case *gbnf.Seq:
		for i, it := range e.Items {
			if !b.tailOnly(it, comp, tail && i == len(e.Items)-1, depth+1) {
				return false
			}
		}
	case *gbnf.Repeat:
		return b.tailOnly(e.Expr, comp, false, depth+1)
	case *gbnf.Ref:
		if c, ok := b.component[e.Name]; ok && c == comp {
			return tail
		}
	}
	return true
}

// term is one alternative of a rule of a right-linear cycle: prefix, then
// the rule of the cycle numbered to (-1: none, the alternative ends).
type term struct {
	prefix *node
	to     int
}

// terms splits e, a body or a part at the end of one, into its terms.
func (b *builder) terms(e gbnf.Expr, index map[string]int, depth int) []term {
	switch e := e.(type) {
	case *gbnf.Alt:
		var out []term
		for _, a := range e.Alts {
			out = append(out, b.terms(a, index, depth+1)...)
		}
		return out
	case *gbnf.Seq:
		if len(e.Items) == 0 {
			return []term{{emptyNode, -1}}
		}
		head := make([]*node, len(e.Items)-1)
		for i := range head {
			if head[i] = b.expr(e.Items[i], depth+1); head[i].op == opNone {
				return nil
			}
		}
		prefix := newConcat(head...)
		rest := b.terms(e.Items[len(e.Items)-1], index, depth+1)
		for i := range rest {
			rest[i].prefix = b.count(newConcat(prefix, rest[i].prefix))
		}
		return rest
	case *gbnf.Ref:
		if i, ok := index[e.Name]; ok {
			return []term{{emptyNode, i}}
		}
	}
	return []term{{b.expr(e, depth+1), -1}}
}

// count charges one node of the solution to the budget.
func (b *builder) count(n *node) *node {
	b.nodes++
	if b.nodes > b.maxNodes && b.err == nil {
		b.err = problem(CodeTooLarge, fmt.Sprintf("solving the grammar's automaton rules takes more than %d nodes, so the regex would be longer than %d bytes (-max-regex-bytes, regex.Options.MaxBytes); use the GBNF grammar, simplify the pattern, or raise the limit", b.maxNodes, b.maxNodes))
	}
	return n
}

// solveLinear builds the regex of every rule of right-linear cycle comp,
// into the memo.
func (b *builder) solveLinear(comp, depth int) {
	// The rules in the order the grammar defines them: an automaton's
	// states from its start.
	var names []string
	for _, name := range b.order {
		if c, ok := b.component[name]; ok && c == comp {
			names = append(names, name)
		}
	}
	index := make(map[string]int, len(names))
	for i, name := range names {
		index[name] = i
	}
	n := len(names)
	coef := make([]map[int]*node, n) // coef[i][j]: A_ij
	rest := make([]*node, n)         // B_i
	for i, name := range names {
		coef[i] = map[int]*node{}
		rest[i] = noneNode
		for _, t := range b.terms(b.rules[name].Expr, index, depth+1) {
			if t.to < 0 {
				rest[i] = b.count(newAlt(rest[i], t.prefix))
			} else if a, ok := coef[i][t.to]; ok {
				coef[i][t.to] = b.count(newAlt(a, t.prefix))
			} else {
				coef[i][t.to] = t.prefix
			}
		}
		if b.err != nil {
			return
		}
	}
	for i := 0; i < n && b.err == nil; i++ {
		// X_i = A_ii X_i | rest  is  X_i = A_ii* rest.
		if a, ok := coef[i][i]; ok {
			delete(coef[i], i)
			star := b.count(newRepeat(a, 0, -1))
			for _, j := range sortedKeys(coef[i]) {
				coef[i][j] = b.count(newConcat(star, coef[i][j]))
			}
			rest[i] = b.count(newConcat(star, rest[i]))
		}
		// Put X_i into every other rule that refers to it.
		for k := 0; k < n && b.err == nil; k++ {
			a, ok := coef[k][i]
			if k == i || !ok {
				continue
			}
			delete(coef[k], i)
			for _, j := range sortedKeys(coef[i]) {
				c := b.count(newConcat(a, coef[i][j]))
				if old, ok := coef[k][j]; ok {
					c = b.count(newAlt(old, c))
				}
				coef[k][j] = c
			}
			rest[k] = b.count(newAlt(rest[k], b.count(newConcat(a, rest[i]))))
		}
	}
	for i, name := range names {
		b.memo[name] = rest[i]
	}
}

func sortedKeys(m map[int]*node) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

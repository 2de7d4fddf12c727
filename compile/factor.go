package compile

import (
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// Left factoring: alternatives that begin alike are written once up to
// where they part. llama.cpp keeps a parse stack per live alternative, so
// the k objects an overlapping oneOf or a set of required members splits
// into, all reading `"{" ws "\"base\"" ws ":" ws number` before they
// differ, parse that number k times over, character by character;
// factored, once. A B | A C is A (B | C), and a union is the same
// language in any order, so the grammar accepts the same texts.
//
// Only a prefix that holds more than literals and single characters is
// factored: a shared literal costs a stack per alternative for each of its
// characters only, about what entering a group costs, and the grammars
// whose alternatives share no more (number and integer rules, tries of
// names and enum members: nearly all of them) keep their bytes.

// factor left-factors the alternatives of every rule but the prelude's.
func (cp *compiler) factor() {
	for _, r := range cp.g.Rules {
		if r.Expr == nil || cp.templates.byBody[r.Expr] != nil {
			continue
		}
		if e, ok := factorExpr(r.Expr); ok {
			r.Expr = e
		}
	}
}

// factorExpr is e with its alternatives factored, and whether it changed.
func factorExpr(e gbnf.Expr) (gbnf.Expr, bool) {
	switch x := e.(type) {
	case *gbnf.Seq:
		var items []gbnf.Expr
		for i, it := range x.Items {
			if f, ok := factorExpr(it); ok {
				if items == nil {
					items = append([]gbnf.Expr(nil), x.Items...)
				}
				items[i] = f
			}
		}
		if items == nil {
			return e, false
		}
		return seq(items...), true
	case *gbnf.Repeat:
		if f, ok := factorExpr(x.Expr); ok {
			return &gbnf.Repeat{Expr: f, Min: x.Min, Max: x.Max}, true
		}
	case *gbnf.Alt:
		alts, changed := x.Alts, false
		for i, a := range x.Alts {
			if f, ok := factorExpr(a); ok {
				if !changed {
					alts, changed = append([]gbnf.Expr(nil), x.Alts...), true
				}
				alts[i] = f
			}
		}
		if f, ok := factorAlts(alts); ok {
			return f, true
		}
		if changed {
			return alt(alts...), true
		}
	}
	return e, false
}

// elements is an alternative as the items it reads in order.
func elements(e gbnf.Expr) []gbnf.Expr {
	if s, ok := e.(*gbnf.Seq); ok {
		return s.Items
	}
	return []gbnf.Expr{e}
}

// head is the first item an alternative reads; nil for the empty one.
func head(e gbnf.Expr) gbnf.Expr {
	if s, ok := e.(*gbnf.Seq); ok {
		if len(s.Items) == 0 {
			return nil
		}
		return s.Items[0]
	}
	return e
}

// heavy says whether e may read more than one character: what parallel
// alternatives pay for more than once.
func heavy(e gbnf.Expr) bool {
	switch e.(type) {
	case *gbnf.Lit, *gbnf.Class, *gbnf.Any:
		return false
	}
	return true
}

// maxFactorAlts bounds the alternatives factored at once: grouping them
// compares each with the groups before it.
const maxFactorAlts = 1024

// factorAlts is the union of alts with the alternatives that share a heavy
// prefix written once, the groups in the order of their first member; ok
// is false when no two share one (alts are then left as they are).
func factorAlts(alts []gbnf.Expr) (gbnf.Expr, bool) {
	// Only alternatives of two items or more, one of them heavy, can
	// share a heavy prefix and leave something after it.
	if len(alts) > maxFactorAlts {
		return nil, false
	}
	candidates := 0
	for _, a := range alts {
		if s, ok := a.(*gbnf.Seq); ok && len(s.Items) > 1 && hasHeavy(s.Items) {
			candidates++
		}
	}
	if candidates < 2 {
		return nil, false
	}
	// groupOf[i] is the first alternative that begins as alts[i] does.
	var buf [16]int
	groupOf := buf[:0]
	shared := false
	for i, a := range alts {
		g := i
		if h := head(a); h != nil {
			for j := range i {
				if groupOf[j] == j && head(alts[j]) != nil && sameStart(head(alts[j]), h) {
					g, shared = j, true
					break
				}
			}
		}
		groupOf = append(groupOf, g)
	}
	if !shared {
		return nil, false
	}
	var out []gbnf.Expr
	factored := false
	var members []int
	for i := range alts {
		if groupOf[i] != i {
			continue // written with its group's first
		}
		members = members[:0]
		for j := i; j < len(alts); j++ {
			if groupOf[j] == i {
				members = append(members, j)
			}
		}
		if len(members) > 1 {
			if f := factorGroup(alts, members); f != nil {
				out = append(out, f)
				factored = true
				continue
			}
		}
		for _, m := range members {
			out = append(out, alts[m])
		}
	}
	if !factored {
		return nil, false
	}
	return alt(out...), true
}

func hasHeavy(items []gbnf.Expr) bool {
	for _, it := range items {
		if heavy(it) {
			return true
		}
	}
	return false
}

// sameStart says whether two alternatives' first items begin alike: equal,
// or literals with the same first character.
func sameStart(a, b gbnf.Expr) bool {
	if la, ok := a.(*gbnf.Lit); ok {
		lb, ok := b.(*gbnf.Lit)
		if !ok || la.Text == "" || lb.Text == "" {
			return false
		}
		ra, _ := utf8.DecodeRuneInString(la.Text)
		rb, _ := utf8.DecodeRuneInString(lb.Text)
		return ra == rb
	}
	return sameExpr(a, b)
}

// factorGroup writes the alternatives alts[members] as their longest
// common prefix, then the union of what each reads after it (factored in
// turn); nil when that prefix is not heavy.
func factorGroup(alts []gbnf.Expr, members []int) gbnf.Expr {
	if !heavyPrefix(alts, members) {
		return nil
	}
	lists := make([][]gbnf.Expr, len(members))
	for i, m := range members {
		lists[i] = elements(alts[m])
	}
	var prefix []gbnf.Expr
	isHeavy := false
	pos := 0  // items of every list in prefix
	cut := "" // a literal prefix of item pos of every list, where they part inside it
	for {
		if pos >= len(lists[0]) {
			break
		}
		head := lists[0][pos]
		all := true
		for _, l := range lists[1:] {
			if pos >= len(l) || !sameExpr(l[pos], head) {
				all = false
				break
			}
		}
		if all {
			prefix = append(prefix, head)
			isHeavy = isHeavy || heavy(head)
			pos++
			continue
		}
		cut = commonLitPrefix(lists, pos)
		break
	}
	if !isHeavy {
		return nil
	}
	if cut != "" {
		prefix = append(prefix, lit(cut))
	}
	rests := make([]gbnf.Expr, len(lists))
	for i, l := range lists {
		var rest []gbnf.Expr
		if pos < len(l) {
			rest = l[pos:]
			if cut != "" {
				rest = rest[1:]
				if left := l[pos].(*gbnf.Lit).Text[len(cut):]; left != "" {
					rest = append([]gbnf.Expr{lit(left)}, rest...)
				}
			}
		}
		rests[i] = seq(rest...)
	}
	after, ok := factorAlts(rests)
	if !ok {
		after = alt(rests...)
	}
	return seq(append(prefix, after)...)
}

// heavyPrefix says whether the alternatives alts[members] share a prefix
// of whole items with a heavy one in it (factorGroup's test, without its
// allocations: most groups share a literal only).
func heavyPrefix(alts []gbnf.Expr, members []int) bool {
	first, ok := alts[members[0]].(*gbnf.Seq)
	if !ok {
		return false // one item: what the others share of it is not heavy, or it is all of it
	}
	for pos, it := range first.Items {
		for _, m := range members[1:] {
			s, ok := alts[m].(*gbnf.Seq)
			if !ok || pos >= len(s.Items) || !sameExpr(s.Items[pos], it) {
				return false
			}
		}
		if heavy(it) {
			return true
		}
	}
	return false
}

// commonLitPrefix is the longest prefix, whole characters, that item pos
// of every list has when all are literals; "" otherwise.
func commonLitPrefix(lists [][]gbnf.Expr, pos int) string {
	var p string
	for i, l := range lists {
		if pos >= len(l) {
			return ""
		}
		x, ok := l[pos].(*gbnf.Lit)
		if !ok {
			return ""
		}
		if i == 0 {
			p = x.Text
			continue
		}
		n := 0
		for n < len(p) && n < len(x.Text) && p[n] == x.Text[n] {
			n++
		}
		for n > 0 && n < len(p) && !utf8.RuneStart(p[n]) {
			n--
		}
		p = p[:n]
	}
	return p
}

// sameExpr says whether a and b are the same expression, structurally.
func sameExpr(a, b gbnf.Expr) bool {
	if a == b {
		return true
	}
	switch x := a.(type) {
	case *gbnf.Lit:
		y, ok := b.(*gbnf.Lit)
		return ok && x.Text == y.Text
	case *gbnf.Ref:
		y, ok := b.(*gbnf.Ref)
		return ok && x.Name == y.Name
	case *gbnf.Any:
		_, ok := b.(*gbnf.Any)
		return ok
	case *gbnf.Class:
		y, ok := b.(*gbnf.Class)
		if !ok || x.Negated != y.Negated || len(x.Ranges) != len(y.Ranges) {
			return false
		}
		for i := range x.Ranges {
			if x.Ranges[i] != y.Ranges[i] {
				return false
			}
		}
		return true
	case *gbnf.Repeat:
		y, ok := b.(*gbnf.Repeat)
		return ok && x.Min == y.Min && x.Max == y.Max && sameExpr(x.Expr, y.Expr)
	case *gbnf.Seq:
		y, ok := b.(*gbnf.Seq)
		return ok && sameList(x.Items, y.Items)
	case *gbnf.Alt:
		y, ok := b.(*gbnf.Alt)
		return ok && sameList(x.Alts, y.Alts)
	}
	return false
}

func sameList(a, b []gbnf.Expr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !sameExpr(a[i], b[i]) {
			return false
		}
	}
	return true
}

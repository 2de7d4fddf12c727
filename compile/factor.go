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
	var f factoring
	for _, r := range cp.g.Rules {
		if r.Expr == nil || cp.templates.byBody[r.Expr] != nil {
			continue
		}
		if e, ok := f.expr(r.Expr); ok {
			r.Expr = e
		}
	}
}

// maxFactorWork bounds the work of factoring one grammar, in nodes
// compared and items copied (about 0.1 µs each); past it the rest is left
// as it is, which reads the same texts, only parsed less cheaply. Without
// it a union that parts one alternative at a time (A y1 | A A y2 |
// A A A y3 | ...) costs work cubic in its length (1,024 such alternatives
// took 33 s), and heads that differ deep inside cost their size at each
// comparison. The corpus's grammars need at most 124,000.
const maxFactorWork = 1 << 20

// factoring is one grammar's left factoring: the work it has done.
type factoring struct{ work int }

// spent charges n units of work and says whether the budget is gone.
func (f *factoring) spent(n int) bool {
	f.work += n
	return f.work > maxFactorWork
}

// expr is e with its alternatives factored, and whether it changed.
func (f *factoring) expr(e gbnf.Expr) (gbnf.Expr, bool) {
	switch x := e.(type) {
	case *gbnf.Seq:
		var items []gbnf.Expr
		for i, it := range x.Items {
			if g, ok := f.expr(it); ok {
				if items == nil {
					items = append([]gbnf.Expr(nil), x.Items...)
				}
				items[i] = g
			}
		}
		if items == nil {
			return e, false
		}
		return seq(items...), true
	case *gbnf.Repeat:
		if g, ok := f.expr(x.Expr); ok {
			return &gbnf.Repeat{Expr: g, Min: x.Min, Max: x.Max}, true
		}
	case *gbnf.Alt:
		alts, changed := x.Alts, false
		for i, a := range x.Alts {
			if g, ok := f.expr(a); ok {
				if !changed {
					alts, changed = append([]gbnf.Expr(nil), x.Alts...), true
				}
				alts[i] = g
			}
		}
		if g, ok := f.alts(alts); ok {
			return g, true
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

// alts is the union of alts with the alternatives that share a heavy
// prefix written once, the groups in the order of their first member; ok
// is false when no two share one (alts are then left as they are).
func (f *factoring) alts(alts []gbnf.Expr) (gbnf.Expr, bool) {
	// Only alternatives of two items or more, one of them heavy, can
	// share a heavy prefix and leave something after it.
	if len(alts) > maxFactorAlts || f.spent(len(alts)) {
		return nil, false
	}
	candidates := 0
	for _, a := range alts {
		if s, ok := a.(*gbnf.Seq); ok && len(s.Items) > 1 && f.hasHeavy(s.Items) {
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
				if groupOf[j] == j && head(alts[j]) != nil && f.sameStart(head(alts[j]), h) {
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
			if g := f.group(alts, members); g != nil {
				out = append(out, g)
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

func (f *factoring) hasHeavy(items []gbnf.Expr) bool {
	for _, it := range items {
		f.spent(1) // each item looked at
		if heavy(it) {
			return true
		}
	}
	return false
}

// sameStart says whether two alternatives' first items begin alike: equal,
// or literals with the same first character.
func (f *factoring) sameStart(a, b gbnf.Expr) bool {
	if f.spent(1) {
		return false
	}
	if la, ok := a.(*gbnf.Lit); ok {
		lb, ok := b.(*gbnf.Lit)
		if !ok || la.Text == "" || lb.Text == "" {
			return false
		}
		ra, _ := utf8.DecodeRuneInString(la.Text)
		rb, _ := utf8.DecodeRuneInString(lb.Text)
		return ra == rb
	}
	return f.same(a, b)
}

// group writes the alternatives alts[members] as their longest
// common prefix, then the union of what each reads after it (factored in
// turn); nil when that prefix is not heavy.
func (f *factoring) group(alts []gbnf.Expr, members []int) gbnf.Expr {
	if !f.heavyPrefix(alts, members) || f.spent(len(members)) {
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
			if pos >= len(l) || !f.same(l[pos], head) {
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
			f.spent(len(rest)) // copied by seq
			if cut != "" {
				rest = rest[1:]
				if left := l[pos].(*gbnf.Lit).Text[len(cut):]; left != "" {
					rest = append([]gbnf.Expr{lit(left)}, rest...)
				}
			}
		}
		rests[i] = seq(rest...)
	}
	after, ok := f.alts(rests)
	if f.spent(0) {
		return nil // the budget ran out: the union as it was is no more work
	}
	if !ok {
		after = alt(rests...)
	}
	return seq(append(prefix, after)...)
}

// heavyPrefix says whether the alternatives alts[members] share a prefix
// of whole items with a heavy one in it (group's test, without its
// allocations: most groups share a literal only).
func (f *factoring) heavyPrefix(alts []gbnf.Expr, members []int) bool {
	first, ok := alts[members[0]].(*gbnf.Seq)
	if !ok {
		return false // one item: what the others share of it is not heavy, or it is all of it
	}
	for pos, it := range first.Items {
		for _, m := range members[1:] {
			s, ok := alts[m].(*gbnf.Seq)
			if !ok || pos >= len(s.Items) || !f.same(s.Items[pos], it) {
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

// same says whether a and b are the same expression, structurally.
// Out of budget it says false, which leaves alternatives as they are.
func (f *factoring) same(a, b gbnf.Expr) bool {
	if a == b {
		return true
	}
	if f.spent(1) {
		return false
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
		return ok && x.Min == y.Min && x.Max == y.Max && f.same(x.Expr, y.Expr)
	case *gbnf.Seq:
		y, ok := b.(*gbnf.Seq)
		return ok && f.sameList(x.Items, y.Items)
	case *gbnf.Alt:
		y, ok := b.(*gbnf.Alt)
		return ok && f.sameList(x.Alts, y.Alts)
	}
	return false
}

func (f *factoring) sameList(a, b []gbnf.Expr) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !f.same(a[i], b[i]) {
			return false
		}
	}
	return true
}

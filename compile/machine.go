package compile

import (
	"slices"
	"strconv"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/strlang"
)

// Automata as grammar. A deterministic automaton over code points (a
// string language, or the regions of an object's member names) becomes one
// rule per state: a raw class per edge, then one escape group for the edges'
// characters that JSON escapes, then the closing quote where the state
// accepts. Each character is spelled canonically (canonicalEscape), so a
// character has one spelling and a spelling one way on: llama.cpp keeps one
// stack per way a text may go on, and here that is one (the rule of the
// next state) past every character.
//
// Two shortcuts keep grammars small: a state past which every string is
// accepted is the shared canonical-tail rule, and a state whose strings are
// n to m characters of one set is that set's character rule repeated
// (Lang.Chain), when no other state leads into the chain (otherwise each
// entry would repeat the rest of it: quadratic).

// machine is what the emitter reads of an automaton.
type machine struct {
	edges  [][]strlang.Edge
	accept []gbnf.Expr   // what follows the closing quote where state q accepts; nil: q does not accept
	all    []bool        // every string is accepted from q on, all with the same accept[q]
	lang   *strlang.Lang // for a string language: its chains (Lang.Chain)
	end    gbnf.Expr     // for a string language: what follows every closing quote
}

// langMachine is the machine of a string language, each accepting state
// followed by end.
func langMachine(l *strlang.Lang, end gbnf.Expr) *machine {
	n := l.NumStates()
	m := &machine{edges: make([][]strlang.Edge, n), accept: make([]gbnf.Expr, n), all: make([]bool, n), lang: l, end: end}
	for q := range n {
		m.edges[q] = l.Edges(q)
		if l.Accepting(q) {
			m.accept[q] = end
		}
		m.all[q] = l.IsAll(q)
	}
	return m
}

// escapable is what JSON strings never hold raw: controls, `"`, `\`, and
// U+FFFD (what llama.cpp makes of invalid UTF-8, so it is escaped).
var escapable = strlang.NewSet(strlang.Range{Lo: 0, Hi: 0x1F}, strlang.Range{Lo: '"', Hi: '"'},
	strlang.Range{Lo: '\\', Hi: '\\'}, strlang.Range{Lo: 0xFFFD, Hi: 0xFFFD})

// unescaped is what JSON strings hold raw.
var unescaped = escapable.Complement()

// machineExpr is the grammar of the rest of a JSON string after its
// opening quote, from state 0 of m. A state that one place refers to, from
// a state before it, is written there; every other state reached is a
// rule named base-sN.
func (cp *compiler) machineExpr(m *machine, base string) gbnf.Expr {
	n := len(m.edges)
	indeg := make([]int, n)
	for q := range n {
		for _, e := range m.edges[q] {
			indeg[e.To]++
		}
	}
	// The states that are written, from state 0: a chain is written whole,
	// so the states inside it are not.
	short := make([]gbnf.Expr, n) // the shortcut for q, if any
	failed := make([]bool, n)     // no chain starts at q (chain)
	seen := make([]bool, n)
	seen[0] = true
	order := []int{0}
	uses, from := make([]int, n), make([]int, n) // places that refer to each state, and the last state they are in
	for i := 0; i < len(order); i++ {
		q := order[i]
		if short[q] = cp.shortcut(m, q, indeg, failed); short[q] != nil {
			continue
		}
		for _, e := range m.edges[q] {
			uses[e.To]++
			from[e.To] = q
			if !seen[e.To] {
				seen[e.To] = true
				order = append(order, e.To)
			}
		}
	}
	// Written in place: referred to once, from an earlier state (so that no
	// cycle is written in place all round), and one way on (so that states
	// written in place do not nest groups: a run of characters).
	inline := func(q int) bool {
		return q != 0 && uses[q] == 1 && from[q] < q && (short[q] != nil || len(m.edges[q]) == 1 && m.accept[q] == nil)
	}
	refs := make([]gbnf.Expr, n)
	var rules []*gbnf.Rule
	for _, q := range order {
		if q == 0 && uses[0] == 0 || inline(q) {
			continue
		}
		r := cp.newRule(cp.newName(base+"-s"+strconv.Itoa(q)), nil)
		rules = append(rules, r)
		refs[q] = cp.ref(r.Name)
	}
	var body func(q int) gbnf.Expr
	next := func(q int) gbnf.Expr {
		if refs[q] != nil {
			return refs[q]
		}
		return body(q)
	}
	body = func(q int) gbnf.Expr {
		if short[q] != nil {
			return short[q]
		}
		return cp.stateExpr(m, q, next)
	}
	k := 0
	for _, q := range order {
		if refs[q] != nil {
			rules[k].Expr = body(q)
			k++
		}
	}
	return next(0)
}

// shortcut is the whole of state q's strings as one expression, when q
// accepts every string or is the head of a chain no other state enters;
// nil otherwise.
func (cp *compiler) shortcut(m *machine, q int, indeg []int, failed []bool) gbnf.Expr {
	if m.all[q] {
		return seq(cp.canonicalTail(), m.accept[q])
	}
	if m.lang == nil {
		return nil
	}
	if set, lo, hi, ok := chain(m, q, indeg, failed); ok {
		return seq(cp.repeat(cp.setChar(set), lo, hi), lit(`"`), m.end)
	}
	return nil
}

// chain reports whether the strings from q on are lo to hi characters of
// set (hi < 0: no bound), as Lang.Chain does, and whether every state after
// q along it is entered from its predecessor only (and from itself where
// the chain loops): one edge per state, the same set, accepting from the
// lo-th state on. A walk that fails marks the states it passed: from any
// of them the walk would fail the same way or go through them, so each
// state is walked once (a walk per state was quadratic along the long
// chains of a maxLength).
func chain(m *machine, q int, indeg []int, failed []bool) (set strlang.Set, lo, hi int, ok bool) {
	var path []int
	fail := func() (strlang.Set, int, int, bool) {
		for _, p := range path {
			failed[p] = true
		}
		return strlang.Set{}, 0, 0, false
	}
	lo = -1
	for p, i := q, 0; ; i++ {
		if failed[p] || i > 0 && p == q {
			return fail()
		}
		path = append(path, p)
		if m.accept[p] != nil {
			if lo < 0 {
				lo = i
			}
		} else if lo >= 0 {
			return fail() // accepting, then not
		}
		switch len(m.edges[p]) {
		case 0:
			return set, lo, i, lo >= 0
		case 1:
		default:
			return fail()
		}
		e := m.edges[p][0]
		if i == 0 {
			set = e.Set
		} else if !e.Set.Equal(set) {
			return fail()
		}
		if e.To == p {
			if lo < 0 {
				return fail()
			}
			return set, lo, -1, true
		}
		if indeg[e.To] != 1+b2i(loops(m, e.To)) {
			return fail()
		}
		p = e.To
	}
}

func loops(m *machine, q int) bool {
	for _, e := range m.edges[q] {
		if e.To == q {
			return true
		}
	}
	return false
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// stateExpr is state q's rule: per edge one character of its set and the
// next state, then the closing quote. A set's character is a class when
// none of its characters is escaped, else a shared rule (setChar), so the
// next state is written once per edge: writing the raw and the escaped
// characters as two alternatives would cost llama.cpp 4% fewer stack
// copies per code point of pattern strings (2.95 against 3.06 on the
// corpus's 752 patterns, internal/llamastacks; 0.2% over whole texts), but
// 1.5 times the grammar, and a regex (which writes every rule where it is
// used) that doubles at every state of a maxLength.
func (cp *compiler) stateExpr(m *machine, q int, next func(int) gbnf.Expr) gbnf.Expr {
	var alts []gbnf.Expr
	for _, e := range m.edges[q] {
		alts = append(alts, seq(cp.setChar(e.Set), next(e.To)))
	}
	if end := m.accept[q]; end != nil {
		alts = append(alts, seq(lit(`"`), end))
	}
	return alt(alts...)
}

// chars is one character of raw or esc (the set's characters written raw,
// and those escaped), canonically spelled.
func (cp *compiler) chars(raw, esc strlang.Set) gbnf.Expr {
	var alts []gbnf.Expr
	if !raw.IsEmpty() {
		alts = append(alts, rawClass(raw))
	}
	if !esc.IsEmpty() {
		alts = append(alts, seq(lit(`\`), cp.escapeSuffix(esc)))
	}
	return alt(alts...)
}

// escapeSuffix is what follows the backslash in the canonical escapes of
// the characters of esc: the shared canonical-escape rule for all of
// them, else a trie, a rule per set.
func (cp *compiler) escapeSuffix(esc strlang.Set) gbnf.Expr {
	key := escapeMask(esc)
	if e, ok := cp.escapes[key]; ok {
		return e
	}
	var e gbnf.Expr
	if esc.Equal(escapable) {
		e = cp.canonicalEscapeRule().(*gbnf.Seq).Items[1]
	} else if e = escapeTrie(escapeTexts(esc), 0); isAlt(e) { // one escape, or one class of them: no rule
		e = cp.addRule(cp.newName("escape-set"), e)
	}
	put(&cp.escapes, key, e)
	return e
}

func isAlt(e gbnf.Expr) bool {
	_, ok := e.(*gbnf.Alt)
	return ok
}

// escapeMask is a set of escaped characters as a bit set: controls at
// their code point, then `"`, `\` and U+FFFD.
func escapeMask(esc strlang.Set) uint64 {
	var m uint64
	for _, r := range esc.Ranges() {
		for c := r.Lo; c <= r.Hi; c++ {
			switch c {
			case '"':
				m |= 1 << 32
			case '\\':
				m |= 1 << 33
			case 0xFFFD:
				m |= 1 << 34
			default:
				m |= 1 << c
			}
		}
	}
	return m
}

// setChar is one character of set in its canonical spelling: a class when
// no character of set is escaped, else a shared rule per set. A rule costs
// llama.cpp no more than the group it would be written as (it makes a rule
// of every group), and automata repeat their sets in many states.
func (cp *compiler) setChar(set strlang.Set) gbnf.Expr {
	rs := set.Ranges()
	key := setKey(rs)
	if e, ok := cp.setChars[key]; ok {
		return e
	}
	var e gbnf.Expr
	switch {
	case len(rs) == 2 && rs[0] == strlang.Range{Lo: 0, Hi: 0xD7FF} && rs[1] == strlang.Range{Lo: 0xE000, Hi: strlang.MaxRune}:
		e = cp.canonicalCharRule() // every character
	case set.Intersect(escapable).IsEmpty():
		e = rawClass(set)
	default:
		e = cp.addRule(cp.newName("char-set"), cp.chars(set.Intersect(unescaped), set.Intersect(escapable)))
	}
	put(&cp.setChars, key, e)
	return e
}

// setKey is a set's ranges as a map key: a tenth of the work of its
// printed form (Set.String), which was a quarter of compiling a pattern
// within a long maxLength.
func setKey(rs []strlang.Range) string {
	b := make([]byte, 0, 6*len(rs))
	for _, r := range rs {
		b = append(b, byte(r.Lo), byte(r.Lo>>8), byte(r.Lo>>16), byte(r.Hi), byte(r.Hi>>8), byte(r.Hi>>16))
	}
	return string(b)
}

// rawClass spells a set of code points that are written raw: as a class
// of its ranges, or, when it reaches the last code point, as a negated
// class of what it leaves out (surrogates and what lies past U+10FFFF
// included: llama.cpp may decode bytes to them, and they are never
// characters), as rawChars does.
func rawClass(raw strlang.Set) gbnf.Expr {
	rs := raw.Ranges()
	if !raw.Contains(strlang.MaxRune) {
		if len(rs) == 1 && rs[0].Lo == rs[0].Hi {
			return canonicalLit(rs[0].Lo)
		}
		c := &gbnf.Class{Ranges: make([]gbnf.Range, len(rs))}
		for i, r := range rs {
			c.Ranges[i] = gbnf.Range{Lo: r.Lo, Hi: r.Hi}
		}
		return c
	}
	c := &gbnf.Class{Negated: true}
	next := rune(0)
	for _, r := range rs {
		if r.Lo > next {
			c.Ranges = append(c.Ranges, gbnf.Range{Lo: next, Hi: r.Lo - 1})
		}
		next = r.Hi + 1
	}
	c.Ranges = append(c.Ranges, gbnf.Range{Lo: strlang.MaxRune + 1, Hi: 0x3FFFFF})
	return c
}

// escapeTexts are the canonical escapes of the characters of set, without
// their backslash, sorted.
func escapeTexts(set strlang.Set) []string {
	var out []string
	for _, r := range set.Ranges() {
		for c := r.Lo; c <= r.Hi; c++ {
			e, _ := canonicalEscape(c)
			out = append(out, e[1:])
		}
	}
	slices.Sort(out)
	return out
}

// escapeTrie is the sorted escapes as a trie, from byte depth on, so that
// one character always decides: those that end here are one class, the
// longer ones share their prefix.
func escapeTrie(texts []string, depth int) gbnf.Expr {
	var alts []gbnf.Expr
	var leaves []rune
	for i := 0; i < len(texts); {
		c := texts[i][depth]
		j := i + 1
		for j < len(texts) && texts[j][depth] == c {
			j++
		}
		if len(texts[i]) == depth+1 { // a leaf (escapes are prefix-free)
			if leaves == nil {
				alts = append(alts, nil) // the class goes here
			}
			leaves = append(leaves, rune(c))
			i = j
			continue
		}
		d := depth + 1
		for sharedPrefix(texts[i:j], d) {
			d++
		}
		alts = append(alts, seq(lit(texts[i][depth:d]), escapeTrie(texts[i:j], d)))
		i = j
	}
	for k, a := range alts {
		if a == nil {
			alts[k] = class(false, leaves...)
			if len(leaves) == 1 {
				alts[k] = lit(string(leaves[0]))
			}
		}
	}
	return alt(alts...)
}

// sharedPrefix says whether every text goes on past d bytes with the same
// byte there.
func sharedPrefix(texts []string, d int) bool {
	for _, t := range texts {
		if len(t) <= d+1 || t[d] != texts[0][d] {
			return false
		}
	}
	return true
}

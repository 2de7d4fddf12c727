package gbnf

import (
	"cmp"
	"fmt"
	"slices"
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
	// Each name's index in first-definition order; it doubles as the set
	// of defined names. Later stages work on these indices: string-keyed
	// maps per rule were most of Validate's cost on compiled grammars.
	index := make(map[string]int32, len(g.Rules))
	effective := make([]*Rule, 0, len(g.Rules)) // by index: the last definition of each name
	v.nameOK = make([]bool, 0, len(g.Rules))    // by index: the name is a GBNF name
	ruleIndex := make([]int32, len(g.Rules))    // by position in g.Rules: its name's index
	for i, r := range g.Rules {
		if r == nil {
			v.add(Pos{}, "rule %d is nil", i)
			continue
		}
		if j, ok := index[r.Name]; ok {
			effective[j] = r
			ruleIndex[i] = j
			continue
		}
		ruleIndex[i] = int32(len(effective))
		index[r.Name] = int32(len(effective))
		effective = append(effective, r)
		v.nameOK = append(v.nameOK, validName(r.Name))
	}
	// The node checks also list, for each effective rule, the rules it
	// uses (nullability needs them) and its unbounded repetitions (checked
	// once nullability is known): one walk is cheaper than three.
	v.lastUser = make([]int32, len(effective))
	v.uses = make([]edge, 0, 4*len(effective)) // compiled grammars: a few per rule
	for k, r := range g.Rules {
		if r == nil {
			continue
		}
		i := ruleIndex[k]
		if !v.nameOK[i] {
			v.add(r.Pos, "rule name %q is not a GBNF name: use letters, digits and -", r.Name)
		}
		v.user = -1
		if effective[i] == r {
			v.user = i
		}
		v.expr(r.Name, r.Expr, index)
	}
	if _, ok := index["root"]; !ok {
		v.add(Pos{}, "no rule named root: matching starts there")
	}
	if len(v.errs) == 0 {
		v.leftRecursion(effective, index)
	}
	if len(v.errs) == 0 {
		return nil
	}
	v.errs.sort()
	return v.errs
}

type validator struct {
	errs     ErrorList
	nameOK   []bool      // by rule index: the name is a GBNF name
	user     int32       // the effective rule whose body expr walks, or -1
	uses     []edge      // (user, used) for each rule an effective rule references
	lastUser []int32     // 1 + the last rule that added an edge to each rule
	stars    []unbounded // the unbounded repetitions of effective rules, in walk order
}

// edge says that rule from refers to rule to (by index).
type edge struct{ from, to int32 }

// unbounded is a repetition (*, +, {m,}) in the body of a rule.
type unbounded struct {
	rule   int32
	repeat *Repeat
}

func (v *validator) add(pos Pos, format string, args ...any) {
	v.errs = append(v.errs, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// validName says whether name is a GBNF rule name. Validate and the
// printer ask it of every rule and every reference, and references are most
// of a printed grammar's bytes: it checks eight bytes at a time.
func validName(name string) bool {
	n := len(name)
	if n < 8 {
		for i := 0; i < n; i++ {
			if !nameBytes[name[i]] {
				return false
			}
		}
		return n > 0
	}
	for i := 0; i < n-8; i += 8 {
		if !nameWord(load64(name[i:])) {
			return false
		}
	}
	return nameWord(load64(name[n-8:])) // the last eight, overlapping
}

// load64 reads the first eight bytes of s, little-endian.
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// nameWord says whether each of the eight bytes of w is a name byte
// (isNameByte): a letter, a digit or '-'. For bytes below 0x80, adding
// 0x80-lo to a byte sets its top bit exactly when it is >= lo, and adding
// 0x7F-hi exactly when it is > hi, with no carry into the next byte.
func nameWord(w uint64) bool {
	const (
		ones = 0x0101010101010101
		tops = 0x8080808080808080
	)
	if w&tops != 0 {
		return false
	}
	digit := (w + ones*(0x80-'0')) &^ (w + ones*(0x7F-'9'))
	lower := w | ones*0x20 // A-Z to a-z; no other byte lands in a-z
	letter := (lower + ones*(0x80-'a')) &^ (lower + ones*(0x7F-'z'))
	dash := ^((w ^ ones*'-') + ones*0x7F) // top bit set where the byte is '-'
	return (digit|letter|dash)&tops == tops
}

// nameBytes marks the bytes of rule names (isNameByte).
var nameBytes = func() (t [256]bool) {
	for c := range t {
		t[c] = isNameByte(byte(c))
	}
	return t
}()

// expr checks one rule body node by node.
func (v *validator) expr(rule string, e Expr, defined map[string]int32) {
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
		// A defined name was checked with its rule: look it up first.
		j, ok := defined[e.Name]
		switch {
		case ok && !v.nameOK[j], !ok && !validName(e.Name):
			v.add(e.Pos, "rule %s: reference %q is not a GBNF name", rule, e.Name)
		case !ok:
			v.add(e.Pos, "rule %s: undefined rule %s", rule, e.Name)
		case v.user >= 0 && v.lastUser[j] != v.user+1:
			v.lastUser[j] = v.user + 1
			v.uses = append(v.uses, edge{v.user, j})
		}
	case *Repeat:
		if e == nil {
			v.add(Pos{}, "rule %s: nil repeat", rule)
			return
		}
		if e.Min < 0 || e.Max < -1 || e.Max >= 0 && e.Max < e.Min {
			v.add(Pos{}, "rule %s: repeat bounds {%d,%d} are not 0 <= min <= max (max -1 means unbounded)", rule, e.Min, e.Max)
		}
		if e.Max < 0 && v.user >= 0 {
			v.stars = append(v.stars, unbounded{v.user, e})
		}
		v.expr(rule, e.Expr, defined)
	default:
		v.add(Pos{}, "rule %s: unknown expression type %T", rule, e)
	}
}

// leftRecursion reports every cycle in the left-corner graph: rule a has an
// edge to rule b when b can be the first thing a matches, directly or after
// parts that match the empty string. llama.cpp refuses such grammars (and
// would loop on them). Only the effective definition of each name counts:
// rules holds it for each index of index, every reference is defined.
func (v *validator) leftRecursion(rules []*Rule, index map[string]int32) {
	lc := leftCorners{index: index, nullable: nullableRules(rules, index, byFrom(len(rules), v.uses, true))}
	// A grammar defining no name twice walks its rules in index order;
	// otherwise put the repetitions in that order, as the errors are.
	slices.SortStableFunc(v.stars, func(a, b unbounded) int { return cmp.Compare(a.rule, b.rule) })
	for k := 0; k < len(v.stars); k++ {
		st := v.stars[k]
		if plain := (leftCorners{index: lc.index, nullable: lc.nullable}); !plain.of(st.repeat.Expr) {
			continue
		}
		r := rules[st.rule]
		v.add(r.Pos, "rule %s: *, + or {m,} over an item that can match the empty string: llama.cpp expands it into a left-recursive rule and refuses it; make the item non-empty or the repetition bounded", r.Name)
		for k+1 < len(v.stars) && v.stars[k+1].rule == st.rule {
			k++ // one report per rule
		}
	}

	corners := v.uses[:0]                 // grouped already: reuse its array
	lastFrom := make([]int32, len(rules)) // 1 + the last rule that added an edge to each rule
	var from int32                        // the rule whose edges lc.of visits
	lc.visit = func(to int32) {
		if lastFrom[to] != from+1 {
			lastFrom[to] = from + 1
			corners = append(corners, edge{from, to})
		}
	}
	for i, r := range rules {
		from = int32(i)
		lc.of(r.Expr)
	}
	edges := byFrom(len(rules), corners, false)

	// Iterative depth-first search; a back edge closes a cycle.
	const (
		unvisited = iota
		onPath
		done
	)
	state := make([]uint8, len(rules))
	type frame struct {
		rule int32
		next int
	}
	var path []frame
	for start := range rules {
		if state[start] != unvisited {
			continue
		}
		path = append(path[:0], frame{rule: int32(start)})
		state[start] = onPath
		for len(path) > 0 {
			top := &path[len(path)-1]
			if top.next == len(edges.of(top.rule)) {
				state[top.rule] = done
				path = path[:len(path)-1]
				continue
			}
			to := edges.of(top.rule)[top.next]
			top.next++
			switch state[to] {
			case unvisited:
				state[to] = onPath
				path = append(path, frame{rule: to})
			case onPath:
				var chain []string
				for i := len(path) - 1; i >= 0; i-- {
					chain = append(chain, rules[path[i].rule].Name)
					if path[i].rule == to {
						break
					}
				}
				for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
					chain[i], chain[j] = chain[j], chain[i]
				}
				chain = append(chain, rules[to].Name)
				v.add(rules[to].Pos, "left recursion: %s (llama.cpp refuses it; move the recursive reference after something that consumes input)", strings.Join(chain, " -> "))
			}
		}
	}
}

// adjacency lists, for each rule index i, the rules to[start[i]:start[i+1]]:
// two arrays instead of a slice per rule.
type adjacency struct{ start, to []int32 }

func (a adjacency) of(i int32) []int32 { return a.to[a.start[i]:a.start[i+1]] }

// byFrom groups edges by their from rule (by their to rule when reversed),
// keeping their order.
func byFrom(n int, edges []edge, reversed bool) adjacency {
	key := func(e edge) (int32, int32) {
		if reversed {
			return e.to, e.from
		}
		return e.from, e.to
	}
	start := make([]int32, n+2)
	for _, e := range edges {
		k, _ := key(e)
		start[k+2]++
	}
	for i := 2; i <= n+1; i++ {
		start[i] += start[i-1]
	}
	// start[k+1] is now where the edges of k begin; filling moves it to
	// where they end, which is where those of k+1 begin.
	to := make([]int32, len(edges))
	for _, e := range edges {
		k, x := key(e)
		to[start[k+1]] = x
		start[k+1]++
	}
	return adjacency{start: start[:n+1], to: to}
}

// nullableRules finds the rules that match the empty string, by index: a
// worklist fixpoint that re-examines a rule only when a rule it uses
// becomes nullable (users[i]: the rules that reference rule i).
func nullableRules(rules []*Rule, index map[string]int32, users adjacency) []bool {
	lc := leftCorners{index: index, nullable: make([]bool, len(rules))}
	work := make([]int32, len(rules))
	for i := range work {
		work[i] = int32(i)
	}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		if lc.nullable[i] || !lc.of(rules[i].Expr) {
			continue
		}
		lc.nullable[i] = true
		work = append(work, users.of(i)...)
	}
	return lc.nullable
}

// leftCorners answers, for rule bodies, whether they match the empty
// string given the nullable rules (by index), and calls visit (when not
// nil) with the index of each rule a body can start with.
type leftCorners struct {
	index    map[string]int32
	nullable []bool
	visit    func(int32)
}

// of reports whether e matches the empty string, visiting its left corners.
func (lc *leftCorners) of(e Expr) bool {
	switch e := e.(type) {
	case *Alt:
		some := false
		for _, a := range e.Alts {
			if lc.of(a) {
				some = true
			}
		}
		return some
	case *Seq:
		for _, it := range e.Items {
			if !lc.of(it) {
				return false
			}
		}
		return true
	case *Lit:
		return e.Text == ""
	case *Ref:
		i := lc.index[e.Name]
		if lc.visit != nil {
			lc.visit(i)
		}
		return lc.nullable[i]
	case *Repeat:
		if e.Max == 0 {
			return true // x{0} never runs x
		}
		return lc.of(e.Expr) || e.Min == 0
	}
	return false // Class, Any
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

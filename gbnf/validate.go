package gbnf

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/internal/names"
	"github.com/schema2gbnf/schema2gbnf/internal/reuse"
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
	if g == nil {
		return ErrorList{{Msg: "nil grammar"}}
	}
	v := validators.Get().(*validator)
	defer v.release()
	v.check(g.Rules, true)
	if len(v.errs) == 0 {
		return nil
	}
	return v.errs
}

// check validates rules as Validate does, the rule named root required
// only when needRoot, and leaves in v what Freeze reads: the index of each
// name, the effective rules, and which rules are nullable.
func (v *validator) check(rules []*Rule, needRoot bool) {
	v.errs = nil // handed to the caller, never reused
	// Each name's index in first-definition order; it doubles as the set
	// of defined names. Later stages work on these indices: string-keyed
	// maps per rule were most of Validate's cost on compiled grammars.
	index := &v.index
	index.Reset(len(rules))
	effective := v.effective[:0] // by index: the last definition of each name
	v.nameOK = v.nameOK[:0]      // by index: the name is a GBNF name
	ruleIndex := reuse.Slice(v.ruleIndex, len(rules))
	for i, r := range rules {
		if r == nil {
			v.add(Pos{}, "rule %d is nil", i)
			continue
		}
		if j, ok := index.Add(r.Name); ok {
			effective[j] = r
			ruleIndex[i] = j
			continue
		}
		ruleIndex[i] = int32(len(effective))
		effective = append(effective, r)
		v.nameOK = append(v.nameOK, validName(r.Name))
	}
	v.effective, v.ruleIndex = effective, ruleIndex
	v.trusted = v.trustFrozen(rules)
	// The node checks also list, for each effective rule, the rules it
	// uses (nullability needs them) and its unbounded repetitions (checked
	// once nullability is known): one walk is cheaper than three.
	v.lastUser = reuse.Zeroed(v.lastUser, len(effective))
	v.uses = v.uses[:0]
	v.stars = v.stars[:0]
	for k, r := range rules {
		if r == nil {
			continue
		}
		i := ruleIndex[k]
		if v.trusted && v.frozen[i] && effective[i] == r {
			continue // checked when frozen, and so is all it refers to
		}
		if !v.nameOK[i] {
			v.add(r.Pos, "rule name %q is not a GBNF name: use letters, digits and -", r.Name)
		}
		v.user = -1
		if effective[i] == r {
			v.user = i
		}
		v.rule = r.Name
		v.expr(r.Expr)
	}
	if _, ok := index.Lookup("root"); needRoot && !ok {
		v.add(Pos{}, "no rule named root: matching starts there")
	}
	if len(v.errs) == 0 {
		v.leftRecursion(effective)
	}
	v.errs.sort()
}

// validator is Validate's working state. Its arrays are kept in a pool
// between calls: allocating them afresh was all of Validate's allocations
// on a valid grammar, and the garbage collector's work grows with those.
type validator struct {
	errs     ErrorList
	index    names.Index // each defined name's rule index
	rule     string      // the name of the rule whose body expr walks
	user     int32       // the effective rule whose body expr walks, or -1
	uses     []edge      // (user, used) for each rule an effective rule references
	lastUser []int32     // 1 + the last rule that added an edge to each rule
	stars    []unbounded // the unbounded repetitions of effective rules, in walk order

	// By rule index unless said otherwise.
	effective []*Rule // the last definition of each name
	nameOK    []bool  // the name is a GBNF name
	ruleIndex []int32 // by position in the grammar's rules: its name's index
	nullable  []bool
	lastFrom  []int32 // 1 + the last rule that added a left corner to each rule
	state     []uint8 // of the depth-first search for cycles
	work      []int32
	path      []frame
	users     adjacency // the rules that reference each rule
	corners   adjacency // the rules each rule can start with
	frozen    []bool    // the effective rule is frozen (trustFrozen; read only when trusted)
	trusted   bool      // the frozen rules are taken as checked (trustFrozen)
}

var validators = sync.Pool{New: func() any { return new(validator) }}

// maxPooledRules is the most rules a validated grammar may have for its
// validator to go back to the pool: a huge grammar's arrays go to the
// garbage collector instead of staying with the pool.
const maxPooledRules = 1 << 12

// release returns v to the pool, holding no grammar's nodes.
func (v *validator) release() {
	if len(v.ruleIndex) > maxPooledRules { // ruleIndex has one entry per rule
		return
	}
	clear(v.effective)
	v.index.Forget()
	clear(v.stars)
	v.errs, v.rule = nil, ""
	validators.Put(v)
}

// edge says that rule from refers to rule to (by index).
type edge struct{ from, to int32 }

// unbounded is a repetition (*, +, {m,}) in the body of a rule.
type unbounded struct {
	rule   int32
	repeat *Repeat
}

// frame is a rule on the path of the depth-first search for cycles, and
// the position of the next of its edges to follow.
type frame struct {
	rule int32
	next int
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
func (v *validator) expr(e Expr) {
	switch e := e.(type) {
	case nil:
		v.add(Pos{}, "rule %s: nil expression", v.rule)
	case *Alt:
		if e == nil || len(e.Alts) == 0 {
			v.add(Pos{}, "rule %s: choice without alternatives (GBNF cannot spell \"nothing\")", v.rule)
			return
		}
		for _, a := range e.Alts {
			v.expr(a)
		}
	case *Seq:
		if e == nil {
			v.add(Pos{}, "rule %s: nil sequence", v.rule)
			return
		}
		for _, it := range e.Items {
			v.expr(it)
		}
	case *Lit:
		if e == nil || !utf8.ValidString(e.Text) {
			v.add(Pos{}, "rule %s: literal is not valid UTF-8", v.rule)
		}
	case *Class:
		if e == nil || len(e.Ranges) == 0 {
			v.add(Pos{}, "rule %s: character class without ranges (llama.cpp reads [] as the empty string)", v.rule)
			return
		}
		for _, r := range e.Ranges {
			if r.Lo < 0 || r.Hi < 0 {
				v.add(Pos{}, "rule %s: negative code point in class range", v.rule)
			}
		}
	case *Any:
	case *Ref:
		if e == nil {
			v.add(Pos{}, "rule %s: nil reference", v.rule)
			return
		}
		// A defined name was checked with its rule: look it up first.
		j, ok := v.index.Lookup(e.Name)
		switch {
		case ok && !v.nameOK[j], !ok && !validName(e.Name):
			v.add(e.Pos, "rule %s: reference %q is not a GBNF name", v.rule, e.Name)
		case !ok:
			v.add(e.Pos, "rule %s: undefined rule %s", v.rule, e.Name)
		case v.user >= 0 && v.lastUser[j] != v.user+1:
			v.lastUser[j] = v.user + 1
			v.uses = append(v.uses, edge{v.user, j})
		}
	case *Repeat:
		if e == nil {
			v.add(Pos{}, "rule %s: nil repeat", v.rule)
			return
		}
		if e.Min < 0 || e.Max < -1 || e.Max >= 0 && e.Max < e.Min {
			v.add(Pos{}, "rule %s: repeat bounds {%d,%d} are not 0 <= min <= max (max -1 means unbounded)", v.rule, e.Min, e.Max)
		}
		if e.Max < 0 && v.user >= 0 {
			v.stars = append(v.stars, unbounded{v.user, e})
		}
		v.expr(e.Expr)
	default:
		v.add(Pos{}, "rule %s: unknown expression type %T", v.rule, e)
	}
}

// leftRecursion reports every cycle in the left-corner graph: rule a has an
// edge to rule b when b can be the first thing a matches, directly or after
// parts that match the empty string. llama.cpp refuses such grammars (and
// would loop on them). Only the effective definition of each name counts:
// rules holds it for each index of v.index, every reference is defined.
func (v *validator) leftRecursion(rules []*Rule) {
	v.users = byFrom(v.users, len(rules), v.uses, true)
	v.nullable = v.nullableRules(rules)
	lc := leftCorners{index: &v.index, nullable: v.nullable}
	// A grammar defining no name twice walks its rules in index order;
	// otherwise put the repetitions in that order, as the errors are.
	slices.SortStableFunc(v.stars, func(a, b unbounded) int { return cmp.Compare(a.rule, b.rule) })
	for k := 0; k < len(v.stars); k++ {
		st := v.stars[k]
		if !lc.of(st.repeat.Expr) {
			continue
		}
		r := rules[st.rule]
		v.add(r.Pos, "rule %s: *, + or {m,} over an item that can match the empty string: llama.cpp expands it into a left-recursive rule and refuses it; make the item non-empty or the repetition bounded", r.Name)
		for k+1 < len(v.stars) && v.stars[k+1].rule == st.rule {
			k++ // one report per rule
		}
	}

	// The left corners of each rule, found by the same walk: it lists
	// them in corners, once per rule.
	lc.corners = v.uses[:0] // grouped already: reuse its array
	lc.lastFrom = reuse.Zeroed(v.lastFrom, len(rules))
	for i, r := range rules {
		if v.trusted && v.frozen[i] {
			continue // no left corner of a frozen rule leads out of its set
		}
		lc.from = int32(i)
		lc.of(r.Expr)
	}
	v.uses, v.lastFrom = lc.corners, lc.lastFrom
	v.corners = byFrom(v.corners, len(rules), lc.corners, false)
	edges := v.corners

	// Iterative depth-first search; a back edge closes a cycle.
	const (
		unvisited = iota
		onPath
		done
	)
	state := reuse.Zeroed(v.state, len(rules))
	v.state = state
	path := v.path[:0]
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
	v.path = path
}

// adjacency lists, for each rule index i, the rules to[start[i]:start[i+1]]:
// two arrays instead of a slice per rule.
type adjacency struct{ start, to []int32 }

func (a adjacency) of(i int32) []int32 { return a.to[a.start[i]:a.start[i+1]] }

// byFrom groups edges by their from rule (by their to rule when reversed),
// keeping their order, into a's arrays when they are large enough.
func byFrom(a adjacency, n int, edges []edge, reversed bool) adjacency {
	key := func(e edge) (int32, int32) {
		if reversed {
			return e.to, e.from
		}
		return e.from, e.to
	}
	start := reuse.Zeroed(a.start, n+2)
	for _, e := range edges {
		k, _ := key(e)
		start[k+2]++
	}
	for i := 2; i <= n+1; i++ {
		start[i] += start[i-1]
	}
	// start[k+1] is now where the edges of k begin; filling moves it to
	// where they end, which is where those of k+1 begin.
	to := reuse.Slice(a.to, len(edges))
	for _, e := range edges {
		k, x := key(e)
		to[start[k+1]] = x
		start[k+1]++
	}
	return adjacency{start: start[:n+1], to: to}
}

// nullableRules finds the rules that match the empty string, by index: a
// worklist fixpoint that re-examines a rule only when a rule it uses
// becomes nullable (v.users.of(i): the rules that reference rule i).
func (v *validator) nullableRules(rules []*Rule) []bool {
	lc := leftCorners{index: &v.index, nullable: reuse.Zeroed(v.nullable, len(rules))}
	work := reuse.Slice(v.work, len(rules))
	for i := range work {
		work[i] = int32(i)
	}
	if v.trusted {
		for i, r := range rules {
			if v.frozen[i] {
				lc.nullable[i] = r.frozen.nullable
			}
		}
	}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		if lc.nullable[i] || v.trusted && v.frozen[i] || !lc.of(rules[i].Expr) {
			continue
		}
		lc.nullable[i] = true
		work = append(work, v.users.of(i)...)
	}
	v.work = work
	return lc.nullable
}

// leftCorners answers, for rule bodies, whether they match the empty
// string given the nullable rules (by index). When lastFrom is not nil it
// also appends to corners an edge from rule from to each rule a body can
// start with, once per rule (lastFrom holds 1 + the last rule that added
// an edge to each rule).
type leftCorners struct {
	index    *names.Index
	nullable []bool
	from     int32
	lastFrom []int32
	corners  []edge
}

// of reports whether e matches the empty string, listing its left corners.
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
		i, _ := lc.index.Lookup(e.Name)
		if lc.lastFrom != nil && lc.lastFrom[i] != lc.from+1 {
			lc.lastFrom[i] = lc.from + 1
			lc.corners = append(lc.corners, edge{lc.from, i})
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

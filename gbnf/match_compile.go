package gbnf

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MatcherLimits bounds what NewMatcher and Matcher.Check may use, so that a
// hostile grammar or text ends in a MatcherLimitError instead of exhausting
// memory. A zero field takes its default.
type MatcherLimits struct {
	// MaxStates bounds the compiled automaton (roughly one state per code
	// point of a literal, class, alternative or repetition copy).
	MaxStates int
	// MaxClosure bounds the precomputed epsilon closures in total; long
	// chains of nullable repetition copies are what make them big.
	MaxClosure int
	// MaxItems bounds the Earley items one Check may hold (12 bytes each);
	// only ambiguous grammars on long texts come near it.
	MaxItems int
	// MaxExprDepth bounds the nesting of expressions in the grammar AST.
	MaxExprDepth int
}

// Default limits.
const (
	DefaultMaxStates    = 1 << 20
	DefaultMaxClosure   = 1 << 23
	DefaultMaxItems     = 1 << 24
	DefaultMaxExprDepth = 10000
)

// inlineMaxStates is the largest rule body that is copied into its callers
// instead of being called: calls cost an Earley prediction and completion
// per use, copies cost states.
const inlineMaxStates = 64

// hoistMinStates is the smallest repeated body that is compiled once as its
// own nonterminal and called per copy, rather than copied per copy.
const hoistMinStates = 9

func (l MatcherLimits) withDefaults() MatcherLimits {
	if l.MaxStates <= 0 {
		l.MaxStates = DefaultMaxStates
	}
	if l.MaxClosure <= 0 {
		l.MaxClosure = DefaultMaxClosure
	}
	if l.MaxItems <= 0 {
		l.MaxItems = DefaultMaxItems
	}
	if l.MaxExprDepth <= 0 {
		l.MaxExprDepth = DefaultMaxExprDepth
	}
	return l
}

// MatcherError says why NewMatcher or NewSampler refused a grammar.
type MatcherError struct {
	Rule   string // the rule concerned; "" when none
	Pos    Pos    // where, when the grammar came from text
	Reason string
}

func (e *MatcherError) Error() string {
	var b strings.Builder
	if e.Pos.Line > 0 {
		fmt.Fprintf(&b, "%d:%d: ", e.Pos.Line, e.Pos.Col)
	}
	if e.Rule != "" {
		fmt.Fprintf(&b, "rule %s: ", e.Rule)
	}
	b.WriteString(e.Reason)
	return b.String()
}

// MatcherLimitError says which named limit a grammar or text went over.
type MatcherLimitError struct {
	Limit string // the MatcherLimits field name
	Value int    // the limit in force
}

func (e *MatcherLimitError) Error() string {
	return "gbnf matcher: over limit " + e.Limit + " = " + strconv.Itoa(e.Value)
}

// State kinds of the compiled automaton.
const (
	kindEps    uint8 = iota // no input; successors in matchProg.eps
	kindTerm                // one code point from matchProg.sets[arg], then next
	kindCall                // nonterminal arg, then next
	kindAccept              // end of nonterminal arg
)

// matchProg is a grammar compiled for Earley recognition: every nonterminal's body
// is a small automaton (a regular right part), so that X* is a loop rather
// than a recursive rule, and each earleyItem is one (state, origin) pair.
type matchProg struct {
	kind []uint8
	arg  []int32
	next []int32
	eps  map[int32][]int32

	sets      []runeSet
	setRanges [][]Range // sets[i] as ranges
	// first[nt] holds the code points a nonempty text of nt can start
	// with: a nonterminal is predicted only when the next code point is
	// one of them, which keeps whitespace runs from predicting every rule
	// that may follow.
	first       []runeSet
	firstRanges [][]Range

	ntStart    []int32
	ntAccept   []int32
	ntNullable []bool
	ntName     []string

	// clos[closOff[s]:closOff[s+1]] lists the non-epsilon states reachable
	// from s through epsilon moves and calls of nullable nonterminals
	// (Aycock–Horspool), for every state an earleyItem can be started at.
	closOff []int32
	clos    []int32
}

// runeSet is a class normalised for fast membership: ASCII in a bitmap, the
// rest as sorted disjoint ranges. NUL is never a member.
type runeSet struct {
	ascii  [2]uint64
	ranges []Range
}

func (s *runeSet) has(r rune) bool {
	if r < 128 {
		return s.ascii[r>>6]&(1<<(uint(r)&63)) != 0
	}
	rs := s.ranges
	lo, hi := 0, len(rs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if rs[m].Hi < r {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(rs) && rs[lo].Lo <= r
}

// normalRanges returns the code points a class matches as sorted, disjoint
// ranges within 1..utf8.MaxRune: reversed ranges dropped, negation applied,
// NUL removed.
func normalRanges(ranges []Range, negated bool) []Range {
	var rs []Range
	for _, r := range ranges {
		lo, hi := max(r.Lo, 0), min(r.Hi, utf8.MaxRune)
		if lo <= hi {
			rs = append(rs, Range{lo, hi})
		}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].Lo < rs[j].Lo })
	var merged []Range
	for _, r := range rs {
		if n := len(merged); n > 0 && r.Lo <= merged[n-1].Hi+1 {
			merged[n-1].Hi = max(merged[n-1].Hi, r.Hi)
			continue
		}
		merged = append(merged, r)
	}
	if negated {
		var comp []Range
		next := rune(0)
		for _, r := range merged {
			if r.Lo > next {
				comp = append(comp, Range{next, r.Lo - 1})
			}
			next = r.Hi + 1
		}
		if next <= utf8.MaxRune {
			comp = append(comp, Range{next, utf8.MaxRune})
		}
		merged = comp
	}
	if len(merged) > 0 && merged[0].Lo == 0 {
		if merged[0].Hi == 0 {
			merged = merged[1:]
		} else {
			merged[0].Lo = 1
		}
	}
	return merged
}

func newRuneSet(rs []Range) runeSet {
	var s runeSet
	for _, r := range rs {
		for c := r.Lo; c <= r.Hi && c < 128; c++ {
			s.ascii[c>>6] |= 1 << (uint(c) & 63)
		}
		if r.Hi >= 128 {
			s.ranges = append(s.ranges, Range{max(r.Lo, 128), r.Hi})
		}
	}
	return s
}

// grammarInfo is what the matcher and the sampler both need to know about a
// grammar before using it: the rules in force and which are nullable.
type grammarInfo struct {
	rules    map[string]*Rule
	order    []string // rule names in first-definition order
	nullable map[string]bool
}

// analyzeGrammar resolves rule names, checks that root and every referenced rule
// exist, bounds the nesting depth and computes nullable rules.
func analyzeGrammar(g *Grammar, maxDepth int) (*grammarInfo, error) {
	if g == nil {
		return nil, &MatcherError{Reason: "nil grammar"}
	}
	info := &grammarInfo{rules: map[string]*Rule{}, nullable: map[string]bool{}}
	for _, r := range g.Rules {
		if r == nil {
			return nil, &MatcherError{Reason: "nil rule"}
		}
		if _, seen := info.rules[r.Name]; !seen {
			info.order = append(info.order, r.Name)
		}
		info.rules[r.Name] = r
	}
	if info.rules["root"] == nil {
		return nil, &MatcherError{Reason: `no rule named "root"`}
	}
	for _, name := range info.order {
		r := info.rules[name]
		if err := checkMatchExpr(r.Expr, r, info.rules, 0, maxDepth); err != nil {
			return nil, err
		}
	}
	for changed := true; changed; {
		changed = false
		for _, name := range info.order {
			if !info.nullable[name] && info.exprNullable(info.rules[name].Expr) {
				info.nullable[name] = true
				changed = true
			}
		}
	}
	return info, nil
}

func checkMatchExpr(e Expr, r *Rule, rules map[string]*Rule, depth, maxDepth int) error {
	if depth > maxDepth {
		return &MatcherLimitError{Limit: "MaxExprDepth", Value: maxDepth}
	}
	if isNilExpr(e) {
		return &MatcherError{Rule: r.Name, Pos: r.Pos, Reason: "nil expression"}
	}
	switch e := e.(type) {
	case *Alt:
		for _, a := range e.Alts {
			if err := checkMatchExpr(a, r, rules, depth+1, maxDepth); err != nil {
				return err
			}
		}
	case *Seq:
		for _, a := range e.Items {
			if err := checkMatchExpr(a, r, rules, depth+1, maxDepth); err != nil {
				return err
			}
		}
	case *Repeat:
		return checkMatchExpr(e.Expr, r, rules, depth+1, maxDepth)
	case *Ref:
		if rules[e.Name] == nil {
			pos := e.Pos
			if pos.Line == 0 {
				pos = r.Pos
			}
			return &MatcherError{Rule: r.Name, Pos: pos, Reason: fmt.Sprintf("undefined rule %q", e.Name)}
		}
	case *Lit, *Class, *Any:
	default:
		return &MatcherError{Rule: r.Name, Pos: r.Pos, Reason: fmt.Sprintf("unknown expression %T", e)}
	}
	return nil
}

// isNilExpr reports a typed nil pointer, which would otherwise panic later.
func isNilExpr(e Expr) bool {
	switch e := e.(type) {
	case nil:
		return true
	case *Alt:
		return e == nil
	case *Seq:
		return e == nil
	case *Lit:
		return e == nil
	case *Class:
		return e == nil
	case *Any:
		return e == nil
	case *Ref:
		return e == nil
	case *Repeat:
		return e == nil
	}
	return false
}

// effectiveBounds returns the effective bounds of a repetition: {m,n} with
// n < m means {m}, as in llama.cpp; max < 0 means unbounded.
func effectiveBounds(e *Repeat) (lo, hi int) {
	lo, hi = max(e.Min, 0), e.Max
	if hi >= 0 && hi < lo {
		hi = lo
	}
	return lo, hi
}

func (info *grammarInfo) exprNullable(e Expr) bool {
	switch e := e.(type) {
	case *Alt:
		for _, a := range e.Alts {
			if info.exprNullable(a) {
				return true
			}
		}
		return false
	case *Seq:
		for _, a := range e.Items {
			if !info.exprNullable(a) {
				return false
			}
		}
		return true
	case *Lit:
		return e.Text == ""
	case *Ref:
		return info.nullable[e.Name]
	case *Repeat:
		lo, hi := effectiveBounds(e)
		return lo == 0 || hi == 0 || info.exprNullable(e.Expr)
	}
	return false
}

// leftRefs calls f for every rule that e may reference before consuming any
// code point.
func (info *grammarInfo) leftRefs(e Expr, f func(string)) {
	switch e := e.(type) {
	case *Alt:
		for _, a := range e.Alts {
			info.leftRefs(a, f)
		}
	case *Seq:
		for _, a := range e.Items {
			info.leftRefs(a, f)
			if !info.exprNullable(a) {
				return
			}
		}
	case *Ref:
		f(e.Name)
	case *Repeat:
		if _, hi := effectiveBounds(e); hi != 0 {
			info.leftRefs(e.Expr, f)
		}
	}
}

// checkLeftRecursion refuses grammars where a rule can reach itself without
// consuming input: llama.cpp refuses them at load time.
func (info *grammarInfo) checkLeftRecursion() error {
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var visit func(name string) error
	visit = func(name string) error {
		color[name] = grey
		var err error
		info.leftRefs(info.rules[name].Expr, func(m string) {
			if err != nil {
				return
			}
			switch color[m] {
			case grey:
				r := info.rules[m]
				err = &MatcherError{Rule: m, Pos: r.Pos, Reason: "left recursion: the rule can reach itself without consuming input"}
			case white:
				err = visit(m)
			}
		})
		color[name] = black
		return err
	}
	for _, name := range info.order {
		if color[name] == white {
			if err := visit(name); err != nil {
				return err
			}
		}
	}
	return nil
}

// recursiveRules returns the rules that can reach themselves through
// references (Tarjan's strongly connected components).
func (info *grammarInfo) recursiveRules() map[string]bool {
	index := map[string]int{}
	low := map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	rec := map[string]bool{}
	n := 0
	var strong func(v string)
	strong = func(v string) {
		index[v], low[v] = n, n
		n++
		stack = append(stack, v)
		onStack[v] = true
		walkRefs(info.rules[v].Expr, func(w string) {
			if w == v {
				rec[v] = true
			}
			if _, ok := index[w]; !ok {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		})
		if low[v] == index[v] {
			var comp []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			if len(comp) > 1 {
				for _, w := range comp {
					rec[w] = true
				}
			}
		}
	}
	for _, name := range info.order {
		if _, ok := index[name]; !ok {
			strong(name)
		}
	}
	return rec
}

// progBuilder compiles a checked grammar into a matchProg.
type progBuilder struct {
	info      *grammarInfo
	lim       MatcherLimits
	recursive map[string]bool
	sizeMemo  map[string]int
	nt        map[string]int32 // rules compiled as nonterminals
	hoisted   map[Expr]int32   // repeated bodies compiled as nonterminals
	queue     []func()         // nonterminal bodies still to compile
	setIndex  map[string]int32
	// The same literal code points and classes recur in every copy of a
	// repetition; these skip rebuilding their set keys.
	runeSetIndex  map[rune]int32
	classSetIndex map[*Class]int32
	p             *matchProg
	err           error
}

// sizeCap caps size estimates so that products never overflow.
const sizeCap = 1 << 40

func satAdd(a, b int) int { return min(a+b, sizeCap) }
func satMul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a >= sizeCap/b {
		return sizeCap
	}
	return a * b
}

// size estimates the states compile will emit for e.
func (b *progBuilder) size(e Expr) int {
	switch e := e.(type) {
	case *Alt:
		n := 1
		for _, a := range e.Alts {
			n = satAdd(n, b.size(a))
		}
		return n
	case *Seq:
		n := 0
		for _, a := range e.Items {
			n = satAdd(n, b.size(a))
		}
		return n
	case *Lit:
		return utf8.RuneCountInString(e.Text)
	case *Class, *Any:
		return 1
	case *Ref:
		if b.inlined(e.Name) {
			return b.ruleSize(e.Name)
		}
		return 1
	case *Repeat:
		lo, hi := effectiveBounds(e)
		x := b.size(e.Expr)
		if hi < 0 {
			return satAdd(1, satMul(x, lo+1))
		}
		if hi > 1 && x >= hoistMinStates {
			x = 1
		}
		return satAdd(satMul(x, lo), satMul(x+1, hi-lo))
	}
	return 0
}

func (b *progBuilder) ruleSize(name string) int {
	if n, ok := b.sizeMemo[name]; ok {
		return n
	}
	n := b.size(b.info.rules[name].Expr)
	b.sizeMemo[name] = n
	return n
}

// inlined says whether references to the rule are compiled as a copy of its
// body: small rules that are not recursive.
func (b *progBuilder) inlined(name string) bool {
	return name != "root" && !b.recursive[name] && b.ruleSize(name) <= inlineMaxStates
}

func (b *progBuilder) newState(kind uint8, arg, next int32) int32 {
	if len(b.p.kind) >= b.lim.MaxStates {
		if b.err == nil {
			b.err = &MatcherLimitError{Limit: "MaxStates", Value: b.lim.MaxStates}
		}
		return next
	}
	b.p.kind = append(b.p.kind, kind)
	b.p.arg = append(b.p.arg, arg)
	b.p.next = append(b.p.next, next)
	return int32(len(b.p.kind) - 1)
}

func (b *progBuilder) newEps(succ ...int32) int32 {
	s := b.newState(kindEps, 0, -1)
	if b.err == nil {
		b.p.eps[s] = succ
	}
	return s
}

func (b *progBuilder) set(rs []Range) int32 {
	var key strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&key, "%x-%x,", r.Lo, r.Hi)
	}
	if i, ok := b.setIndex[key.String()]; ok {
		return i
	}
	i := int32(len(b.p.sets))
	b.p.sets = append(b.p.sets, newRuneSet(rs))
	b.p.setRanges = append(b.p.setRanges, rs)
	b.setIndex[key.String()] = i
	return i
}

// newNonterminal reserves a nonterminal whose body body() compiles later.
func (b *progBuilder) newNonterminal(name string, nullable bool, body func(accept int32) int32) int32 {
	id := int32(len(b.p.ntStart))
	b.p.ntStart = append(b.p.ntStart, -1)
	b.p.ntAccept = append(b.p.ntAccept, -1)
	b.p.ntNullable = append(b.p.ntNullable, nullable)
	b.p.ntName = append(b.p.ntName, name)
	b.queue = append(b.queue, func() {
		acc := b.newState(kindAccept, id, -1)
		b.p.ntAccept[id] = acc
		b.p.ntStart[id] = body(acc)
	})
	return id
}

func (b *progBuilder) ruleNonterminal(name string) int32 {
	if id, ok := b.nt[name]; ok {
		return id
	}
	expr := b.info.rules[name].Expr
	id := b.newNonterminal(name, b.info.nullable[name], func(acc int32) int32 { return b.compile(expr, acc) })
	b.nt[name] = id
	return id
}

// compile emits states for e followed by the state next, and returns the
// state to enter e at. It works backwards, so no patching is needed.
func (b *progBuilder) compile(e Expr, next int32) int32 {
	if b.err != nil {
		return next
	}
	switch e := e.(type) {
	case *Alt:
		if len(e.Alts) == 0 {
			// Matches nothing, but like a class with no member it leaves
			// an item behind, so offsets agree with the reference.
			return b.newState(kindTerm, b.set(nil), next)
		}
		succ := make([]int32, 0, len(e.Alts))
		for _, a := range e.Alts {
			succ = append(succ, b.compile(a, next))
		}
		return b.newEps(succ...)
	case *Seq:
		for i := len(e.Items) - 1; i >= 0; i-- {
			next = b.compile(e.Items[i], next)
		}
		return next
	case *Lit:
		runes := []rune(e.Text)
		for i := len(runes) - 1; i >= 0; i-- {
			id, ok := b.runeSetIndex[runes[i]]
			if !ok {
				id = b.set(normalRanges([]Range{{runes[i], runes[i]}}, false))
				b.runeSetIndex[runes[i]] = id
			}
			next = b.newState(kindTerm, id, next)
		}
		return next
	case *Class:
		id, ok := b.classSetIndex[e]
		if !ok {
			id = b.set(normalRanges(e.Ranges, e.Negated))
			b.classSetIndex[e] = id
		}
		return b.newState(kindTerm, id, next)
	case *Any:
		return b.newState(kindTerm, b.set(normalRanges(nil, true)), next)
	case *Ref:
		if b.inlined(e.Name) {
			return b.compile(b.info.rules[e.Name].Expr, next)
		}
		return b.newState(kindCall, b.ruleNonterminal(e.Name), next)
	case *Repeat:
		return b.compileRepeat(e, next)
	}
	return next
}

// compileRepeat emits X{lo,hi} as lo copies of X followed by either a loop
// (hi < 0) or hi-lo nested optional copies (X (X (X)?)?)?, so that after k
// copies exactly one state is live. A big body is compiled once as its own
// nonterminal and each copy is one call.
func (b *progBuilder) compileRepeat(e *Repeat, next int32) int32 {
	lo, hi := effectiveBounds(e)
	one := func(next int32) int32 { return b.compile(e.Expr, next) }
	copies := hi
	if hi < 0 {
		copies = lo + 1
	}
	if copies > 1 && b.size(e.Expr) >= hoistMinStates {
		id, ok := b.hoisted[e]
		if !ok {
			body := e.Expr
			id = b.newNonterminal("", b.info.exprNullable(body), func(acc int32) int32 { return b.compile(body, acc) })
			b.hoisted[e] = id
		}
		one = func(next int32) int32 { return b.newState(kindCall, id, next) }
	}
	if hi < 0 {
		loop := b.newEps()
		if b.err != nil {
			return next
		}
		b.p.eps[loop] = []int32{one(loop), next}
		next = loop
	} else {
		tail := next
		for k := 0; k < hi-lo && b.err == nil; k++ {
			tail = b.newEps(one(tail), next)
		}
		next = tail
	}
	for k := 0; k < lo && b.err == nil; k++ {
		next = one(next)
	}
	return next
}

// closures precomputes, for every state an earleyItem can start at, the
// non-epsilon states it stands for.
func (b *progBuilder) closures() {
	p := b.p
	n := len(p.kind)
	target := make([]bool, n)
	for _, s := range p.ntStart {
		target[s] = true
	}
	for s := range n {
		if (p.kind[s] == kindTerm || p.kind[s] == kindCall) && p.next[s] >= 0 {
			target[p.next[s]] = true
		}
	}
	p.closOff = make([]int32, n+1)
	seen := make([]int32, n)
	for i := range seen {
		seen[i] = -1
	}
	var stack []int32
	for s := range n {
		p.closOff[s] = int32(len(p.clos))
		if !target[s] {
			continue
		}
		stack = append(stack[:0], int32(s))
		seen[s] = int32(s)
		for len(stack) > 0 {
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			push := func(u int32) {
				if seen[u] != int32(s) {
					seen[u] = int32(s)
					stack = append(stack, u)
				}
			}
			switch p.kind[t] {
			case kindEps:
				succ := p.eps[t]
				for i := len(succ) - 1; i >= 0; i-- {
					push(succ[i])
				}
				continue
			case kindCall:
				if p.ntNullable[p.arg[t]] {
					push(p.next[t])
				}
			}
			if len(p.clos) >= b.lim.MaxClosure {
				b.err = &MatcherLimitError{Limit: "MaxClosure", Value: b.lim.MaxClosure}
				return
			}
			p.clos = append(p.clos, t)
		}
	}
	p.closOff[n] = int32(len(p.clos))
}

func compileProg(g *Grammar, lim MatcherLimits) (*matchProg, error) {
	lim = lim.withDefaults()
	info, err := analyzeGrammar(g, lim.MaxExprDepth)
	if err != nil {
		return nil, err
	}
	if err := info.checkLeftRecursion(); err != nil {
		return nil, err
	}
	b := &progBuilder{
		info:      info,
		lim:       lim,
		recursive: info.recursiveRules(),
		sizeMemo:  map[string]int{},
		nt:        map[string]int32{},
		hoisted:   map[Expr]int32{},
		setIndex:  map[string]int32{},

		runeSetIndex:  map[rune]int32{},
		classSetIndex: map[*Class]int32{},
		p:             &matchProg{eps: map[int32][]int32{}},
	}
	b.ruleNonterminal("root")
	for len(b.queue) > 0 && b.err == nil {
		f := b.queue[0]
		b.queue = b.queue[1:]
		f()
	}
	if b.err == nil {
		b.closures()
	}
	if b.err == nil {
		b.firstSets()
	}
	if b.err != nil {
		return nil, b.err
	}
	return b.p, nil
}

// firstSets computes first[nt]: the classes scanned at the start of nt or
// of any nonterminal it calls before scanning.
func (b *progBuilder) firstSets() {
	p := b.p
	n := len(p.ntStart)
	p.first = make([]runeSet, n)
	p.firstRanges = make([][]Range, n)
	// first(nt) is what nt's closure scans itself and the first sets of the
	// nonterminals it calls. Calls form a graph with cycles; Tarjan's
	// algorithm gives its strongly connected components callees first, so
	// each component's set is built once, from its own scans and its
	// callees' finished sets: linear, where a search from every nonterminal
	// was quadratic on chains (an object of 10,000 optional members).
	calls := func(nt int32, visit func(t int32)) {
		s := p.ntStart[nt]
		for _, t := range p.clos[p.closOff[s]:p.closOff[s+1]] {
			visit(t)
		}
	}
	const unvisited = -1
	index := make([]int32, n)
	low := make([]int32, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = unvisited
	}
	var next int32
	var stack []int32 // Tarjan's stack of nonterminals
	type frame struct {
		nt   int32
		rest []int32 // states of nt's closure still to visit
	}
	var dfs []frame
	closure := func(nt int32) []int32 {
		s := p.ntStart[nt]
		return p.clos[p.closOff[s]:p.closOff[s+1]]
	}
	for root := range int32(n) {
		if index[root] != unvisited {
			continue
		}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		dfs = append(dfs[:0], frame{root, closure(root)})
		for len(dfs) > 0 {
			f := &dfs[len(dfs)-1]
			if len(f.rest) > 0 {
				t := f.rest[0]
				f.rest = f.rest[1:]
				if p.kind[t] != kindCall {
					continue
				}
				c := p.arg[t]
				switch {
				case index[c] == unvisited:
					index[c], low[c] = next, next
					next++
					stack = append(stack, c)
					onStack[c] = true
					dfs = append(dfs, frame{c, closure(c)})
				case onStack[c]:
					low[f.nt] = min(low[f.nt], index[c])
				}
				continue
			}
			nt := f.nt
			dfs = dfs[:len(dfs)-1]
			if len(dfs) > 0 {
				parent := dfs[len(dfs)-1].nt
				low[parent] = min(low[parent], low[nt])
			}
			if low[nt] != index[nt] {
				continue
			}
			// nt roots a component: its members are on the stack above it.
			i := len(stack) - 1
			for stack[i] != nt {
				i--
			}
			members := stack[i:]
			var rs []Range
			for _, m := range members {
				calls(m, func(t int32) {
					switch p.kind[t] {
					case kindTerm:
						rs = append(rs, p.setRanges[p.arg[t]]...)
					case kindCall:
						if c := p.arg[t]; !onStack[c] { // a finished component
							rs = append(rs, p.firstRanges[c]...)
						}
					}
				})
			}
			ranges := normalRanges(rs, false)
			set := newRuneSet(ranges)
			for _, m := range members {
				onStack[m] = false
			}
			for _, m := range members {
				p.firstRanges[m] = ranges
				p.first[m] = set
			}
			stack = stack[:i]
		}
	}
}

package compile

import (
	"slices"
	"sync"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/internal/names"
	"github.com/schema2gbnf/schema2gbnf/internal/reuse"
)

// prune removes what can derive no text: rules left empty (a nil Expr), and
// rules that can only recurse forever (a required property that needs
// itself), then every reference to them, then unreachable rules. A model
// must never be led into a part of the grammar it cannot finish. It reports
// whether root still derives some text.
//
// Rules are known by their index (names are unique: newName and shared make
// sure), and each rule's references are collected once: walking the bodies
// and hashing names again at every step was a quarter of compile time.
func (cp *compiler) prune() bool {
	rules := cp.g.Rules
	sc := pruneScratches.Get().(*pruneScratch)
	defer sc.release(len(rules))
	index := sc.index(rules)
	uses := sc.uses.reset(rules, index, cp.templated)
	// A worklist: when a rule turns productive, only the rules that use it
	// are looked at again. Sweeping every rule until nothing changes took
	// one sweep per link of a chain (first[i] -> first[i+1] of a wide
	// object), quadratic: half a minute for 10,000 properties.
	users := uses.users(&sc.users)
	productive := reuse.Zeroed(sc.productive, len(rules))
	sc.productive = productive
	isProductive := func(name string) bool {
		i, ok := index.lookup(name)
		return ok && productive[i]
	}
	// Backwards: a rule is mostly created before the rules it uses, so the
	// stack pops used rules first.
	work := reuse.Slice(sc.work, len(rules))
	for i := range work {
		work[i] = int32(i)
	}
	defer func() { sc.work = work[:0] }()
	// The prelude's rules, all at once when their set is closed: each
	// template derives text when every helper it names does (prelude.go
	// checks it), so a closed set of them all does, without a walk.
	if uses.templatesClosed() {
		copy(productive, uses.templated)
	}
	// Rules that use no rule (ws, hex) first: most rules use one made
	// early, and each would otherwise fail one walk of derives before it
	// is productive, then be looked at again.
	for i, r := range rules {
		if len(uses.refs[i]) == 0 && !uses.missing[i] && r.Expr != nil && derives(r.Expr, isProductive) {
			productive[i] = true
		}
	}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		if productive[i] || rules[i].Expr == nil {
			continue
		}
		// Most rules use only rules known to be productive by now: then
		// the body derives text without a look at each of its nodes.
		// A body without a choice derives text only when all it uses
		// does: then the walk of derives would say no more.
		if uses.allProductive(int(i), productive) || uses.choice[i] && derives(rules[i].Expr, isProductive) {
			productive[i] = true
			work = append(work, users.of(i)...)
		}
	}
	root, ok := index.lookup("root")
	if !ok || !productive[root] {
		return false
	}
	for i, r := range rules {
		if productive[i] && !uses.allProductive(i, productive) {
			r.Expr = simplify(r.Expr, isProductive) // drops references: collect them again
			uses.collect(i, r.Expr, nil)
		}
	}
	aliasOf := skipAliases(rules, productive, uses)
	// Keep the rules reachable from root, in their first-created order.
	reach := reuse.Zeroed(sc.reach, len(rules))
	sc.reach = reach
	reach[root] = true
	stack := append(sc.stack[:0], root)
	defer func() { sc.stack = stack[:0] }()
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, j := range uses.of(int(i)) {
			if j = aliasOf(j); !reach[j] {
				reach[j] = true
				stack = append(stack, j)
			}
		}
	}
	kept := cp.g.Rules[:0]
	cp.deep = cp.deep[:0]
	for i, r := range rules {
		if productive[i] && reach[i] {
			kept = append(kept, r)
			if uses.deep[i] {
				cp.deep = append(cp.deep, r)
			}
		}
	}
	clear(cp.g.Rules[len(kept):]) // let the dropped rules go
	cp.g.Rules = kept
	return true
}

// ruleUses lists, for each rule, the distinct rules its body refers to, in
// order of first reference, and whether it refers to an undefined name or
// holds a nil part (a part that derives nothing). The lists share one array.
type ruleUses struct {
	index     *ruleIndex
	refs      [][]int32
	flat      []int32 // the lists, one after another
	missing   []bool
	templated []bool  // the body is a template's (prelude.go)
	choice    []bool  // the body holds an alternative or an optional part
	deep      []bool  // the body nests a group maxNesting deep: outline must move parts out
	seen      []int32 // the collection that last listed each rule
	gen       int32   // the current collection
}

// collectUses is the uses of rules, each reference resolved among them.
func collectUses(rules []*gbnf.Rule) *ruleUses {
	var sc pruneScratch
	return new(ruleUses).reset(rules, sc.index(rules), nil)
}

// reset makes u the uses of rules, in u's arrays when they are large enough.
func (u *ruleUses) reset(rules []*gbnf.Rule, index *ruleIndex, templated []templateAt) *ruleUses {
	n := len(rules)
	u.index, u.gen = index, 0
	u.refs = reuse.Zeroed(u.refs, n)
	u.flat = slices.Grow(u.flat[:0], 4*n)
	u.missing, u.choice, u.seen, u.deep = reuse.Zeroed(u.missing, n), reuse.Zeroed(u.choice, n), reuse.Zeroed(u.seen, n), reuse.Zeroed(u.deep, n)
	u.templated = reuse.Zeroed(u.templated, n)
	for i, r := range rules {
		var t *template
		if len(templated) > 0 && int(templated[0].at) == i {
			t, templated = templated[0].t, templated[1:]
		}
		u.collect(i, r.Expr, t)
	}
	return u
}

// ruleIndex finds a rule's index by its name. Names are unique (newName
// and shared make sure); were one defined twice, its last rule would count,
// as in a map.
type ruleIndex struct {
	names names.Index
	rule  []int32 // by the name's index in names
}

// lookup returns the index of the rule named name, if there is one.
func (x *ruleIndex) lookup(name string) (int32, bool) {
	j, ok := x.names.Lookup(name)
	if !ok {
		return -1, false
	}
	return x.rule[j], true
}

// index makes sc's ruleIndex the index of rules.
func (sc *pruneScratch) index(rules []*gbnf.Rule) *ruleIndex {
	x := &sc.byName
	x.names.Reset(len(rules))
	x.rule = reuse.Slice(x.rule, len(rules))
	for i, r := range rules {
		j, _ := x.names.Add(r.Name)
		x.rule[j] = int32(i)
	}
	return x
}

// pruneScratch is prune's working memory, kept in a pool between compiles:
// its maps and arrays were a tenth of a small compile's allocations.
type pruneScratch struct {
	byName     ruleIndex
	uses       ruleUses
	users      adjacency
	productive []bool
	reach      []bool
	work       []int32
	stack      []int32
}

var pruneScratches = sync.Pool{New: func() any { return new(pruneScratch) }}

// maxPooledPrune is the most rules a grammar may have for prune's scratch
// to go back to the pool: a huge grammar's arrays go to the garbage
// collector instead of staying with the pool (and a large map would be
// cleared at every use).
const maxPooledPrune = 1 << 10

// release returns sc to the pool, holding no grammar's names or nodes.
func (sc *pruneScratch) release(rules int) {
	if rules > maxPooledPrune {
		return
	}
	sc.byName.names.Forget()
	sc.uses.index = nil
	clear(sc.uses.refs) // slices of flat, which holds only numbers
	pruneScratches.Put(sc)
}

// collect lists the references of rule i, whose body is e; t, if not nil,
// is the template the body may be (a prelude body: no walk).
func (u *ruleUses) collect(i int, e gbnf.Expr, t *template) {
	u.gen++
	u.missing[i] = false
	u.choice[i] = false
	u.deep[i] = false
	u.templated[i] = false
	start := len(u.flat)
	if t != nil && t.body == e {
		u.templated[i] = true
		u.choice[i] = t.choice
		for _, name := range t.refs {
			u.ref(i, name)
		}
	} else {
		u.walk(i, e, 0)
	}
	u.refs[i] = u.flat[start:len(u.flat):len(u.flat)]
}

func (u *ruleUses) walk(i int, e gbnf.Expr, depth int) {
	switch e := e.(type) {
	case nil:
		u.missing[i] = true // derives nothing, like an undefined rule
	case *gbnf.Seq:
		u.deep[i] = u.deep[i] || depth >= maxNesting
		for _, x := range e.Items {
			u.walk(i, x, depth+1)
		}
	case *gbnf.Alt:
		u.deep[i] = u.deep[i] || depth >= maxNesting
		u.choice[i] = true
		for _, x := range e.Alts {
			u.walk(i, x, depth+1)
		}
	case *gbnf.Repeat:
		u.deep[i] = u.deep[i] || depth >= maxNesting
		if e.Min == 0 {
			u.choice[i] = true
		}
		u.walk(i, e.Expr, depth+1)
	case *gbnf.Ref:
		u.ref(i, e.Name)
	}
}

// ref notes that rule i refers to name.
func (u *ruleUses) ref(i int, name string) {
	j, ok := u.index.lookup(name)
	switch {
	case !ok:
		u.missing[i] = true
	case u.seen[j] != u.gen:
		u.seen[j] = u.gen
		u.flat = append(u.flat, j)
	}
}

// users lists, for each rule, the rules that refer to it, in a's arrays
// when they are large enough.
func (u *ruleUses) users(a *adjacency) adjacency {
	n := len(u.refs)
	start := reuse.Zeroed(a.start, n+2)
	for _, refs := range u.refs {
		for _, j := range refs {
			start[j+2]++
		}
	}
	for i := 2; i <= n+1; i++ {
		start[i] += start[i-1]
	}
	to := reuse.Slice(a.to, int(start[n+1]))
	for i, refs := range u.refs {
		for _, j := range refs {
			to[start[j+1]] = int32(i)
			start[j+1]++
		}
	}
	*a = adjacency{start: start[:n+1], to: to}
	return *a
}

// adjacency lists, for each rule index i, the rules to[start[i]:start[i+1]]:
// two arrays instead of a slice per rule.
type adjacency struct{ start, to []int32 }

func (a adjacency) of(i int32) []int32 { return a.to[a.start[i]:a.start[i+1]] }

func (u *ruleUses) of(i int) []int32 { return u.refs[i] }

// templatesClosed says whether the rules whose bodies are templates refer
// to no rule but each other, every name they use defined.
func (u *ruleUses) templatesClosed() bool {
	for i, t := range u.templated {
		if !t {
			continue
		}
		if u.missing[i] {
			return false
		}
		for _, j := range u.refs[i] {
			if !u.templated[j] {
				return false
			}
		}
	}
	return true
}

// allProductive says whether rule i refers only to productive rules and
// holds no nil part, so that it derives some text and simplify has nothing
// to drop from it.
func (u *ruleUses) allProductive(i int, productive []bool) bool {
	if u.missing[i] {
		return false
	}
	for _, j := range u.refs[i] {
		if !productive[j] {
			return false
		}
	}
	return true
}

// derives says whether e can derive some finite text, given the rules known
// to do so.
func derives(e gbnf.Expr, productive func(string) bool) bool {
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
		return productive(e.Name)
	}
	return true // Lit, Class, Any
}

// simplify drops the parts of e that derive nothing; e itself derives some
// text, so the result is never nil.
func simplify(e gbnf.Expr, productive func(string) bool) gbnf.Expr {
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
// again for each text node-llama-cpp checks, so every rule costs. It
// returns what each rule index now stands for.
func skipAliases(rules []*gbnf.Rule, productive []bool, u *ruleUses) func(int32) int32 {
	// alias[i] is the rule that rule i only names, or -1; a slice, not a
	// map: resolve runs for every edge of the reachability walk.
	var alias []int32
	aliases := 0
	for i, r := range rules {
		if to, ok := r.Expr.(*gbnf.Ref); ok && productive[i] && r.Name != "root" && to.Name != r.Name {
			if j, ok := u.index.lookup(to.Name); ok {
				if alias == nil {
					alias = make([]int32, len(rules))
					for k := range alias {
						alias[k] = -1
					}
				}
				alias[i] = j
				aliases++
			}
		}
	}
	if aliases == 0 {
		return func(i int32) int32 { return i }
	}
	resolve := func(i int32) int32 {
		for steps := 0; steps <= aliases; steps++ { // bounded: a cycle of aliases stays as it is
			to := alias[i]
			if to < 0 {
				return i
			}
			i = to
		}
		return i
	}
	rename := func(name string) string {
		if i, ok := u.index.lookup(name); ok {
			return rules[resolve(i)].Name
		}
		return name
	}
	for i, r := range rules {
		if !productive[i] {
			continue
		}
		for _, j := range u.of(i) {
			if alias[j] >= 0 {
				renameRefs(r.Expr, rename)
				break
			}
		}
	}
	return resolve
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
		// Only a changed name is written: reference nodes to the reserved
		// helper rules are shared by every grammar (prelude.go).
		if n := to(e.Name); n != e.Name {
			e.Name = n
		}
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
func clean(e gbnf.Expr, productive func(string) bool) bool {
	ok := true
	walkRefs(e, func(name string) {
		if !productive(name) {
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
// own rule. Only the rules prune found that deep are walked (walking every
// body again was 6% of compiling), then the rules made of moved parts,
// which may nest deeper still: the order of a walk of every rule.
func (cp *compiler) outline() {
	made := len(cp.g.Rules)
	for _, r := range cp.deep {
		cp.outlineRule(r)
	}
	for i := made; i < len(cp.g.Rules); i++ { // the list grows as parts move out
		cp.outlineRule(cp.g.Rules[i])
	}
}

func (cp *compiler) outlineRule(r *gbnf.Rule) {
	if cp.templates.byBody[r.Expr] != nil {
		return // shallow, and shared: never to be changed
	}
	if e := cp.outlineExpr(r.Expr, r.Name, 0); e != r.Expr {
		r.Expr = e
	}
}

func (cp *compiler) outlineExpr(e gbnf.Expr, rule string, depth int) gbnf.Expr {
	switch x := e.(type) {
	case *gbnf.Seq, *gbnf.Alt, *gbnf.Repeat:
		if depth >= maxNesting {
			name := cp.newName(rule + "-part")
			cp.newRule(name, x)
			return ref(name)
		}
	}
	// Write back only what moved: nodes may be shared, and a store to
	// the heap costs more than the comparison.
	switch x := e.(type) {
	case *gbnf.Seq:
		for i, it := range x.Items {
			if y := cp.outlineExpr(it, rule, depth+1); y != it {
				x.Items[i] = y
			}
		}
	case *gbnf.Alt:
		for i, it := range x.Alts {
			if y := cp.outlineExpr(it, rule, depth+1); y != it {
				x.Alts[i] = y
			}
		}
	case *gbnf.Repeat:
		if y := cp.outlineExpr(x.Expr, rule, depth+1); y != x.Expr {
			x.Expr = y
		}
	}
	return e
}

package compile

import (
	"slices"
	"strconv"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// The members of an object as tries of next names.
//
// After "{" or a member's ",", the next member's name is one of the
// optional names ahead up to the next required one (that one included), or,
// past the last required member, an extra name when extras are allowed.
// llama.cpp keeps one stack per alternative whose next character fits, so a
// list of those names, each its own alternative (and the extra-name trie
// beside them), keeps one stack per name after the quote and along every
// name that shares the prefix typed so far. A trie over the next names
// keeps one stack per distinct next character instead.
//
// There is one trie per position i (the names of members i.. up to the next
// required one), built persistently: trie(i) is trie(i+1) plus name i, new
// nodes only along name i's path, the other branches shared by reference.
// So the grammar grows with the total length of the names, not with their
// number squared. A node that leads to a single name writes the rest of
// that name as one literal.
//
// With extras allowed, each node of the last segment is merged with the
// complement of the declared names at the same prefix: stop here (unless a
// declared name ends here), a declared name's next character, or any other
// character and then any rest. Where only one name of the trie remains, the
// rest of that name is one literal beside the complement's node (one stack
// more along that name's own suffix, one rule per name instead of one per
// character).

// member is a declared property that admits a value.
type member struct {
	name     string
	value    gbnf.Expr
	required bool
}

// maxTrieAlternatives bounds the alternatives the tries of one object may
// write (each copied node writes its own; a node near the root of many
// names, copied for each of them, is what grows). Beyond it the object gets
// one alternative per name (objectChain): larger in stacks, linear in size.
const maxTrieAlternatives = 8192

// declTrie is a trie of names: the declared names (what an extra name
// avoids), or, persistently, the names of the members ahead.
type declTrie struct {
	end      bool
	member   int // with end, in a members' trie: the member whose name ends here
	keys     []rune
	children []*declTrie
	size     int // members under this node, this one included (members' tries)
	first    int // the first of them (members' tries)
	// In a members' trie: the node this one was copied from, when the copy
	// only added a child for a new name (then the grammar can write the
	// new child and refer to the old node for the rest).
	prev *declTrie
}

func (t *declTrie) child(r rune) *declTrie {
	if i, ok := slices.BinarySearch(t.keys, r); ok {
		return t.children[i]
	}
	return nil
}

// addName adds s to a plain trie of names.
func (t *declTrie) addName(s []rune) {
	for _, r := range s {
		i, found := slices.BinarySearch(t.keys, r)
		if !found {
			t.keys = slices.Insert(t.keys, i, r)
			t.children = slices.Insert(t.children, i, &declTrie{})
		}
		t = t.children[i]
	}
	t.end = true
}

// with is t plus member k, whose name is s, as a new trie sharing every
// node off s's path. It adds the alternatives the copied nodes will write
// to *cost (fanout is that of the node at the same prefix in the trie the
// grammar will follow, the declared names' when extras are merged in).
func (t *declTrie) with(s []rune, k int, all *declTrie, cost *int) *declTrie {
	n := &declTrie{size: 1, first: k}
	if t != nil {
		*n = *t
		n.size++
		n.first = min(t.first, k)
	}
	fanout := len(n.keys)
	if all != nil {
		fanout = len(all.keys)
	}
	*cost += fanout + 2
	if len(s) == 0 {
		n.end, n.member = true, k
		return n
	}
	i, found := slices.BinarySearch(n.keys, s[0])
	var old *declTrie
	n.prev = nil
	if found {
		old = n.children[i]
		n.children = slices.Clone(n.children)
	} else {
		n.prev = t
		n.keys = slices.Insert(slices.Clone(n.keys), i, s[0])
		n.children = slices.Insert(slices.Clone(n.children), i, nil)
	}
	var next *declTrie
	if all != nil {
		next = all.child(s[0])
	}
	n.children[i] = old.with(s[1:], k, next, cost)
	return n
}

// escapedRunes is rs in canonical spelling, without quotes.
func escapedRunes(rs []rune) string {
	var b strings.Builder
	for _, r := range rs {
		e, _ := canonicalEscape(r)
		b.WriteString(e)
	}
	return b.String()
}

// memberTries writes the tries of one object.
type memberTries struct {
	cp        *compiler
	base      string
	stem      string // base cut short: the tries' many rule names are read by llama.cpp for every request
	ws        gbnf.Expr
	members   []member
	runes     [][]rune    // members' names
	all       *declTrie   // every declared name, also those no value fits; nil without extras
	extraRest gbnf.Expr   // after an extra name's closing quote; nil without extras
	extraLoop gbnf.Expr   // more extra members, after the last member
	tries     []*declTrie // tries[i]: the names that may come next at member i
	required  []int       // required[i]: the first required member at i or after, or len(members)
	tails     []gbnf.Expr // tails[i]: what may follow once member i-1 was written
	nodes     map[*declTrie]gbnf.Expr
	others    map[*declTrie]gbnf.Expr
	uniques   map[[2]any]gbnf.Expr
	vias      map[*declTrie]gbnf.Expr
	elses     map[*declTrie]gbnf.Expr
	otherName string // the complement's root rule
}

// objectMembers is the grammar of an object's members between "{" ws and
// "}", or false when the tries would be too large (see
// maxTrieAlternatives) or there is no declared name. extraValue is the value of an extra member, nil
// when extras are refused; names are every declared name.
func (cp *compiler) objectMembers(base string, members []member, names []string, extraValue gbnf.Expr) (gbnf.Expr, bool) {
	if len(names) == 0 {
		// No name to read or avoid: the chain is one optional loop of any
		// string (in any spelling) already.
		return nil, false
	}
	n := len(members)
	m := &memberTries{cp: cp, base: base, stem: stem(base), ws: cp.w(), members: members,
		runes: make([][]rune, n), tries: make([]*declTrie, n+1), required: make([]int, n+1), tails: make([]gbnf.Expr, n+1),
		nodes: map[*declTrie]gbnf.Expr{}, others: map[*declTrie]gbnf.Expr{}, uniques: map[[2]any]gbnf.Expr{},
		vias: map[*declTrie]gbnf.Expr{}, elses: map[*declTrie]gbnf.Expr{}}
	for i, mb := range members {
		m.runes[i] = []rune(mb.name)
	}
	if extraValue != nil {
		m.all = &declTrie{}
		for _, name := range names {
			m.all.addName([]rune(name))
		}
	}
	m.required[n] = n
	cost := 0
	for i := n - 1; i >= 0; i-- {
		m.required[i] = m.required[i+1]
		rest := m.tries[i+1] // the names after i, up to the next required one
		if members[i].required {
			m.required[i] = i
			rest = nil
		}
		var all *declTrie
		if m.required[i] == n {
			all = m.all
		}
		m.tries[i] = rest.with(m.runes[i], i, all, &cost)
		if cost > maxTrieAlternatives {
			return nil, false
		}
	}
	if m.all != nil {
		ws := m.ws
		m.otherName = cp.newName("extra-name")
		root := m.other(m.all, nil)
		more := cp.addRule(cp.newName(base+"-extra"), seq(lit(","), ws, lit(`"`), root, ws, lit(":"), ws, extraValue, ws))
		m.extraLoop = &gbnf.Repeat{Expr: more, Min: 0, Max: -1}
		m.extraRest = cp.addRule(cp.newName(base+"-extra-rest"), seq(ws, lit(":"), ws, extraValue, ws, m.extraLoop))
	}
	next := m.next(0)
	switch {
	case next == nil:
		return epsilon(), true
	case n > 0 && m.required[0] < n:
		return seq(lit(`"`), next), true
	}
	return alt(seq(lit(`"`), next), epsilon()), true
}

// next is what may follow the quote that opens the name of member i or a
// later one (or an extra member's); nil when nothing can.
func (m *memberTries) next(i int) gbnf.Expr {
	if i == len(m.members) {
		if m.all == nil {
			return nil
		}
		return seq(m.other(m.all, nil), m.extraRest)
	}
	if m.required[i] == len(m.members) && m.all != nil {
		return m.merged(m.tries[i], m.all, 0)
	}
	return m.names(m.tries[i], 0)
}

// tail is what may follow once members before i were decided and at least
// one was written: a comma and the next member, or nothing when no required
// member is left.
func (m *memberTries) tail(i int) gbnf.Expr {
	if m.tails[i] != nil {
		return m.tails[i]
	}
	var t gbnf.Expr
	switch {
	case i == len(m.members) && m.all != nil:
		t = m.extraLoop
	case i == len(m.members):
		t = epsilon()
	default:
		t = seq(lit(","), m.ws, lit(`"`), m.next(i))
		if m.required[i] == len(m.members) {
			t = alt(t, epsilon())
		}
		t = m.cp.addRule(m.cp.newName(m.stem+"-rest"+strconv.Itoa(i+1)), t)
	}
	m.tails[i] = t
	return t
}

// leaf follows member k's closing quote: its value, then the rest.
func (m *memberTries) leaf(k int) gbnf.Expr {
	return seq(m.ws, lit(":"), m.ws, m.members[k].value, m.ws, m.tail(k+1))
}

// names is the trie t of member names, depth runes in, without extras:
// a node leading to one name writes the rest of it as one literal, and a
// chain of single children is one literal.
func (m *memberTries) names(t *declTrie, depth int) gbnf.Expr {
	if e, ok := m.nodes[t]; ok {
		return e
	}
	if t.prev != nil {
		// Only a new name's first rune was added here: that name, or the
		// node before (a chain of rules, not a copy of every name per
		// member: the same stacks, a grammar linear in the names).
		e := alt(m.single(t.first, depth), m.names(t.prev, depth))
		if _, ok := e.(*gbnf.Alt); ok {
			e = m.cp.addRule(m.cp.newName(m.stem+"-next"+strconv.Itoa(t.first+1)), e)
		}
		m.nodes[t] = e
		return e
	}
	var alts []gbnf.Expr
	if t.end {
		alts = append(alts, seq(lit(`"`), m.leaf(t.member)))
	}
	for i, r := range t.keys {
		c := t.children[i]
		if c.size == 1 {
			alts = append(alts, m.single(c.first, depth))
			continue
		}
		label := []rune{r}
		d := depth + 1
		for !c.end && len(c.keys) == 1 {
			label = append(label, c.keys[0])
			c = c.children[0]
			d++
		}
		alts = append(alts, seq(lit(escapedRunes(label)), m.names(c, d)))
	}
	e := alt(alts...)
	if len(alts) > 1 {
		e = m.cp.addRule(m.cp.newName(m.stem+"-next"+strconv.Itoa(t.first+1)), e)
	}
	m.nodes[t] = e
	return e
}

// merged is the node t of the members' trie merged with the node all of
// the declared names' trie at the same prefix, depth runes in: the next
// member's name or an extra one. t may be nil (no member name here).
func (m *memberTries) merged(t *declTrie, all *declTrie, depth int) gbnf.Expr {
	if t == nil {
		return seq(m.other(all, nil), m.extraRest)
	}
	if e, ok := m.nodes[t]; ok {
		return e
	}
	var alts []gbnf.Expr
	if t.end {
		alts = append(alts, seq(lit(`"`), m.leaf(t.member)))
	}
	for i, r := range all.keys {
		c := t.child(r)
		switch {
		case c == nil:
			alts = append(alts, m.extraVia(all, i))
		case c.size == 1:
			alts = append(alts, m.unique(c.first, all.children[i], depth))
		default:
			e, _ := canonicalEscape(r)
			alts = append(alts, seq(lit(e), m.merged(c, all.children[i], depth+1)))
		}
	}
	alts = append(alts, m.extraElse(all))
	e := m.cp.addRule(m.cp.newName(m.stem+"-next"+strconv.Itoa(t.first+1)), alt(alts...))
	m.nodes[t] = e
	return e
}

// The parts of a merged node that only extra names take are rules of their
// own, shared by every copy of the node: a copy writes one reference each.

// extraVia is an extra name that goes on with all's child i, which no
// member name ahead takes.
func (m *memberTries) extraVia(all *declTrie, i int) gbnf.Expr {
	child := all.children[i]
	if e, ok := m.vias[child]; ok {
		return e
	}
	e, _ := canonicalEscape(all.keys[i])
	v := m.cp.addRule(m.cp.newName(m.otherName+"-via"), seq(lit(e), m.other(child, nil), m.extraRest))
	m.vias[child] = v
	return v
}

// extraElse is an extra name that ends at all (unless a declared name
// does) or goes on with a character no declared name takes there.
func (m *memberTries) extraElse(all *declTrie) gbnf.Expr {
	if e, ok := m.elses[all]; ok {
		return e
	}
	var alts []gbnf.Expr
	if !all.end {
		alts = append(alts, seq(lit(`"`), m.extraRest))
	}
	// Any other character: the choice spread over the alternatives, not a
	// group (a group is one more rule for llama.cpp, as many stacks).
	other := m.cp.otherTail(all.keys, m.canonicalTail())
	if a, ok := other.(*gbnf.Alt); ok {
		for _, x := range a.Alts {
			alts = append(alts, seq(x, m.extraRest))
		}
	} else {
		alts = append(alts, seq(other, m.extraRest))
	}
	e := m.cp.addRule(m.cp.newName(m.otherName+"-else"), alt(alts...))
	m.elses[all] = e
	return e
}

// single is the rest of member k's name from depth runes in, its closing
// quote and what follows, written where it is used: usually once (a node
// is copied whole only when a later name shares its prefix).
func (m *memberTries) single(k, depth int) gbnf.Expr {
	return seq(lit(escapedRunes(m.runes[k][depth:])+`"`), m.leaf(k))
}

// unique is what follows the first depth runes of member k's name when no
// other member's name ahead shares the next one, all: the rest of k's name,
// or an extra name that starts alike.
func (m *memberTries) unique(k int, all *declTrie, depth int) gbnf.Expr {
	key := [2]any{k, all}
	if e, ok := m.uniques[key]; ok {
		return e
	}
	e, _ := canonicalEscape(m.runes[k][depth])
	u := m.cp.addRule(m.cp.newName(m.stem+"-name"+strconv.Itoa(k+1)), alt(
		seq(lit(escapedRunes(m.runes[k][depth:])+`"`), m.leaf(k)),
		seq(lit(e), m.other(all, nil), m.extraRest)))
	m.uniques[key] = u
	return u
}

// other is the node all of the complement of the declared names: the rest
// of a JSON string, canonically spelled, through its closing quote, whose
// name is none of the declared ones. One rule per node; prefix is the
// node's path, for its name.
func (m *memberTries) other(all *declTrie, prefix []rune) gbnf.Expr {
	if e, ok := m.others[all]; ok {
		return e
	}
	var alts []gbnf.Expr
	if !all.end {
		alts = append(alts, lit(`"`))
	}
	for i, r := range all.keys {
		e, _ := canonicalEscape(r)
		alts = append(alts, seq(lit(e), m.other(all.children[i], append(prefix, r))))
	}
	alts = append(alts, m.cp.otherTail(all.keys, m.canonicalTail()))
	if len(alts) == 1 && len(prefix) > 0 {
		// A declared name's end with nothing below: any character and
		// any rest, written where it is used rather than one rule each.
		m.others[all] = alts[0]
		return alts[0]
	}
	name := m.otherName
	if len(prefix) > 0 {
		name = m.cp.newName(m.otherName + "-" + string(prefix[:min(len(prefix), maxNamePrefix)]))
	}
	e := m.cp.addRule(name, alt(alts...))
	m.others[all] = e
	return e
}

// stem is base cut to maxStem bytes (at a dash when it can): llama.cpp
// parses every rule name at each reference and keeps them in a map; every
// rule renamed r1, r2, ... parses 1.2x faster (207 corpus grammars in node).
func stem(base string) string {
	if len(base) <= maxStem {
		return base
	}
	cut := base[:maxStem]
	if i := strings.LastIndexByte(cut, '-'); i > 0 {
		cut = cut[:i]
	}
	return cut
}

// maxStem bounds the object part of the tries' rule names.
const maxStem = 16

// maxNamePrefix is how much of a complement node's path its rule name
// shows (a long name's nodes would otherwise cost their depth each).
const maxNamePrefix = 12

// canonicalTail is any canonical rest of a string and its closing quote.
func (m *memberTries) canonicalTail() gbnf.Expr {
	return m.cp.shared("canonical-tail", func(string) gbnf.Expr {
		return seq(&gbnf.Repeat{Expr: m.cp.shared("canonical-char", func(string) gbnf.Expr { return m.cp.canonicalChar(nil) }), Min: 0, Max: -1}, lit(`"`))
	})
}

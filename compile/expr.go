package compile

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// Grammar-building helpers. A nil gbnf.Expr stands for the empty language
// (no text at all); it never reaches the printed grammar: seq and alt
// propagate it, and prune removes what is left.

// epsilon is the empty sequence: one node shared by every grammar, as the
// one-character literals are (expressions are read-only, and no pass adds
// items to a sequence it did not build). Objects start from two of them,
// and a new one each was 2% of all compile allocations.
func epsilon() gbnf.Expr { return &emptySeq }

var emptySeq gbnf.Seq

// lit is the literal s. One-character ASCII literals (punctuation, digits,
// the letters of extra-name tries: most literals) are shared nodes, not new
// ones: nothing changes a Lit once built, and they were a ninth of all
// compile allocations.
func lit(s string) gbnf.Expr {
	if len(s) == 1 && s[0] < utf8.RuneSelf {
		return &asciiLits[s[0]]
	}
	return &gbnf.Lit{Text: s}
}

// asciiLits holds the literal of each ASCII character, for lit.
var asciiLits = func() (lits [utf8.RuneSelf]gbnf.Lit) {
	for i := range lits {
		lits[i].Text = string(rune(i))
	}
	return lits
}()

func ref(name string) gbnf.Expr { return &gbnf.Ref{Name: name} }

func isEpsilon(e gbnf.Expr) bool {
	s, ok := e.(*gbnf.Seq)
	return ok && len(s.Items) == 0
}

// seq is the concatenation of items: nil if any item is nil, flattened,
// without empty sequences, adjacent literals joined.
func seq(items ...gbnf.Expr) gbnf.Expr {
	var buf [16]gbnf.Expr // the result is copied out: one allocation for node and items
	out, ok := seqItems(buf[:0], items)
	if !ok {
		return nil
	}
	if len(out) == 1 {
		return out[0]
	}
	return newSeq(out)
}

// seqItems appends the items of seq(items...) to out; false if one is nil.
func seqItems(out, items []gbnf.Expr) ([]gbnf.Expr, bool) {
	for _, it := range items {
		if it == nil {
			return nil, false
		}
		if s, ok := it.(*gbnf.Seq); ok {
			for _, x := range s.Items {
				out = appendItem(out, x)
			}
			continue
		}
		out = appendItem(out, it)
	}
	return out, true
}

// newSeq makes a Seq of a copy of items; up to 16 items share one
// allocation with the node (seq and alt make most of a grammar's nodes, and
// allocation was most of compile time).
func newSeq(items []gbnf.Expr) *gbnf.Seq {
	n := len(items)
	switch {
	case n <= 3:
		p := &struct {
			node gbnf.Seq
			buf  [3]gbnf.Expr
		}{}
		p.node.Items = p.buf[:n:n]
		copy(p.node.Items, items)
		return &p.node
	case n <= 8:
		p := &struct {
			node gbnf.Seq
			buf  [8]gbnf.Expr
		}{}
		p.node.Items = p.buf[:n:n]
		copy(p.node.Items, items)
		return &p.node
	case n <= 16:
		p := &struct {
			node gbnf.Seq
			buf  [16]gbnf.Expr
		}{}
		p.node.Items = p.buf[:n:n]
		copy(p.node.Items, items)
		return &p.node
	}
	return &gbnf.Seq{Items: slices.Clone(items)}
}

// newAlt is newSeq for Alt. The two stay separate: one generic helper
// over both node types measured 3-8% slower on the compile stage.
func newAlt(items []gbnf.Expr) *gbnf.Alt {
	n := len(items)
	switch {
	case n <= 3:
		p := &struct {
			node gbnf.Alt
			buf  [3]gbnf.Expr
		}{}
		p.node.Alts = p.buf[:n:n]
		copy(p.node.Alts, items)
		return &p.node
	case n <= 8:
		p := &struct {
			node gbnf.Alt
			buf  [8]gbnf.Expr
		}{}
		p.node.Alts = p.buf[:n:n]
		copy(p.node.Alts, items)
		return &p.node
	case n <= 16:
		p := &struct {
			node gbnf.Alt
			buf  [16]gbnf.Expr
		}{}
		p.node.Alts = p.buf[:n:n]
		copy(p.node.Alts, items)
		return &p.node
	}
	return &gbnf.Alt{Alts: slices.Clone(items)}
}

func appendItem(out []gbnf.Expr, x gbnf.Expr) []gbnf.Expr {
	if l, ok := x.(*gbnf.Lit); ok && l.Text == "" {
		return out
	}
	if l, ok := x.(*gbnf.Lit); ok && len(out) > 0 {
		if prev, ok := out[len(out)-1].(*gbnf.Lit); ok {
			out[len(out)-1] = &gbnf.Lit{Text: prev.Text + l.Text}
			return out
		}
	}
	return append(out, x)
}

// alt is the union of items: nil items dropped, nested unions flattened,
// nil when nothing is left.
func alt(items ...gbnf.Expr) gbnf.Expr {
	var buf [16]gbnf.Expr // the result is copied out: one allocation for node and items
	out := altItems(buf[:0], items)
	switch len(out) {
	case 0:
		return nil
	case 1:
		return out[0]
	}
	return newAlt(out)
}

// altItems appends the items of alt(items...) to out.
func altItems(out, items []gbnf.Expr) []gbnf.Expr {
	for _, it := range items {
		if it == nil {
			continue
		}
		if a, ok := it.(*gbnf.Alt); ok {
			out = append(out, a.Alts...)
			continue
		}
		out = append(out, it)
	}
	return out
}

// opt is e or nothing.
func opt(e gbnf.Expr) gbnf.Expr {
	if e == nil || isEpsilon(e) {
		return epsilon()
	}
	return &gbnf.Repeat{Expr: e, Min: 0, Max: 1}
}

// class builds a character class from sorted, possibly touching runes.
func class(negated bool, runes ...rune) *gbnf.Class {
	c := &gbnf.Class{Negated: negated}
	for _, r := range runes {
		n := len(c.Ranges)
		if n > 0 && c.Ranges[n-1].Hi+1 >= r {
			if r > c.Ranges[n-1].Hi {
				c.Ranges[n-1].Hi = r
			}
			continue
		}
		c.Ranges = append(c.Ranges, gbnf.Range{Lo: r, Hi: r})
	}
	return c
}

// rangeClass is [lo-hi].
func rangeClass(lo, hi rune) gbnf.Expr {
	if lo > hi {
		return nil
	}
	if lo == hi {
		return lit(string(lo))
	}
	return &gbnf.Class{Ranges: []gbnf.Range{{Lo: lo, Hi: hi}}}
}

// newName allocates a rule name derived from base: [a-zA-Z0-9-] only, never
// one already in use, numbered on collision, in a deterministic order.
//
// Names are only ever added, so the smallest free number for a base never
// goes down: the search starts after the last number given to that base
// (cp.nextSuffix), which keeps a thousand "extra-name-N" rules linear
// instead of quadratic.
func (cp *compiler) newName(base string) string {
	base = sanitize(base)
	if !cp.nameTaken(base) {
		put(&cp.names, base, true)
		return base
	}
	i := max(2, cp.nextSuffix[base]+1)
	name := base + "-" + strconv.Itoa(i)
	for cp.nameTaken(name) {
		i++
		name = base + "-" + strconv.Itoa(i)
	}
	put(&cp.names, name, true)
	put(&cp.nextSuffix, base, i)
	return name
}

// nameTaken says whether a rule has the name or it is reserved.
func (cp *compiler) nameTaken(name string) bool {
	return cp.names[name] || reservedNames[name] || cp.hasTailNot(name)
}

// sanitize keeps letters and digits, turns every other run into one "-",
// and keeps names short enough to read.
func sanitize(s string) string {
	if isCleanName(s) {
		return s // most bases are: skip the copy
	}
	// Bytes, not runes: every byte of a multi-byte rune is non-ASCII, so a
	// rune is a run of "other" bytes either way. Only the first 60 bytes
	// of the result are kept, so the scan stops past them. The buffer is on
	// the stack: the string is the one allocation.
	var buf [maxNameLen + 1]byte
	b := buf[:0]
	dash := false
	for i := 0; i < len(s) && len(b) <= maxNameLen; i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			if dash && len(b) > 0 {
				b = append(b, '-')
			}
			dash = false
			b = append(b, c)
			continue
		}
		dash = true
	}
	out := string(b)
	if len(out) > maxNameLen {
		out = strings.TrimRight(out[:maxNameLen], "-")
	}
	if out == "" {
		out = "schema"
	}
	return out
}

// maxNameLen bounds the length of the names sanitize makes.
const maxNameLen = 60

// isCleanName says whether sanitize would return s unchanged: letters and
// digits in runs joined by single dashes, at most 60 bytes.
func isCleanName(s string) bool {
	if s == "" || len(s) > maxNameLen || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case c == '-' && s[i-1] != '-':
		default:
			return false
		}
	}
	return true
}

// pointerName derives a readable rule name from a JSON Pointer:
// "/properties/name" → "properties-name", "/$defs/node" → "defs-node".
func pointerName(ptr string) string {
	if ptr == "" {
		return "root"
	}
	if !strings.Contains(ptr, "~") {
		// No escapes: "/" runs become "-" in sanitize as the joints would.
		return sanitize(ptr)
	}
	segs := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, s := range segs {
		s = strings.ReplaceAll(s, "~1", "/")
		segs[i] = strings.ReplaceAll(s, "~0", "~")
	}
	return sanitize(strings.Join(segs, "-"))
}

// addFrozen appends a template's rule shared by every grammar (the
// prelude's, frozen: see gbnf.Freeze) to the grammar.
func (cp *compiler) addFrozen(t *template) {
	if cp.g.Rules == nil {
		cp.g.Rules = make([]*gbnf.Rule, 0, 48)
	}
	cp.noteTemplate(t)
	cp.g.Rules = append(cp.g.Rules, t.rule)
}

// dropRule removes the rule at place at from the grammar, before prune.
func (cp *compiler) dropRule(at int) {
	cp.g.Rules = slices.Delete(cp.g.Rules, at, at+1)
	for k := len(cp.templated) - 1; k >= 0 && cp.templated[k].at > int32(at); k-- { // in order of place
		cp.templated[k].at--
	}
}

// noteTemplate notes that the next rule of the grammar has t's body.
func (cp *compiler) noteTemplate(t *template) {
	if cp.templated == nil {
		cp.templated = make([]templateAt, 0, 32) // most grammars hold fewer
	}
	cp.templated = append(cp.templated, templateAt{int32(len(cp.g.Rules)), t})
}

// templateAt is a rule of the grammar, by its place, whose body is t's.
type templateAt struct {
	at int32
	t  *template
}

// newRule appends a rule to the grammar. Rules come from blocks, and the
// list starts with room for a typical grammar: a rule and the list's growth
// were a fifth of a small object's allocations.
func (cp *compiler) newRule(name string, e gbnf.Expr) *gbnf.Rule {
	if len(cp.ruleBlock) == cap(cp.ruleBlock) {
		cp.ruleBlock = make([]gbnf.Rule, 0, 16)
	}
	if cp.g.Rules == nil {
		cp.g.Rules = make([]*gbnf.Rule, 0, 48)
	}
	cp.ruleBlock = append(cp.ruleBlock, gbnf.Rule{Name: name, Expr: e})
	r := &cp.ruleBlock[len(cp.ruleBlock)-1]
	cp.g.Rules = append(cp.g.Rules, r)
	return r
}

// ref is a reference to name, from a block (see newRule).
func (cp *compiler) ref(name string) gbnf.Expr {
	if len(cp.refBlock) == cap(cp.refBlock) {
		cp.refBlock = make([]gbnf.Ref, 0, 16)
	}
	cp.refBlock = append(cp.refBlock, gbnf.Ref{Name: name})
	return &cp.refBlock[len(cp.refBlock)-1]
}

// addRule appends a named rule and returns a reference to it.
func (cp *compiler) addRule(name string, e gbnf.Expr) gbnf.Expr {
	cp.newRule(name, e)
	return cp.ref(name)
}

// shared returns a reference to the helper rule for key, building it once,
// or taking its body from the prelude (prelude.go).
//
// Every use gets the same reference node (a new one per use was over half
// of all references allocated). Sharing is safe: the only change made to a
// reference is prune's alias renaming, which gives every reference to a
// name the same new name and renames a renamed one to itself.
func (cp *compiler) shared(key string, build func(name string) gbnf.Expr) gbnf.Expr {
	if cp.recording != nil {
		cp.recording.asked(key)
	}
	if t := cp.templates.byKey[key]; t != nil && t.use != nil { // a reserved name: no maps
		if cp.taken&(1<<t.bit) == 0 {
			cp.taken |= 1 << t.bit
			cp.addFrozen(t)
			for _, k := range t.uses { // every one has a template
				cp.shared(k, nil)
			}
		}
		return t.use
	}
	if r, ok := cp.sharedRefs[key]; ok {
		return r
	}
	if name, ok := cp.helper[key]; ok { // named by code that keeps its own helper keys
		return cp.ref(name)
	}
	name := key
	if !cp.nameTaken(key) || isHelperName(key) {
		put(&cp.names, key, true)
	} else {
		name = cp.newName(key)
	}
	cp.helper[key] = name
	use := cp.ref(name)
	cp.sharedRefs[key] = use
	t := cp.templates.byKey[key]
	if t != nil {
		cp.noteTemplate(t)
	}
	r := cp.newRule(name, nil)
	if t != nil {
		r.Expr = t.body
		for _, k := range t.uses { // every one has a template
			cp.shared(k, nil)
		}
		return use
	}
	if cp.recording != nil {
		cp.recording.building = append(cp.recording.building, key)
		defer func() { cp.recording.building = cp.recording.building[:len(cp.recording.building)-1] }()
	}
	r.Expr = build(name)
	return use
}

func isHelperName(n string) bool {
	for _, h := range helperNames {
		if h == n {
			return true
		}
	}
	return false
}

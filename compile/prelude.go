package compile

import (
	"slices"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// The prelude: helper rules whose bodies never depend on the schema (any
// value, strings, numbers, canonical characters). Building them was about a
// third of compiling a small object (a 2-property object with extras
// allowed: 353 allocations, most of them these rules). They are built once
// per whitespace mode, on the first compile (about 30 µs), and every compile
// hands out the same bodies (shared): a grammar's expressions are
// read-only, the same contract as the shared one-character literals.
// TestPreludeUnchanged checks that nothing writes to them. Those with a
// reserved name are whole shared rules, frozen (gbnf.Freeze): printed and
// checked once, not in every grammar, where they are half the text of a
// small one. The rules "any character but X, then the rest" for ASCII X
// (tailNotRule) are built the first time a compile needs each: all 128 at
// once took 450 µs, a cost a one-schema process such as the CLI would pay
// for a handful of them.

// template is a prebuilt helper rule body and the helper rules it refers to,
// in the order a fresh build would have added them.
type template struct {
	body gbnf.Expr
	uses []string // helper keys
	// What prune would learn by walking the body (ruleUses.collect): the
	// names it refers to, in order of first reference, and whether it
	// holds a choice.
	refs   []string
	choice bool
	// For a rule with a reserved name (helperNames), the same in every
	// grammar: the rule itself, frozen (gbnf.Freeze: printed and checked
	// once), the one reference node every grammar uses (prune's alias
	// renaming never writes a name it does not change), and its bit in
	// compiler.taken.
	rule *gbnf.Rule
	use  gbnf.Expr
	bit  uint
}

// preludeSet is the prelude of one whitespace mode: the templates by key,
// and by body, for passes that meet a body and skip the walk of it.
type preludeSet struct {
	byKey  map[string]*template
	byBody map[gbnf.Expr]*template
}

var preludes [2]struct {
	once sync.Once
	set  preludeSet
}

// prelude returns the helper templates for a whitespace mode.
func prelude(ws Whitespace) preludeSet {
	i := 0
	if ws == Compact {
		i = 1
	}
	p := &preludes[i]
	p.once.Do(func() {
		p.set.byKey = buildPrelude(ws)
		p.set.byBody = make(map[gbnf.Expr]*template, len(p.set.byKey))
		for _, t := range p.set.byKey {
			p.set.byBody[t.body] = t
		}
	})
	return p.set
}

// buildPrelude builds every helper rule of the prelude with a compiler that
// has no templates, noting which helper rules each build asks for, in order:
// a compile that takes a template asks for the same ones after it, so its
// rules come out in the order a build would give them.
func buildPrelude(ws Whitespace) map[string]*template {
	cp := compilerWithoutPrelude(&subsetcheck.Checked{}, Options{Whitespace: ws})
	cp.recording = &useRecorder{uses: map[string][]string{}}
	cp.anyValue()
	cp.integerAny()
	cp.canonicalTail()
	keyOf := make(map[string]string, len(cp.helper))
	for key, name := range cp.helper {
		keyOf[name] = key
	}
	out := make(map[string]*template, len(cp.g.Rules))
	for _, r := range cp.g.Rules {
		key := keyOf[r.Name]
		t := &template{body: r.Expr, uses: cp.recording.uses[key]}
		// A rule the build was handed rather than asked for (the tail of
		// canonical-tail-not-X) is asked for last.
		walkRefs(r.Expr, func(name string) {
			used, ok := keyOf[name]
			if !ok || used != name || !isHelperName(name) {
				// A compile may name a rule otherwise; only the reserved
				// names are the same in every grammar.
				panic("compile: prelude rule " + r.Name + " refers to " + name + ", not a reserved helper")
			}
			if !slices.Contains(t.uses, used) {
				t.uses = append(t.uses, used)
			}
			if !slices.Contains(t.refs, name) {
				t.refs = append(t.refs, name)
			}
		})
		u := collectUses([]*gbnf.Rule{r})
		t.choice = u.choice[0]
		out[key] = t
	}
	// Every template derives text (prune takes a closed set of them as
	// productive without a walk): each does once the ones it names do.
	productive := map[string]bool{}
	for grew := true; grew; {
		grew = false
		for key, t := range out {
			if !productive[key] && derives(t.body, func(name string) bool { return productive[name] }) {
				productive[key], grew = true, true
			}
		}
	}
	if len(productive) != len(out) {
		panic("compile: a prelude rule derives no text")
	}
	// Bits in the order of helperNames, so that they never depend on the
	// order of a map.
	var frozen []*gbnf.Rule
	for i, name := range helperNames {
		if t := out[name]; t != nil {
			t.rule = &gbnf.Rule{Name: name, Expr: t.body}
			t.use, t.bit = ref(name), uint(i)
			frozen = append(frozen, t.rule)
		}
	}
	// They refer only to each other (checked above).
	if err := gbnf.Freeze(frozen); err != nil {
		panic("compile: the prelude is not valid GBNF: " + err.Error())
	}
	return out
}

// useRecorder notes, while the prelude is built, which helper rules the
// build of each one asks for.
type useRecorder struct {
	building []string            // the keys being built, innermost last
	uses     map[string][]string // by key, in order of first request
}

// asked notes that the rule being built asks for key.
func (u *useRecorder) asked(key string) {
	if len(u.building) == 0 {
		return
	}
	b := u.building[len(u.building)-1]
	if !slices.Contains(u.uses[b], key) {
		u.uses[b] = append(u.uses[b], key)
	}
}

// tailNotRules holds, per whitespace mode and ASCII rune X, the template
// of the rule canonical-tail-not-X once a compile has built it, its rule
// frozen with the prelude's rules it refers to.
var tailNotRules [2][utf8.RuneSelf]atomic.Pointer[template]

// tailNotRule is the template of the shared rule canonical-tail-not-r for
// ASCII r. Two compiles that miss at once both build it and one store wins:
// the rules are the same, so grammars do not depend on which.
func tailNotRule(ws gbnf.Expr, r rune) *template {
	mode := Bounded
	if isEpsilon(ws) {
		mode = Compact
	}
	slot := &tailNotRules[0][r]
	if mode == Compact {
		slot = &tailNotRules[1][r]
	}
	if rule := slot.Load(); rule != nil {
		return rule
	}
	cp := newCompiler(&subsetcheck.Checked{}, Options{Whitespace: mode})
	rule := &gbnf.Rule{Name: tailNotRefs[r].Name, Expr: thenTail(cp.canonicalChar([]rune{r}), cp.canonicalTail())}
	set := []*gbnf.Rule{rule}
	for _, t := range cp.templates.byKey {
		if t.rule != nil {
			set = append(set, t.rule)
		}
	}
	if err := gbnf.Freeze(set); err != nil {
		panic("compile: canonical-tail-not-" + string(r) + " is not valid GBNF: " + err.Error())
	}
	t := &template{body: rule.Expr, rule: rule, use: &tailNotRefs[r]}
	walkRefs(rule.Expr, func(name string) {
		if !slices.Contains(t.refs, name) {
			t.refs = append(t.refs, name)
		}
	})
	t.choice = collectUses(set[:1]).choice[0]
	if !derives(t.body, func(string) bool { return true }) { // it names prelude rules only (Freeze saw to it), and they derive text
		panic("compile: canonical-tail-not-" + string(r) + " derives no text")
	}
	slot.CompareAndSwap(nil, t)
	return slot.Load()
}

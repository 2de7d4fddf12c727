// Package compile turns a checked schema into a grammar that accepts exactly
// the texts whose JSON value the schema accepts (see DESIGN.md §2): sound on
// every text, complete on the canonical serialization (Canonical).
//
// The compiler works in three steps. First each schema is expanded into
// "plain" alternatives: schemas without $ref or anyOf, obtained by meeting the
// schema's own keywords with its $ref target and with each anyOf branch
// (expand.go). Each plain alternative becomes a union of per-type grammars
// (schema.go for objects, arrays and enums; json.go for strings, numbers and
// any value; integer.go for integer ranges; repeat.go for big counts;
// pattern.go for strings with a pattern, their language an automaton that
// machine.go writes a rule per state; names.go for patternProperties and
// propertyNames). Last,
// rules that can derive no text are pruned, unreachable rules dropped and
// deep groups moved into rules of their own (prune.go); a root that admits
// nothing is an error, never a grammar. Canonical (canonical.go) walks the
// same alternatives with a small validator for the subset (validate.go).
// Helper rules that never depend on the schema (any value, strings,
// numbers, canonical characters) are built once per process and shared by
// every grammar (prelude.go).
package compile

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/strlang"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Whitespace says where a grammar lets a model put whitespace.
type Whitespace string

const (
	// Bounded allows, at each place JSON allows whitespace inside an object
	// or array, nothing, or one space or newline followed by up to 20
	// spaces or tabs. Never unbounded: a model left free loops on it.
	Bounded Whitespace = "bounded"
	// Compact allows no whitespace at all: the canonical text only.
	Compact Whitespace = "compact"
)

// Options steer Compile. The zero value means bounded whitespace and the
// default limits.
type Options struct {
	Whitespace Whitespace // "" means Bounded
	// MaxRules bounds the number of rules in the grammar (C403 beyond it);
	// 0 means DefaultMaxRules.
	MaxRules int
	// MaxAlternatives bounds the alternatives one schema expands into
	// (C402 beyond it); 0 means the constant MaxAlternatives.
	MaxAlternatives int
	// MaxMeets bounds the merged schemas of one compile (C402 beyond it);
	// 0 means the constant MaxMeets.
	MaxMeets int
	// MaxCountStates bounds the states one count needs: an object's
	// member counts, an array's contains counts (C403 beyond it); 0 means
	// DefaultMaxCountStates.
	MaxCountStates int
	// MaxMultipleOfStates bounds the states of the digit automaton of one
	// multipleOf: digit positions times remainders (C403 beyond it); 0
	// means DefaultMaxMultipleOfStates.
	MaxMultipleOfStates int
	// MaxUniqueItems bounds the item values uniqueItems may list when it
	// is enforced by listing them (C402 beyond it); 0 means
	// DefaultMaxUniqueItems.
	MaxUniqueItems int
	// MaxOneOfPairs bounds the pairs of oneOf branches one compile
	// compares (C402 beyond it); 0 means the constant MaxOneOfPairs.
	MaxOneOfPairs int
	// MaxRelaxRounds bounds the compiles of one Lenient call (C405 beyond
	// it); 0 means DefaultMaxRelaxRounds.
	MaxRelaxRounds int
}

// Named limits. Each ends in a problem with its own code when reached.
const (
	// DefaultMaxRules is the default of Options.MaxRules: far above any real
	// schema (a 1,000-property object needs about 2,000 rules), low enough
	// that a hostile schema cannot make a grammar llama.cpp chokes on.
	DefaultMaxRules = 50000
	// MaxRepeatCount is the largest count ever printed in x{m,n}: llama.cpp
	// expands repetitions at load time and caps counts near 2000, so bigger
	// bounds are written as nested blocks of this many items.
	MaxRepeatCount = 100
	// MaxMeets is the default of Options.MaxMeets: it bounds the schemas
	// created by combining a schema's keywords with its $ref target and the
	// branches of its combinators (C402 beyond it), in the compile and the
	// compiles that prove its oneOfs together: 3.8x the corpus's most
	// (5,256, a oneOf whose overlapping branches are met with complements).
	MaxMeets = 20000
	// MaxAlternatives is the default of Options.MaxAlternatives: it bounds
	// the alternatives one schema expands into: $ref
	// and anyOf beside other keywords multiply (a chain of k two-branch
	// anyOfs has 2^k combinations), C402 beyond it.
	MaxAlternatives = 1000
	// DefaultMaxCountStates is the default of Options.MaxCountStates: a
	// count over a few dozen optional members, far from any real schema's.
	DefaultMaxCountStates = 5000
	// DefaultMaxMultipleOfStates is the default of
	// Options.MaxMultipleOfStates: multipleOf 0.001 over ten-digit bounds
	// needs a few dozen; 1e-300 needs about 600.
	DefaultMaxMultipleOfStates = 5000
	// DefaultMaxUniqueItems is the default of Options.MaxUniqueItems.
	DefaultMaxUniqueItems = 8
	// MaxOneOfPairs is the default of Options.MaxOneOfPairs: a oneOf of n
	// branches is proven disjoint, or found overlapping, by compiling the
	// meets of its n(n-1)/2 pairs (oneof.go); a compile compares at most
	// this many (C402 beyond it), the branches of a 45-branch oneOf, 4x the
	// corpus's most.
	MaxOneOfPairs = 1000
	// MaxValueDepth bounds the nesting the validator and the canonical
	// serializer follow (values and $ref chains).
	MaxValueDepth = 10000
	// MaxExponent bounds the decimal exponent of a number the canonical
	// serializer writes out in plain decimal (1e10000 has 10,001 digits).
	MaxExponent = 10000
)

// ErrBeyondExponent is wrapped by Canonical's error for a number that is not
// JSON or whose exponent passes MaxExponent: such a value has no canonical
// spelling, whatever the schema says of it (callers tell it apart with
// errors.Is).
var ErrBeyondExponent = fmt.Errorf("not JSON or exponent beyond %d (MaxExponent)", MaxExponent)

// Compile builds the grammar for a checked schema. Its error, when not nil,
// is a subsetcheck.ErrorList (for example: the schema admits no value).
// The grammar's expressions may be shared with other grammars (the fixed
// helper rules of prelude.go, one-character literals) and within it: read
// them, never change them; build a new expression to change a rule.
func Compile(c *subsetcheck.Checked, opts Options) (*gbnf.Grammar, error) {
	g, _, err := CompileWithWarnings(c, opts)
	return g, err
}

// CompileWithWarnings is Compile, with what compiling found that the
// schema enforces but its author may not have meant (W304: a oneOf whose
// branches overlap, the values they share kept out). Warnings come only
// with a grammar.
func CompileWithWarnings(c *subsetcheck.Checked, opts Options) (*gbnf.Grammar, subsetcheck.ErrorList, error) {
	if c == nil || c.Root == nil {
		return nil, nil, subsetcheck.ErrorList{{Code: subsetcheck.CodeNoValidValue, Message: "no schema to compile"}}
	}
	cp := newCompiler(c, opts)
	g, err := cp.run()
	if err != nil {
		return nil, nil, err
	}
	var warns subsetcheck.ErrorList
	if cp.proofs != nil {
		warns = cp.proofs.warns
	}
	return g, warns, nil
}

// Canonical returns the canonical text of v under the schema: the one
// spelling every grammar Compile emits for that schema is guaranteed to
// accept (compact, declared members in schema order, minimal escapes, one
// number spelling). It fails when the schema does not accept v. For many
// values under one schema, a Canonicalizer does the schema's work once.
func Canonical(c *subsetcheck.Checked, v *subsetcheck.Value) (string, error) {
	if c == nil || c.Root == nil {
		return "", fmt.Errorf("compile.Canonical: nil schema or value")
	}
	return NewCanonicalizer(c).Canonical(v)
}

// A Canonicalizer writes canonical texts (Canonical) under one schema,
// keeping what it learns of the schema from one value to the next: the
// alternatives it expands into and which oneOf branches overlap (proven
// as Compile proves them, with the default limits). Not safe for
// concurrent use.
type Canonicalizer struct {
	cp *compiler
}

// NewCanonicalizer returns a Canonicalizer for a schema that compiles.
func NewCanonicalizer(c *subsetcheck.Checked) *Canonicalizer {
	cp := newCompiler(c, Options{})
	cp.trustOneOf = true // the schema compiled: every overlap has its complements
	return &Canonicalizer{cp: cp}
}

// Canonical is the canonical text of v under the Canonicalizer's schema.
func (z *Canonicalizer) Canonical(v *subsetcheck.Value) (string, error) {
	if z.cp.checked == nil || z.cp.checked.Root == nil || v == nil {
		return "", fmt.Errorf("compile.Canonical: nil schema or value")
	}
	return z.cp.canonical(z.cp.checked.Root, v)
}

// compiler holds the state of one Compile or Canonical call.
type compiler struct {
	checked  *subsetcheck.Checked
	ws       gbnf.Expr // the whitespace slot: Ref("ws"), or the empty Seq
	maxRules int
	maxAlts  int // Options.MaxAlternatives
	maxMeets int // Options.MaxMeets
	// Options.MaxCountStates, MaxMultipleOfStates, MaxUniqueItems.
	maxCountStates, maxMultipleOfStates, maxUniqueItems int
	maxPairs                                            int // Options.MaxOneOfPairs

	g     gbnf.Grammar
	names map[string]bool // every rule name in use, besides reservedNames
	rules map[*subsetcheck.Schema]*gbnf.Rule
	empty map[*subsetcheck.Schema]bool // schemas found to admit no value
	// recursive holds the rules referred to while their body was built,
	// never dropped as aliases (schemaRef).
	recursive map[*gbnf.Rule]bool
	helper    map[string]string // shared helper rules, by purpose
	// tailNot is, per rune, the reference to "any other character than
	// the rune, then any rest" (otherTail): one map probe by rune, not a
	// key string built per trie node.
	tailNot map[rune]gbnf.Expr
	// tailNotTaken has bit r set when the grammar holds
	// canonical-tail-not-r for ASCII r (asciiTailNot).
	tailNotTaken [2]uint64
	// anyTail and escapeTail are the parts of extra-name tries that are
	// the same at every node (otherTail): built once per compile.
	anyTail, escapeTail gbnf.Expr
	// nameRests are extra-name trie nodes with one name left, by the rest
	// of that name (nameRest).
	nameRests map[string]gbnf.Expr
	slab      nodeSlab     // the nodes of extra-name tries
	deep      []*gbnf.Rule // rules prune kept that nest a group maxNesting deep (outline)
	ruleBlock []gbnf.Rule  // where newRule takes rules from
	refBlock  []gbnf.Ref   // where ref takes references from
	// sharedRefs is the one reference node to each shared helper rule, by
	// its key (see shared).
	sharedRefs map[string]gbnf.Expr
	// nextSuffix is, per base name, the last number newName gave it.
	nextSuffix map[string]int
	// templates are the prebuilt helper rules of the whitespace mode
	// (prelude.go); nil while the prelude itself is built.
	templates preludeSet
	taken     uint32 // the prelude rules with a reserved name in the grammar, by template.bit
	// templated lists the rules whose body is a template's, by their
	// place in g.Rules, in order: prune takes their references from the
	// template instead of a walk of the body.
	templated []templateAt
	recording *useRecorder // only while the prelude is built

	expanding map[*subsetcheck.Schema]bool                  // schemas being expanded inline
	expanded  map[*subsetcheck.Schema][]alternative         // of schemas with $ref or anyOf
	altBlock  []alternative                                 // where plainAlternative takes them from
	meets     map[string]*subsetcheck.Schema                // conjunctions, by the set of their parts
	parts     map[*subsetcheck.Schema][]*subsetcheck.Schema // the parts of each conjunction
	ids       map[*subsetcheck.Schema]int                   // order of first sight, for set keys
	// meetsMade counts merged schemas against maxMeets; nMeets points at
	// it, or at the count of the compile whose oneOfs this one proves, so
	// that the proofs share one budget.
	meetsMade int
	nMeets    *int

	// meetOrigins names the schemas each meet of several came from, for
	// problems (noteMeet); negations holds {"not": s} per s (negation).
	meetOrigins map[*subsetcheck.Schema][]string
	negations   map[*subsetcheck.Schema]*subsetcheck.Schema
	// proofs is shared with the compiles that prove oneOf branches
	// disjoint (oneof.go); nil until a oneOf is met. trustOneOf skips what
	// only a compile needs (witnesses, branches built ahead): Canonical
	// serializes under a schema that compiled.
	proofs     *oneOfProofs
	trustOneOf bool
	metRefused bool // a oneOf refused earlier was met again (oneof.go)
	// complemented holds the schemas made of complements (negations, the
	// branches of overlapping oneOfs), whose expansions prune (crossing)
	// while pruning counts them.
	complemented map[*subsetcheck.Schema]bool
	pruning      int
	// noComplement is the first complement found impossible to build
	// (refuseComplement), which oneof.go turns into its own refusal.
	noComplement *noComplement

	strs     map[string]*stringEntry // string languages, by stringKey (pattern.go)
	escapes  map[uint64]gbnf.Expr    // what follows the backslash, by escapeMask (machine.go)
	setChars map[string]gbnf.Expr    // one character of a set, by setKey (machine.go)
	// folded are object schemas with patternProperties or propertyNames,
	// their members folded (names.go); nameLangs the languages of
	// propertyNames schemas.
	folded    map[*subsetcheck.Schema]*subsetcheck.Schema
	nameLangs map[*subsetcheck.Schema]*strlang.Lang

	errs  subsetcheck.ErrorList
	cause string // first reason a required part admitted no value
}

func newCompiler(c *subsetcheck.Checked, opts Options) *compiler {
	cp := compilerWithoutPrelude(c, opts)
	cp.templates = prelude(opts.Whitespace)
	return cp
}

// compilerWithoutPrelude builds every helper rule itself: the compiler
// that builds the prelude.
func compilerWithoutPrelude(c *subsetcheck.Checked, opts Options) *compiler {
	cp := &compiler{
		checked:    c,
		maxRules:   opts.MaxRules,
		rules:      map[*subsetcheck.Schema]*gbnf.Rule{},
		helper:     map[string]string{},
		sharedRefs: map[string]gbnf.Expr{},
	}
	cp.nMeets = &cp.meetsMade
	if cp.maxRules <= 0 {
		cp.maxRules = DefaultMaxRules
	}
	cp.maxAlts, cp.maxMeets, cp.maxPairs = opts.MaxAlternatives, opts.MaxMeets, opts.MaxOneOfPairs
	if cp.maxAlts <= 0 {
		cp.maxAlts = MaxAlternatives
	}
	if cp.maxMeets <= 0 {
		cp.maxMeets = MaxMeets
	}
	cp.maxCountStates = cmp.Or(max(opts.MaxCountStates, 0), DefaultMaxCountStates)
	cp.maxMultipleOfStates = cmp.Or(max(opts.MaxMultipleOfStates, 0), DefaultMaxMultipleOfStates)
	cp.maxUniqueItems = min(cmp.Or(max(opts.MaxUniqueItems, 0), DefaultMaxUniqueItems), 63) // a bit per value
	if cp.maxPairs <= 0 {
		cp.maxPairs = MaxOneOfPairs
	}
	if opts.Whitespace == Compact {
		cp.ws = epsilon()
	} else {
		cp.ws = &gbnf.Ref{Name: "ws"}
	}
	return cp
}

// helperNames are the shared rules' names, reserved before any schema name
// so that a schema-derived name can never take them (a property called
// "value" or "ws" must work).
var helperNames = []string{"root", "ws", "value", "value-object", "value-array", "string", "char",
	"number", "integer", "hex", "canonical-char", "canonical-tail", "canonical-escape"}

// reservedNames is helperNames as a set, read by every compile (nameTaken)
// and written by none.
var reservedNames = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range helperNames {
		m[n] = true
	}
	return m
}()

func (cp *compiler) run() (*gbnf.Grammar, error) { return cp.runRoot(cp.checked.Root) }

// runRoot builds the grammar whose root is the schema root.
func (cp *compiler) runRoot(root *subsetcheck.Schema) (*gbnf.Grammar, error) {
	rule := cp.newRule("root", nil)
	if t := target(root); t == root && !root.False && !isTrue(root) {
		cp.rules[root] = rule // the root's own rule is "root", also when it recurses
		if rule.Expr = cp.body(root, "root"); rule.Expr == nil {
			put(&cp.empty, root, true)
		}
	} else {
		rule.Expr = cp.schemaRef(root)
	}
	if rule.Expr == nil && len(cp.errs) == 0 {
		cp.noValue(root)
	}
	if len(cp.errs) > 0 {
		return nil, cp.errs.Err()
	}
	cp.factor()
	if !cp.prune() {
		cp.noValue(root)
		return nil, cp.errs.Err()
	}
	cp.escapeNonASCII()
	cp.outline()
	if len(cp.g.Rules) > cp.maxRules {
		cp.tooLarge(root)
		return nil, cp.errs.Err()
	}
	g := cp.g
	// The checker refuses $ref cycles that never enter a property or item;
	// a hand-built schema could still make a left-recursive grammar, which
	// llama.cpp refuses. Never return a grammar that is not valid GBNF.
	if err := gbnf.Validate(&g); err != nil {
		cp.problem(root, subsetcheck.CodeNotExactlyCompilable,
			"the grammar for this schema would not be valid GBNF ("+firstLine(err.Error())+"); "+
				"a $ref or anyOf probably leads back to its own schema without entering a property or item")
		return nil, cp.errs.Err()
	}
	return &g, nil
}

// put sets (*m)[k] = v, making the map on first use: most compiles never
// write to most of the compiler's maps, and reading a nil map is fine.
func put[K comparable, V any](m *map[K]V, k K, v V) {
	if *m == nil {
		*m = map[K]V{}
	}
	(*m)[k] = v
}

// tooLarge reports that the grammar passes Options.MaxRules.
func (cp *compiler) tooLarge(s *subsetcheck.Schema) {
	cp.problem(s, subsetcheck.CodeGrammarTooLarge, fmt.Sprintf(
		"the grammar would have more than %d rules (-max-rules, Options.MaxRules); split the schema, lower large bounds, or raise the limit", cp.maxRules))
}

// noValue reports that the root schema admits no value.
func (cp *compiler) noValue(root *subsetcheck.Schema) {
	msg := "the schema admits no value, so no grammar can be built"
	if cp.cause != "" {
		msg += ": " + cp.cause
	}
	cp.problem(root, subsetcheck.CodeNoValidValue, msg)
}

// problem records one error located at schema s.
func (cp *compiler) problem(s *subsetcheck.Schema, code subsetcheck.Code, msg string) {
	p := cp.located(s, code, msg)
	for _, q := range cp.errs { // one report per place and code is enough
		if q.Pointer == p.Pointer && q.Code == p.Code {
			return
		}
	}
	cp.errs = append(cp.errs, p)
}

// located is a problem at schema s.
func (cp *compiler) located(s *subsetcheck.Schema, code subsetcheck.Code, msg string) *subsetcheck.Problem {
	p := &subsetcheck.Problem{Code: code, Message: msg + cp.meetNote(s)}
	if s != nil {
		p.Pointer = s.Pointer
		doc := cp.checked.Doc
		if s.Doc != nil {
			doc = s.Doc // a schema of another document a $ref reached
		}
		if doc != nil && s.Node != nil {
			p.File = doc.Name
			p.Line, p.Col = doc.Position(s.Node.Offset)
		}
	}
	return p
}

// noteCause remembers the first reason a required part admits no value, so
// that the C401 message can say where to look.
func (cp *compiler) noteCause(format string, args ...any) {
	if cp.cause == "" {
		cp.cause = fmt.Sprintf(format, args...)
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

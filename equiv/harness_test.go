package equiv

import (
	"errors"
	"flag"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/internal/oracle"
	"github.com/schema2gbnf/schema2gbnf/internal/validate"
	"github.com/schema2gbnf/schema2gbnf/interop"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

var (
	flagSeed     = flag.Uint64("seed", 1, "seed of the instance generator and the sampler")
	flagMaxFails = flag.Int("maxfails", 5, "disagreements printed per schema; the rest are counted")
)

// Sizes of one schema's check. Each bounds the work per schema so that the
// default run stays within minutes.
const (
	nearMissSources   = 3       // valid texts whose raw-text near misses are tried
	samplesPerGrammar = 20      // strings sampled from each grammar
	engineTexts       = 20      // texts per schema sent to llama.cpp's engine
	maxTextBytes      = 1 << 16 // longer texts are counted and skipped
)

// tally counts what a run checked, for the report.
type tally struct {
	mu                                     sync.Mutex
	schemas, compiled, refused             int
	valid, invalid, texts, sampled, engine int
	modelBugs, failures, skippedLong       int
	relaxedAccepts                         int      // lenient: texts accepted that break a relaxed constraint
	unjudged                               int      // texts the oracle's regexp engine ran out of time on
	repeatedCounted                        int      // texts with repeated names under minProperties, outside the claim
	noValid                                []string // compiled schemas the generator found no valid value for
	refusedBy                              map[subsetcheck.Code]int
}

func (t *tally) add(f func(t *tally)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.refusedBy == nil {
		t.refusedBy = map[subsetcheck.Code]int{}
	}
	f(t)
}

func (t *tally) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var codes []string
	for c, n := range t.refusedBy {
		codes = append(codes, fmt.Sprintf("%s:%d", c, n))
	}
	sort.Strings(codes)
	sort.Strings(t.noValid)
	return fmt.Sprintf("schemas %d (compiled %d, refused %d [%s]); values %d valid, %d invalid; texts matched %d; sampled %d; engine checks %d; skipped long texts %d; accepted breaking only relaxed constraints %d; unjudged by the oracle %d; model disagreements %d; failures %d; no valid value generated for %d %q",
		t.schemas, t.compiled, t.refused, strings.Join(codes, " "), t.valid, t.invalid, t.texts, t.sampled, t.engine, t.skippedLong, t.relaxedAccepts, t.unjudged, t.modelBugs, t.failures, len(t.noValid), t.noValid)
}

// perSchema are the fewest values, texts and engine checks a run must
// average per compiled schema; the vendored sets average three to ten
// times as many (TestCorpus: 23 valid, 19 invalid, 437 texts, 20
// sampled, 37 engine checks). A run under them checked (almost) nothing:
// an oracle or a generator that fails quietly, a folder that moved.
var perSchema = struct{ valid, invalid, texts, sampled, engine int }{5, 2, 50, 10, 20}

// require fails t when the run checked too little: fewer than minCompiled
// schemas compiled, fewer values, texts or engine checks than perSchema
// per compiled schema, or a compiled schema with no valid value generated
// (up to one in a hundred of a whole corpus: -corpus).
func (tl *tally) require(t testing.TB, minCompiled int) {
	t.Helper()
	tl.mu.Lock()
	defer tl.mu.Unlock()
	n := tl.compiled
	if n < minCompiled || n == 0 {
		t.Errorf("only %d schemas compiled and checked, want at least %d", n, max(minCompiled, 1))
		return
	}
	low := func(what string, got, per int) {
		if got < per*n {
			t.Errorf("%s: %d for %d compiled schemas, want at least %d per schema (%d): the check ran on (almost) nothing", what, got, n, per, per*n)
		}
	}
	low("valid values", tl.valid, perSchema.valid)
	low("invalid values", tl.invalid, perSchema.invalid)
	low("texts matched", tl.texts, perSchema.texts)
	low("texts sampled", tl.sampled, perSchema.sampled)
	if *flagEngine && !interop.Skipped() { // TestLlamaEngine says when it is skipped
		low("engine checks", tl.engine, perSchema.engine)
	}
	if len(tl.noValid) > 0 && (*flagCorpus == "" || len(tl.noValid)*100 > n) {
		t.Errorf("no valid value generated for %d compiled schemas: %q", len(tl.noValid), tl.noValid)
	}
}

// outcome is how one schema fared: compiled, or refused with these codes.
type outcome struct {
	compiled bool
	codes    []subsetcheck.Code
	err      error // the refusal
	checked  *subsetcheck.Checked
	grammar  *gbnf.Grammar
	matcher  *gbnf.Matcher
}

func (o outcome) String() string {
	if o.compiled {
		return "compiled"
	}
	var cs []string
	for _, c := range o.codes {
		if !contains(cs, string(c)) {
			cs = append(cs, string(c))
		}
	}
	sort.Strings(cs)
	return "refused(" + strings.Join(cs, ",") + ")"
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// build reads, checks and compiles a schema. A refusal must be an ErrorList
// and never a panic; anything else fails the test.
func build(t testing.TB, name string, schema []byte, draft subsetcheck.Draft) (out outcome, ok bool) {
	return buildWith(t, name, schema, subsetcheck.Options{DefaultDraft: draft})
}

// buildWith is build under any checker options (AssertFormat).
func buildWith(t testing.TB, name string, schema []byte, opts subsetcheck.Options) (out outcome, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: PANIC while building: %v\n%s\nschema: %s", name, r, debug.Stack(), clip(string(schema), 400))
			ok = false
		}
	}()
	refused := func(err error) (outcome, bool) {
		var l subsetcheck.ErrorList
		if !errors.As(err, &l) || len(l) == 0 {
			t.Errorf("%s: refusal is not a non-empty subsetcheck.ErrorList: %T %v", name, err, err)
			return outcome{}, false
		}
		o := outcome{err: err}
		for _, p := range l {
			o.codes = append(o.codes, p.Code)
		}
		return o, true
	}
	doc, err := subsetcheck.Read(name, schema, subsetcheck.Limits{})
	if err != nil {
		return refused(err)
	}
	if refLoader != nil {
		if opts.Documents, err = subsetcheck.Gather(doc, opts, refLoader); err != nil {
			return refused(err)
		}
	}
	var checked *subsetcheck.Checked
	var g *gbnf.Grammar
	if opts.Profile == subsetcheck.Lenient {
		if checked, g, _, err = compile.Lenient(doc, opts, compile.Options{}); err != nil {
			return refused(err)
		}
	} else {
		if checked, err = subsetcheck.Check(doc, opts); err != nil {
			return refused(err)
		}
		if g, err = compile.Compile(checked, compile.Options{}); err != nil {
			return refused(err)
		}
	}
	m, err := newMatcher(g)
	if err != nil {
		t.Errorf("%s: the compiled grammar does not load in our matcher: %v", name, err)
		return outcome{}, false
	}
	return outcome{compiled: true, checked: checked, grammar: g, matcher: m}, true
}

// refLoader, when set, hands the documents of $refs to other documents in
// (the suite's remotes, TestSuite).
var refLoader subsetcheck.Loader

// lenientOracleGap says why the oracle may not compile a schema the lenient
// profile compiled: a $ref to a document nobody handed in (the lenient
// grammar does not follow it, W309; a validator cannot either). "" otherwise.
func lenientOracleGap(c *subsetcheck.Checked, err error) string {
	if c.Profile != subsetcheck.Lenient {
		return ""
	}
	for _, p := range c.Relaxed {
		if p.Code == subsetcheck.CodeRelaxedRef && strings.Contains(err.Error(), "loading") {
			return "a $ref to a document not handed in (W309)"
		}
	}
	return ""
}

// oracleRefuses lists the schemas, by the name a test gives them, that we
// compile and the oracle cannot, with the reason; any other is a failure,
// since a schema the oracle skips is a schema nothing checks.
var oracleRefuses = map[string]string{}

// newOracle sets up the validator to judge as the checker did: formats
// asserted when it asserted them.
func newOracle(schema []byte, c *subsetcheck.Checked, opts ...oracle.Option) (*oracle.Oracle, error) {
	if len(c.Documents) > 0 {
		docs := map[string][]byte{}
		for uri, d := range c.Documents {
			docs[uri] = d.Data
		}
		opts = append(opts, oracle.Documents(docs))
	}
	switch {
	case c.AssertFormat && c.Profile == subsetcheck.Lenient:
		opts = append(opts, oracle.AssertAllFormats())
	case c.AssertFormat:
		opts = append(opts, oracle.AssertFormats())
	}
	return oracle.New(schema, c.Draft, opts...)
}

// run is the equivalence check of one compiled schema.
type run struct {
	t              testing.TB
	name           string
	schema         []byte
	seed           uint64
	out            outcome
	compact        *gbnf.Matcher
	compactGrammar *gbnf.Grammar
	oracle         *oracle.Oracle
	canonical      *compile.Canonicalizer
	tally          *tally
	fails          int
	// explain (lenient grammars) says whether a text the oracle rejects
	// breaks a constraint the grammar relaxed.
	explain *validate.Validator
	engine  []engineCase
}

// engineCase is a text and our matcher's verdict, for llama.cpp to repeat.
type engineCase struct {
	text     string
	accepted bool
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("… (%d bytes)", len(s))
}

// fail prints one disagreement with everything needed to reproduce it.
func (r *run) fail(kind, text string, matcher, oracle string) {
	r.tally.add(func(t *tally) { t.failures++ })
	r.fails++
	if r.fails > *flagMaxFails {
		return
	}
	r.t.Errorf("%s: %s\n  schema:  %s\n  text:    %q\n  matcher: %s\n  oracle:  %s\n  seed:    %d",
		r.name, kind, clip(string(r.schema), 600), clip(text, 400), matcher, oracle, r.seed)
}

func (r *run) modelBug(kind, text string, oracle string) {
	r.tally.add(func(t *tally) { t.modelBugs++ })
	r.fails++
	if r.fails > *flagMaxFails {
		return
	}
	r.t.Errorf("%s: MODEL DISAGREEMENT (generator or checker bug): %s\n  schema: %s\n  text:   %q\n  oracle: %s\n  seed:   %d",
		r.name, kind, clip(string(r.schema), 600), clip(text, 400), oracle, r.seed)
}

func verdictName(ok bool, err error) string {
	switch {
	case err != nil:
		return "error: " + err.Error()
	case ok:
		return "accepts"
	}
	return "rejects"
}

// sound is the rule for any text: the matcher accepts it only if it is
// strict JSON whose value the oracle accepts. It returns the verdict.
func (r *run) sound(m *gbnf.Matcher, which, text string) bool {
	res, err := m.Check(text)
	r.tally.add(func(t *tally) { t.texts++ })
	if err != nil {
		r.fail("matcher limit ("+which+" grammar)", text, err.Error(), "-")
		return false
	}
	if len(r.engine) < 4*engineTexts && m == r.out.matcher {
		r.engine = append(r.engine, engineCase{text, res.Accepted})
	}
	if !res.Accepted {
		return false
	}
	sj := StrictJSON(text)
	if sj.Err != nil {
		r.fail("UNSOUND: accepts a text that is not strict JSON ("+which+" grammar)", text, "accepts", "not JSON: "+sj.Err.Error())
		return true
	}
	if r.explain != nil {
		if _, err := subsetcheck.Read("text", []byte(text), subsetcheck.Limits{}); err != nil && hasCode(err, subsetcheck.CodeNumberTooLarge) {
			// A number past the reader's limit: verdict's reader stops it
			// before any validator, and big.Rat cannot hold it.
			r.tally.add(func(t *tally) { t.skippedLong++ })
			return true
		}
	}
	if len(sj.Duplicates) > 0 {
		// Repeated names: readers differ on which value wins, so the text
		// is sound only if both readings are valid (DESIGN.md §2). Under
		// minProperties neither reading need be: the grammar counts a
		// repeated name each time, a reader once (counts_test.go).
		if countsMembers(r.out.checked) {
			r.tally.add(func(t *tally) { t.repeatedCounted++ })
			return true
		}
		if r.explain != nil && r.readingRelaxed(sj.First) && r.readingRelaxed(sj.Last) {
			return true
		}
		if !r.oracle.ValidValue(sj.First) || !r.oracle.ValidValue(sj.Last) {
			r.fail("UNSOUND: accepts repeated names, and a reading of them is invalid ("+which+" grammar)", text, "accepts",
				fmt.Sprintf("first-wins valid %v, last-wins valid %v, repeated %q", r.oracle.ValidValue(sj.First), r.oracle.ValidValue(sj.Last), sj.Duplicates))
		}
		return true
	}
	ok, err := r.oracle.Valid(text)
	if r.unjudged(err) {
		return true
	}
	switch {
	case ok:
	case err == nil && r.explain != nil:
		if f, relaxed := r.relaxed(text); relaxed {
			r.tally.add(func(t *tally) { t.relaxedAccepts++ })
		} else {
			r.fail("UNSOUND: accepts a value the validator rejects, and no relaxed constraint explains it ("+which+" lenient grammar)", text, "accepts",
				fmt.Sprintf("rejects: %v; relaxed: %v", f, r.out.checked.Relaxed))
		}
	default:
		r.fail("UNSOUND: accepts a value the validator rejects ("+which+" grammar)", text, "accepts", verdictName(ok, err))
	}
	return true
}

// hasCode says whether err is an ErrorList holding a problem with code.
func hasCode(err error, code subsetcheck.Code) bool {
	var l subsetcheck.ErrorList
	if errors.As(err, &l) {
		for _, p := range l {
			if p.Code == code {
				return true
			}
		}
	}
	return false
}

// readingRelaxed says whether one reading of a text with repeated names is
// valid, or breaks only relaxed constraints.
func (r *run) readingRelaxed(v any) bool {
	if r.oracle.ValidValue(v) {
		return true
	}
	res, err := r.explain.ValidateValue(v)
	if err != nil || res.Valid() {
		return false
	}
	_, ok := res.Explain(r.out.checked.Relaxed)
	return ok
}

// relaxed says whether the validator's rejection of text is explained by
// the constraints the lenient grammar relaxed, and gives the failure.
func (r *run) relaxed(text string) (*validate.Failure, bool) {
	return explainRelaxed(r.explain, r.out.checked, text)
}

// explainRelaxed says whether v's rejection of text is explained by the
// constraints the lenient schema c relaxed, and gives the failure.
func explainRelaxed(v *validate.Validator, c *subsetcheck.Checked, text string) (*validate.Failure, bool) {
	res, err := v.Validate([]byte(text))
	if err != nil || res.Valid() {
		return &validate.Failure{Message: fmt.Sprintf("verdict's validator disagrees with the oracle: valid %v, %v", err == nil, err)}, false
	}
	return res.Explain(c.Relaxed)
}

// relaxedFailure is explainRelaxed with a validator of its own.
func relaxedFailure(c *subsetcheck.Checked, text string) (*validate.Failure, bool) {
	v, err := validate.New(c, validate.Options{})
	if err != nil {
		return &validate.Failure{Message: err.Error()}, false
	}
	return explainRelaxed(v, c, text)
}

// unjudged counts a text the oracle could not judge (its regexp engine
// backtracks, and ran out of time): it proves nothing either way.
func (r *run) unjudged(err error) bool {
	if !errors.Is(err, oracle.ErrCannotJudge) {
		return false
	}
	r.tally.add(func(t *tally) { t.unjudged++ })
	return true
}

// checkSchema builds a schema and, when it compiles, runs the whole
// equivalence check on it. It returns the outcome for ledgers.
func checkSchema(t testing.TB, tl *tally, name string, schema []byte, draft subsetcheck.Draft, seed uint64) outcome {
	return checkSchemaWith(t, tl, name, schema, subsetcheck.Options{DefaultDraft: draft}, seed)
}

// checkSchemaWith is checkSchema under any checker options (AssertFormat).
func checkSchemaWith(t testing.TB, tl *tally, name string, schema []byte, opts subsetcheck.Options, seed uint64) outcome {
	out, ok := buildWith(t, name, schema, opts)
	tl.add(func(t *tally) {
		t.schemas++
		if out.compiled {
			t.compiled++
		} else if ok {
			t.refused++
			seen := map[subsetcheck.Code]bool{}
			for _, c := range out.codes {
				if !seen[c] {
					t.refusedBy[c]++
					seen[c] = true
				}
			}
		}
	})
	if !ok || !out.compiled {
		return out
	}
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("%s: PANIC while checking: %v\n%s\nschema: %s", name, p, debug.Stack(), clip(string(schema), 400))
		}
	}()
	o, err := newOracle(schema, out.checked)
	if err != nil {
		if reason, ok := oracleRefuses[name]; ok {
			t.Logf("%s: the oracle cannot compile the schema (%v); skipped, listed: %s", name, err, reason)
		} else if reason := lenientOracleGap(out.checked, err); reason != "" {
			t.Logf("%s: the oracle cannot compile the schema (%v); skipped: %s", name, firstLine(err.Error()), reason)
		} else {
			t.Errorf("%s: the oracle cannot compile a schema we compiled: %v\n  schema: %s\n  (list it in oracleRefuses, with the reason, only if the validator is wrong)", name, err, clip(string(schema), 400))
		}
		return out
	}
	r := &run{t: t, name: name, schema: schema, seed: seed, out: out, oracle: o, tally: tl}
	if out.checked.Profile == subsetcheck.Lenient {
		if r.explain, err = validate.New(out.checked, validate.Options{}); err != nil {
			if strings.Contains(err.Error(), "is not valid regex") {
				// A pattern that is not ECMA-262 with the u flag (\: , a
				// lone }): the checker reads patterns as RE2 today and
				// lets it through; verdict's validator refuses it.
				t.Logf("%s: the validator verdict uses refuses a pattern of the schema (%v); skipped", name, firstLine(err.Error()))
				return out
			}
			t.Errorf("%s: the validator verdict uses cannot compile the schema: %v", name, err)
			return out
		}
	}
	gc, err := compile.Compile(out.checked, compile.Options{Whitespace: compile.Compact})
	if err != nil {
		t.Errorf("%s: compiles with bounded whitespace but not compact: %v", name, err)
	} else if mc, err := newMatcher(gc); err != nil {
		t.Errorf("%s: compact grammar does not load in our matcher: %v", name, err)
	} else {
		r.compact, r.compactGrammar = mc, gc
	}
	r.check()
	return out
}

func (r *run) check() {
	c := r.out.checked
	if r.canonical == nil {
		r.canonical = compile.NewCanonicalizer(c)
	}
	gen := NewGenerator(c, r.seed)
	valid, invalid := gen.Valid(), gen.Invalid()
	r.tally.add(func(t *tally) {
		t.valid += len(valid)
		t.invalid += len(invalid)
		if len(valid) == 0 {
			t.noValid = append(t.noValid, r.name)
		}
	})
	var canonicals []string
	for _, v := range valid {
		text := Compact(v)
		if len(text) > maxTextBytes {
			r.tally.add(func(t *tally) { t.skippedLong++ })
			continue
		}
		ok, err := r.oracle.Valid(text)
		if r.unjudged(err) {
			continue
		}
		if !ok {
			if r.explain == nil || err != nil {
				r.modelBug("generated as valid, the validator rejects it", text, verdictName(ok, err))
				continue
			}
			// Valid for the relaxed schema, not for the schema: it must
			// break a relaxed constraint, and the grammar must take it
			// (the relaxed schema's canonical text).
			if _, err := compile.Canonical(c, v); err != nil {
				r.modelBug("generated as valid, the relaxed schema rejects it", text, verdictName(ok, err))
				continue
			}
			if f, relaxed := r.relaxed(text); !relaxed {
				r.fail("valid by the relaxed schema, rejected by the validator for a constraint that was not relaxed", text, "-", fmt.Sprintf("rejects: %v", f))
			}
		}
		canon, err := r.canonical.Canonical(v)
		if err != nil {
			r.fail("INCOMPLETE: Canonical refuses a valid value", text, "-", "accepts; Canonical: "+err.Error())
			continue
		}
		if !r.sameValue(text, canon) {
			continue
		}
		canonicals = append(canonicals, canon)
		if !r.sound(r.out.matcher, "bounded", canon) {
			r.fail("INCOMPLETE: rejects the canonical text of a valid value (bounded grammar)", canon, "rejects", "accepts")
		}
		if r.compact != nil && !r.sound(r.compact, "compact", canon) {
			r.fail("INCOMPLETE: rejects the canonical text of a valid value (compact grammar)", canon, "rejects", "accepts")
		}
		for _, sp := range []Spelling{{Spaced: true}, {Escaped: true}} {
			r.sound(r.out.matcher, "bounded", Text(v, sp))
		}
	}
	for i := 0; i < len(canonicals) && i < nearMissSources; i++ {
		for _, text := range RawNearMisses(canonicals[i]) {
			r.sound(r.out.matcher, "bounded", text)
			if r.compact != nil {
				r.sound(r.compact, "compact", text)
			}
		}
	}
	for _, v := range invalid {
		text := Compact(v)
		if len(text) > maxTextBytes {
			r.tally.add(func(t *tally) { t.skippedLong++ })
			continue
		}
		ok, err := r.oracle.Valid(text)
		if r.unjudged(err) {
			continue
		}
		if ok || err != nil {
			if ok && r.explain != nil {
				r.fail("NARROWED: the relaxed schema rejects a value the schema accepts (a relaxation narrowed it)", text, "-", "accepts")
				continue
			}
			if ok && c.ClosedObjects {
				// Invalid for the closed schema (an extra member, most
				// likely), valid for the schema: the grammar may take it
				// or not, but whatever it takes must be valid.
				for _, sp := range Spellings {
					r.sound(r.out.matcher, "bounded", Text(v, sp))
				}
				continue
			}
			r.modelBug("generated as invalid, the validator accepts it", text, verdictName(ok, err))
			continue
		}
		if canon, err := r.canonical.Canonical(v); err == nil {
			r.fail("Canonical accepts an invalid value", text, "canonical "+canon, "rejects")
		}
		for _, sp := range Spellings {
			r.sound(r.out.matcher, "bounded", Text(v, sp))
		}
		if r.compact != nil {
			r.sound(r.compact, "compact", text)
		}
	}
	r.sampleCheck()
	r.engineCheck()
}

// sameValue checks that a canonical text is strict JSON for the same value.
func (r *run) sameValue(text, canon string) bool {
	if sj := StrictJSON(canon); sj.Err != nil || len(sj.Duplicates) > 0 {
		r.fail("Canonical writes a text that is not strict JSON", canon, "-", fmt.Sprintf("value %s; %v %q", text, sj.Err, sj.Duplicates))
		return false
	}
	a, err1 := subsetcheck.Read("value", []byte(text), subsetcheck.Limits{})
	b, err2 := subsetcheck.Read("canonical", []byte(canon), subsetcheck.Limits{})
	if err1 != nil || err2 != nil || !Equal(a.Root, b.Root) {
		r.fail("Canonical changes the value", canon, "-", fmt.Sprintf("value %s (%v %v)", text, err1, err2))
		return false
	}
	return true
}

// sampleCheck: every string sampled from the grammar must be strict JSON
// that the validator accepts.
func (r *run) sampleCheck() {
	texts, err := sampleTexts(r.out.grammar, r.seed, samplesPerGrammar)
	if err != nil {
		r.t.Logf("%s: sampler: %v", r.name, err)
		return
	}
	r.tally.add(func(t *tally) { t.sampled += len(texts) })
	for _, text := range texts {
		if !r.sound(r.out.matcher, "bounded", text) {
			r.fail("the matcher rejects a string sampled from its own grammar", text, "rejects", "-")
		}
	}
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// newMatcher is gbnf.NewMatcher, with its limits raised for the few corpus
// grammars past them (the whole Kubernetes API in one schema: 1.8 MB), which
// llama.cpp loads: the matcher's defaults are sized for typical grammars.
func newMatcher(g *gbnf.Grammar) (*gbnf.Matcher, error) {
	m, err := gbnf.NewMatcher(g)
	var lim *gbnf.MatcherLimitError
	if errors.As(err, &lim) {
		return gbnf.NewMatcherLimits(g, gbnf.MatcherLimits{MaxStates: 1 << 24, MaxClosure: 1 << 26})
	}
	return m, err
}

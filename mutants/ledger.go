package main

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// mutation is one planted bug: Old, found exactly once in File, becomes
// New, and go test Pkgs -run Run (with -short when Short, then Args) must
// fail.
type mutation struct {
	ID         string
	File       string // relative to the repository root
	Old, New   string
	Bug        string // what the change does to grammars or verdicts
	Pkgs       []string
	Run        string
	Short      bool
	Args       []string
	Equivalent string // when set: the mutation cannot change behaviour, and why
}

// The test sets the ledger names most.
const (
	compilePkg = "./compile"
	equivPkg   = "./equiv"
	gbnfPkg    = "./gbnf"
	checkPkg   = "./subsetcheck"
	counts     = "^TestEveryCountBound$"
	// The count kinds of compile/bounds_test.go, one at a time: the
	// construction a mutation plants its bug in is reached by one.
	stringCounts = counts + "/group/string_length"
	itemCounts   = counts + `/group/array_items_\{`
	prefixCounts = counts + "/group/array_items_after_two_prefixItems"
	numbers      = "^(TestEveryNumberBound|TestIntegerRanges|TestDecimalRanges)$"
	equivSet     = "^(TestEquivSchemas|TestSuite)$"
)

// noEngine keeps the equivalence tests off llama.cpp: the bugs planted are
// ours, and our matcher and the oracle judge them.
var noEngine = []string{"-args", "-engine=false"}

// ledger is every mutation, in the order they run.
var ledger = concat(compilerMutations, combinatorMutations, countingMutations, strlangMutations, patternMutations, harnessMutations)

func concat(lists ...[]mutation) []mutation {
	var out []mutation
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// compilerMutations are bugs in the stages that make a grammar.
var compilerMutations = []mutation{
	// Counts (compile/repeat.go).
	{
		ID: "repeat-upto-blocks-rest", File: "compile/repeat.go",
		Old:  "seq(cp.repeatExact(cp.block(x), a), rep(x, 0, b)))",
		New:  "seq(cp.repeatExact(cp.block(x), a), rep(x, 0, b+1)))",
		Bug:  "x{0,n} accepts n+1 items for n > 10,000 (issue 25's planted bug)",
		Pkgs: []string{compilePkg}, Run: stringCounts, Short: true,
	},
	{
		ID: "repeat-upto-blocks-whole", File: "compile/repeat.go",
		Old:  "seq(cp.repeatUpTo(cp.block(x), a-1), rep(x, 0, k-1)),",
		New:  "seq(cp.repeatUpTo(cp.block(x), a), rep(x, 0, k-1)),",
		Bug:  "x{0,n} for n > 10,000 accepts a whole block more than n",
		Pkgs: []string{compilePkg}, Run: stringCounts, Short: true,
	},
	{
		ID: "repeat-exact-rest", File: "compile/repeat.go",
		Old:  "return seq(cp.repeatExact(cp.block(x), n/repeatBlock), rep(x, n%repeatBlock, n%repeatBlock))",
		New:  "return seq(cp.repeatExact(cp.block(x), n/repeatBlock), rep(x, n%repeatBlock, n%repeatBlock+1))",
		Bug:  "x{n} for n > 100 accepts n+1 items",
		Pkgs: []string{compilePkg}, Run: stringCounts, Short: true,
	},
	{
		ID: "repeat-chain-rest", File: "compile/repeat.go",
		Old:  "next := rep(x, 0, r)",
		New:  "next := rep(x, 0, r+1)",
		Bug:  "x{0,n} for 100 < n <= 10,000 (the chain of levels) accepts n+1 items",
		Pkgs: []string{compilePkg}, Run: stringCounts, Short: true,
	},
	{
		ID: "repeat-printed-limit", File: "compile/repeat.go",
		Old:  "if max <= MaxRepeatCount {\n\t\treturn rep(x, min, max)",
		New:  "if max <= MaxRepeatCount+1 {\n\t\treturn rep(x, min, max)",
		Bug:  "a count of 101 is printed, past MaxRepeatCount",
		Pkgs: []string{compilePkg}, Run: stringCounts, Short: true,
	},
	{
		ID: "repeat-unbounded-min", File: "compile/repeat.go",
		Old:  "return seq(cp.repeatExact(x, min), &gbnf.Repeat{Expr: x, Min: 0, Max: -1})",
		New:  "return seq(cp.repeatExact(x, min-1+1/(min+1)), &gbnf.Repeat{Expr: x, Min: 0, Max: -1})",
		Bug:  "x{n,} accepts n-1 items (minLength, minItems without a maximum)",
		Pkgs: []string{compilePkg}, Run: stringCounts, Short: true,
	},

	// Integer bounds (compile/integer.go).
	{
		ID: "int-exclusive-minimum", File: "compile/integer.go",
		Old:  "lo = floorRat(lower.Value)\n\t\t\tlo.Add(lo, big.NewInt(1))",
		New:  "lo = ceilRat(lower.Value)",
		Bug:  "an integer exclusiveMinimum lets the bound itself through",
		Pkgs: []string{compilePkg}, Run: numbers,
	},
	{
		ID: "int-maximum-rounding", File: "compile/integer.go",
		Old:  "hi = floorRat(upper.Value)\n\t\t}",
		New:  "hi = ceilRat(upper.Value)\n\t\t}",
		Bug:  "maximum 5.5 on integers lets 6 through",
		Pkgs: []string{compilePkg}, Run: numbers,
	},
	{
		ID: "int-leq-digit", File: "compile/integer.go",
		Old:  "return alt(seq(rangeClass(first, d-1), cp.digits(rest)), seq(lit(string(d)), leqDigits(cp, s, i+1, '0')))",
		New:  "return alt(seq(rangeClass(first, d), cp.digits(rest)), seq(lit(string(d)), leqDigits(cp, s, i+1, '0')))",
		Bug:  "an upper bound's digit range includes the bound's digit: 129 under maximum 125",
		Pkgs: []string{compilePkg}, Run: numbers,
	},
	{
		ID: "int-geq-digit", File: "compile/integer.go",
		Old:  "return alt(seq(lit(string(d)), geqDigits(cp, s, i+1)), seq(rangeClass(d+1, '9'), cp.digits(rest)))",
		New:  "return alt(seq(lit(string(d)), geqDigits(cp, s, i+1)), seq(rangeClass(d, '9'), cp.digits(rest)))",
		Bug:  "a lower bound's digit range includes the bound's digit: 121 over minimum 125",
		Pkgs: []string{compilePkg}, Run: numbers,
	},
	{
		ID: "int-lengths-between", File: "compile/integer.go",
		Old:  "cp.repeat(cp.digit(len(sb)), len(sa), len(sb)-2)",
		New:  "cp.repeat(cp.digit(len(sb)), len(sa), len(sb)-1)",
		Bug:  "numbers as long as the upper bound pass it (99999 under maximum 10001)",
		Pkgs: []string{compilePkg}, Run: numbers,
	},
	{
		ID: "int-between-middle", File: "compile/integer.go",
		Old:  "midHi := db - 1",
		New:  "midHi := db",
		Bug:  "between two bounds of one length, the upper bound's first differing digit takes any rest",
		Pkgs: []string{compilePkg}, Run: numbers,
	},
	{
		ID: "int-negative-upper", File: "compile/integer.go",
		Old:  "a = new(big.Int).Neg(hi)",
		New:  "a = new(big.Int).Neg(hi)\n\t\t\ta.Sub(a, big.NewInt(1))",
		Bug:  "a negative maximum lets the next integer up through (-4 under maximum -5)",
		Pkgs: []string{compilePkg}, Run: numbers,
	},

	// Decimal bounds (compile/number.go).
	{
		ID: "dec-exclusive-minimum", File: "compile/number.go",
		Old:  "return alt(\n\t\t\tseq(lit(intA.String()), frac(cp.fracAbove(fracA, 0, loStrict))),",
		New:  "return alt(\n\t\t\tseq(lit(intA.String()), frac(cp.fracAbove(fracA, 0, false))),",
		Bug:  "a decimal exclusiveMinimum with no maximum lets the bound itself through",
		Pkgs: []string{compilePkg}, Run: numbers,
	},

	// Objects and arrays (compile/schema.go).
	{
		ID: "obj-required-first-dropped", File: "compile/schema.go",
		Old:  "isRequired := func(name string) bool { return slices.Contains(p.Required, name) }",
		New:  "isRequired := func(name string) bool { return slices.Contains(p.Required[min(1, len(p.Required)):], name) }",
		Bug:  "the first name in required is made optional",
		Pkgs: []string{equivPkg}, Run: equivSet, Args: noEngine,
	},
	{
		ID: "obj-required-undeclared", File: "compile/schema.go",
		Old:  "if !declared(p, r) && !add(r, p.AdditionalProperties) {",
		New:  "if false && !declared(p, r) && !add(r, p.AdditionalProperties) {",
		Bug:  "required names that properties lacks are not required",
		Pkgs: []string{equivPkg}, Run: equivSet, Args: noEngine,
	},
	{
		ID: "obj-additional-default", File: "compile/names.go",
		Old:  "if ap := p.AdditionalProperties; ap == nil || !ap.False {",
		New:  "if ap := p.AdditionalProperties; ap != nil && !ap.False {",
		Bug:  "additionalProperties absent forbids extra members (the spec allows them)",
		Pkgs: []string{equivPkg}, Run: equivSet, Args: noEngine,
	},
	{
		ID: "obj-extra-name-collides", File: "compile/names.go",
		Old:  "return seq(cp.extraName(names), ws, lit(\":\"), ws, v, ws)",
		New:  "return seq(cp.extraName(nil), ws, lit(\":\"), ws, v, ws)",
		Bug:  "an extra member may take a declared name, with a value its schema refuses",
		Pkgs: []string{compilePkg}, Run: "^TestCases$",
	},
	{
		ID: "arr-prefix-min", File: "compile/schema.go",
		Old:  "if i < p.MinItems {\n\t\t\ttail = item",
		New:  "if i < p.MinItems-1 {\n\t\t\ttail = item",
		Bug:  "minItems within prefixItems lets one item less through",
		Pkgs: []string{compilePkg}, Run: prefixCounts, Short: true,
	},
	{
		ID: "arr-rest-max", File: "compile/schema.go",
		Old:  "if hi > 0 {\n\t\t\t\thi--",
		New:  "if hi > 1 {\n\t\t\t\thi--",
		Bug:  "maxItems 1 (without prefixItems) lets two items through",
		Pkgs: []string{compilePkg}, Run: itemCounts, Short: true,
	},
	{
		ID: "arr-rest-min", File: "compile/schema.go",
		Old:  "restLo := max(0, p.MinItems-k)",
		New:  "restLo := max(0, p.MinItems-k-1)",
		Bug:  "minItems beyond prefixItems lets one item less through",
		Pkgs: []string{compilePkg}, Run: prefixCounts, Short: true,
	},

	// Strings and escapes (compile/json.go).
	{
		ID: "str-escape-v", File: "compile/json.go",
		Old:  "class(false, '\"', '/', '\\\\', 'b', 'f', 'n', 'r', 't')",
		New:  "class(false, '\"', '/', '\\\\', 'b', 'f', 'n', 'r', 't', 'v')",
		Bug:  "\\v is accepted as a string escape (it is not JSON)",
		Pkgs: []string{compilePkg}, Run: "^TestCases$",
	},
	{
		ID: "str-lone-surrogate", File: "compile/json.go",
		Old:  "seq(class(false, 'D', 'd'), rangeClass('0', '7'), hex, hex))",
		New:  "seq(class(false, 'D', 'd'), rangeClass('0', '8'), hex, hex))",
		Bug:  "a lone high surrogate escape \\uD8xx is accepted",
		Pkgs: []string{compilePkg}, Run: "^TestCases$",
	},
	{
		ID: "str-surrogate-range-swapped", File: "compile/json.go",
		Old:  "gbnf.Range{Lo: 0xD800, Hi: 0xDFFF}",
		New:  "gbnf.Range{Lo: 0xDFFF, Hi: 0xD800}",
		Bug:  "the surrogate range of the raw-character class is written high to low",
		Pkgs: []string{compilePkg}, Run: "^TestCases$",
	},
	{
		ID: "canon-escape-fffd", File: "compile/json.go",
		Old:  "case 0xFFFD:\n\t\treturn `\\ufffd`, true",
		New:  "case 0xFFFE:\n\t\treturn `\\ufffd`, true",
		Bug:  "the canonical form writes U+FFFD raw, which the grammar refuses",
		Pkgs: []string{compilePkg}, Run: "^(TestCases|TestCanonicalTable)$",
	},

	// The canonical serializer and its validator (compile/canonical.go, validate.go).
	{
		ID: "canon-member-order", File: "compile/canonical.go",
		Old:  "for _, pr := range p.Properties {\n\t\t\tif mv := v.Get(pr.Name); mv != nil {",
		New:  "for i := range p.Properties {\n\t\t\tpr := p.Properties[len(p.Properties)-1-i]\n\t\t\tif mv := v.Get(pr.Name); mv != nil {",
		Bug:  "Canonical writes declared members in reverse order, which the grammar refuses",
		Pkgs: []string{compilePkg}, Run: "^(TestCases|TestCanonicalTable)$",
	},
	{
		ID: "canon-max-length", File: "compile/validate.go",
		Old:  "if n < s.MinLength || s.MaxLength >= 0 && n > s.MaxLength {",
		New:  "if n < s.MinLength || s.MaxLength >= 0 && n > s.MaxLength+1 {",
		Bug:  "Canonical accepts a string one character too long",
		Pkgs: []string{equivPkg}, Run: equivSet, Args: noEngine,
	},

	// anyOf (compile/expand.go).
	{
		ID: "anyof-branch-dropped", File: "compile/expand.go",
		Old:  "for _, b := range s.AnyOf {",
		New:  "for _, b := range s.AnyOf[:len(s.AnyOf)-1] {",
		Bug:  "the last anyOf branch is dropped",
		Pkgs: []string{equivPkg}, Run: equivSet, Args: noEngine,
	},

	// The GBNF side (gbnf/): matcher, printer, parser.
	{
		ID: "match-repeat-one-more", File: "gbnf/match_compile.go",
		Old:  "for k := 0; k < hi-lo && b.err == nil; k++ {",
		New:  "for k := 0; k <= hi-lo && b.err == nil; k++ {",
		Bug:  "the matcher lets x{m,n} take n+1",
		Pkgs: []string{gbnfPkg}, Run: ".", Short: true,
	},
	{
		ID: "match-class-low-end", File: "gbnf/match_compile.go",
		Old:  "return lo < len(rs) && rs[lo].Lo <= r",
		New:  "return lo < len(rs) && rs[lo].Lo < r",
		Bug:  "the matcher refuses the low end of a non-ASCII class range",
		Pkgs: []string{gbnfPkg}, Run: ".", Short: true,
	},
	{
		ID: "print-class-dash", File: "gbnf/print.go",
		Old:  "classPlain['-'] = false",
		New:  "classPlain['-'] = true",
		Bug:  "a - inside a class is printed bare, so it reads as a range",
		Pkgs: []string{gbnfPkg}, Run: ".", Short: true,
	},
	{
		ID: "print-literal-backslash", File: "gbnf/print.go",
		Old:  "for _, c := range []byte(`\"\\`) {",
		New:  "for _, c := range []byte(`\"`) {",
		Bug:  "a backslash in a literal is printed unescaped",
		Pkgs: []string{gbnfPkg}, Run: ".", Short: true,
	},
	{
		ID: "parse-exact-count", File: "gbnf/parse.go",
		Old:  "case !op.Comma:\n\t\t\t\trep.Max = rep.Min",
		New:  "case !op.Comma:\n\t\t\t\trep.Max = rep.Min + 1",
		Bug:  "the parser reads x{n} as x{n,n+1}",
		Pkgs: []string{gbnfPkg}, Run: ".", Short: true,
	},

	// The checker (subsetcheck/).
	{
		ID: "check-bound-tie", File: "subsetcheck/keywords_number.go",
		Old:  "if cmp == 0 || (lower && cmp > 0) || (!lower && cmp < 0) {",
		New:  "if (lower && cmp > 0) || (!lower && cmp < 0) {",
		Bug:  "minimum and exclusiveMinimum equal: the inclusive one wins, the bound gets through",
		Pkgs: []string{checkPkg}, Run: ".", Short: true,
	},
	{
		ID: "check-count-fraction", File: "subsetcheck/check.go",
		Old:  "if !ok || !r.IsInt() || r.Sign() < 0 {",
		New:  "if !ok || r.Sign() < 0 {",
		Bug:  "maxLength 2.5 is read (as 5) instead of refused",
		Pkgs: []string{checkPkg}, Run: ".", Short: true,
	},
	{
		ID: "check-count-wraps", File: "subsetcheck/check.go",
		Old:  "return math.MaxInt, true",
		New:  "return int(n.Int64()), true",
		Bug:  "a count past 2^63-1 keeps its low 64 bits, as the validator reads it: maxItems 2^63 rejects every array",
		Pkgs: []string{compilePkg}, Run: "^TestCountsPastInt64$",
	},
	{
		ID: "keyword-refused-dropped", File: "subsetcheck/keywords.go",
		Old:  "{\"unevaluatedItems\", from2019, ShapeSchema, Refused, Refused,",
		New:  "{\"unevaluatedItems\", from2019, ShapeSchema, Annotation, Refused,",
		Bug:  "unevaluatedItems is silently ignored instead of refused (fail open)",
		Pkgs: []string{equivPkg}, Run: "^TestRefusedSchemas$",
	},
	{
		ID: "read-duplicate-keys", File: "subsetcheck/read.go",
		Old:  "if len(s.duplicates) > 0 {",
		New:  "if false && len(s.duplicates) > 0 {",
		Bug:  "the strict reader takes duplicate member names",
		Pkgs: []string{checkPkg}, Run: ".", Short: true,
	},
}

// The harness must fail when it checks nothing (issue 25: with the oracle
// refusing every schema, three tests passed with "texts matched 0").
var harnessMutations = []mutation{
	{
		ID: "harness-oracle-refuses-corpus", File: "equiv/harness_test.go",
		Old:  "return oracle.New(schema, c.Draft, opts...)",
		New:  "return nil, fmt.Errorf(\"planted: the oracle refuses %d options\", len(opts))",
		Bug:  "the oracle refuses every schema: TestCorpus compares nothing",
		Pkgs: []string{equivPkg}, Run: "^TestCorpus$", Args: noEngine,
	},
	{
		ID: "harness-oracle-refuses-equiv", File: "equiv/harness_test.go",
		Old:  "return oracle.New(schema, c.Draft, opts...)",
		New:  "return nil, fmt.Errorf(\"planted: the oracle refuses %d options\", len(opts))",
		Bug:  "the oracle refuses every schema: TestEquivSchemas compares nothing",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$", Args: noEngine,
	},
	{
		ID: "harness-oracle-refuses-formats", File: "equiv/harness_test.go",
		Old:  "return oracle.New(schema, c.Draft, opts...)",
		New:  "return nil, fmt.Errorf(\"planted: the oracle refuses %d options\", len(opts))",
		Bug:  "the oracle refuses every schema: TestFormatSchemas compares nothing",
		Pkgs: []string{equivPkg}, Run: "^TestFormatSchemas$", Args: noEngine,
	},
	{
		ID: "harness-oracle-wraps-counts", File: "internal/oracle/oracle.go",
		Old:  "if !cfg.libraryCounts && specCounts(doc, sch) {",
		New:  "if false && specCounts(doc, sch) {",
		Bug:  "the oracle judges counts past 2^63-1 as the validator reads them (their low 64 bits), not by the spec",
		Pkgs: []string{equivPkg}, Run: "^TestHarnessCatchesWrongGrammars$",
	},
	{
		ID: "harness-no-invalid-values", File: "equiv/harness_test.go",
		Old:  "valid, invalid := gen.Valid(), gen.Invalid()",
		New:  "valid, invalid := gen.Valid(), gen.Invalid()[:0]",
		Bug:  "the generator's near misses are lost: no invalid value is tried",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$", Args: noEngine,
	},
	{
		ID: "harness-engine-skipped", File: "equiv/pipeline_test.go",
		Old:  "if !*flagEngine || interop.Skipped() { // TestLlamaEngine says so, once",
		New:  "if *flagEngine || interop.Skipped() { // TestLlamaEngine says so, once",
		Bug:  "no text goes to llama.cpp's engine while -engine is on",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$",
	},
	{
		ID: "harness-no-testdata-cases", File: "compile/export_test.go",
		Old:  "files, _ := filepath.Glob(\"testdata/*.txtar\")",
		New:  "files, _ := filepath.Glob(\"testdata/*.txtar-moved\")",
		Bug:  "the testdata cases are not found: TestEngine would judge nothing",
		Pkgs: []string{compilePkg}, Run: "^TestEngine$",
	},
}

// checkLedger returns every problem with the ledger: unknown files,
// anchors not found exactly once, mutations that change nothing or leave
// a file that does not parse, repeated ids.
func checkLedger(root string, ms []mutation) []string {
	var problems []string
	ids := map[string]bool{}
	for _, m := range ms {
		bad := func(format string, args ...any) {
			problems = append(problems, m.ID+": "+fmt.Sprintf(format, args...))
		}
		if m.ID == "" || ids[m.ID] {
			bad("missing or repeated id")
		}
		ids[m.ID] = true
		if m.Bug == "" || len(m.Pkgs) == 0 || m.Run == "" {
			bad("needs a bug, packages and a -run pattern")
		}
		for _, part := range strings.Split(m.Run, "/") { // go test splits -run at slashes
			if _, err := regexp.Compile(part); err != nil {
				bad("-run %q: %v", m.Run, err)
			}
		}
		data, err := os.ReadFile(filepath.Join(root, m.File))
		if err != nil {
			bad("%v", err)
			continue
		}
		src := string(data)
		switch n := strings.Count(src, m.Old); {
		case m.Old == "" || m.Old == m.New:
			bad("the mutation changes nothing")
		case n == 0:
			bad("anchor not found in %s (the code moved: update the ledger): %q", m.File, m.Old)
		case n > 1:
			bad("anchor found %d times in %s: make it unique: %q", n, m.File, m.Old)
		default:
			mutated := strings.Replace(src, m.Old, m.New, 1)
			if _, err := parser.ParseFile(token.NewFileSet(), m.File, mutated, 0); err != nil {
				bad("the mutated file does not parse: %v", err)
			}
		}
	}
	return problems
}

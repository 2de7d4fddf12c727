package main

// The suites of the string languages and of member names (equiv's
// testdata/equiv/patterns and names), and the regex emitter's automata.
const (
	patternSet = "^TestPatternSchemas$"
	nameSet    = "^TestNameSchemas$"
	regexPkg   = "./regex"
)

// patternMutations are bugs in pattern, patternProperties and
// propertyNames (compile/pattern.go, machine.go, names.go), in the asserted
// formats' languages beside a pattern (formatlang.go) and in the regex
// emitter's solved cycles (regex/linear.go).
var patternMutations = []mutation{
	// What a string or a member name must match (compile/machine.go,
	// expand.go, pattern.go, names.go).
	{
		ID: "pattern-escapes-dropped", File: "compile/machine.go",
		Old:  "alts = append(alts, seq(lit(`\\`), cp.escapeSuffix(esc)))",
		New:  "alts = append(alts, seq(lit(`\\`), lit(\"u\"), cp.escapeSuffix(esc)))",
		Bug:  "a pattern string's escaped characters are spelled wrong (\\u\\n for \\n)",
		Pkgs: []string{equivPkg}, Run: patternSet, Args: noEngine,
	},
	{
		ID: "pattern-meet-one-side", File: "compile/expand.go",
		Old:  "m.Patterns = unionPatterns(a.Patterns, b.Patterns)",
		New:  "m.Patterns = a.Patterns",
		Bug:  "a pattern met through $ref or anyOf is dropped",
		Pkgs: []string{equivPkg}, Run: patternSet, Args: noEngine,
	},
	{
		ID: "pattern-unanchored", File: "compile/pattern.go",
		Old:  "if l, err = strlang.Intersect(l, pt.Lang, lim); err != nil {",
		New:  "if l, err = strlang.Intersect(l, strlang.All(), lim); err != nil || pt == nil {",
		Bug:  "a string's pattern is not enforced at all",
		Pkgs: []string{equivPkg}, Run: patternSet, Args: noEngine,
	},
	{
		ID: "names-region-ignores-patterns", File: "compile/names.go",
		Old:  "if len(r.in) == 0 {\n\t\t\ts = p.AdditionalProperties",
		New:  "if true {\n\t\t\ts = p.AdditionalProperties",
		Bug:  "an extra member whose name matches a patternProperties pattern takes additionalProperties' values",
		Pkgs: []string{equivPkg}, Run: nameSet, Args: noEngine,
	},
	{
		ID: "names-declared-unmet", File: "compile/names.go",
		Old:  "if pp.Pattern.Lang.Match(name) && !meet(pp.Schema) {",
		New:  "if property(p, name) == nil && pp.Pattern.Lang.Match(name) && !meet(pp.Schema) {",
		Bug:  "a declared member whose name matches a patternProperties pattern escapes its schema",
		Pkgs: []string{equivPkg}, Run: nameSet, Args: noEngine,
	},
	{
		ID: "names-propertynames-ignored", File: "compile/names.go",
		Old:  "if p.PropertyNames != nil {\n\t\tvar ok bool",
		New:  "if false {\n\t\tvar ok bool",
		Bug:  "extra members take names propertyNames rejects",
		Pkgs: []string{equivPkg}, Run: nameSet, Args: noEngine,
	},

	// A string schema's language (compile/pattern.go).
	{
		ID: "pattern-max-length-past", File: "compile/pattern.go",
		Old:  "strlang.WithLength(l, p.MinLength, p.MaxLength, lim)",
		New:  "strlang.WithLength(l, p.MinLength, p.MaxLength+b2i(p.MaxLength >= 0), lim)",
		Bug:  "a pattern string within maxLength n takes n+1 characters",
		Pkgs: []string{equivPkg}, Run: patternSet, Args: noEngine,
	},
	{
		ID: "pattern-min-length-short", File: "compile/pattern.go",
		Old:  "strlang.WithLength(l, p.MinLength, p.MaxLength, lim)",
		New:  "strlang.WithLength(l, max(p.MinLength-1, 0), p.MaxLength, lim)",
		Bug:  "a pattern string with minLength n takes n-1 characters",
		Pkgs: []string{equivPkg}, Run: patternSet, Args: noEngine,
	},
	{
		ID: "pattern-min-length-alone", File: "compile/pattern.go",
		Old:  "if p.MinLength > 0 || p.MaxLength >= 0 {",
		New:  "if p.MaxLength >= 0 {",
		Bug:  "minLength beside a pattern, without maxLength, is not enforced",
		Pkgs: []string{equivPkg}, Run: patternSet, Args: noEngine,
	},
	{
		ID: "pattern-first-only", File: "compile/pattern.go",
		Old:  "for _, pt := range p.Patterns {\n\t\tvar err error",
		New:  "for _, pt := range p.Patterns[:1] {\n\t\tvar err error",
		Bug:  "of several patterns met in one schema (allOf, $ref), only the first is enforced",
		Pkgs: []string{equivPkg}, Run: patternSet, Args: noEngine,
	},
	{
		ID: "pattern-key-lengths", File: "compile/pattern.go",
		Old:  `"\x01" + strconv.Itoa(p.MinLength) + "\x01" + strconv.Itoa(p.MaxLength) +`,
		New:  `"\x01" + strconv.Itoa(p.MaxLength) +`,
		Bug:  "two schemas with one pattern and different minLength share one language (the first built)",
		Pkgs: []string{compilePkg}, Run: "^TestPatternLanguagesByLength$",
	},
	{
		ID: "pattern-except-kept", File: "compile/pattern.go",
		Old:  "l, err = strlang.Minus(l, ex, lim)",
		New:  "_, err = strlang.Minus(l, ex, lim)",
		Bug:  "not of an enum or const beside a pattern lets the excluded strings through",
		Pkgs: []string{compilePkg}, Run: "^TestNot",
	},
	{
		ID: "pattern-complement-not-taken", File: "compile/pattern.go",
		Old:  "Lang: e.lang.Complement()}}",
		New:  "Lang: e.lang}}",
		Bug:  "not of a pattern is the pattern itself",
		Pkgs: []string{compilePkg}, Run: "^TestNot",
	},

	// Automata written as rules (compile/machine.go).
	{
		ID: "machine-edge-dropped", File: "compile/machine.go",
		Old:  "for _, e := range m.edges[q] {\n\t\talts = append(alts, seq(cp.setChar(e.Set), next(e.To)))",
		New:  "for _, e := range m.edges[q][min(1, len(m.edges[q])-1):] {\n\t\talts = append(alts, seq(cp.setChar(e.Set), next(e.To)))",
		Bug:  "a state with several edges loses its first: strings that go on by its characters are rejected",
		Pkgs: []string{equivPkg}, Run: patternSet, Args: noEngine,
	},
	{
		ID: "machine-accept-with-edges", File: "compile/machine.go",
		Old:  "if end := m.accept[q]; end != nil {",
		New:  "if end := m.accept[q]; end != nil && len(m.edges[q]) == 0 {",
		Bug:  "an accepting state that can go on does not accept: a string that ends there is rejected",
		Pkgs: []string{equivPkg}, Run: patternSet, Args: noEngine,
	},
	{
		ID: "machine-start-accepting", File: "compile/machine.go",
		Old:  "if l.Accepting(q) {\n\t\t\tm.accept[q] = end",
		New:  "if l.Accepting(q) || q == 0 {\n\t\t\tm.accept[q] = end",
		Bug:  "the empty string is accepted wherever a pattern or a length refuses it",
		Pkgs: []string{equivPkg}, Run: patternSet, Args: noEngine,
	},
	{
		ID: "machine-chain-short", File: "compile/machine.go",
		Old:  "return seq(cp.repeat(cp.setChar(set), lo, hi), lit(`\"`), m.end)",
		New:  "return seq(cp.repeat(cp.setChar(set), max(lo-1, 0), hi), lit(`\"`), m.end)",
		Bug:  "a chain (n to m characters of one set) takes n-1",
		Pkgs: []string{equivPkg}, Run: patternSet, Args: noEngine,
	},
	{
		ID: "machine-escape-control", File: "compile/machine.go",
		Old:  "var escapable = strlang.NewSet(strlang.Range{Lo: 0, Hi: 0x1F},",
		New:  "var escapable = strlang.NewSet(strlang.Range{Lo: 0, Hi: 0x1E},",
		Bug:  "U+001F in a pattern string is written raw, not as its canonical escape \\u001f",
		Pkgs: []string{equivPkg}, Run: patternSet, Args: noEngine,
	},
	{
		ID: "machine-escape-replacement", File: "compile/machine.go",
		Old:  "strlang.Range{Lo: '\\\\', Hi: '\\\\'}, strlang.Range{Lo: 0xFFFD, Hi: 0xFFFD})",
		New:  "strlang.Range{Lo: '\\\\', Hi: '\\\\'})",
		Bug:  "U+FFFD in a pattern string is written raw, not as \\ufffd (the text llama.cpp makes of invalid UTF-8)",
		Pkgs: []string{equivPkg}, Run: patternSet, Args: noEngine,
	},

	// Member names (compile/names.go).
	{
		ID: "names-declared-schema-dropped", File: "compile/names.go",
		Old:  "if isDeclared && !meet(property(p, name)) {",
		New:  "if isDeclared && len(p.PatternProperties) == 0 && !meet(property(p, name)) {",
		Bug:  "a declared member beside patternProperties escapes its declared schema",
		Pkgs: []string{equivPkg}, Run: nameSet, Args: noEngine,
	},
	{
		ID: "names-required-matched-as-additional", File: "compile/names.go",
		Old:  "if parts == 0 && !isDeclared {",
		New:  "if !isDeclared {",
		Bug:  "a required name no property declares takes additionalProperties, though a pattern matches it",
		Pkgs: []string{equivPkg}, Run: nameSet, Args: noEngine,
	},
	{
		ID: "names-region-first-pattern", File: "compile/names.go",
		Old:  "for _, i := range r.in {",
		New:  "for _, i := range r.in[:min(1, len(r.in))] {",
		Bug:  "an extra member whose name matches two patterns is held to the first pattern's schema only",
		Pkgs: []string{equivPkg}, Run: nameSet, Args: noEngine,
	},
	{
		ID: "names-declared-in-regions", File: "compile/names.go",
		Old:  "if len(names) > 0 {\n\t\td, err := strlang.Literals(names, lim)",
		New:  "if false {\n\t\td, err := strlang.Literals(names, lim)",
		Bug:  "an extra member may take a declared name, with its region's value schema",
		Pkgs: []string{equivPkg}, Run: nameSet, Args: noEngine,
	},
	{
		ID: "names-propertynames-declared", File: "compile/names.go",
		Old:  "if !allowed {",
		New:  "if !allowed && !declared(p, name) {",
		Bug:  "a declared member takes a name propertyNames rejects",
		Pkgs: []string{equivPkg}, Run: nameSet, Args: noEngine,
	},
	{
		ID: "names-propertynames-required", File: "compile/names.go",
		Old:  "if !allowed {",
		New:  "if !allowed && !slices.Contains(p.Required, name) {",
		Bug:  "a required member takes a name propertyNames rejects",
		Pkgs: []string{equivPkg}, Run: nameSet, Args: noEngine,
	},
	{
		ID: "names-meet-additional-dropped", File: "compile/names.go",
		Old:  "out = append(out, subsetcheck.PatternProperty{Pattern: rest, Schema: x.AdditionalProperties})",
		New:  "_ = rest",
		Bug:  "in a meet, a name one side's patterns match escapes the other side's additionalProperties",
		Pkgs: []string{equivPkg}, Run: nameSet, Args: noEngine,
	},
	{
		ID: "names-meet-declared-unmatched", File: "compile/names.go",
		Old:  "if err == nil {\n\t\tl, err = strlang.Union(l, d, lim)",
		New:  "if false {\n\t\tl, err = strlang.Union(l, d, lim)",
		Bug:  "in a meet, one side's declared names are held to its additionalProperties",
		Pkgs: []string{equivPkg}, Run: nameSet, Args: noEngine,
	},
	{
		ID: "names-product-range-end", File: "compile/names.go",
		Old:  "cuts = append(cuts, r.Lo, r.Hi+1)",
		New:  "cuts = append(cuts, r.Lo)",
		Bug:  "the names automaton of several regions takes a range's edge past its last character",
		Pkgs: []string{equivPkg}, Run: nameSet, Args: noEngine,
	},

	// Asserted formats as string languages, beside a pattern
	// (compile/formatlang.go).
	{
		ID: "formatlang-day30-31", File: "compile/formatlang.go",
		Old:  "day30 := `0[1-9]|[12]\\d|30`",
		New:  "day30 := `0[1-9]|[12]\\d|3[01]`",
		Bug:  "format date beside a pattern takes April 31",
		Pkgs: []string{compilePkg}, Run: "^TestFormatLanguages$",
	},
	{
		ID: "formatlang-leap-odd-tens", File: "compile/formatlang.go",
		Old:  "oddTens := `[13579][26]`",
		New:  "oddTens := `[13579][2-6]`",
		Bug:  "format date beside a pattern takes February 29 of 1934",
		Pkgs: []string{compilePkg}, Run: "^TestFormatLanguages$",
	},

	// The regex emitter's automata (regex/linear.go).
	{
		ID: "regex-linear-star-once", File: "regex/linear.go",
		Old:  "star := b.count(newRepeat(a, 0, -1))",
		New:  "star := b.count(newRepeat(a, 0, 1))",
		Bug:  "a state's loop is taken at most once in the regex",
		Pkgs: []string{regexPkg}, Run: "^TestRandomRightLinear$",
	},
	{
		ID: "regex-linear-loop-before-end", File: "regex/linear.go",
		Old:  "rest[i] = b.count(newConcat(star, rest[i]))",
		New:  "rest[i] = b.count(newConcat(emptyNode, rest[i]))",
		Bug:  "a state's loop is dropped before the string ends there",
		Pkgs: []string{regexPkg}, Run: "^TestRandomRightLinear$",
	},
	{
		ID: "regex-linear-substitution-end", File: "regex/linear.go",
		Old:  "rest[k] = b.count(newAlt(rest[k], b.count(newConcat(a, rest[i]))))",
		New:  "rest[k] = b.count(newAlt(rest[k], noneNode))",
		Bug:  "eliminating a state drops the strings that end in it from the states that lead to it",
		Pkgs: []string{regexPkg}, Run: "^TestRandomRightLinear$",
	},
}

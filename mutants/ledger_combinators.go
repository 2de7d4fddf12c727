package main

// combinatorMutations are bugs in allOf, oneOf, not (with the excluded
// values of a negated enum or const) and if/then/else (compile/
// combinator.go, oneof.go, not.go, except.go, and the checker's side).
var combinatorMutations = []mutation{
	// allOf (compile/combinator.go).
	{
		ID: "allof-last-dropped", File: "compile/combinator.go",
		Old:  "for _, b := range s.AllOf {",
		New:  "for _, b := range s.AllOf[:len(s.AllOf)-1] {",
		Bug:  "the last allOf branch is not met",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$", Args: noEngine,
	},

	// oneOf's proof of disjointness (compile/oneof.go).
	{
		ID: "oneof-adjacent-pairs", File: "compile/oneof.go",
		Old:  "for y := x + 1; y < n; y++ {",
		New:  "for y := x + 1; y < n && y == x+1; y++ {",
		Bug:  "only adjacent oneOf branches are proven disjoint: branches 0 and 2 may overlap",
		Pkgs: []string{compilePkg}, Run: "^TestOneOfOverlap(Warning|Exact)$",
	},
	{
		ID: "oneof-enum-evidently-empty", File: "compile/not.go",
		Old:  "p.Enum != nil && len(p.Enum) == 0:",
		New:  "p.Enum != nil:",
		Bug:  "a meet left with an enum counts as empty: branches sharing an enum member pass as disjoint",
		Pkgs: []string{compilePkg}, Run: "^TestOneOfOverlap(Warning|Exact)$",
	},
	{
		ID: "oneof-undecided-as-disjoint", File: "compile/oneof.go",
		Old:  "case errors.As(err, &l) && onlyNoValue(l) && exact():",
		New:  "case errors.As(err, &l) && exact():",
		Bug:  "a pair whose meet cannot be compiled passes as disjoint: the oneOf becomes anyOf",
		Pkgs: []string{compilePkg}, Run: "^TestOneOfUndecided$",
	},
	{
		ID: "oneof-meet-without-rest", File: "compile/oneof.go",
		Old:  "meet, ok := sub.conjOf(uniqueParts(rest, bi, bj))",
		New:  "meet, ok := sub.conjOf(uniqueParts(bi, bj))",
		Bug:  "branches are met without the rest of the schema: a oneOf whose overlap the rest rules out is refused",
		Pkgs: []string{compilePkg}, Run: "^TestCases$",
	},

	// not: the complement of a plain schema (compile/not.go).
	{
		ID: "not-minimum-inclusive", File: "compile/not.go",
		Old:  "s.Upper = &subsetcheck.Bound{Value: b.Value, Exclusive: !b.Exclusive}",
		New:  "s.Upper = &subsetcheck.Bound{Value: b.Value, Exclusive: b.Exclusive}",
		Bug:  "not of minimum 5 takes 5 (the complement of an inclusive bound is inclusive too)",
		Pkgs: []string{compilePkg}, Run: "^TestNotNumbers$",
	},
	{
		ID: "not-maximum-inclusive", File: "compile/not.go",
		Old:  "s.Lower = &subsetcheck.Bound{Value: b.Value, Exclusive: !b.Exclusive}",
		New:  "s.Lower = &subsetcheck.Bound{Value: b.Value, Exclusive: b.Exclusive}",
		Bug:  "not of exclusiveMaximum 5 rejects 5, not of maximum 5 takes 5",
		Pkgs: []string{compilePkg}, Run: "^TestNotNumbers$",
	},
	{
		ID: "not-type-integer-number", File: "compile/not.go",
		Old:  "if rest := subsetcheck.AllTypes &^ p.Types; rest != 0 {",
		New:  "if rest := subsetcheck.AllTypes &^ p.Types &^ subsetcheck.TNumber; rest != 0 {",
		Bug:  "integer and number read as one type: not of type integer rejects 1.5",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$", Args: noEngine,
	},
	{
		ID: "not-required-keeps-name", File: "compile/not.go",
		Old:  "s.Required = p.Required[:i:i]",
		New:  "s.Required = p.Required[:i+1:i+1]",
		Bug:  "the objects lacking a required name must have it: not of required [a] rejects {}",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$", Args: noEngine,
	},
	{
		ID: "not-min-length", File: "compile/not.go",
		Old:  "s.MaxLength = p.MinLength - 1",
		New:  "s.MaxLength = p.MinLength",
		Bug:  "not of minLength 3 takes a string of 3",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$", Args: noEngine,
	},
	{
		ID: "not-max-items", File: "compile/not.go",
		Old:  "s.MinItems = p.MaxItems + 1",
		New:  "s.MinItems = p.MaxItems",
		Bug:  "not of maxItems 2 takes two items",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$", Args: noEngine,
	},
	{
		ID: "not-item-position", File: "compile/not.go",
		Old:  "s.MinItems = i + 1",
		New:  "s.MinItems = i",
		Bug:  "the array whose item i breaks its schema need not have item i: not of prefixItems takes []",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$", Args: noEngine,
	},
	{
		ID: "not-enum-unfiltered", File: "compile/not.go",
		Old:  "if accepts(&rest, m) {\n\t\t\t\tin = append(in, m)",
		New:  "if true {\n\t\t\t\tin = append(in, m)",
		Bug:  "not of an enum excludes the members the rest of its schema rejects too",
		Pkgs: []string{compilePkg}, Run: "^TestNotValuesOfEveryType$",
	},

	// Excluded values, the complement of enum and const (compile/except.go).
	{
		ID: "except-number-kept", File: "compile/except.go",
		Old:  "lo = &subsetcheck.Bound{Value: x, Exclusive: true}",
		New:  "lo = &subsetcheck.Bound{Value: x, Exclusive: false}",
		Bug:  "an excluded number opens the next range: not of const 5 takes 5",
		Pkgs: []string{compilePkg}, Run: "^TestNotNumbers$",
	},
	{
		ID: "except-string-kept", File: "compile/except.go",
		Old:  "if i == 0 && d >= t.lo && (t.hi < 0 || d <= t.hi) {",
		New:  "if d >= t.lo && (t.hi < 0 || d <= t.hi) {",
		Bug:  "between string lengths, an excluded string may end where it ends: it is taken",
		Pkgs: []string{compilePkg}, Run: "^TestNotStringsBounded$",
	},
	{
		ID: "except-booleans", File: "compile/except.go",
		Old:  "if ex.isTrue && ex.isFalse {",
		New:  "if ex.isTrue || ex.isFalse {",
		Bug:  "excluding one boolean excludes both: not of const true rejects false",
		Pkgs: []string{compilePkg}, Run: "^TestNotValuesOfEveryType$",
	},

	// if/then/else (compile/combinator.go, subsetcheck/keywords_combinator.go).
	{
		ID: "if-then-else-swapped", File: "compile/combinator.go",
		Old:  "yes, ok := cp.cross([]alternative{{opaque: s.If}}, []alternative{then})",
		New:  "then, els = els, then\n\tyes, ok := cp.cross([]alternative{{opaque: s.If}}, []alternative{then})",
		Bug:  "then and else swapped: a value that matches if is held to else, one that does not to then",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$", Args: noEngine,
	},
	{
		ID: "if-else-when-if-holds", File: "compile/combinator.go",
		Old:  "no, ok := cp.cross(notIf, []alternative{els})",
		New:  "no, ok := cp.cross(append(notIf[:0:0], alternative{plain: trueSchema(s)}), []alternative{els})",
		Bug:  "else applies whether or not if holds: a value matching if and else, not then, is taken",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$", Args: noEngine,
	},
	{
		ID: "if-without-then-true", File: "compile/combinator.go",
		Old:  "return []alternative{{opaque: s.If}, els}, true",
		New:  "return []alternative{{plain: trueSchema(s)}, els}, true",
		Bug:  "without then, where not(if) has no grammar, every value is taken (if ∪ else read as true ∪ else)",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$", Args: noEngine,
	},
	{
		ID: "check-dependencies-schemas-dropped", File: "subsetcheck/keywords_object.go",
		Old:  "return v.Kind != Array",
		New:  "return false",
		Bug:  "draft-07 dependencies: the schema entries are read as nothing (fail open), the name lists kept",
		Pkgs: []string{compilePkg}, Run: "^TestDependencies$",
	},
	{
		ID: "check-if-else-dropped", File: "subsetcheck/keywords_combinator.go",
		Old:  "if k.thenm == nil && k.elsem == nil {",
		New:  "if k.thenm == nil {",
		Bug:  "if with else and no then is ignored, as if without both (fail open)",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$", Args: noEngine,
	},
}

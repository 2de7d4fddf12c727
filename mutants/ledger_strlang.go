package main

// strlangPkg is the string languages' package: ECMA-262 patterns as
// automata (its tests judge them by the spec and by regexp2).
const strlangPkg = "./strlang"

// strlangMutations are bugs in the string languages: the named sets, the
// parser, the automata and the operations on them (strlang/).
var strlangMutations = []mutation{
	// The character sets (strlang/unicode.go).
	{
		ID: "strlang-dot-newline", File: "strlang/unicode.go",
		Old:  "lineTerminators = NewSet(Range{'\\n', '\\n'}, Range{'\\r', '\\r'}, Range{0x2028, 0x2029})",
		New:  "lineTerminators = NewSet(Range{'\\r', '\\r'}, Range{0x2028, 0x2029})",
		Bug:  ". matches \\n",
		Pkgs: []string{strlangPkg}, Run: "^TestMatch$",
	},
	{
		ID: "strlang-space-feff", File: "strlang/unicode.go",
		Old:  "Range{'\\t', '\\r'}, Range{0xFEFF, 0xFEFF}, Range{0x2028, 0x2029}",
		New:  "Range{'\\t', '\\r'}, Range{0x2028, 0x2029}",
		Bug:  "\\s misses U+FEFF (ECMA-262's WhiteSpace has it; Unicode's White_Space does not)",
		Pkgs: []string{strlangPkg}, Run: "^TestMatch$",
	},
	{
		ID: "strlang-digit-unicode", File: "strlang/unicode.go",
		Old:  "digitSet = NewSet(Range{'0', '9'})",
		New:  "digitSet = fromTable(unicode.Nd)",
		Bug:  "\\d takes every Unicode decimal digit (٣, ０), not only 0-9",
		Pkgs: []string{strlangPkg}, Run: "^TestMatch$",
	},

	// The parser (strlang/parse.go).
	{
		ID: "strlang-end-final-newline", File: "strlang/parse.go",
		Old:  "case '$':\n\t\tp.pos++\n\t\treturn &node{op: opEnd}",
		New:  "case '$':\n\t\tp.pos++\n\t\treturn concatNode([]*node{repeatNode(charNode(NewSet(Range{'\\n', '\\n'})), 0, 1), {op: opEnd}})",
		Bug:  "$ matches before a final newline (as in Python and PCRE): ^abc$ takes \"abc\\n\"",
		Pkgs: []string{strlangPkg}, Run: "^TestMatch$",
	},
	{
		ID: "strlang-lazy-minimum", File: "strlang/parse.go",
		Old:  "if p.at(\"?\") {\n\t\tp.pos++\n\t}",
		New:  "if p.at(\"?\") {\n\t\tp.pos++\n\t\thi = lo\n\t}",
		Bug:  "a lazy quantifier changes the language: a+? reads as a{1}",
		Pkgs: []string{strlangPkg}, Run: "^TestMatch$",
	},

	// The automata (strlang/nfa.go, determinize.go, minimize.go).
	{
		ID: "strlang-repeat-one-more", File: "strlang/nfa.go",
		Old:  "for i := 0; i < n.max-n.min; i++ {",
		New:  "for i := 0; i <= n.max-n.min; i++ {",
		Bug:  "x{n,m} takes m+1 copies",
		Pkgs: []string{strlangPkg}, Run: "^TestMatch$",
	},
	{
		ID: "strlang-anchored-start", File: "strlang/determinize.go",
		Old:  "d.always = d.startMatters()",
		New:  "d.always = false",
		Bug:  "a pattern matches only at the start of the string, as if it began with ^",
		Pkgs: []string{strlangPkg}, Run: "^TestMatch$",
	},
	{
		ID: "strlang-minimize-one-class", File: "strlang/minimize.go",
		Old:  "for c := 0; c < k; c++ {\n\t\t\ttouched = touched[:0]",
		New:  "for c := 0; c < k && c < 1; c++ {\n\t\t\ttouched = touched[:0]",
		Bug:  "minimization splits blocks by the first class only: states that differ on other classes are merged",
		Pkgs: []string{strlangPkg}, Run: "^TestMatch$",
	},
	{
		ID: "strlang-minimize-larger-half", File: "strlang/minimize.go",
		Old:  "if mid-lo <= hi-mid {",
		New:  "if mid-lo > hi-mid {",
		Bug:  "Hopcroft's refinement queues the larger part of a split block, not the smaller",
		Pkgs: []string{strlangPkg}, Run: "^(TestMatch|TestOperations|TestWithLength|TestCanonical|TestDeterministic)$", Short: true,
		Equivalent: "when a block that is not queued splits, queueing either part refines to the same partition " +
			"(the other part's splits follow from the parent's, already done); only the running time's bound changes, " +
			"and no state count or limit depends on which part is queued",
	},

	// Lengths and operations (strlang/length.go, ops.go).
	{
		ID: "strlang-withlength-max", File: "strlang/length.go",
		Old:  "if to < 0 || max >= 0 && n > max {",
		New:  "if to < 0 || max >= 0 && n > max+1 {",
		Bug:  "WithLength takes strings one code point longer than max",
		Pkgs: []string{strlangPkg}, Run: "^TestWithLength$",
	},
	{
		ID: "strlang-withlength-min", File: "strlang/length.go",
		Old:  "l.accept[p.q] && int(p.n) >= min)",
		New:  "l.accept[p.q] && int(p.n) > min)",
		Bug:  "WithLength rejects the strings of exactly min code points",
		Pkgs: []string{strlangPkg}, Run: "^TestWithLength$",
	},
	{
		ID: "strlang-complement-start", File: "strlang/ops.go",
		Old:  "t.accept[q] = !l.accept[q]",
		New:  "t.accept[q] = !l.accept[q] || q == 0",
		Bug:  "Complement keeps the start state accepting: the empty string is in a language and its complement",
		Pkgs: []string{strlangPkg}, Run: "^TestOperations$",
	},
	{
		ID: "strlang-complement-sink", File: "strlang/ops.go",
		Old:  "t.accept[n] = true",
		New:  "t.accept[n] = false",
		Bug:  "Complement leaves out the strings the language's automaton rejects at once (its dead state stays rejecting)",
		Pkgs: []string{strlangPkg}, Run: "^TestOperations$",
	},
}

// Package regex writes a grammar (the compiler's IR, a gbnf.Grammar) as one
// regular expression that matches exactly the texts the grammar accepts, for
// engines that take a regex instead of GBNF (Outlines, vLLM and SGLang guided
// regex, LM Format Enforcer).
//
// # Dialect
//
// The regex uses only what Go's regexp (RE2), Rust's regex crate and Python's
// re read the same way, with no flags: literals, bracketed classes,
// non-capturing groups (?:...), alternation and the repetitions ? * + {n}
// {n,} {m,n}. It never uses ".", anchors, lookaround, backreferences or
// lazy/possessive forms. Escaping: ASCII metacharacters take a backslash
// (inside classes also - & ~ | [ so Python sees no set operation); control
// characters (U+0000-U+001F, U+007F-U+009F) are \xHH, which all three read
// as that code point; every other code point is written raw, in UTF-8.
//
// # Full match
//
// The regex is bare: match it against the whole text.
//
//	Go:     regexp.MustCompile(regex.Anchored(re)).MatchString(text)   // ^(?:re)$
//	Rust:   Regex::new(&format!("^(?:{re})$"))?.is_match(text)
//	Python: re.fullmatch(re_text, text)   (not "^(?:re)$": Python's $ also matches before a final newline)
//
// Texts are sequences of code points: NUL is never matched (as in llama.cpp's
// engine), and in Go an invalid UTF-8 byte reads as U+FFFD, as in our matcher.
//
// # Recursion and size
//
// A recursive grammar (for example any JSON value: arrays hold values) has no
// regular expression; Emit refuses it with CodeRecursive unless
// Options.MaxDepth is set, and then each recursive rule is unrolled to that
// depth: values nested deeper are rejected even though the grammar accepts
// them. This is the one knowingly incomplete output, and only on request.
// Rules that refer to one another only at the end of their alternatives
// (the states of an automaton: pattern strings, member names) are regular
// however they cycle, and are solved exactly into stars (linear.go).
//
// Every rule is inlined where it is used. Repetition counts stay counts
// ({m,n}); because Go refuses a count above 1000 and nested counts whose
// product passes 1000, a repetition over that budget is written as a run of
// smaller ones. A regex longer than Options.MaxBytes, nested deeper than
// Options.MaxNesting, or refused by Go's regexp/syntax for size is refused
// with CodeTooLarge or CodeTooDeep.
package regex

import (
	"fmt"
	"regexp/syntax"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Problem codes of the regex emitter, as subsetcheck.Code values in a
// subsetcheck.ErrorList.
const (
	CodeInvalidGrammar = subsetcheck.CodeRegexInvalidGrammar // no root, an undefined rule, a nil or unknown expression
	CodeRecursive      = subsetcheck.CodeRegexRecursive      // a recursive rule and no Options.MaxDepth
	CodeTooLarge       = subsetcheck.CodeRegexTooLarge       // the regex would pass Options.MaxBytes or Go's regexp size limits
	CodeTooDeep        = subsetcheck.CodeRegexTooDeep        // the regex would nest deeper than Options.MaxNesting
	CodeNoText         = subsetcheck.CodeRegexNoText         // the grammar (or its unrolling) matches no text at all
)

// Named limits: the defaults of the Options fields.
const (
	// DefaultMaxBytes is the default of Options.MaxBytes: 1 MB of regex.
	DefaultMaxBytes = 1 << 20
	// DefaultMaxNesting is the default of Options.MaxNesting, counted as
	// Rust's regex parser counts toward its default nest limit of 250 (each
	// group, repetition, alternation, concatenation and bracketed class is
	// one level; TestNestingLimitPython compiles the deepest regex it lets
	// through in Rust's regex crate too). Go stops at a parse
	// tree height of 1000; Python's recursive compiler handles 250 nested
	// groups (about 750 levels as counted here) but not 500.
	DefaultMaxNesting = 250
	// goRepeatBudget is Go's regexp/syntax limit on a repetition count and
	// on the product of nested counts.
	goRepeatBudget = 1000
)

// Options steer Emit. The zero value refuses recursion and uses the default
// limits.
type Options struct {
	// MaxDepth, when above 0, unrolls each recursive rule to this many
	// nested uses; texts nesting deeper are rejected. 0 refuses recursive
	// grammars with CodeRecursive.
	MaxDepth int
	// MaxBytes bounds the length of the regex (CodeTooLarge above it);
	// 0 means DefaultMaxBytes.
	MaxBytes int
	// MaxNesting bounds the nesting depth of the regex (CodeTooDeep above
	// it); 0 means DefaultMaxNesting.
	MaxNesting int
}

func (o Options) withDefaults() Options {
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.MaxNesting <= 0 {
		o.MaxNesting = DefaultMaxNesting
	}
	if o.MaxDepth < 0 {
		o.MaxDepth = 0
	}
	return o
}

// Emit returns one regular expression that matches (in full) exactly the
// texts g accepts from its rule "root". On failure the error is a
// subsetcheck.ErrorList holding one problem with one of the codes above.
// The output is deterministic: the same grammar gives the same text.
func Emit(g *gbnf.Grammar, opts Options) (string, error) {
	opts = opts.withDefaults()
	b, p := newBuilder(g, opts)
	if p != nil {
		return "", subsetcheck.ErrorList{p}
	}
	n, p := b.build()
	if p != nil {
		return "", subsetcheck.ErrorList{p}
	}
	if n.op == opNone {
		return "", subsetcheck.ErrorList{problem(CodeNoText, "the grammar matches no text at all, so there is no regex for it"+unrollNote(opts))}
	}
	f := newFitter(opts.MaxBytes)
	n = f.fit(n, goRepeatBudget)
	if f.err != nil {
		return "", subsetcheck.ErrorList{f.err}
	}
	pr := newPrinter()
	if size := pr.size(n, ctxTop); size > opts.MaxBytes {
		return "", subsetcheck.ErrorList{problem(CodeTooLarge, fmt.Sprintf("the regex would be %d bytes, longer than the limit of %d (-max-regex-bytes, regex.Options.MaxBytes); use the GBNF grammar, compact whitespace, smaller bounds, or raise the limit", size, opts.MaxBytes))}
	}
	if depth := pr.nesting(n, ctxTop); depth > opts.MaxNesting {
		return "", subsetcheck.ErrorList{problem(CodeTooDeep, fmt.Sprintf("the regex would nest %d groups deep, more than the limit of %d (-max-regex-nesting, regex.Options.MaxNesting); use the GBNF grammar, flatten the schema, or raise the limit", depth, opts.MaxNesting))}
	}
	re := pr.print(n)
	// Go's parser also bounds the compiled program size; a regex it refuses
	// is no use to Go users, so check here rather than hand it out.
	if _, err := syntax.Parse(re, syntax.Perl); err != nil {
		return "", subsetcheck.ErrorList{problem(CodeTooLarge, fmt.Sprintf("Go's regexp refuses the regex: %v", shorten(err.Error())))}
	}
	return re, nil
}

// Anchored wraps a regex from Emit for a full match in Go or Rust:
// ^(?:re)$. Without the m flag, $ matches only at the end of the text in
// both (not in Python: use re.fullmatch there).
func Anchored(re string) string {
	return "^(?:" + re + ")$"
}

func unrollNote(opts Options) string {
	if opts.MaxDepth > 0 {
		return fmt.Sprintf(" when recursion is cut at depth %d (raise MaxDepth)", opts.MaxDepth)
	}
	return ""
}

func problem(code subsetcheck.Code, msg string) *subsetcheck.Problem {
	return &subsetcheck.Problem{Code: code, Message: msg}
}

// shorten keeps error messages that quote a whole regex readable.
func shorten(s string) string {
	const keep = 200
	if len(s) <= keep {
		return s
	}
	return strings.ToValidUTF8(s[:keep], "") + "..."
}

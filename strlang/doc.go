// Package strlang builds string languages: sets of strings of Unicode code
// points, held as minimal deterministic automata over ranges of code
// points. It is what JSON Schema's pattern, patternProperties,
// propertyNames and not on strings need to be enforced exactly: the
// language of an ECMA-262 regular expression, its intersection with other
// patterns, literal sets (enum, const, declared names) and length bounds
// (minLength, maxLength), its complement, whether it is empty, and a
// witness string. It depends on nothing else in this module.
//
// # Patterns
//
// Compile reads a pattern as JSON Schema 2020-12 says (core §6.4): an
// ECMA-262 regular expression with the u flag. This package uses that
// reading for every draft. The parser is this package's own and follows
// the u-mode grammar of ECMAScript 2025 strictly, with its early errors:
//
//   - The pattern is not anchored: "abc" accepts every string that
//     contains abc. ^ and $ assert the very start and end of the string
//     (there is no multiline flag; $ does not match before a final
//     newline).
//   - . is any code point but \n, \r, U+2028 and U+2029. \d and \w are
//     ASCII ([0-9], [A-Za-z0-9_]); \b and \B are ASCII word boundaries, the
//     ends of the string counting as non-word, and are exact. \s is
//     ECMA-262's WhiteSpace and LineTerminator: \t \n \v \f \r, space,
//     U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F,
//     U+3000 and U+FEFF.
//   - Classes, negated classes, ranges, class escapes inside classes,
//     [] (nothing) and [^] (any code point); escapes \t \n \v \f \r, \cX,
//     \0 (not before a digit), \xHH, \uHHHH, \u{H…} up to 10FFFF, and a
//     surrogate pair written \uD83D\uDE00, which is one code point.
//   - \p{…} and \P{…}: General_Category values by any name of Unicode's
//     PropertyValueAliases (L, Letter, digit, …), alone or as gc=… or
//     General_Category=…; Script values, short or long, as sc=… or
//     Script=…; and the binary properties Go's tables give exactly (ASCII,
//     Any, Assigned, Alphabetic, Lowercase, Uppercase, White_Space,
//     ID_Start, ID_Continue, Hex_Digit, Math, …). Names are case-sensitive,
//     as in ECMA-262. The tables are Go's, Unicode UnicodeVersion
//     (15.0.0 with Go 1.26): a validator on another Unicode version may
//     disagree on code points assigned or changed since.
//   - Groups of every kind (capturing, (?:…), named (?<n>…)), alternation,
//     quantifiers * + ? {n} {n,} {n,m}, greedy or lazy: the language is
//     the same.
//
// Without the u flag's leniency of Annex B, a lone ] { or }, an identity
// escape other than of a syntax character or /, \c without a letter and
// octal escapes are errors.
//
// Surrogates: strings here are strings of Unicode scalar values, as JSON
// strings that a validator reads are (a JSON text with a lone surrogate
// escape is refused, or read as U+FFFD). A lone surrogate in a pattern
// (\uD800, or a class range over D800–DFFF) is its own code point, as
// ECMA-262 says, and so matches nothing: no string holds it. Complements
// are taken with respect to scalar values. Match reads a Go string as
// UTF-8, each byte of an invalid sequence as U+FFFD.
//
// Refused, with an error of their own that names the construct and where
// it stands: lookahead and lookbehind, backreferences (\1, \k<n>), which
// are not regular languages this package builds; ECMAScript 2025's
// modifiers groups ((?i:…)); and the properties Go's tables lack
// (Script_Extensions, Emoji, the Changes_When_* family, XID_Start, …).
//
// # Errors and limits
//
// Every error is an *Error: a stable Kind, whose Category says whether the
// pattern is Invalid (not ECMA-262 with the u flag), Unsupported (valid,
// refused) or OverLimit, the byte offset (and code point index) of the
// character at fault, and a Detail that says what is wrong. Every entry
// point takes Limits; its zero value means the defaults. Hostile input
// ends in an OverLimit error within milliseconds: the pattern's length,
// its nesting, the size of its counted repetitions written out, the states
// of any automaton built, and the states of a length intersection.
//
// # Automata
//
// A Lang is canonical: minimal, with states numbered in breadth-first
// order from the start and edges ordered by code point, so equal
// languages have identical automata and every printed form is the same
// bytes every run. The code points are split into the classes the
// language tells apart (for \P{L}: two), never one transition per code
// point. For a compiler emitting a grammar, a Lang is a set of states,
// each with Accepting and Edges (a set of code points and the next state,
// at most one edge per next state): one rule per state, one way on per
// character. IsAll finds the states past which every string is accepted
// (a pattern that has matched); Chain finds the states whose remaining
// language is a set of code points repeated min to max times, which a
// grammar writes as one counted repetition.
//
// The files, in pipeline order: set.go (sets of code points),
// unicode.go (the named sets), limits.go, errors.go, syntax.go (the parse
// tree), parse.go, nfa.go, alphabet.go (classes), determinize.go,
// minimize.go (to a canonical Lang), lang.go, ops.go, literal.go,
// length.go, witness.go, compile.go.
package strlang

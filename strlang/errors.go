package strlang

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// ErrorKind names what is wrong. The values are stable: a checker maps
// them to its codes.
type ErrorKind string

// Category sorts error kinds into the three things a checker must tell
// apart.
type Category int

const (
	// Invalid: the pattern is not an ECMA-262 regular expression with the
	// u flag; a validator refuses the schema.
	Invalid Category = iota + 1
	// Unsupported: a valid pattern whose language this package cannot
	// build exactly (not regular, or data it does not have).
	Unsupported
	// OverLimit: a Limits bound was reached.
	OverLimit
)

// Invalid patterns.
const (
	ErrUTF8            ErrorKind = "invalid-utf8"          // the pattern is not UTF-8
	ErrMissingParen    ErrorKind = "missing-paren"         // a group without its )
	ErrUnmatchedParen  ErrorKind = "unmatched-paren"       // a ) without its (
	ErrMissingBracket  ErrorKind = "missing-bracket"       // a class without its ]
	ErrLoneSyntax      ErrorKind = "lone-syntax-character" // ] { } unescaped outside a class
	ErrNothingToRepeat ErrorKind = "nothing-to-repeat"     // a quantifier after nothing, an assertion or a quantifier
	ErrRepeatOrder     ErrorKind = "repeat-out-of-order"   // x{n,m} with n > m
	ErrEscape          ErrorKind = "invalid-escape"        // \q, \c1, \x4, \u{110000}, \01, a trailing \ …
	ErrRangeOrder      ErrorKind = "range-out-of-order"    // [z-a]
	ErrClassInRange    ErrorKind = "class-in-range"        // [\d-z]: a class escape as a range's end
	ErrGroup           ErrorKind = "invalid-group"         // (? followed by none of : = ! <= <! <name>
	ErrGroupName       ErrorKind = "invalid-group-name"    // (?<1>…), (?<a…
	ErrDuplicateName   ErrorKind = "duplicate-group-name"  // (?<a>x)(?<a>y)
	ErrBackrefTarget   ErrorKind = "invalid-backreference" // \2 with one group, \k<b> with no group b
	ErrProperty        ErrorKind = "invalid-property"      // \p{Foo}, \p{L, \p{sc=Latin
)

// Valid patterns that are refused.
const (
	ErrLookaround          ErrorKind = "lookaround"           // (?=…) (?!…) (?<=…) (?<!…)
	ErrBackreference       ErrorKind = "backreference"        // \1, \k<name>
	ErrModifiers           ErrorKind = "modifiers"            // (?i:…) and other flag groups
	ErrUnsupportedProperty ErrorKind = "unsupported-property" // \p{Emoji}, \p{scx=…}: not in Go's tables
)

// Limits reached.
const (
	ErrLimitPattern ErrorKind = "limit-pattern-bytes" // Limits.PatternBytes
	ErrLimitDepth   ErrorKind = "limit-depth"         // Limits.Depth
	ErrLimitRepeat  ErrorKind = "limit-repeat"        // Limits.Repeat
	ErrLimitStates  ErrorKind = "limit-states"        // Limits.States
	ErrLimitLength  ErrorKind = "limit-length-states" // Limits.LengthStates
)

// Category is the kind's category.
func (k ErrorKind) Category() Category {
	switch k {
	case ErrLookaround, ErrBackreference, ErrModifiers, ErrUnsupportedProperty:
		return Unsupported
	case ErrLimitPattern, ErrLimitDepth, ErrLimitRepeat, ErrLimitStates, ErrLimitLength:
		return OverLimit
	}
	return Invalid
}

// Error is every error of this package.
type Error struct {
	Kind ErrorKind
	// Pattern is the pattern in error ("" when an operation on languages
	// reached a limit).
	Pattern string
	// Offset is the byte offset in Pattern of the character at fault, or
	// of the construct refused; Rune is the same place counted in code
	// points. Both are -1 when no place applies (an automaton's size).
	Offset, Rune int
	// Detail says what is wrong and, where it helps, what to write.
	Detail string
}

func (e *Error) Error() string {
	if e.Offset < 0 {
		if e.Pattern == "" {
			return e.Detail
		}
		return fmt.Sprintf("pattern %s: %s", quoteAround(e.Pattern, 0), e.Detail)
	}
	return fmt.Sprintf("pattern %s, at byte %d (character %d): %s", quoteAround(e.Pattern, e.Offset), e.Offset, e.Rune, e.Detail)
}

// quoteAround quotes a pattern, or for a long one the part around byte
// offset off, with … for what is left out.
func quoteAround(p string, off int) string {
	const window = 30 // code points on either side
	if utf8.RuneCountInString(p) <= 3*window {
		return strconv.Quote(p)
	}
	lo, hi := off, off
	for i := 0; i < window && lo > 0; i++ {
		_, size := utf8.DecodeLastRuneInString(p[:lo])
		lo -= size
	}
	for i := 0; i < window && hi < len(p); i++ {
		_, size := utf8.DecodeRuneInString(p[hi:])
		hi += size
	}
	q := strconv.Quote(p[lo:hi])
	if lo > 0 {
		q = "…" + q
	}
	if hi < len(p) {
		q += "…"
	}
	return q
}

// newError makes an error at byte offset off of pattern (off < 0: no place).
func newError(kind ErrorKind, pattern string, off int, format string, args ...any) *Error {
	r := -1
	if off >= 0 {
		r = utf8.RuneCountInString(pattern[:min(off, len(pattern))])
	}
	return &Error{Kind: kind, Pattern: pattern, Offset: off, Rune: r, Detail: fmt.Sprintf(format, args...)}
}

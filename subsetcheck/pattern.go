// Patterns: the regular expressions of pattern and patternProperties,
// compiled once per Check into string languages (package strlang), and
// their problems located at the character at fault inside the schema's
// string.

package subsetcheck

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/strlang"
)

// patternResult is one pattern text compiled (or only checked), with the
// error it gave.
type patternResult struct {
	p   *Pattern
	err error
}

// pattern compiles source, once per Check whatever the number of schemas
// that write it. A keyword the profile refuses, and the meta pass, only
// check the syntax: their language is never compiled into a grammar.
func (c *checker) pattern(source string, full bool) (*Pattern, error) {
	if !full {
		return nil, strlang.Check(source, c.lim.Strlang())
	}
	if r, ok := c.patterns[source]; ok {
		return r.p, r.err
	}
	var r patternResult
	if l, err := strlang.Compile(source, c.lim.Strlang()); err != nil {
		r.err = err
	} else {
		r.p = &Pattern{Source: source, Lang: l}
	}
	if c.patterns == nil {
		c.patterns = map[string]patternResult{}
	}
	c.patterns[source] = r
	return r.p, r.err
}

// compilePattern is pattern for keyword kw at ptr, whose string (the value
// of pattern, or a name of patternProperties) starts at byte at of the
// document; a problem is reported there, at the character at fault.
func (c *checker) compilePattern(kw, ptr string, at int, source string) *Pattern {
	full := !c.metaOnly && LookupKeyword(kw, c.draft).Use(c.profile) != Refused
	p, err := c.pattern(source, full)
	if err != nil {
		c.patternProblem(kw, ptr, at, source, err)
	}
	return p
}

// patternProblem reports what strlang said of a pattern: not ECMA-262
// (S203), a construct refused (S211), a limit (L506).
func (c *checker) patternProblem(kw, ptr string, at int, source string, err error) {
	var e *strlang.Error
	if !errors.As(err, &e) {
		c.errorAt(CodeBadKeywordValue, ptr, at, "%s: %q cannot be read: %v", kw, source, err)
		return
	}
	off := at
	where := ""
	if e.Offset >= 0 {
		off = c.doc.stringByteOffset(at, source, e.Offset)
		where = fmt.Sprintf(" at character %d", e.Rune+1)
	}
	quoted := quotePattern(source)
	switch e.Kind.Category() {
	case strlang.Invalid:
		c.errorAt(CodeBadKeywordValue, ptr, off, "%s: %s is not a valid ECMA-262 regular expression (read with the u flag, as JSON Schema says)%s: %s",
			kw, quoted, where, e.Detail)
	case strlang.Unsupported:
		c.errorAt(CodePatternNotRegular, ptr, off, "%s: %s%s: %s%s, or drop the pattern and check it after decoding",
			kw, quoted, where, e.Detail, unsupportedAdvice(e.Kind))
	default:
		name, flag := patternLimit(e.Kind)
		c.errorAt(CodePatternTooLarge, ptr, off, "%s: %s: %s (%s, Limits.%s); simplify the pattern (smaller counts, fewer nested repetitions, an anchor where it may start anywhere), or raise the limit",
			kw, quoted, trimLimitNote(e.Detail), flag, name)
	}
}

// quotePattern quotes a pattern for a message, the middle of a long one
// left out.
func quotePattern(s string) string {
	const most = 80 // code points
	if utf8.RuneCountInString(s) <= most {
		return fmt.Sprintf("%q", s)
	}
	r := []rune(s)
	return fmt.Sprintf("%q…%q", string(r[:most/2]), string(r[len(r)-most/2:]))
}

// unsupportedAdvice adds to strlang's detail what to write instead of a
// refused construct.
func unsupportedAdvice(k strlang.ErrorKind) string {
	switch k {
	case strlang.ErrLookaround:
		return " (for example a class that leaves out what a negative lookahead excluded)"
	case strlang.ErrBackreference:
		return "; list the alternatives it stands for"
	case strlang.ErrModifiers:
		return " ([Aa] for (?i:a))"
	}
	return ""
}

// patternLimit names the limit an error kind is about, and its flag.
func patternLimit(k strlang.ErrorKind) (name, flag string) {
	switch k {
	case strlang.ErrLimitPattern:
		return "MaxPatternBytes", "-max-pattern-bytes"
	case strlang.ErrLimitDepth:
		return "MaxPatternNesting", "-max-pattern-nesting"
	case strlang.ErrLimitRepeat:
		return "MaxPatternRepeat", "-max-pattern-repeat"
	case strlang.ErrLimitLength:
		return "MaxLengthStates", "-max-length-states"
	}
	return "MaxPatternStates", "-max-pattern-states"
}

// StringLimitMessage is the message for a limit strlang reached while the
// compiler built a string language (about is what was being built), so
// that the compiler's L506 names the same limits and flags as the
// checker's.
func StringLimitMessage(about string, err error) string {
	var e *strlang.Error
	if !errors.As(err, &e) {
		return about + ": " + err.Error()
	}
	name, flag := patternLimit(e.Kind)
	return fmt.Sprintf("%s: %s (%s, Limits.%s); simplify the patterns, lower maxLength, or raise the limit", about, trimLimitNote(e.Detail), flag, name)
}

// trimLimitNote drops strlang's own names for its limits,
// "(Limits.States)", which are not the names a user of this package sets.
func trimLimitNote(detail string) string {
	for {
		i := strings.Index(detail, " (Limits.")
		if i < 0 {
			return detail
		}
		j := strings.IndexByte(detail[i:], ')')
		if j < 0 {
			return detail
		}
		detail = detail[:i] + detail[i+j+1:]
	}
}

// stringByteOffset maps byte off of a decoded string to the offset in the
// document of the character that holds it: the string's text starts at
// byte at (its opening quote, in JSON). Escapes count as the characters
// they stand for, so the place is the escape's backslash. Where the text
// cannot be followed (a YAML scalar in another style), the string's start.
func (d *Document) stringByteOffset(at int, decoded string, off int) int {
	data := d.Data
	if at < 0 || at >= len(data) {
		return at
	}
	switch data[at] {
	case '"':
		return jsonStringOffset(data, at, off)
	case '\'':
		// YAML single quotes: '' stands for '.
		i, n := at+1, 0
		for i < len(data) && n < off {
			if data[i] == '\'' {
				if i+1 < len(data) && data[i+1] == '\'' {
					i, n = i+2, n+1
					continue
				}
				return at
			}
			if data[i] == '\n' {
				return at // folded lines: not followed
			}
			i, n = i+1, n+1
		}
		return i
	}
	// A plain YAML scalar: its text is the decoded string, on one line.
	if at+off <= len(data) && strings.HasPrefix(string(data[at:min(len(data), at+len(decoded))]), decoded[:off]) &&
		!strings.Contains(decoded[:off], "\n") {
		return at + off
	}
	return at
}

// jsonStringOffset walks a JSON string from its opening quote at byte at
// until off bytes of its decoded value are behind.
func jsonStringOffset(data []byte, at, off int) int {
	i, n := at+1, 0
	for i < len(data) && n < off && data[i] != '"' {
		switch {
		case data[i] == '\n':
			return at // a folded YAML line: not followed
		case data[i] != '\\':
			i, n = i+1, n+1
			continue
		case i+1 >= len(data):
			return at
		case data[i+1] == 'x' || data[i+1] == 'U': // YAML's \xHH and \UHHHHHHHH
			size := map[byte]int{'x': 4, 'U': 10}[data[i+1]]
			if i+size > len(data) {
				return at
			}
			r, ok := hexN(data[i+2 : i+size])
			if !ok || !utf8.ValidRune(r) {
				return at
			}
			i, n = i+size, n+utf8.RuneLen(r)
			continue
		case data[i+1] != 'u':
			i, n = i+2, n+1 // \n \" \\ \/ ...: one byte
			continue
		}
		r, ok := hex4(data, i+2)
		if !ok {
			return at
		}
		size := 6
		if r >= 0xD800 && r < 0xDC00 { // a pair: one code point of four bytes
			lo, ok := hex4(data, i+8)
			if !ok || i+7 >= len(data) || data[i+6] != '\\' || data[i+7] != 'u' || lo < 0xDC00 || lo > 0xDFFF {
				return at
			}
			size, r = 12, 0x10000
		}
		i, n = i+size, n+utf8.RuneLen(r)
	}
	return i
}

// hex4 reads four hex digits at data[i:].
func hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	return hexN(data[i : i+4])
}

// hexN reads hex digits.
func hexN(digits []byte) (rune, bool) {
	var r rune
	for _, c := range digits {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

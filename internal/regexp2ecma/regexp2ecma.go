// Package regexp2ecma compiles JSON Schema patterns with
// github.com/dlclark/regexp2/v2 so that they mean what ECMA-262 says with
// the u flag: the regexp engine of the validator verdict runs after
// decoding (internal/validate) and of the tests' oracle
// (santhosh-tekuri/jsonschema's Compiler.UseRegexpEngine), and the
// independent engine that strlang is tested against.
//
// On every valid pattern tried (strlang's tests: its tables, random
// patterns, every property set at its edges, the corpus's patterns and
// the official suite's), regexp2 v2.13.0 in ECMAScript|Unicode mode
// matches as ECMA-262 does, so Rewrite leaves valid patterns as they are.
// But regexp2 reads more than ECMA-262 allows with the u flag: .NET and
// Perl syntax (inline options (?i), comments (?#…), atomic groups (?>…),
// (?'name'…), \A \z \Z \G), identity escapes of letters (\a is BEL, \e
// ESC, \q is q), and a lone ] { }, as Annex B allows without the u flag.
// Rewrite refuses those, so that a pattern that is not valid ECMA-262 is
// an error here too; it is also where a meaning regexp2 gets wrong would
// be written out (strlang's TestRegexp2Departures lists what regexp2 does
// differently and fails when that changes). It reads the pattern on its
// own, not with strlang's parser, so that a test of strlang against
// regexp2 does not share strlang's mistakes.
package regexp2ecma

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// Options are the regexp2 options of ECMA-262 with the u flag.
const Options = regexp2.ECMAScript | regexp2.Unicode

// Compile rewrites a pattern and compiles it with Options.
func Compile(pattern string) (*regexp2.Regexp, error) {
	p, err := Rewrite(pattern)
	if err != nil {
		return nil, err
	}
	return regexp2.Compile(p, Options)
}

// Rewrite returns a pattern that regexp2 with Options reads as ECMA-262
// reads the given one with the u flag, or an error where ECMA-262 refuses
// the pattern and regexp2 would not.
func Rewrite(pattern string) (string, error) {
	if !utf8.ValidString(pattern) {
		return "", fmt.Errorf("pattern %q: not UTF-8", pattern)
	}
	var b strings.Builder
	inClass := false
	atomBefore := false // a quantifier may follow
	for i := 0; i < len(pattern); {
		c := pattern[i]
		bad := func(format string, args ...any) (string, error) {
			return "", fmt.Errorf("pattern %q at byte %d: %s", pattern, i, fmt.Sprintf(format, args...))
		}
		switch {
		case c == '\\':
			n, err := escapeLen(pattern, i, inClass)
			if err != nil {
				return bad("%v", err)
			}
			esc := pattern[i : i+n]
			atomBefore = !inClass && esc != `\b` && esc != `\B`
			b.WriteString(esc)
			i += n
			continue
		case inClass:
			if c == ']' {
				inClass = false
				atomBefore = true
			}
		case c == '[':
			inClass = true
			b.WriteByte('[')
			i++
			if strings.HasPrefix(pattern[i:], "^") {
				b.WriteByte('^')
				i++
			}
			continue
		case c == ']' || c == '}':
			return bad("a lone %c is not allowed with the u flag", c)
		case c == '{':
			n := quantifierLen(pattern[i:])
			if n == 0 {
				return bad("a lone { is not allowed with the u flag")
			}
			if !atomBefore {
				return bad("nothing to repeat")
			}
			b.WriteString(pattern[i : i+n])
			i += n
			atomBefore = false
			if strings.HasPrefix(pattern[i:], "?") {
				b.WriteByte('?')
				i++
			}
			continue
		case c == '(':
			n, err := groupOpenLen(pattern[i:])
			if err != nil {
				return bad("%v", err)
			}
			b.WriteString(pattern[i : i+n])
			i += n
			atomBefore = false
			continue
		case c == ')':
			atomBefore = true
		case c == '*' || c == '+' || c == '?':
			atomBefore = false
			b.WriteByte(c)
			i++
			if strings.HasPrefix(pattern[i:], "?") {
				b.WriteByte('?')
				i++
			}
			continue
		case c == '^' || c == '$' || c == '|':
			atomBefore = false
		default:
			atomBefore = true
		}
		_, size := utf8.DecodeRuneInString(pattern[i:])
		b.WriteString(pattern[i : i+size])
		i += size
	}
	return b.String(), nil
}

// escapeLen is the length of the escape at i, or an error for one that
// ECMA-262 refuses with the u flag.
func escapeLen(p string, i int, inClass bool) (int, error) {
	if i+1 >= len(p) {
		return 0, fmt.Errorf("a lone \\ at the end")
	}
	d := p[i+1]
	switch {
	case strings.IndexByte(`^$\.*+?()[]{}|/`, d) >= 0, strings.IndexByte("fnrtvdDsSwW", d) >= 0:
		return 2, nil
	case d == '-' && inClass, d == 'b':
		return 2, nil
	case d == 'B' && !inClass:
		return 2, nil
	case d == 'c':
		if i+2 < len(p) && (p[i+2] >= 'a' && p[i+2] <= 'z' || p[i+2] >= 'A' && p[i+2] <= 'Z') {
			return 3, nil
		}
		return 0, fmt.Errorf("\\c needs a letter")
	case d == '0':
		if i+2 < len(p) && p[i+2] >= '0' && p[i+2] <= '9' {
			return 0, fmt.Errorf("no octal escapes with the u flag")
		}
		return 2, nil
	case d >= '1' && d <= '9' && !inClass:
		j := i + 1
		for j < len(p) && p[j] >= '0' && p[j] <= '9' {
			j++
		}
		return j - i, nil
	case d == 'k' && !inClass:
		end := strings.IndexByte(p[i:], '>')
		if !strings.HasPrefix(p[i+2:], "<") || end < 0 {
			return 0, fmt.Errorf("\\k needs <name>")
		}
		return end + 1, nil
	case d == 'x':
		if i+4 <= len(p) && isHex(p[i+2:i+4]) {
			return 4, nil
		}
		return 0, fmt.Errorf("\\x needs two hex digits")
	case d == 'u':
		if strings.HasPrefix(p[i+2:], "{") {
			end := strings.IndexByte(p[i:], '}')
			if end < 0 || end == 3 || !isHex(p[i+3:i+end]) {
				return 0, fmt.Errorf("\\u{ needs hex digits and }")
			}
			return end + 1, nil
		}
		if i+6 <= len(p) && isHex(p[i+2:i+6]) {
			return 6, nil
		}
		return 0, fmt.Errorf("\\u needs four hex digits")
	case d == 'p' || d == 'P':
		end := strings.IndexByte(p[i:], '}')
		if !strings.HasPrefix(p[i+2:], "{") || end < 0 {
			return 0, fmt.Errorf("\\%c needs {property}", d)
		}
		return end + 1, nil
	}
	r, _ := utf8.DecodeRuneInString(p[i+1:])
	return 0, fmt.Errorf("\\%c is not an escape with the u flag", r)
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(s[i])) {
			return false
		}
	}
	return true
}

// quantifierLen is the length of {n}, {n,} or {n,m} at the start of s, or 0.
func quantifierLen(s string) int {
	i := 1
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if digits() == 0 {
		return 0
	}
	if i < len(s) && s[i] == ',' {
		i++
		digits()
	}
	if i < len(s) && s[i] == '}' {
		return i + 1
	}
	return 0
}

// groupOpenLen is the length of a group's opening at the start of s: (,
// (?:, (?=, (?!, (?<=, (?<!, (?<name>, or ECMAScript 2025's modifiers
// (?ims-ims:. regexp2 also reads .NET's and Perl's others.
func groupOpenLen(s string) (int, error) {
	if !strings.HasPrefix(s, "(?") {
		return 1, nil
	}
	for _, open := range []string{"(?:", "(?=", "(?!", "(?<=", "(?<!"} {
		if strings.HasPrefix(s, open) {
			return len(open), nil
		}
	}
	if strings.HasPrefix(s, "(?<") {
		end := strings.IndexByte(s, '>')
		if end < 0 {
			return 0, fmt.Errorf("a group name without >")
		}
		return end + 1, nil
	}
	// Modifiers: flags on, then - and flags off, no flag twice, not none.
	i, seen, flags := 2, map[byte]bool{}, 0
	dash := false
	for ; i < len(s) && strings.IndexByte("ims-", s[i]) >= 0; i++ {
		switch {
		case s[i] == '-' && dash:
			return 0, fmt.Errorf("two - in a modifiers group")
		case s[i] == '-':
			dash = true
		case seen[s[i]]:
			return 0, fmt.Errorf("the flag %c twice in a modifiers group", s[i])
		default:
			seen[s[i]] = true
			flags++
		}
	}
	if flags > 0 && i < len(s) && s[i] == ':' {
		return i + 1, nil
	}
	return 0, fmt.Errorf("(? must be followed by : = ! <= <! <name> or modifiers and :")
}

// MatchTimeout bounds one match: regexp2 backtracks, and a pattern with
// nested repetitions (([a-z]*)*x) on a long string that fails late could
// run for hours.
const MatchTimeout = 2 * time.Second

// Timeout is what MatchString panics with when a match passes
// MatchTimeout: the engine could not judge the string.
type Timeout struct {
	Pattern string
	Err     error
}

func (t *Timeout) Error() string {
	return fmt.Sprintf("regexp2ecma: pattern %q: %v", t.Pattern, t.Err)
}

// Regexp is a compiled pattern with the methods of santhosh-tekuri/
// jsonschema's Regexp: what its Compiler.UseRegexpEngine takes.
type Regexp struct {
	re     *regexp2.Regexp
	source string
}

// New compiles a pattern for a validator: Compile, with MatchTimeout.
func New(pattern string) (*Regexp, error) {
	re, err := Compile(pattern)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = MatchTimeout
	return &Regexp{re: re, source: pattern}, nil
}

// MatchString reports whether the pattern matches somewhere in s. A match
// regexp2 cannot finish (MatchTimeout) panics with a *Timeout: a validator
// that cannot judge must not pass for one that judged.
func (r *Regexp) MatchString(s string) bool {
	m, err := r.re.MatchString(s)
	if err != nil {
		panic(&Timeout{Pattern: r.source, Err: err})
	}
	return m
}

// String is the pattern.
func (r *Regexp) String() string { return r.source }

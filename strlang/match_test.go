package strlang

import (
	"strings"
	"testing"
)

// S is a list of strings, for one-line cases.
func S(s ...string) []string { return s }

// matchTests: a pattern, strings it matches, strings it does not — by
// ECMA-262 with the u flag, unanchored.
var matchTests = []struct {
	pattern string
	yes, no []string
}{
	// Unanchored; ^ and $ only at the very start and end.
	{`abc`, S("abc", "xabcx", "ababc"), S("", "ab", "acb", "ABC")},
	{`^abc$`, S("abc"), S("abc\n", "\nabc", "xabc", "abcx")},
	{`^abc`, S("abc", "abcd"), S("xabc", "\nabc")},
	{`abc$`, S("abc", "xabc"), S("abc\n", "abcx")},
	{``, S("", "a", "\n"), S()},
	{`^$`, S(""), S("a", "\n")},
	{`$`, S("", "a"), S()},
	{`a^`, S(), S("a", "", "aa")},
	{`$a`, S(), S("a", "")},
	// . is any code point but \n \r U+2028 U+2029.
	{`^.$`, S("a", "\u0085", "\u00a0", "😀", "\x00", "\t", "\v", "\f"), S("\n", "\r", "\u2028", "\u2029", "", "ab")},
	{`^..$`, S("😀😀", "ab"), S("😀")},
	// \d \w ASCII; \s ECMA-262's set.
	{`^\d$`, S("0", "9"), S("a", "٣", "０")},
	{`^\D$`, S("a", "٣"), S("0")},
	{`^\w$`, S("a", "Z", "_", "0"), S("é", "-", "ſ", "\u212a")},
	{`^\W$`, S("é", "-"), S("a", "_")},
	{`^\s$`, S(" ", "\t", "\n", "\v", "\f", "\r", "\u00a0", "\u1680", "\u2000", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff"),
		S("a", "\u0085", "\u180e", "\u200b", "\x1c")},
	{`^\S$`, S("a", "\u0085", "\u200b"), S(" ", "\u00a0", "\ufeff")},
	// Classes.
	{`^[a-c]$`, S("a", "b", "c"), S("d", "A", "")},
	{`^[^a-c]$`, S("d", "\n", "😀"), S("a", "c", "")},
	{`^[^]$`, S("a", "\n", "😀"), S("", "ab")},
	{`[]`, S(), S("", "a")},
	{`^a[]?b$`, S("ab"), S("a b")},
	{`^[-a]$`, S("-", "a"), S("b")},
	{`^[a-]$`, S("-", "a"), S("b")},
	{`^[a-b-c]$`, S("a", "b", "-", "c"), S("d")},
	{`^[--0]$`, S("-", ".", "/", "0"), S("1")},
	{`^[\w-]$`, S("a", "-"), S(".")},
	{`^[\d\s]$`, S("1", " "), S("a")},
	{`^[^\d\s]$`, S("a"), S("1", " ", "\u3000")},
	{`^[\D]$`, S("a"), S("1")},
	{`^[^\D]$`, S("1"), S("a")},
	{`^[\b]$`, S("\b"), S("b")},
	{`^[\-]$`, S("-"), S("\\")},
	{`^[.]$`, S("."), S("a")},
	{`^[$^|()*+?{}/[]$`, S("$", "^", "|", "(", ")", "*", "+", "?", "{", "}", "/", "["), S("a")},
	{`^[\]\\]$`, S("]", "\\"), S("a")},
	{`^[😀-😂]$`, S("😀", "😁", "😂"), S("😃")},
	// Escapes.
	{`^\t\n\v\f\r$`, S("\t\n\v\f\r"), S()},
	{`^\cA\cz\cJ$`, S("\x01\x1a\n"), S()},
	{`^\0$`, S("\x00"), S("0")},
	{`^\x41\x7e$`, S("A~"), S()},
	{`^\u0041\u00e9$`, S("Aé"), S()},
	{`^\u{1F600}\u{41}\u{0000000042}$`, S("😀AB"), S()},
	{`^\uD83D\uDE00$`, S("😀"), S("\ufffd\ufffd", "")},
	{`^[\uD83D\uDE00-\uD83D\uDE01]$`, S("😀", "😁"), S("😂")},
	{`^\uD83D\uDE00+$`, S("😀", "😀😀"), S()},
	{`\uD83D`, S(), S("😀", "\ufffd", "")}, // a lone surrogate: no string holds one
	{`^[\uD800-\uDFFF]$`, S(), S("😀", "\ufffd")},
	{`^[^\uD800-\uDFFF]$`, S("a", "😀"), S()},
	{`^\u{D83D}\uDE00$`, S(), S("😀")}, // braced escapes do not pair
	{`^\^\$\\\.\*\+\?\(\)\[\]\{\}\|\/$`, S(`^$\.*+?()[]{}|/`), S()},
	// Unicode properties.
	{`^\p{L}$`, S("a", "é", "Ж", "中"), S("1", "-", "😀")},
	{`^\p{Letter}\p{Lu}\p{Uppercase_Letter}$`, S("aAB"), S("aaB")},
	{`^\p{gc=Nd}\p{General_Category=Decimal_Number}\p{digit}$`, S("1٣۵"), S("1a1")},
	{`^\P{L}$`, S("1", "😀"), S("a")},
	{`^[\P{L}a]$`, S("1", "a"), S("b")},
	{`^[^\P{L}]$`, S("a"), S("1")},
	{`^\p{sc=Greek}\p{Script=Grek}$`, S("αβ"), S("ab")},
	{`^\p{Script=Latin}+$`, S("abcé"), S("a1")},
	{`^\p{Cn}$`, S("\u0378"), S("a")},
	{`^\p{C}$`, S("\u0378", "\x00", "\u200b"), S("a")},
	{`^\p{Any}$`, S("a", "😀", "\n"), S("")},
	{`^\p{ASCII}+$`, S("abc\x7f"), S("é")},
	{`^\p{Assigned}$`, S("a"), S("\u0378")},
	{`^\p{Alphabetic}\p{Alpha}$`, S("aⅰ"), S("a1")},
	{`^\p{White_Space}$`, S(" ", "\u0085"), S("\ufeff")},
	{`^\p{ID_Start}\p{ID_Continue}*$`, S("a1", "é_"), S("1a", "_a")},
	{`^\p{Lowercase}\p{Uppercase}$`, S("aA", "ªA"), S("Aa")},
	{`^\p{Sc}$`, S("$", "€"), S("a")},
	{`^\p{Zs}$`, S(" ", "\u3000"), S("\t")},
	// Groups and alternation.
	{`^(ab|cd)$`, S("ab", "cd"), S("abcd", "a", "")},
	{`^(?:ab|cd)+$`, S("ab", "abcd", "cdab"), S("", "abc")},
	{`^(?<year>\d{4})-(?<m>\d\d)$`, S("2024-01"), S("24-01")},
	{`^(?<a>x)|(?<a>y)$`, S("x", "xz", "zy"), S("z")},
	{`^(a|)$`, S("a", ""), S("aa")},
	{`^(|a)b$`, S("b", "ab"), S("aab")},
	{`^a|b$`, S("a", "ax", "xb", "b"), S("x", "ba")},
	{`^()$`, S(""), S("a")},
	// Quantifiers, greedy or lazy.
	{`^a*$`, S("", "a", "aaa"), S("b", "ab")},
	{`^a+?$`, S("a", "aa"), S("")},
	{`^a??b$`, S("b", "ab"), S("aab")},
	{`^a{3}$`, S("aaa"), S("aa", "aaaa")},
	{`^a{2,}$`, S("aa", "aaaaa"), S("a")},
	{`^a{2,3}?$`, S("aa", "aaa"), S("a", "aaaa")},
	{`^a{0}b$`, S("b"), S("ab")},
	{`^a{0,0}$`, S(""), S("a")},
	{`^(ab){2}$`, S("abab"), S("ab", "ababab")},
	{`^(a*)*$`, S("", "aaa"), S("b")},
	{`^(a*|b)+$`, S("", "ab", "ba"), S("c")},
	{`^(?:a{2}){2,3}$`, S("aaaa", "aaaaaa"), S("aaa", "aaaaa", "aaaaaaaa")},
	{`^\d{4}-\d{2}-\d{2}$`, S("2024-01-31"), S("2024-1-31", "2024-01-31\n")},
	{`^😀{2}$`, S("😀😀"), S("😀")},
	// \b and \B: ASCII word characters, the ends of the string non-word.
	{`\bfoo\b`, S("foo", "a foo", "foo.", "(foo)", "éfooé"), S("afoo", "foob", "foo_", "")},
	{`\Bfoo`, S("afoo", "_foo"), S("foo", " foo")},
	{`^\b$`, S(), S("")},
	{`^\B$`, S(""), S()},
	{`\b`, S("a", " a", "_"), S("", " ", "é", "--")},
	{`a\b`, S("a", "a ", "aé"), S("ab", "a_")},
	{`\B`, S("", "ab", "  "), S("a")},
	{`^(\b|a)+$`, S("a", "aa"), S("")},
	{`^a\Bb$`, S("ab"), S()},
	{`^a\bb$`, S(), S("ab")},
	{`^a\b b$`, S("a b"), S()},
	{`\b\B`, S(), S("a", "", "a b")},
}

func TestMatch(t *testing.T) {
	for _, tc := range matchTests {
		l, err := Compile(tc.pattern, Limits{})
		if err != nil {
			t.Errorf("%s: %v", tc.pattern, err)
			continue
		}
		for _, s := range tc.yes {
			if !l.Match(s) {
				t.Errorf("%s should match %q\n%s", tc.pattern, s, l)
			}
		}
		for _, s := range tc.no {
			if l.Match(s) {
				t.Errorf("%s should not match %q\n%s", tc.pattern, s, l)
			}
		}
	}
}

// Match reads invalid UTF-8 as U+FFFD, byte by byte.
func TestMatchInvalidUTF8(t *testing.T) {
	l, err := Compile(`^\u{FFFD}{2}$`, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !l.Match("\xff\xfe") || l.Match("\xff") {
		t.Errorf("invalid UTF-8 is not read as U+FFFD per byte")
	}
	if !strings.Contains(l.String(), `\u{fffd}`) {
		t.Errorf("unexpected automaton\n%s", l)
	}
}

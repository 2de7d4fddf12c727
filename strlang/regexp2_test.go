package strlang

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dlclark/regexp2/v2"
	"github.com/schema2gbnf/schema2gbnf/internal/regexp2ecma"
)

// The independent engine: dlclark/regexp2's v2 module in ECMAScript|Unicode
// mode. v2, not v1.12.0: v1 matches U+2028 and U+2029 with ., reads
// \uD83D\uDE00 as two code points, takes \b and \w as Unicode in \b, and
// knows neither long General_Category names (\p{Letter}) nor \p{sc=…}; v2
// follows ECMA-262 on all of these. Where v2 still departs (below), the
// spec decides, and regexp2ecma.Rewrite makes regexp2 read the spec's
// meaning.

// regexp2Match runs regexp2 on a rewritten pattern; ok is false when
// regexp2 cannot decide (a compile error, a backtracking limit).
func regexp2Match(re *regexp2.Regexp, s string) (match, ok bool) {
	m, err := re.MatchString(s)
	return m, err == nil
}

// departures: what regexp2 (raw, ECMAScript|Unicode) does with a pattern
// and a string, and what ECMA-262 with the u flag says. The test fails when
// regexp2 changes, so that the list stays true.
var departures = []struct {
	pattern, input string
	regexp2        string // "true", "false" or "error": regexp2 alone
	spec           string // the same, by ECMA-262
}{
	// Annex B's leniencies, which the u flag turns off.
	{`a{`, "a{", "true", "error"},
	{`a}`, "a}", "true", "error"},
	{`]`, "]", "true", "error"},
	{`a{,5}`, "a{,5}", "true", "error"},
	{`\a`, "\a", "true", "error"},
	{`\e`, "\x1b", "true", "error"},
	{`\-`, "-", "true", "error"},
	{`\_`, "_", "true", "error"},
	{`\Qa\E`, "QaE", "true", "error"},
	{`\z`, "", "true", "error"},
	{`\A`, "", "true", "error"},
	{`\Z`, "", "true", "error"},
	{`\G`, "", "true", "error"},
	{`\N`, "N", "true", "error"},
	{`\h`, "h", "true", "error"},
	{`\x{41}`, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "true", "error"},
	{`[\B]`, "B", "true", "error"},
	{`[a-z-[aeiou]]`, "b]", "true", "error"},
	// .NET and Perl groups.
	{`(?i)a`, "A", "true", "error"},
	{`(?x)a b`, "ab", "true", "error"},
	{`(?#note)a`, "a", "true", "error"},
	{`(?>a)`, "a", "true", "error"},
	{`(?'n'x)`, "x", "true", "error"},
}

func TestRegexp2Departures(t *testing.T) {
	verdict := func(re *regexp2.Regexp, err error, s string) string {
		if err != nil {
			return "error"
		}
		m, _ := re.MatchString(s)
		if m {
			return "true"
		}
		return "false"
	}
	for _, d := range departures {
		raw, err := regexp2.Compile(d.pattern, regexp2ecma.Options)
		if got := verdict(raw, err, d.input); got != d.regexp2 {
			t.Errorf("regexp2 changed: %s on %q is %s, was %s (spec: %s)", d.pattern, d.input, got, d.regexp2, d.spec)
		}
		re, err := regexp2ecma.Compile(d.pattern)
		if got := verdict(re, err, d.input); got != d.spec {
			t.Errorf("rewritten for regexp2, %s on %q is %s, spec says %s", d.pattern, d.input, got, d.spec)
		}
		l, err := Compile(d.pattern, Limits{})
		var e *Error
		switch {
		case d.spec == "error" && !(errors.As(err, &e) && e.Kind.Category() == Invalid):
			t.Errorf("%s: strlang gives %v, want an Invalid error", d.pattern, err)
		case d.spec != "error" && (err != nil || l.Match(d.input) != (d.spec == "true")):
			t.Errorf("%s on %q: strlang disagrees with the spec (%v)", d.pattern, d.input, err)
		}
	}
}

// agree compares strlang and regexp2 on a pattern and strings; it returns
// a failure message, or "" when both agree (or regexp2 cannot judge).
func agree(pattern string, inputs []string) string {
	l, err := Compile(pattern, Limits{})
	re, rerr := regexp2ecma.Compile(pattern)
	var e *Error
	if err != nil {
		if !errors.As(err, &e) {
			return "not an *Error: " + err.Error()
		}
		if e.Kind.Category() == Invalid && rerr == nil {
			return "strlang: " + err.Error() + "; regexp2 compiles it"
		}
		return ""
	}
	if rerr != nil {
		return "strlang compiles it; regexp2: " + rerr.Error()
	}
	for _, s := range inputs {
		want, ok := regexp2Match(re, s)
		if ok && l.Match(s) != want {
			return "on " + strquote(s) + ": strlang " + boolWord(l.Match(s)) + ", regexp2 " + boolWord(want)
		}
	}
	return ""
}

func strquote(s string) string { return fmt.Sprintf("%q %U", s, []rune(s)) }

func boolWord(b bool) string {
	if b {
		return "matches"
	}
	return "does not match"
}

// probes are strings around a language: its witness, the table's strings,
// and one-character edits of them with characters that patterns tell apart.
var probeRunes = []rune{'a', 'b', 'c', 'z', 'A', 'Z', '0', '9', '_', '-', ' ', '.', '\n', '\r', '\t', '\v', '\f',
	0x85, 0xA0, 0x1680, 0x2000, 0x2028, 0x2029, 0x202F, 0xFEFF, 0x3000, 0x180E, 0x200B,
	'é', 'ß', 0x212A, 'ſ', 'α', 'Ж', '中', '٣', 0x1F600, 0x1F432, 0x10FFFF, 0xFFFD, 0, 0x7F}

func probes(l *Lang, seed []string, rng *rand.Rand) []string {
	out := append([]string{""}, seed...)
	if w, ok := l.Shortest(); ok {
		out = append(out, w)
	}
	if ms, ok := l.Members(20); ok {
		out = append(out, ms...)
	}
	base := append([]string(nil), out...)
	for _, s := range base {
		rs := []rune(s)
		for i := 0; i <= len(rs) && i < 12; i++ {
			c := probeRunes[rng.IntN(len(probeRunes))]
			out = append(out, string(rs[:i])+string(c)+string(rs[i:])) // insert
			if i < len(rs) {
				out = append(out, string(rs[:i])+string(rs[i+1:]))           // delete
				out = append(out, string(rs[:i])+string(c)+string(rs[i+1:])) // change
			}
		}
	}
	for range 20 {
		n := rng.IntN(8)
		var b strings.Builder
		for range n {
			b.WriteRune(probeRunes[rng.IntN(len(probeRunes))])
		}
		out = append(out, b.String())
	}
	return out
}

// TestRegexp2Agrees runs the table's patterns through both engines.
func TestRegexp2Agrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range matchTests {
		l, err := Compile(tc.pattern, Limits{})
		if err != nil {
			t.Errorf("%s: %v", tc.pattern, err)
			continue
		}
		if msg := agree(tc.pattern, probes(l, append(append([]string(nil), tc.yes...), tc.no...), rng)); msg != "" {
			t.Errorf("%s: %s", tc.pattern, msg)
		}
	}
	for _, tc := range errorTests {
		if tc.kind.Category() == Invalid {
			if msg := agree(tc.pattern, nil); msg != "" {
				t.Errorf("%.40q: %s", tc.pattern, msg)
			}
		}
	}
}

// randomPattern writes a pattern from pieces that tell engines apart.
func randomPattern(rng *rand.Rand, depth int) string {
	atoms := []string{`a`, `b`, `ab`, `.`, `\d`, `\D`, `\w`, `\W`, `\s`, `\S`, `[a-c]`, `[^a]`, `[^\s\d]`, `[\w-]`,
		`[^\W]`, `\p{L}`, `\P{Lu}`, `\p{Nd}`, `\p{sc=Greek}`, `\p{White_Space}`, `[\p{L}\d]`, `é`, `😀`, `\u{1F600}`, `\uD83D\uDE00`,
		`\u2028`, `\x41`, `\cJ`, `\0`, `[\b]`, `\n`, `[^]`, `[]`, `\/`, `\.`, `[.]`, `[\u0000-\u{10FFFF}]`, `\uD800`, `[ -~]`,
		`(?:^)`, `(?:$)`, `(?:\b)`, `(?:\B)`, `(?:)`, `(?:a|)`, `(?:^a|b)`, `(?:\ba|b\B)`, `[\s\S]`, `[^\b]`, `[\u00e0-\u00ff]`,
		`[\x00-\x1f]`, `[\cA-\cZ]`, `[\w&&]`, `[^\p{L}\p{N}]`, `_`, `[_é]`, `\u{e9}`, `[\u2028\u2029]`}
	asserts := []string{`^`, `$`, `\b`, `\B`}
	quants := []string{`*`, `+`, `?`, `{2}`, `{0,2}`, `{1,}`, `*?`, `{1,3}?`, `{0}`, `??`, `{2,}?`, `+?`}
	var b strings.Builder
	n := 1 + rng.IntN(4)
	for i := 0; i < n; i++ {
		switch r := rng.IntN(10); {
		case r < 5 || depth > 2:
			b.WriteString(atoms[rng.IntN(len(atoms))])
		case r < 7:
			b.WriteString(asserts[rng.IntN(len(asserts))])
			continue
		case r < 8:
			b.WriteString("(" + randomPattern(rng, depth+1) + "|" + randomPattern(rng, depth+1) + ")")
		case r < 9:
			b.WriteString("(?:" + randomPattern(rng, depth+1) + ")")
		default:
			b.WriteString(fmt.Sprintf("(?<g%d>%s)", rng.IntN(1000000), randomPattern(rng, depth+1)))
		}
		if rng.IntN(3) == 0 {
			b.WriteString(quants[rng.IntN(len(quants))])
		}
	}
	if rng.IntN(4) == 0 {
		return b.String() + "|" + randomPattern(rng, depth+1)
	}
	return b.String()
}

var flagRandom = flag.Int("random", 1500, "TestRegexp2Random: how many random patterns")

// TestRegexp2Random compares both engines on random patterns and strings.
func TestRegexp2Random(t *testing.T) {
	n := *flagRandom
	if testing.Short() {
		n = 200
	}
	rng := rand.New(rand.NewPCG(3, 4))
	deadline := time.Now().Add(time.Duration(max(20, *flagRandom/50)) * time.Second)
	failures := 0
	for i := 0; i < n && time.Now().Before(deadline); i++ {
		p := randomPattern(rng, 0)
		l, err := Compile(p, Limits{})
		if err != nil {
			if msg := agree(p, nil); msg != "" {
				t.Errorf("%s: %s", p, msg)
				failures++
			}
			continue
		}
		if msg := agree(p, probes(l, nil, rng)); msg != "" {
			t.Errorf("%s: %s", p, msg)
			failures++
		}
		if failures > 20 {
			t.Fatal("too many failures")
		}
	}
}

// FuzzRegexp2 pairs patterns with strings against regexp2.
func FuzzRegexp2(f *testing.F) {
	for _, tc := range matchTests {
		for _, s := range append(append([]string(nil), tc.yes...), tc.no...) {
			f.Add(tc.pattern, s)
		}
	}
	f.Fuzz(func(t *testing.T, pattern, s string) {
		if len(pattern) > 64 || len(s) > 64 {
			return
		}
		l, err := Compile(pattern, Limits{States: 2000})
		if err == nil {
			l.Match(s) // never panics
		}
		if msg := agree(pattern, []string{s}); msg != "" {
			t.Errorf("%q: %s", pattern, msg)
		}
	})
}

// unicodeDrift are code points, assigned in Go's Unicode 15.0.0, whose
// derived properties (Lowercase, ID_Continue, Grapheme_Extend, …) changed
// by Unicode 17.0.0, the version of regexp2's own tables for those (its
// General_Category and Script come from Go's). TestRegexp2Sets meets them
// at its sampled code points; a validator on a newer Unicode disagrees
// there, and on every code point assigned since 15.0.0.
var unicodeDrift = []rune{0x0295, 0x036F, 0x0CC0, 0x0CC7, 0x0CC8, 0x0CCA, 0x0CCB, 0x11235, 0x1134D, 0x116B6,
	0x1193D, 0x11F41, 0x16FF0, 0x16FF1, 0x1715, 0x1734, 0x1B3B, 0x1B3D, 0x1B43, 0x1BAA, 0x1BF2, 0x1BF3,
	0x1D166, 0x1D16D, 0x1DE6, 0x30FB, 0xA953, 0xFF65}

// TestRegexp2Sets compares every set a class escape or a property names
// with regexp2's, at each edge of the set's ranges and on a sample, over
// the code points assigned in Go's tables.
func TestRegexp2Sets(t *testing.T) {
	var pats []string
	for _, c := range []string{`.`, `\d`, `\D`, `\w`, `\W`, `\s`, `\S`, `[^]`} {
		pats = append(pats, c)
	}
	for name := range generalCategories {
		pats = append(pats, `\p{`+name+`}`, `\p{gc=`+name+`}`)
	}
	for short, long := range scriptAliases {
		pats = append(pats, `\p{sc=`+short+`}`, `\p{Script=`+long+`}`)
	}
	for name, canonical := range binaryProperties {
		if binaryOK(canonical) {
			pats = append(pats, `\p{`+name+`}`, `\P{`+name+`}`)
		}
	}
	slices.Sort(pats)
	unassigned := category("Cn")
	drift := map[rune]bool{}
	checked := 0
	for _, p := range pats {
		l, err := Compile(`^`+p+`$`, Limits{})
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		re, err := regexp2ecma.Compile(`^` + p + `$`)
		if err != nil {
			t.Errorf("%s: regexp2: %v", p, err)
			continue
		}
		var set Set
		for _, e := range l.Edges(0) {
			set = e.Set
		}
		cps := map[rune]bool{}
		for _, r := range set.r {
			for _, c := range []rune{r.Lo - 1, r.Lo, r.Hi, r.Hi + 1} {
				cps[c] = true
			}
		}
		for c := rune(0); c <= MaxRune; c += 997 {
			cps[c] = true
		}
		for c := range cps {
			if c < 0 || c > MaxRune || c >= surrogateLo && c <= surrogateHi || unassigned.Contains(c) {
				continue
			}
			want, ok := regexp2Match(re, string(c))
			checked++
			if ok && want != set.Contains(c) {
				if !slices.Contains(unicodeDrift, c) {
					t.Errorf("%s on %U: strlang %v, regexp2 %v", p, c, set.Contains(c), want)
				}
				drift[c] = true
			}
		}
	}
	for _, c := range unicodeDrift {
		if !drift[c] {
			t.Errorf("%U is listed in unicodeDrift, but both engines now agree on it", c)
		}
	}
	t.Logf("%d sets, %d code points compared", len(pats), checked)
}

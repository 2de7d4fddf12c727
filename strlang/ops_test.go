package strlang

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"unicode/utf8"
)

func mustCompile(t testing.TB, p string) *Lang {
	t.Helper()
	l, err := Compile(p, Limits{})
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return l
}

// The operations agree with Match string by string, on random patterns.
func TestOperations(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 300; i++ {
		pa, pb := randomPattern(rng, 0), randomPattern(rng, 0)
		a, errA := Compile(pa, Limits{})
		b, errB := Compile(pb, Limits{})
		if errA != nil || errB != nil {
			continue
		}
		and, err1 := Intersect(a, b, Limits{})
		or, err2 := Union(a, b, Limits{})
		minus, err3 := Minus(a, b, Limits{})
		if err := errors.Join(err1, err2, err3); err != nil {
			t.Fatalf("%s, %s: %v", pa, pb, err)
		}
		not := a.Complement()
		if !Equal(not.Complement(), a) {
			t.Errorf("%s: the complement of its complement differs", pa)
		}
		for _, s := range append(probes(a, nil, rng), probes(b, nil, rng)...) {
			x, y := a.Match(s), b.Match(s)
			if and.Match(s) != (x && y) || or.Match(s) != (x || y) || minus.Match(s) != (x && !y) || not.Match(s) == x {
				t.Fatalf("%s, %s on %q: a %v, b %v; and %v, or %v, minus %v, not %v", pa, pb, s, x, y,
					and.Match(s), or.Match(s), minus.Match(s), not.Match(s))
			}
		}
		if w, ok := and.Shortest(); ok && !(a.Match(w) && b.Match(w)) {
			t.Errorf("%s, %s: witness %q of the intersection is not in both", pa, pb, w)
		}
		if sub, _ := Subset(and, a, Limits{}); !sub {
			t.Errorf("%s, %s: the intersection is not a subset", pa, pb)
		}
	}
}

// Equal languages have identical automata, however they are written.
func TestCanonical(t *testing.T) {
	for _, pair := range [][2]string{
		{`a|b`, `[ab]`}, {`^(?:a|b)*$`, `^[ab]*$`}, {`^a{2,3}$`, `^aaa?$`}, {`abc`, `.*abc`},
		{`^\d$`, `^[0-9]$`}, {`x|$`, `$`}, {`^(a*)*$`, `^a*$`}, {`^[^]*$`, ``}, {`[]`, `^\b$`},
		{`^\p{Any}$`, `^[\s\S]$`}, {`\bfoo`, `\bfoo|\bfoo\B`},
	} {
		a, b := mustCompile(t, pair[0]), mustCompile(t, pair[1])
		if !Equal(a, b) || a.String() != b.String() {
			t.Errorf("%s and %s differ:\n%s\n%s", pair[0], pair[1], a, b)
		}
	}
	if !Equal(mustCompile(t, `[]`), Empty()) || !Equal(mustCompile(t, ``), All()) {
		t.Errorf("Empty or All differ from their patterns")
	}
	if !Empty().IsEmpty() || All().IsEmpty() || !All().IsAll(0) {
		t.Errorf("IsEmpty or IsAll wrong on Empty and All")
	}
}

// The same pattern gives the same bytes every run.
func TestDeterministic(t *testing.T) {
	for _, tc := range matchTests {
		a, b := mustCompile(t, tc.pattern), mustCompile(t, tc.pattern)
		if a.String() != b.String() {
			t.Errorf("%s: two compiles differ", tc.pattern)
		}
	}
}

func TestShortest(t *testing.T) {
	for _, tc := range []struct {
		pattern, want string
		ok            bool
	}{
		{`^[b-d]{2}$`, "bb", true}, {`abc`, "abc", true}, {`\d+`, "0", true}, {`^$`, "", true}, {``, "", true},
		{`[]`, "", false}, {`^[^a]$`, "\x00", true}, {`^(?:x|ab)c$`, "xc", true}, {`^(?:b|a)(?:d|c)$`, "ac", true},
		{`\bz`, "z", true}, {`a\bb`, "", false}, {`^\u{10FFFF}😀`, "\U0010FFFF😀", true},
	} {
		got, ok := mustCompile(t, tc.pattern).Shortest()
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: Shortest() = %q, %v; want %q, %v", tc.pattern, got, ok, tc.want, tc.ok)
		}
	}
}

func TestMembers(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		limit   int
		want    []string // nil: not finite within the limit
	}{
		{`^(a|b)c?$`, 10, S("a", "b", "ac", "bc")},
		{`^$`, 10, S("")},
		{`[]`, 10, []string{}},
		{`^a*$`, 10, nil},
		{`a`, 10, nil},
		{`^[a-z]$`, 10, nil},
		{`^[a-z]$`, 26, nil}, // shortened below
		{`^(?:ab|b|abc)$`, 10, S("b", "ab", "abc")},
		{`^\d{2}$`, 100, nil},
	} {
		got, ok := mustCompile(t, tc.pattern).Members(tc.limit)
		if tc.want == nil {
			if tc.pattern == `^[a-z]$` && tc.limit == 26 {
				if !ok || len(got) != 26 || got[0] != "a" || got[25] != "z" {
					t.Errorf("%s: Members(26) = %q, %v", tc.pattern, got, ok)
				}
				continue
			}
			if tc.pattern == `^\d{2}$` {
				if !ok || len(got) != 100 || got[0] != "00" || got[99] != "99" {
					t.Errorf("%s: Members(100) = %d strings, %v", tc.pattern, len(got), ok)
				}
				continue
			}
			if ok {
				t.Errorf("%s: Members(%d) = %q, want not finite within the limit", tc.pattern, tc.limit, got)
			}
			continue
		}
		if !ok || !slices.Equal(got, tc.want) {
			t.Errorf("%s: Members(%d) = %q, %v; want %q", tc.pattern, tc.limit, got, ok, tc.want)
		}
	}
}

func TestLiterals(t *testing.T) {
	for _, strs := range [][]string{
		{}, {""}, {"a"}, {"abc", "abd", "b", ""}, {"😀", "é", "e", "\x00"}, {"same", "same"}, {"\xff"},
	} {
		l, err := Literals(strs, Limits{})
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{}
		for _, s := range strs {
			want[string([]rune(s))] = true // read as Match reads
		}
		got, ok := l.Members(100)
		if !ok || len(got) != len(want) {
			t.Errorf("%q: Members = %q, %v", strs, got, ok)
		}
		for _, s := range got {
			if !want[s] {
				t.Errorf("%q: %q is a member", strs, s)
			}
		}
		for _, s := range strs {
			if !l.Match(s) || l.Match(s+"x") || (utf8.RuneCountInString(s) > 0 && l.Match(string([]rune(s)[1:])) && !want[string([]rune(s)[1:])]) {
				t.Errorf("%q: Match is wrong around %q", strs, s)
			}
		}
	}
	if _, err := Literals([]string{"abcdefghij", "bcdefghijk"}, Limits{States: 5}); err == nil {
		t.Errorf("the trie's limit is not applied")
	}
}

func TestWithLength(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 300; i++ {
		p := randomPattern(rng, 0)
		l, err := Compile(p, Limits{})
		if err != nil {
			continue
		}
		lo, hi := rng.IntN(4), rng.IntN(7)-1
		b, err := WithLength(l, lo, hi, Limits{})
		if err != nil {
			t.Fatalf("%s {%d,%d}: %v", p, lo, hi, err)
		}
		for _, s := range probes(l, nil, rng) {
			n := utf8.RuneCountInString(s)
			want := l.Match(s) && n >= lo && (hi < 0 || n <= hi)
			if b.Match(s) != want {
				t.Fatalf("%s with %d..%d code points on %q: %v, want %v\n%s", p, lo, hi, s, b.Match(s), want, b)
			}
		}
	}
}

// A length bound on a language that is "any string" past a state keeps
// a chain there that Chain recognises, and a bound where every state is
// met at one length costs nothing.
func TestWithLengthShape(t *testing.T) {
	l := mustCompile(t, `^[a-z][a-z0-9_-]*$`)
	b, err := WithLength(l, 1, 64, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if !Equal(b, mustCompile(t, `^[a-z][a-z0-9_-]{0,63}$`)) {
		t.Errorf("the bounded language differs from the counted pattern")
	}
	if set, lo, hi, ok := b.Chain(1); !ok || lo != 0 || hi != 63 || set.String() != `[\-0-9_a-z]` {
		t.Errorf("Chain(1) = %s, %d, %d, %v", set, lo, hi, ok)
	}
	if _, _, _, ok := b.Chain(0); ok {
		t.Errorf("state 0 is not a chain of one set")
	}

	// "contains a digit", at most 1000 code points: a counter before the
	// digit, then a chain of any code point.
	d := mustCompile(t, `\d`)
	b, err = WithLength(d, 0, 1000, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	chains := 0
	for q := 0; q < b.NumStates(); q++ {
		if set, lo, _, ok := b.Chain(q); ok && set.Equal(anySet) && lo == 0 {
			chains++
		}
	}
	if b.NumStates() != 2000 || chains != 999 { // 1000 before the digit, 1000 after (the last accepts only "")
		t.Errorf("%d states, %d of them chains of any code point", b.NumStates(), chains)
	}

	// No upper bound: the counter stops at the lower one.
	b, err = WithLength(mustCompile(t, `^a+$`), 5, -1, Limits{})
	if err != nil || b.NumStates() != 6 {
		t.Errorf("a+ with at least 5: %v\n%s", err, b)
	}
	if set, lo, hi, ok := b.Chain(0); !ok || lo != 5 || hi != -1 || set.String() != "[a]" {
		t.Errorf("Chain(0) = %s, %d, %d, %v", set, lo, hi, ok)
	}

	if _, err := WithLength(d, 0, 100_000, Limits{}); err == nil || err.(*Error).Kind != ErrLimitLength {
		t.Errorf("no ErrLimitLength: %v", err)
	}
	if b, err := WithLength(d, 5, 3, Limits{}); err != nil || !b.IsEmpty() {
		t.Errorf("min > max is not empty")
	}
}

func TestChain(t *testing.T) {
	for _, tc := range []struct {
		pattern string
		set     string
		lo, hi  int
		ok      bool
	}{
		{`^[a-z]{2,8}$`, "[a-z]", 2, 8, true},
		{`^\d*$`, "[0-9]", 0, -1, true},
		{`^$`, "[]", 0, 0, true},
		{``, `[\u{0}-\u{d7ff}\u{e000}-\u{10ffff}]`, 0, -1, true},
		{`^(?:ab)*$`, "", 0, 0, false},
		{`^a{2}b$`, "", 0, 0, false},
		{`^a?b?$`, "", 0, 0, false},
		{`^(?:aa)+$`, "", 0, 0, false},
	} {
		set, lo, hi, ok := mustCompile(t, tc.pattern).Chain(0)
		if ok != tc.ok || ok && (set.String() != tc.set || lo != tc.lo || hi != tc.hi) {
			t.Errorf("%s: Chain(0) = %s, %d, %d, %v", tc.pattern, set, lo, hi, ok)
		}
	}
}

func TestEdges(t *testing.T) {
	l := mustCompile(t, `^(?:[a-c]x|[b-d]y)$`)
	var got []string
	for _, e := range l.Edges(0) {
		got = append(got, e.Set.String())
	}
	if !slices.Equal(got, S("[a]", "[bc]", "[d]")) {
		t.Errorf("edges of state 0: %q\n%s", got, l)
	}
}

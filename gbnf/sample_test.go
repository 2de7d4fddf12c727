package gbnf

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSample(t *testing.T) {
	tests := []struct {
		name     string
		g        *Grammar
		maxRunes int
	}{
		{"json", jsonGrammar(), 200},
		{"arithmetic", exprGrammar(), 60},
		{"nested lists", gram("root", ref("list"), "list", seq(lit("["), opt(seq(ref("item"), star(seq(lit(","), ref("item"))))), lit("]")), "item", alt(ref("list"), plus(cls("0-9")))), 40},
		{"classes", gram("root", plus(ref("c")), "c", alt(cls("^a-z"), cls("α-ω"), anyc(), cls("z-a"), ref("nul"), ref("astral")), "nul", lit("\x00"), "astral", cls("😀-😏")), 30},
		{"repeats", gram("root", seq(rep(ref("a"), 2, 5), rep(ref("b"), 3, 1), rep(ref("c"), 1, -1), rep(opt(ref("d")), 0, 4)), "a", lit("a"), "b", lit("b"), "c", lit("c"), "d", lit("d")), 20},
		{"big repeat", gram("root", rep(ref("x"), 0, 3000), "x", cls("a-z")), 4000},
		{"nullable repeat body", gram("root", star(ref("x")), "x", seq(ref("n"), opt(lit("z"))), "n", opt(lit("y"))), 10},
		{"deep recursion", gram("root", alt(lit("."), seq(lit("("), ref("root"), lit(")")), seq(ref("root2"))), "root2", seq(lit("["), ref("root"), opt(ref("root")), lit("]"))), 1000},
		{"ambiguous", gram("root", star(ref("x")), "x", alt(lit("a"), lit("aa"), seq(lit("a"), ref("x")))), 30},
	}
	for _, tc := range tests {
		m, err := NewMatcher(tc.g)
		if err != nil {
			t.Fatalf("%s: NewMatcher: %v", tc.name, err)
		}
		s, err := NewSampler(tc.g, 1)
		if err != nil {
			t.Fatalf("%s: NewSampler: %v", tc.name, err)
		}
		for i := range 300 {
			text, ok := s.Sample(tc.maxRunes)
			if !ok {
				t.Fatalf("%s: sample %d: no text within %d code points", tc.name, i, tc.maxRunes)
			}
			if n := utf8.RuneCountInString(text); n > tc.maxRunes {
				t.Errorf("%s: sample %q has %d code points, bound %d", tc.name, text, n, tc.maxRunes)
			}
			if r := m.Match(text); !r.Accepted {
				t.Errorf("%s: sample %q rejected at %d", tc.name, text, r.Offset)
			}
		}
		for _, r := range tc.g.Rules {
			if !s.reached[r.Name] && r.Name != "nul" {
				t.Errorf("%s: rule %s never reached", tc.name, r.Name)
			}
		}
		for a, seen := range s.altSeen {
			for i, ok := range seen {
				if !ok && s.cost(a.Alts[i], true).n < costInf {
					t.Errorf("%s: alternative %d of an Alt never taken", tc.name, i)
				}
			}
		}
	}
}

func TestSampleDeterministic(t *testing.T) {
	run := func() string {
		s, err := NewSampler(jsonGrammar(), 42)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for range 50 {
			text, _ := s.Sample(100)
			b.WriteString(text)
			b.WriteByte(0)
		}
		return b.String()
	}
	if run() != run() {
		t.Error("two samplers with the same seed differ")
	}
}

func TestSampleBounds(t *testing.T) {
	tests := []struct {
		name     string
		g        *Grammar
		maxRunes int
		ok       bool
	}{
		{"too short a bound", root(lit("abc")), 2, false},
		{"exact bound", root(lit("abc")), 3, true},
		{"empty text", root(star(lit("a"))), 0, true},
		{"minimum repeat", root(rep(lit("ab"), 3, -1)), 5, false},
	}
	for _, tc := range tests {
		s, err := NewSampler(tc.g, 7)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if _, ok := s.Sample(tc.maxRunes); ok != tc.ok {
			t.Errorf("%s: Sample(%d) ok = %v, want %v", tc.name, tc.maxRunes, ok, tc.ok)
		}
	}
}

func TestNewSamplerRefuses(t *testing.T) {
	tests := []struct {
		name string
		g    *Grammar
		want string
	}{
		{"no text", root(cls("b-a")), "accepts no text"},
		{"NUL only", root(lit("\x00")), "accepts no text"},
		{"endless recursion", gram("root", seq(lit("a"), ref("root"))), "accepts no text"},
		{"left recursion", root(seq(ref("root"), lit("a"))), "left recursion"},
		{"undefined", root(ref("x")), "undefined rule"},
	}
	for _, tc := range tests {
		if _, err := NewSampler(tc.g, 1); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestSampleHugeCounts(t *testing.T) {
	g := gram("root", alt(lit("a"), ref("big")), "big", rep(lit("bb"), 1<<40, -1))
	s, err := NewSampler(g, 1)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		if text, ok := s.Sample(10); !ok || text != "a" {
			t.Fatalf("Sample = %q, %v; want \"a\"", text, ok)
		}
	}
}

// TestShortest: the shortest text, the same every time, spelled plainly;
// the matcher accepts it and random sampling goes on as before.
func TestShortest(t *testing.T) {
	for _, tc := range []struct {
		name string
		g    *Grammar
		want string
	}{
		{"json", jsonGrammar(), ""},
		{"class", gram("root", seq(lit("\""), rep(cls("^\"\\\\"), 2, 5), lit("\""))), `"aa"`},
		{"digits", gram("root", plus(cls("1-9"))), "1"},
		{"first of equals", gram("root", alt(lit("ab"), lit("cd"), lit("e"), lit("f"))), "e"},
		{"recursion", gram("root", alt(seq(lit("("), ref("root"), lit(")")), lit("[]"))), "[]"},
		{"any", gram("root", seq(anyc(), lit("!"))), "a!"},
	} {
		s, err := NewSampler(tc.g, 7)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got := s.Shortest()
		if tc.want != "" && got != tc.want {
			t.Errorf("%s: Shortest() = %q, want %q", tc.name, got, tc.want)
		}
		if again := s.Shortest(); again != got {
			t.Errorf("%s: %q then %q", tc.name, got, again)
		}
		m, _ := NewMatcher(tc.g)
		if !m.Accepts(got) {
			t.Errorf("%s: the matcher rejects %q", tc.name, got)
		}
		if utf8.RuneCountInString(got) != s.ruleCost["root"].n {
			t.Errorf("%s: %q is not of the shortest length %d", tc.name, got, s.ruleCost["root"].n)
		}
		if _, ok := s.Sample(50); !ok {
			t.Errorf("%s: Sample after Shortest failed", tc.name)
		}
	}
}

package llamastacks

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// Stack counts worked out by hand from llama.cpp's rewrite rules.
func TestStackCounts(t *testing.T) {
	for _, c := range []struct {
		grammar, text string
		accepted      bool
		init, max     int
		rules         int
	}{
		{`root ::= "a" | "b" | "c"`, "", false, 3, 0, 1},
		{`root ::= "a" | "b" | "c"`, "b", true, 3, 1, 1},
		{`root ::= "ab" | "ac"`, "a", false, 2, 2, 1},
		{`root ::= "ab" | "ac"`, "ab", true, 2, 2, 1},
		{`root ::= "a" | "a"`, "a", true, 2, 1, 1},                        // both end empty: one stack
		{`root ::= [a-z]*`, "abc", true, 2, 2, 2},                         // S' ::= S S' | : the next letter or the end
		{`root ::= "a"{0,3}`, "aa", true, 2, 2, 4},                        // three optional rules
		{`root ::= "a"{2}`, "aa", true, 1, 1, 1},                          // copies, no rule
		{`root ::= "a"? "a"? "a"?`, "a", true, 4, 3, 4},                   // the a read by any of three: 3 stacks
		{`root ::= "a"? "a"? "a"?`, "aa", true, 4, 3, 4},                  //
		{`root ::= ("x" | "y") "z"`, "x", false, 2, 1, 2},                 // a group is a rule
		{`root ::= x x` + "\n" + `x ::= "a" | "ab"`, "a", false, 2, 3, 2}, // ambiguity: "a" is x or the start of x
		{`root ::= x x` + "\n" + `x ::= "a" | "ab"`, "aba", true, 2, 3, 2},
		{`root ::= "\"" ( [^"\\] | "\\" ["\\/bfnrt] )* "\""`, `"ab\n"`, true, 1, 3, 3},
		{`root ::= [ab] "c" | "a" "d"`, "ac", true, 2, 2, 1},
		{`root ::= "ab"`, "ax", false, 1, 1, 1},
	} {
		g, err := Parse(c.grammar)
		if err != nil {
			t.Errorf("%q: %v", c.grammar, err)
			continue
		}
		cost, err := g.Run(c.text)
		if err != nil {
			t.Errorf("%q on %q: %v", c.grammar, c.text, err)
			continue
		}
		if cost.Accepted != c.accepted || cost.InitStacks != c.init || cost.MaxStacks != c.max || g.Rules != c.rules {
			t.Errorf("%q on %q: accepted %v, init %d, max %d stacks, %d rules; want %v, %d, %d, %d",
				c.grammar, c.text, cost.Accepted, cost.InitStacks, cost.MaxStacks, g.Rules, c.accepted, c.init, c.max, c.rules)
		}
	}
}

// What llama.cpp refuses when it loads a grammar, and the limits.
func TestParseErrors(t *testing.T) {
	for _, text := range []string{
		`root ::= "a`,
		`root ::= [a`,
		`root ::= x`,
		`x ::= "a"`,
		`root ::= root "a"`,
		`root ::= x? root`,
		`root ::= ("a"?)*`,
		`root ::= "\d"`,
		`root ::= *`,
		`root ::= "a"{1000000}`,
		`root ::= "a"{0,1000000}`,
		`root ::= ( "a"`,
		`root ::= "a" ) `,
	} {
		if _, err := Parse(text); err == nil {
			t.Errorf("%q: parsed, want an error", text)
		}
	}
}

func TestRunLimits(t *testing.T) {
	// x x x ... of an ambiguous x: readings multiply along the text.
	g, err := Parse(`root ::= x*` + "\n" + `x ::= "a" | "a" "a" | "a" "a" "a"`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.RunLimits("aaaaaaaaaaaaaaaaaaaaaaaa", Limits{MaxStacks: 2}); err == nil {
		t.Errorf("no limit error")
	}
	if c, err := g.Run("aaaaaaaaaaaaaaaaaaaaaaaa"); err != nil || !c.Accepted {
		t.Errorf("got %+v, %v", c, err)
	}
}

var flagCorpus = flag.String("corpus", "", "also try the first 40 schemas of the Glaiveai2K subset under this JSONSchemaBench `DIR`")

// The model must agree with gbnf.Matcher (itself checked against llama.cpp
// by the interop tests) on our grammars for testdata schemas: sampled texts,
// and each text cut short and with a character changed.
func TestAgreesWithMatcher(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/corpus/*/*.json")
	if len(files) == 0 {
		t.Fatal("no schemas in testdata/corpus")
	}
	if *flagCorpus != "" {
		more, _ := filepath.Glob(filepath.Join(*flagCorpus, "Glaiveai2K", "*.json"))
		if len(more) == 0 {
			t.Fatalf("no Glaiveai2K schemas under -corpus=%s", *flagCorpus)
		}
		sort.Strings(more)
		files = append(files, more[:min(len(more), 40)]...)
	}
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, ws := range []compile.Whitespace{compile.Compact, compile.Bounded} {
			out, err := schema2gbnf.Compile(data, schema2gbnf.Options{Whitespace: ws})
			if err != nil {
				continue
			}
			g, err := Parse(out.Rules.String())
			if err != nil {
				t.Errorf("%s: %v", f, err)
				continue
			}
			m, err := gbnf.NewMatcher(out.Rules)
			if err != nil {
				t.Fatal(err)
			}
			s, err := gbnf.NewSampler(out.Rules, 7)
			if err != nil {
				t.Fatal(err)
			}
			for range 4 {
				text, ok := s.Sample(300)
				if !ok {
					continue
				}
				for _, v := range variants(text) {
					cost, err := g.Run(v)
					if err != nil {
						t.Errorf("%s %q: %v", f, v, err)
						continue
					}
					if want := m.Accepts(v); cost.Accepted != want {
						t.Errorf("%s (%s) %q: model %v, matcher %v", f, ws, v, cost.Accepted, want)
					}
					checked++
				}
			}
		}
	}
	t.Logf("%d texts checked", checked)
	if checked < 1000 {
		t.Errorf("only %d texts checked", checked)
	}
}

// variants are text, text without its last code point, and text with a
// character in the middle replaced.
func variants(text string) []string {
	rs := []rune(text)
	out := []string{text}
	if len(rs) > 0 {
		out = append(out, string(rs[:len(rs)-1]))
		mid := append([]rune(nil), rs...)
		mid[len(mid)/2] = '"'
		out = append(out, string(mid))
	}
	return out
}

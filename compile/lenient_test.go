package compile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// lenient compiles a schema text under the lenient profile.
func lenient(t testing.TB, schema string, copts subsetcheck.Options, opts Options) (*subsetcheck.Checked, *gbnf.Grammar, error) {
	t.Helper()
	doc, err := subsetcheck.Read("schema.json", []byte(schema), subsetcheck.Limits{})
	if err != nil {
		t.Fatalf("read schema: %v\n%s", err, schema)
	}
	c, g, _, err := Lenient(doc, copts, opts)
	return c, g, err
}

// relaxedCodes is "code pointer" per relaxation, in order.
func relaxedCodes(c *subsetcheck.Checked) string {
	var out []string
	for _, p := range c.Relaxed {
		out = append(out, string(p.Code)+" "+p.Pointer)
	}
	return strings.Join(out, ", ")
}

// TestLenientLadder: a place the compiler refuses is relaxed by the first
// rung of its ladder after which it compiles, and the grammar takes what
// the exact profile's grammar of the rest would.
func TestLenientLadder(t *testing.T) {
	cases := []struct {
		name, schema string
		assert       bool
		want         string
		accepts      []string
	}{
		{"format cut by its lengths: the format goes, the lengths stay", `{"type":"string","format":"date-time","maxLength":25}`, true,
			"W308 /format", []string{`"ab"`}},
		{"inside a property: the first keyword in document order whose drop builds", `{"type":"object","properties":{"d":{"type":"string","maxLength":25,"format":"date-time"},"n":{"type":"integer"}}}`, true,
			"W308 /properties/d/maxLength", []string{`{"d":"2020-01-01T00:00:00.123456789Z","n":1}`}},
		{"and the checker's relaxations with it", `{"type":"object","properties":{"d":{"type":"string","maxLength":25,"format":"date-time"},"p":{"type":"string","pattern":"(?=a)"}}}`, true,
			"W308 /properties/d/maxLength, W305 /properties/p/pattern", []string{`{"d":"2020-01-01T00:00:00Z","p":"b"}`}},
	}
	for _, tt := range cases {
		c, g, err := lenient(t, tt.schema, subsetcheck.Options{AssertFormat: tt.assert}, Options{Whitespace: Compact})
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got := relaxedCodes(c); got != tt.want {
			t.Errorf("%s: relaxed %s, want %s", tt.name, got, tt.want)
		}
		m, err := gbnf.NewMatcher(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range tt.accepts {
			if r, _ := m.Check(text); !r.Accepted {
				t.Errorf("%s: rejects %s", tt.name, text)
			}
		}
	}
}

// TestLenientKeepsLimits: a schema without a valid value and a grammar
// past Options.MaxRules stay errors under the lenient profile; a limit met
// at one place is relaxed there, its message quoted.
func TestLenientKeepsLimits(t *testing.T) {
	cases := []struct {
		name, schema string
		opts         Options
		want         subsetcheck.Code
	}{
		{"no valid value", `{"type":"string","minLength":3,"maxLength":2,"unevaluatedProperties":false}`, Options{}, subsetcheck.CodeNoValidValue},
		{"MaxRules", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string","unevaluatedProperties":false}}}`, Options{MaxRules: 1}, subsetcheck.CodeGrammarTooLarge},
	}
	for _, tt := range cases {
		_, _, err := lenient(t, tt.schema, subsetcheck.Options{}, tt.opts)
		var list subsetcheck.ErrorList
		if !errors.As(err, &list) || len(list) == 0 || list[0].Code != tt.want {
			t.Errorf("%s: got %v, want %s", tt.name, err, tt.want)
		}
	}
	c, _, err := lenient(t, `{"type":"object","anyOf":[{"required":["a"]},{"required":["b"]}],"$ref":"#/$defs/x","$defs":{"x":{"anyOf":[{"required":["c"]},{"required":["d"]}]}}}`,
		subsetcheck.Options{}, Options{MaxAlternatives: 2})
	if err != nil {
		t.Fatalf("MaxAlternatives met at one place: %v", err)
	}
	if len(c.Relaxed) == 0 || !strings.Contains(c.Relaxed[0].Message, "Options.MaxAlternatives") {
		t.Errorf("relaxed %v, want a warning naming the limit", c.Relaxed)
	}
	// A string language past its limit (L506) where the compiler builds it:
	// the pattern goes, the lengths stay.
	c, g, err := lenient(t, `{"type":"string","pattern":"^[a-z]{1,60}@[a-z]{1,60}$","maxLength":200}`,
		subsetcheck.Options{Limits: subsetcheck.Limits{MaxLengthStates: 100}}, Options{Whitespace: Compact})
	if err != nil {
		t.Fatalf("MaxLengthStates met at one place: %v", err)
	}
	if got := relaxedCodes(c); got != "W308 /pattern" || !strings.Contains(c.Relaxed[0].Message, "Limits.MaxLengthStates") {
		t.Errorf("relaxed %v, want W308 /pattern naming the limit", c.Relaxed)
	}
	m, err := gbnf.NewMatcher(g)
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]bool{`"@"`: true, `"` + strings.Repeat("a", 201) + `"`: false} {
		if r, _ := m.Check(text); r.Accepted != want {
			t.Errorf("MaxLengthStates relaxed: %s accepted %v, want %v", text, r.Accepted, want)
		}
	}
}

// TestLenientRelaxRounds: the ladder's compiles are bounded
// (Options.MaxRelaxRounds, C405).
func TestLenientRelaxRounds(t *testing.T) {
	schema := `{"type":"string","maxLength":25,"minLength":1,"format":"date-time"}`
	_, _, err := lenient(t, schema, subsetcheck.Options{AssertFormat: true}, Options{MaxRelaxRounds: 2})
	var list subsetcheck.ErrorList
	if !errors.As(err, &list) || list[0].Code != subsetcheck.CodeRelaxRounds {
		t.Fatalf("got %v, want C405", err)
	}
	if _, _, err := lenient(t, schema, subsetcheck.Options{AssertFormat: true}, Options{}); err != nil {
		t.Fatalf("within the default: %v", err)
	}
}

// TestLenientSameGrammar: what the exact profile compiles, the lenient
// profile compiles to the same grammar, byte for byte, with no
// relaxation; what the exact profile refuses, the lenient profile compiles
// or refuses for what no relaxation mends (the schema's own errors, a
// limit, no valid value). On the vendored slice and the hand-written
// schemas; with -corpus, on a whole corpus.
func TestLenientSameGrammar(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(*corpusDir, "*", "*.json"))
	more, _ := filepath.Glob(filepath.Join("..", "testdata", "equiv", "*.json"))
	refused, _ := filepath.Glob(filepath.Join("..", "testdata", "equiv", "refused", "*.json"))
	files = append(append(files, more...), refused...)
	if len(files) == 0 {
		t.Fatalf("no schemas")
	}
	same, relaxed, stillRefused := 0, 0, map[subsetcheck.Code]int{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := subsetcheck.Read(filepath.Base(file), data, subsetcheck.Limits{})
		if err != nil {
			continue
		}
		for _, ws := range []Whitespace{Bounded, Compact} {
			opts := Options{Whitespace: ws}
			var exact *gbnf.Grammar
			if c, err := subsetcheck.Check(doc, subsetcheck.Options{}); err == nil {
				exact, _ = Compile(c, opts)
			}
			lc, lg, _, err := Lenient(doc, subsetcheck.Options{}, opts)
			switch {
			case exact != nil && err != nil:
				t.Errorf("%s: the exact profile compiles it, the lenient one refuses it: %v", file, err)
			case exact != nil:
				if len(lc.Relaxed) > 0 || lg.String() != exact.String() {
					t.Errorf("%s (%s): the lenient grammar differs from the exact one (relaxed %s)", file, ws, relaxedCodes(lc))
				}
				same++
			case err == nil:
				if err := gbnf.Validate(lg); err != nil {
					t.Errorf("%s: invalid lenient grammar: %v", file, err)
				}
				if len(lc.Relaxed) == 0 && !slices.ContainsFunc(lc.Warnings, func(w *subsetcheck.Problem) bool { return w.Code == subsetcheck.CodeIgnoredDialect }) {
					t.Errorf("%s: refused by the exact profile, compiled leniently without a relaxation or an ignored $schema (W310)", file)
				}
				relaxed++
			default:
				var list subsetcheck.ErrorList
				if !errors.As(err, &list) {
					t.Fatalf("%s: %T %v", file, err, err)
				}
				for _, p := range list {
					if p.Code == subsetcheck.CodeRefusedKeyword || p.Code == subsetcheck.CodeRemoteRef || p.Code == subsetcheck.CodeFormatNotExact || relaxable(p) {
						t.Errorf("%s: the lenient profile refuses what it relaxes: %v", file, p)
					}
					stillRefused[p.Code]++
				}
			}
		}
	}
	var codes []string
	for c, n := range stillRefused {
		codes = append(codes, string(c)+"×"+strconv.Itoa(n))
	}
	sort.Strings(codes)
	t.Logf("%d files, each with bounded and compact whitespace: %d the same grammar as exact, %d compiled only leniently, refused leniently by %v", len(files), same, relaxed, codes)
}

package corpustest

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf"
	rx "github.com/schema2gbnf/schema2gbnf/regex"
	"github.com/schema2gbnf/schema2gbnf/regex/dialects"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// TestPatterns emits the regex of a string schema for each of the corpus's
// own patterns (strlang's file of JSONSchemaBench's 764 distinct ones),
// alone and within length bounds, and compares it with the GBNF matcher on
// sampled texts and near misses, and a sample in Python and Rust. The grammar of a
// pattern is an automaton, one rule per state and loops through them: the
// regex emitter solves those rules exactly, so none is refused as
// recursive (R601) and none needs a depth bound.
func TestPatterns(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus run skipped in -short mode")
	}
	data, err := os.ReadFile("../../strlang/testdata/corpus-patterns.json")
	if err != nil {
		t.Fatal(err)
	}
	var patterns []struct{ Pattern, Outcome string }
	if err := json.Unmarshal(data, &patterns); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(9, 10))
	counts := map[string]int{}
	var py []dialects.Case
	texts := 0
	for i, p := range patterns {
		if !strings.HasPrefix(p.Outcome, "states ") {
			continue
		}
		q, _ := json.Marshal(p.Pattern)
		for _, schema := range []string{`{"type":"string","pattern":` + string(q) + `}`, `{"type":"string","pattern":` + string(q) + `,"maxLength":20}`} {
			g, err := schema2gbnf.Compile([]byte(schema), schema2gbnf.Options{})
			if err != nil {
				counts["schema refused by the compiler"]++
				continue
			}
			re, err := rx.Emit(g.Rules, rx.Options{})
			if err != nil {
				var list subsetcheck.ErrorList
				if !errors.As(err, &list) {
					t.Fatalf("%s: error is not an ErrorList: %v", schema, err)
				}
				counts["refused "+string(list[0].Code)]++
				if list[0].Code != rx.CodeTooLarge && list[0].Code != rx.CodeTooDeep {
					t.Errorf("%s: %v", schema, err)
				}
				continue
			}
			counts["emitted"]++
			var cases []dialects.Case
			texts += checkTexts(t, schema, g.Rules, re, r, &cases)
			// Python's re backtracks, and solved automata nest stars:
			// short texts only, or a late failure takes exponential time.
			for _, c := range cases {
				if i%4 == 0 && utf8.RuneCountInString(c.Text) <= 16 && len(c.Re) < 20000 {
					py = append(py, c)
				}
			}
			if t.Failed() {
				return
			}
		}
	}
	t.Logf("%d patterns: %v; %d texts compared with the matcher", len(patterns), counts, texts)
	t.Run("python", func(t *testing.T) { dialects.CheckPython(t, py) })
	t.Run("rust", func(t *testing.T) { dialects.CheckRust(t, py) })
}

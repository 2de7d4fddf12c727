package equiv

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// corpusPatterns is strlang's file of the 764 distinct patterns and
// patternProperties names of JSONSchemaBench, with what strlang made of
// each ("states N", or an error kind).
const corpusPatterns = "../strlang/testdata/corpus-patterns.json"

// TestCorpusPatterns runs the equivalence check on the corpus's own
// patterns, each as a string schema alone and, one in three each, within
// length bounds and as a property, as a patternProperties name, and as
// propertyNames' pattern: members of its language, near misses
// at every position and every bound, strings sampled from the grammar,
// the oracle (regexp2 in ECMAScript mode) judging, llama.cpp agreeing.
// A pattern strlang compiles must compile; the others must be refused
// with the code of their kind. One pattern in four by default, one in
// twenty with -short, every one in the long mode (-corpus).
func TestCorpusPatterns(t *testing.T) {
	data, err := os.ReadFile(corpusPatterns)
	if err != nil {
		t.Fatal(err)
	}
	var patterns []struct{ Pattern, Outcome string }
	if err := json.Unmarshal(data, &patterns); err != nil {
		t.Fatal(err)
	}
	step := 4
	switch {
	case *flagCorpus != "":
		step = 1
	case testing.Short():
		step = 20
	}
	tl := &tally{}
	t.Run("group", func(t *testing.T) {
		for i, p := range patterns {
			if i%step != 0 {
				continue
			}
			t.Run(strconv.Itoa(i), func(t *testing.T) {
				t.Parallel()
				qb, _ := json.Marshal(p.Pattern)
				q := string(qb)
				schemas := []string{`{"type":"string","pattern":` + q + `}`}
				switch i % 3 {
				case 0:
					schemas = append(schemas,
						`{"type":"string","pattern":`+q+`,"minLength":2,"maxLength":12}`,
						`{"type":"object","properties":{"p":{"type":["string","null"],"pattern":`+q+`,"maxLength":40}},"required":["p"]}`)
				case 1:
					schemas = append(schemas, `{"type":"object","patternProperties":{`+q+`:{"type":"integer"}},"additionalProperties":{"type":"string"}}`)
				case 2:
					schemas = append(schemas, `{"type":"object","propertyNames":{"pattern":`+q+`},"additionalProperties":{"type":"null"}}`)
				}
				for k, s := range schemas {
					out := checkSchema(t, tl, fmt.Sprintf("pattern %d.%d %s", i, k, q), []byte(s), subsetcheck.Draft2020, *flagSeed)
					want := patternCode(p.Outcome)
					switch {
					case want == "" && !out.compiled && !onlyNoValue(out):
						t.Errorf("%s: %s, want compiled: %v", s, out, out.err)
					case want != "" && (out.compiled || !strings.Contains(out.String(), want)):
						t.Errorf("%s: %s, want refused with %s", s, out, want)
					}
				}
			})
		}
	})
	t.Log(tl)
}

// patternCode is the problem code a strlang outcome gives in a schema ("":
// the pattern compiles).
func patternCode(outcome string) string {
	switch {
	case strings.HasPrefix(outcome, "states "):
		return ""
	case strings.HasPrefix(outcome, "limit-"):
		return string(subsetcheck.CodePatternTooLarge)
	case outcome == "lookaround" || outcome == "backreference" || outcome == "modifiers" || outcome == "unsupported-property":
		return string(subsetcheck.CodePatternNotRegular)
	}
	return string(subsetcheck.CodeBadKeywordValue)
}

// onlyNoValue says whether a refusal is C401 alone: bounds no string of the
// pattern meets, or a required member whose schema has no value.
func onlyNoValue(o outcome) bool {
	for _, c := range o.codes {
		if c != subsetcheck.CodeNoValidValue {
			return false
		}
	}
	return len(o.codes) > 0
}

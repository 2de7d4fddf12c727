// Package corpustest runs the regex emitter over real schemas compiled by
// the whole pipeline. It lives apart from package regex so that the
// emitter's own tests do not depend on the compiler.
package corpustest

import (
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	rx "github.com/schema2gbnf/schema2gbnf/regex"
	"github.com/schema2gbnf/schema2gbnf/regex/dialects"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// corpusDir holds one folder of *.json schemas per subset: by default the
// slice vendored in testdata/, or the whole JSONSchemaBench corpus with
// -corpus=/path/to/jsonschemabench.
var corpusDir = flag.String("corpus", filepath.Join("..", "..", "testdata", "corpus"), "directory of subset folders of *.json schemas")

// mutationRunes are what near misses are made of: JSON's punctuation,
// digits, letters, whitespace and a non-ASCII code point.
var mutationRunes = []rune("{}[]\":,\\0123456789-+.eEtrufalsn xyz\n\té")

// TestCorpus compiles every corpus schema, emits its regex, and checks on
// sampled texts and near misses that the regex agrees with the GBNF matcher
// (and, for a sample, with Python's re.fullmatch and Rust's regex crate). It logs regex lengths.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus run skipped in -short mode")
	}
	files, _ := filepath.Glob(filepath.Join(*corpusDir, "*", "*.json"))
	if len(files) == 0 {
		t.Fatal("no schemas in " + *corpusDir)
	}
	sort.Strings(files)
	r := rand.New(rand.NewPCG(5, 6))
	var lengths, depthLengths []int
	counts := map[string]int{}
	var py []dialects.Case
	texts := 0
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g, err := schema2gbnf.Compile(data, schema2gbnf.Options{Name: f})
		if err != nil {
			counts["schema refused by the compiler"]++
			continue
		}
		re, err := rx.Emit(g.Rules, rx.Options{})
		if err != nil {
			var list subsetcheck.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("%s: error is not an ErrorList: %v", f, err)
			}
			counts["refused "+string(list[0].Code)]++
			if list[0].Code == rx.CodeInvalidGrammar || list[0].Code == rx.CodeNoText {
				t.Errorf("%s: %v", f, err)
			}
			if list[0].Code == rx.CodeTooLarge && strings.Contains(list[0].Message, "Go's regexp") {
				counts["refused R602 by Go's program size"]++
			}
			if list[0].Code == rx.CodeRecursive && i%10 == 0 {
				unrolled(t, f, g.Rules, r, counts, &depthLengths)
			}
			continue
		}
		counts["emitted"]++
		lengths = append(lengths, len(re))
		if i%5 != 0 || len(re) > 200000 {
			continue // verdicts on a fifth of the schemas keep the run short
		}
		counts["checked on texts"]++
		texts += checkTexts(t, f, g.Rules, re, r, &py)
		if t.Failed() {
			return
		}
	}
	sort.Ints(lengths)
	t.Logf("%d schemas: %v", len(files), counts)
	if n := len(lengths); n > 0 {
		t.Logf("regex length over %d emitted: median %d, p90 %d, p99 %d, max %d bytes",
			n, lengths[n/2], lengths[n*90/100], lengths[n*99/100], lengths[n-1])
	}
	sort.Ints(depthLengths)
	if n := len(depthLengths); n > 0 {
		t.Logf("recursive, unrolled with MaxDepth %d: %d emitted; length median %d, p90 %d, p99 %d, max %d bytes",
			corpusMaxDepth, n, depthLengths[n/2], depthLengths[n*90/100], depthLengths[n*99/100], depthLengths[n-1])
	}
	t.Logf("%d texts compared with the matcher", texts)
	t.Run("python", func(t *testing.T) { dialects.CheckPython(t, py) })
	t.Run("rust", func(t *testing.T) { dialects.CheckRust(t, py) })
}

// corpusMaxDepth is the depth bound tried on recursive schemas.
const corpusMaxDepth = 3

// unrolled emits a recursive grammar with a depth bound, records the
// outcome, and checks on a few samples that the regex accepts nothing the
// grammar rejects.
func unrolled(t *testing.T, name string, g *gbnf.Grammar, r *rand.Rand, counts map[string]int, lengths *[]int) {
	t.Helper()
	re, err := rx.Emit(g, rx.Options{MaxDepth: corpusMaxDepth})
	if err != nil {
		var list subsetcheck.ErrorList
		errors.As(err, &list)
		counts["unrolled: refused "+string(list[0].Code)]++
		return
	}
	counts["unrolled: emitted"]++
	*lengths = append(*lengths, len(re))
	if r.IntN(20) != 0 || len(re) > 200000 {
		return
	}
	counts["unrolled: checked on texts"]++
	m, err := gbnf.NewMatcher(g)
	if err != nil {
		t.Fatalf("%s: matcher: %v", name, err)
	}
	s, err := gbnf.NewSampler(g, int64(r.Uint32()))
	if err != nil {
		t.Fatalf("%s: sampler: %v", name, err)
	}
	x := regexp.MustCompile(rx.Anchored(re))
	for range 6 {
		text, ok := s.Sample(300)
		if !ok {
			break
		}
		for _, tx := range []string{text, mutate(r, text)} {
			if x.MatchString(tx) && !m.Accepts(tx) {
				t.Errorf("%s: unrolled regex accepts %q, which the grammar rejects", name, tx)
			}
		}
	}
}

// checkTexts compares the regex with the matcher on sampled texts and their
// near misses; it returns how many texts it compared.
func checkTexts(t *testing.T, name string, g *gbnf.Grammar, re string, r *rand.Rand, py *[]dialects.Case) int {
	t.Helper()
	m, err := gbnf.NewMatcher(g)
	if err != nil {
		t.Fatalf("%s: matcher: %v", name, err)
	}
	s, err := gbnf.NewSampler(g, int64(r.Uint32()))
	if err != nil {
		t.Fatalf("%s: sampler: %v", name, err)
	}
	x, err := regexp.Compile(rx.Anchored(re))
	if err != nil {
		t.Fatalf("%s: Go cannot compile the regex: %v", name, err)
	}
	n := 0
	for range 6 {
		text, ok := s.Sample(300)
		if !ok {
			break
		}
		for _, tx := range []string{text, mutate(r, text), mutate(r, text)} {
			want := m.Accepts(tx)
			if got := x.MatchString(tx); got != want {
				t.Errorf("%s: on %q the regex says %v, the matcher %v\nregex: %s", name, tx, got, want, shortened(re))
			}
			n++
			if len(*py) < 3000 && r.IntN(8) == 0 {
				*py = append(*py, dialects.Case{Re: re, Text: tx, Want: want})
			}
		}
	}
	return n
}

func mutate(r *rand.Rand, s string) string {
	rs := []rune(s)
	if len(rs) == 0 {
		return string(mutationRunes[r.IntN(len(mutationRunes))])
	}
	i := r.IntN(len(rs))
	c := mutationRunes[r.IntN(len(mutationRunes))]
	switch r.IntN(3) {
	case 0:
		rs = append(rs[:i:i], rs[i+1:]...)
	case 1:
		rs = append(rs[:i:i], append([]rune{c}, rs[i:]...)...)
	default:
		rs[i] = c
	}
	return string(rs)
}

func shortened(s string) string {
	if len(s) > 300 {
		return strings.ToValidUTF8(s[:300], "") + "..."
	}
	return s
}

// TestEquivSchemas runs the hand-written schemas of testdata/equiv (one per
// keyword: the combinators allOf, oneOf, not and if/then/else among them)
// through the emitter: every regex agrees with the GBNF matcher on sampled
// texts and near misses, or the schema is refused with an R6xx code.
func TestEquivSchemas(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "equiv", "*.json"))
	if len(files) < 40 {
		t.Fatalf("only %d schemas in testdata/equiv", len(files))
	}
	r := rand.New(rand.NewPCG(7, 8))
	var py []dialects.Case
	counts := map[string]int{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		g, err := schema2gbnf.Compile(data, schema2gbnf.Options{Name: f})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		re, err := rx.Emit(g.Rules, rx.Options{})
		if err != nil {
			var list subsetcheck.ErrorList
			if !errors.As(err, &list) || list[0].Code[0] != 'R' || list[0].Code == rx.CodeInvalidGrammar || list[0].Code == rx.CodeNoText {
				t.Errorf("%s: %v", f, err)
				continue
			}
			counts["refused "+string(list[0].Code)]++
			if list[0].Code == rx.CodeRecursive {
				var depths []int
				unrolled(t, f, g.Rules, r, counts, &depths)
			}
			continue
		}
		counts["emitted"]++
		checkTexts(t, f, g.Rules, re, r, &py)
	}
	t.Logf("%d schemas: %v", len(files), counts)
	t.Run("python", func(t *testing.T) { dialects.CheckPython(t, py) })
	t.Run("rust", func(t *testing.T) { dialects.CheckRust(t, py) })
}

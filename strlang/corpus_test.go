package strlang

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

var (
	flagCorpus = flag.String("corpus", "", "a directory of JSON schemas: compile every pattern and patternProperties key in it and report")
	flagUpdate = flag.Bool("update", false, "with -corpus: rewrite testdata/corpus-patterns.json from it; alone: rewrite the outcomes in it")
)

// corpusFile holds distinct patterns of real schemas (JSONSchemaBench) and
// what Compile made of each.
const corpusFile = "testdata/corpus-patterns.json"

type corpusPattern struct {
	Pattern string `json:"pattern"`
	Outcome string `json:"outcome"` // "states N" or an error kind
}

// patternsIn collects the pattern values and patternProperties keys of a
// schema document, not looking into enum, const, default and examples.
func patternsIn(v any, out map[string]int) {
	switch v := v.(type) {
	case map[string]any:
		for k, sub := range v {
			switch k {
			case "enum", "const", "default", "examples", "example":
				continue
			case "pattern":
				if s, ok := sub.(string); ok {
					out[s]++
					continue
				}
			case "patternProperties":
				if m, ok := sub.(map[string]any); ok {
					for p := range m {
						out[p]++
					}
				}
			}
			patternsIn(sub, out)
		}
	case []any:
		for _, sub := range v {
			patternsIn(sub, out)
		}
	}
}

// outcome compiles p, three times: the time is the fastest.
func outcome(p string) (string, *Lang, time.Duration) {
	var l *Lang
	var err error
	d := time.Duration(1 << 62)
	for range 3 {
		start := time.Now()
		l, err = Compile(p, Limits{})
		d = min(d, time.Since(start))
	}
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			return "not an *Error: " + err.Error(), nil, d
		}
		return string(e.Kind), nil, d
	}
	return fmt.Sprintf("states %d", l.NumStates()), l, d
}

// TestCorpus compiles the vendored corpus patterns: each gives its recorded
// outcome, and agrees with regexp2 on strings around its language. With
// -corpus=DIR it reports on a whole corpus instead.
func TestCorpus(t *testing.T) {
	if *flagCorpus != "" {
		corpusReport(t, *flagCorpus)
		return
	}
	data, err := os.ReadFile(corpusFile)
	if err != nil {
		t.Fatal(err)
	}
	var pats []corpusPattern
	if err := json.Unmarshal(data, &pats); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(9, 10))
	changed := false
	for i, cp := range pats {
		got, l, _ := outcome(cp.Pattern)
		if got != cp.Outcome {
			if *flagUpdate {
				pats[i].Outcome = got
				changed = true
			} else {
				t.Errorf("%q: %s, was %s", cp.Pattern, got, cp.Outcome)
			}
		}
		if l != nil {
			if msg := agree(cp.Pattern, probes(l, nil, rng)); msg != "" {
				t.Errorf("%q: %s", cp.Pattern, msg)
			}
		}
	}
	if changed {
		writeCorpus(t, pats)
	}
}

func writeCorpus(t *testing.T, pats []corpusPattern) {
	var b strings.Builder
	b.WriteString("[\n")
	for i, cp := range pats {
		line, _ := json.Marshal(cp)
		b.Write(line)
		if i < len(pats)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	if err := os.WriteFile(corpusFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

func corpusReport(t *testing.T, dir string) {
	counts := map[string]int{}
	schemas := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var v any
		if json.Unmarshal(data, &v) != nil {
			return nil
		}
		schemas++
		patternsIn(v, counts)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var distinct []string
	uses := 0
	for p, n := range counts {
		distinct = append(distinct, p)
		uses += n
	}
	sort.Strings(distinct)
	t.Logf("%d schemas: %d patterns and patternProperties keys, %d distinct", schemas, uses, len(distinct))

	kinds := map[string][]string{}
	var sizes []int
	type timed struct {
		p      string
		d      time.Duration
		states int
	}
	var times []timed
	var total time.Duration
	var pats []corpusPattern
	for _, p := range distinct {
		got, l, d := outcome(p)
		total += d
		pats = append(pats, corpusPattern{p, got})
		if l == nil {
			kinds[got] = append(kinds[got], p)
			continue
		}
		sizes = append(sizes, l.NumStates())
		times = append(times, timed{p, d, l.NumStates()})
	}
	t.Logf("compiled: %d of %d distinct (%.1f%%), in %v in all", len(sizes), len(distinct), 100*float64(len(sizes))/float64(len(distinct)), total)
	var ks []string
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool {
		return len(kinds[ks[i]]) > len(kinds[ks[j]]) || len(kinds[ks[i]]) == len(kinds[ks[j]]) && ks[i] < ks[j]
	})
	for _, k := range ks {
		ex := kinds[k]
		t.Logf("  refused %-26s %4d  e.g. %.80q", k, len(ex), ex[0])
	}
	slices.Sort(sizes)
	if len(sizes) > 0 {
		q := func(f float64) int { return sizes[int(f*float64(len(sizes)-1))] }
		t.Logf("states: median %d, 90%% %d, 99%% %d, max %d", q(0.5), q(0.9), q(0.99), sizes[len(sizes)-1])
	}
	sort.Slice(times, func(i, j int) bool { return times[i].d > times[j].d })
	for _, tm := range times[:min(5, len(times))] {
		t.Logf("  slowest: %v, %d states: %.100q", tm.d, tm.states, tm.p)
	}
	if *flagUpdate {
		writeCorpus(t, pats)
	}
}

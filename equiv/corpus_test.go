package equiv

import (
	"flag"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

var (
	flagCorpus = flag.String("corpus", "", "run the equivalence check on every *.json under this directory (e.g. path/to/jsonschemabench) and report counts")
	flagPick   = flag.String("pick", "", "rewrite testdata/corpus with a slice of the admitted schemas under this directory")
	// Under -assert-format a schema with another format is refused (S210),
	// so refusals are counted, not failures.
	flagAssertFormat = flag.Bool("assert-format", false, "run TestCorpus with formats asserted (subsetcheck.Options.AssertFormat)")
	// Under -lenient only the schemas the exact profile refuses are run:
	// the others compile to the exact profile's grammar, byte for byte
	// (compile's TestLenientSameGrammar), which the default run checks.
	flagLenient = flag.Bool("lenient", false, "run TestCorpus under the lenient profile, on the schemas the exact profile refuses")
)

const corpusDir = "../testdata/corpus"

// corpusFiles lists the *.json files under dir, sorted.
func corpusFiles(t *testing.T, dir string) []string {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(files)
	return files
}

// TestCorpus runs the equivalence check on the vendored slice of
// JSONSchemaBench (testdata/corpus), or with -corpus on a whole directory.
// Real schemas carry no $schema half the time: the default draft is
// 2020-12, as in the CLI.
func TestCorpus(t *testing.T) {
	dir := corpusDir
	if *flagCorpus != "" {
		dir = *flagCorpus
	}
	files := corpusFiles(t, dir)
	if len(files) == 0 {
		t.Fatalf("no schemas under %s", dir)
	}
	tl := &tally{}
	start := time.Now()
	var slowMu sync.Mutex
	var slow []string
	t.Run("group", func(t *testing.T) {
		for _, f := range files {
			rel, _ := filepath.Rel(dir, f)
			t.Run(rel, func(t *testing.T) {
				t.Parallel()
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				t0 := time.Now()
				opts := subsetcheck.Options{DefaultDraft: subsetcheck.Draft2020, AssertFormat: *flagAssertFormat}
				if *flagLenient {
					if exact, _ := buildWith(t, rel, data, opts); exact.compiled {
						return
					}
					opts.Profile = subsetcheck.Lenient
				}
				out := checkSchemaWith(t, tl, rel, data, opts, *flagSeed)
				if d := time.Since(t0); d > 10*time.Second {
					slowMu.Lock()
					slow = append(slow, rel+" "+d.Round(time.Second).String())
					slowMu.Unlock()
				}
				if dir == corpusDir && !*flagAssertFormat && !*flagLenient && !out.compiled && len(out.codes) > 0 {
					t.Errorf("%s: vendored as admitted, now %s: %v", rel, out, out.err)
				}
			})
		}
	})
	t.Logf("%s: %s; %s", dir, tl, time.Since(start).Round(time.Second))
	// Every vendored schema compiles (unless formats are asserted); of a
	// whole corpus, at least a third. Under -lenient only the schemas the
	// exact profile refuses are checked, fewer as it refuses less: at
	// least one, each with its values and texts (require's counts).
	least := len(files) / 3
	if *flagLenient {
		least = 1
	}
	tl.require(t, least)
	if len(slow) > 0 {
		t.Logf("slow schemas (over 10s): %s", strings.Join(slow, ", "))
	}
}

// TestPickCorpus rewrites testdata/corpus: from each subset directory under
// -pick, up to perSubset schemas that the exact profile admits and that are
// small, chosen by a fixed seed.
func TestPickCorpus(t *testing.T) {
	if *flagPick == "" {
		t.Skip("use -pick=DIR to rewrite testdata/corpus")
	}
	const perSubset, maxBytes = 60, 24 << 10
	subsets, err := os.ReadDir(*flagPick)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sub := range subsets {
		if !sub.IsDir() {
			continue
		}
		files := corpusFiles(t, filepath.Join(*flagPick, sub.Name()))
		rng.Shuffle(len(files), func(i, j int) { files[i], files[j] = files[j], files[i] })
		out := filepath.Join(corpusDir, sub.Name())
		if err := os.MkdirAll(out, 0o755); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range files {
			if n == perSubset {
				break
			}
			data, err := os.ReadFile(f)
			if err != nil || len(data) > maxBytes {
				continue
			}
			if o, ok := build(t, f, data, subsetcheck.Draft2020); !ok || !o.compiled {
				continue
			}
			if err := os.WriteFile(filepath.Join(out, filepath.Base(f)), data, 0o644); err != nil {
				t.Fatal(err)
			}
			n++
		}
		t.Logf("%s: %d schemas", sub.Name(), n)
	}
}

package equiv

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// TestLenientSchemas runs the equivalence check on lenient grammars of the
// hand-written schemas of testdata/lenient, each with something the exact
// profile refuses: the canonical text of every value the oracle accepts is
// accepted (complete, exact ⊆ lenient), every value the relaxed schema
// rejects the oracle rejects too (the relaxations only widen), and every
// text the grammar accepts that the oracle rejects breaks a constraint
// reported as relaxed (its failing keyword is at or under a relaxation's
// pointer, matched as verdict matches it). testdata/lenient/formats runs
// with formats asserted.
func TestLenientSchemas(t *testing.T) {
	for _, dir := range []struct {
		glob   string
		assert bool
	}{{"../testdata/lenient/*.json", false}, {"../testdata/lenient/formats/*.json", true}, {"../testdata/equiv/refused/S201-*.json", false}} {
		files, _ := filepath.Glob(dir.glob)
		if len(files) == 0 {
			t.Fatalf("no schemas for %s", dir.glob)
		}
		tl := &tally{}
		var mu sync.Mutex
		relaxing := 0
		t.Run(filepath.Base(filepath.Dir(dir.glob)), func(t *testing.T) {
			for _, f := range files {
				t.Run(strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) {
					t.Parallel()
					data, err := os.ReadFile(f)
					if err != nil {
						t.Fatal(err)
					}
					opts := subsetcheck.Options{Profile: subsetcheck.Lenient, DefaultDraft: subsetcheck.Draft2020, AssertFormat: dir.assert}
					out := checkSchemaWith(t, tl, filepath.Base(f), data, opts, *flagSeed)
					if !out.compiled {
						t.Fatalf("%s: %s under the lenient profile: %v", f, out, out.err)
					}
					if len(out.checked.Relaxed) == 0 {
						// As the exact profile takes in more, some of these
						// schemas stop needing a relaxation.
						t.Logf("%s: nothing relaxed: the exact profile admits it now", f)
						return
					}
					mu.Lock()
					relaxing++
					mu.Unlock()
				})
			}
		})
		t.Log(tl)
		if 2*relaxing < len(files) {
			t.Errorf("%s: only %d of %d schemas need a relaxation: replace the others with schemas the exact profile refuses", dir.glob, relaxing, len(files))
		}
		if tl.relaxedAccepts == 0 {
			t.Errorf("%s: no text breaking a relaxed constraint was tried", dir.glob)
		}
	}
}

package equiv

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// TestEquivSchemas runs the equivalence check on the hand-written schemas
// of testdata/equiv: one per keyword and per trap of DESIGN.md §2 and
// docs/engines.md. Each must compile; those in testdata/equiv/refused must
// be refused, with the code their file name starts with.
func TestEquivSchemas(t *testing.T) {
	tl := &tally{}
	files, _ := filepath.Glob("../testdata/equiv/*.json")
	if len(files) < 40 {
		t.Fatalf("only %d schemas in testdata/equiv", len(files))
	}
	t.Run("group", func(t *testing.T) {
		for _, f := range files {
			name := filepath.Base(f)
			t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
				t.Parallel()
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				out := checkSchema(t, tl, name, data, subsetcheck.Draft2020, *flagSeed)
				if !out.compiled && len(out.codes) > 0 {
					t.Errorf("%s: %s, want compiled: %v", name, out, out.err)
				}
			})
		}
	})
	t.Log(tl)
}

func TestRefusedSchemas(t *testing.T) {
	files, _ := filepath.Glob("../testdata/equiv/refused/*.json")
	if len(files) == 0 {
		t.Fatal("no refused schemas")
	}
	for _, f := range files {
		name := filepath.Base(f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		code, _, _ := strings.Cut(name, "-")
		out, ok := build(t, name, data, subsetcheck.Draft2020)
		if !ok {
			continue
		}
		if out.compiled {
			t.Errorf("%s: compiled, want refused with %s", name, code)
			continue
		}
		if !strings.Contains(out.String(), code) {
			t.Errorf("%s: %s, want %s among the codes", name, out, code)
		}
	}
}

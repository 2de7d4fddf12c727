package equiv

import (
	"os"
	"path"
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
	checkDir(t, "", 40, subsetcheck.Options{DefaultDraft: subsetcheck.Draft2020})
}

func TestRefusedSchemas(t *testing.T) {
	checkRefusedDir(t, "refused", subsetcheck.Options{DefaultDraft: subsetcheck.Draft2020})
}

// checkDir runs the equivalence check under opts on every schema of
// testdata/equiv/dir (at least min of them); each must compile.
func checkDir(t *testing.T, dir string, min int, opts subsetcheck.Options) {
	tl := &tally{}
	files, _ := filepath.Glob(filepath.Join("../testdata/equiv", dir, "*.json"))
	if len(files) < min {
		t.Fatalf("only %d schemas in testdata/equiv/%s", len(files), dir)
	}
	t.Run("group", func(t *testing.T) {
		for _, f := range files {
			name := path.Join(dir, filepath.Base(f))
			t.Run(strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) {
				t.Parallel()
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				out := checkSchemaWith(t, tl, name, data, opts, *flagSeed)
				if !out.compiled && len(out.codes) > 0 {
					t.Errorf("%s: %s, want compiled: %v", name, out, out.err)
				}
			})
		}
	})
	t.Log(tl)
	tl.require(t, min)
}

// checkRefusedDir checks that every schema of testdata/equiv/dir is refused
// under opts, with the code its file name starts with.
func checkRefusedDir(t *testing.T, dir string, opts subsetcheck.Options) {
	files, _ := filepath.Glob(filepath.Join("../testdata/equiv", dir, "*.json"))
	if len(files) == 0 {
		t.Fatalf("no refused schemas in testdata/equiv/%s", dir)
	}
	for _, f := range files {
		name := filepath.Base(f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		code, _, _ := strings.Cut(name, "-")
		out, ok := buildWith(t, name, data, opts)
		if !ok {
			continue
		}
		if out.compiled {
			t.Errorf("%s: compiled, want refused with %s", name, code)
		} else if !strings.Contains(out.String(), code) {
			t.Errorf("%s: %s, want %s among the codes", name, out, code)
		}
	}
}

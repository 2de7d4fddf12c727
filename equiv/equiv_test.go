package equiv

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// TestEquivSchemas runs the equivalence check on the hand-written schemas
// of testdata/equiv: one per keyword and per trap of DESIGN.md §2 and
// docs/engines.md. Each must compile; those in testdata/equiv/refused must
// be refused, with the code their file name starts with.
func TestEquivSchemas(t *testing.T) {
	checkDir(t, "", 40, subsetcheck.Options{DefaultDraft: subsetcheck.Draft2020})
}

// TestPatternSchemas runs the equivalence check on the pattern schemas of
// testdata/equiv/patterns: each ECMA-262 construct, lengths, meets through
// $ref and anyOf, enum members filtered by a pattern, characters JSON
// escapes, astral characters.
func TestPatternSchemas(t *testing.T) {
	checkDir(t, "patterns", 20, subsetcheck.Options{DefaultDraft: subsetcheck.Draft2020})
}

// TestNameSchemas runs the equivalence check on the schemas of
// testdata/equiv/names: patternProperties (alone, with declared names,
// overlapping, met through $ref, anyOf and allOf, with counts and
// dependencies) and propertyNames (patterns, enums, not, false, with
// patternProperties).
func TestNameSchemas(t *testing.T) {
	checkDir(t, "names", 20, subsetcheck.Options{DefaultDraft: subsetcheck.Draft2020})
}

// TestClosedObjects runs the equivalence check with ClosedObjects on every
// schema: sound on every text (the validator judges by the schema as
// written, where extra members are allowed), complete on every value
// without members that properties does not list (the generator works from
// the closed schema). Closing can leave a schema with no object value
// (required names properties does not list): such a refusal is C401.
func TestClosedObjects(t *testing.T) {
	tl := &tally{}
	files, _ := filepath.Glob("../testdata/equiv/*.json")
	t.Run("group", func(t *testing.T) {
		for _, f := range files {
			t.Run(strings.TrimSuffix(filepath.Base(f), ".json"), func(t *testing.T) {
				t.Parallel()
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				out := checkSchemaWith(t, tl, "closed/"+filepath.Base(f), data, subsetcheck.Options{DefaultDraft: subsetcheck.Draft2020, ClosedObjects: true}, *flagSeed)
				for _, c := range out.codes {
					if c != subsetcheck.CodeNoValidValue {
						t.Errorf("%s: %s under closed objects: %v", f, out, out.err)
					}
				}
			})
		}
	})
	t.Log(tl)
}

// TestClosedObjectsRefuseExtraMembers: where the schema allows a member
// properties does not list, the closed grammar refuses it and the open one
// takes it.
func TestClosedObjectsRefuseExtraMembers(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"integer"}}}},"anyOf":[{"properties":{"c":{"type":"null"}}},{"type":"object"}]}`)
	open, _ := build(t, "open", schema, subsetcheck.Draft2020)
	closed, _ := buildWith(t, "closed", schema, subsetcheck.Options{ClosedObjects: true})
	require := func(m *gbnf.Matcher, text string, want bool) {
		t.Helper()
		if got := m.Match(text).Accepted; got != want {
			t.Errorf("%s: accepted %v, want %v", text, got, want)
		}
	}
	require(open.matcher, `{"a":{"b":1},"z":1}`, true)
	require(closed.matcher, `{"a":{"b":1},"z":1}`, false)
	require(closed.matcher, `{"a":{"b":1,"z":1}}`, false)
	require(closed.matcher, `{"a":{"b":1}}`, true)
	require(closed.matcher, `{}`, true)
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

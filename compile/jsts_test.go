package compile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// TestSuite runs the official JSON-Schema-Test-Suite through the checker and
// the compiler: for every schema the checker admits and the compiler
// compiles, a valid instance's canonical text must be accepted (complete),
// and an invalid instance must be rejected both as written and compacted
// (sound, on these texts).
func TestSuite(t *testing.T) {
	for _, dir := range []struct {
		path  string
		draft subsetcheck.Draft
	}{
		{filepath.Join("..", "testdata", "jsts", "draft7"), subsetcheck.Draft7},
		{filepath.Join("..", "testdata", "jsts", "draft2020-12"), subsetcheck.Draft2020},
	} {
		files, _ := filepath.Glob(filepath.Join(dir.path, "*.json"))
		if len(files) == 0 {
			t.Fatalf("the test suite is not in %s", dir.path)
		}
		compiled, refused, cases := 0, 0, 0
		for _, file := range files {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var groups []struct {
				Description string
				Schema      json.RawMessage
				Tests       []struct {
					Description string
					Data        json.RawMessage
					Valid       bool
				}
			}
			if err := json.Unmarshal(data, &groups); err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			for _, gr := range groups {
				doc, err := subsetcheck.Read("schema.json", gr.Schema, subsetcheck.Limits{})
				if err != nil {
					continue
				}
				c, err := subsetcheck.Check(doc, subsetcheck.Options{DefaultDraft: dir.draft})
				if err != nil {
					continue
				}
				g, err := Compile(c, Options{})
				if err != nil {
					refused++
					t.Logf("refused %s: %v", gr.Description, err)
					continue
				}
				compiled++
				_, m := mustGrammar(t, c, Options{})
				name := filepath.Base(dir.path) + "/" + filepath.Base(file) + ": " + gr.Description
				for _, tc := range gr.Tests {
					vdoc, err := subsetcheck.Read("value", tc.Data, subsetcheck.Limits{})
					if err != nil {
						continue // e.g. a lone surrogate: our reader refuses it
					}
					cases++
					if tc.Valid {
						text, err := Canonical(c, vdoc.Root)
						if err != nil {
							t.Errorf("%s / %s: Canonical: %v", name, tc.Description, err)
							continue
						}
						if !m.Accepts(text) {
							t.Errorf("%s / %s: grammar rejects the valid %s\nschema %s\n%s", name, tc.Description, text, gr.Schema, g)
						}
						continue
					}
					if accepts(c.Root, vdoc.Root) {
						t.Errorf("%s / %s: the subset validator accepts the invalid %s", name, tc.Description, tc.Data)
					}
					if m.Accepts(string(tc.Data)) || m.Accepts(plainText(vdoc.Root)) {
						t.Errorf("%s / %s: grammar accepts the invalid %s\nschema %s\n%s", name, tc.Description, tc.Data, gr.Schema, g)
					}
				}
			}
		}
		t.Logf("%s: %d schemas compiled, %d refused by the compiler, %d instances judged", filepath.Base(dir.path), compiled, refused, cases)
	}
}

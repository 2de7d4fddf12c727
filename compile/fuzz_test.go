package compile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"

	"golang.org/x/tools/txtar"
)

// FuzzCompile: any schema text the checker admits compiles to a valid
// grammar or to a compile-stage error, never a panic; and the canonical
// text of the schema document itself, when the schema accepts it, is
// accepted by the grammar.
func FuzzCompile(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txtar")
	for _, file := range files {
		data, _ := os.ReadFile(file)
		for _, sec := range txtar.Parse(data).Files {
			if sec.Name == "schema.json" {
				f.Add(sec.Data)
			}
		}
	}
	f.Fuzz(func(t *testing.T, schema []byte) {
		doc, err := subsetcheck.Read("schema.json", schema, subsetcheck.Limits{MaxInputBytes: 1 << 14})
		if err != nil {
			return
		}
		c, err := subsetcheck.Check(doc, subsetcheck.Options{})
		if err != nil {
			return
		}
		g, err := Compile(c, Options{MaxRules: 2000})
		if err != nil {
			if list, ok := err.(subsetcheck.ErrorList); !ok || len(list) == 0 || list[0].Code[0] != 'C' {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if err := gbnf.Validate(g); err != nil {
			t.Fatalf("invalid grammar: %v\n%s", err, g)
		}
		if !accepts(c.Root, doc.Root) {
			return
		}
		text, err := Canonical(c, doc.Root)
		if err != nil {
			t.Fatalf("Canonical: %v", err)
		}
		m, err := gbnf.NewMatcher(g)
		if err != nil {
			t.Fatal(err)
		}
		if !m.Accepts(text) {
			t.Fatalf("grammar rejects the canonical %s\n%s", text, g)
		}
	})
}

package compile

import (
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"unicode/utf8"

	"golang.org/x/tools/txtar"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// printTemplates spells every template of a prelude, by key.
func printTemplates(templates map[string]*template) string {
	keys := make([]string, 0, len(templates))
	for k := range templates {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	g := &gbnf.Grammar{}
	for _, k := range keys {
		g.Rules = append(g.Rules, &gbnf.Rule{Name: k, Expr: templates[k].body})
	}
	return g.String()
}

// TestPreludeUnchanged compiles every test schema in both whitespace modes,
// several at once, and checks that the prelude every compile shares still
// spells what a fresh build spells: no stage writes to a shared body.
func TestPreludeUnchanged(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	var schemas []*subsetcheck.Checked
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range txtar.Parse(data).Files {
			if f.Name != "schema.json" {
				continue
			}
			doc, err := subsetcheck.Read(file, f.Data, subsetcheck.Limits{})
			if err != nil {
				continue
			}
			if c, err := subsetcheck.Check(doc, subsetcheck.Options{}); err == nil {
				schemas = append(schemas, c)
			}
		}
	}
	if len(schemas) < 20 {
		t.Fatalf("only %d test schemas", len(schemas))
	}
	var wg sync.WaitGroup
	for _, ws := range []Whitespace{Bounded, Compact} {
		for part := range 4 {
			wg.Go(func() {
				for i := part; i < len(schemas); i += 4 {
					g, err := Compile(schemas[i], Options{Whitespace: ws})
					if err == nil {
						_ = g.String()
					}
				}
			})
		}
	}
	wg.Wait()
	if len(emptySeq.Items) != 0 {
		t.Errorf("a compile added items to the shared empty sequence: %v", emptySeq.Items)
	}
	for _, ws := range []Whitespace{Bounded, Compact} {
		if got, want := printTemplates(prelude(ws).byKey), printTemplates(buildPrelude(ws)); got != want {
			t.Errorf("%s: a compile changed the shared prelude:\n%s\nwant:\n%s", ws, got, want)
		}
		for r := range rune(utf8.RuneSelf) {
			cp := newCompiler(&subsetcheck.Checked{}, Options{Whitespace: ws})
			rule := tailNotRule(cp.ws, r).rule
			fresh := &gbnf.Grammar{Rules: []*gbnf.Rule{{Name: rule.Name, Expr: thenTail(cp.canonicalChar([]rune{r}), cp.canonicalTail())}}}
			shared := &gbnf.Grammar{Rules: []*gbnf.Rule{rule}} // printed by Freeze
			walked := &gbnf.Grammar{Rules: []*gbnf.Rule{{Name: rule.Name, Expr: rule.Expr}}}
			if fresh.String() != shared.String() || fresh.String() != walked.String() {
				t.Errorf("%s: the shared rule canonical-tail-not-%q changed:\n%s%s\nwant:\n%s", ws, r, shared, walked, fresh)
			}
		}
		for key, tp := range prelude(ws).byKey {
			if tp.use != nil && tp.use.(*gbnf.Ref).Name != key {
				t.Errorf("%s: the shared reference to %s now names %s", ws, key, tp.use.(*gbnf.Ref).Name)
			}
			if tp.rule == nil {
				continue
			}
			frozen := &gbnf.Grammar{Rules: []*gbnf.Rule{tp.rule}}
			walked := &gbnf.Grammar{Rules: []*gbnf.Rule{{Name: tp.rule.Name, Expr: tp.rule.Expr}}}
			if tp.rule.Name != key || tp.rule.Expr != tp.body || frozen.String() != walked.String() {
				t.Errorf("%s: the shared rule %s changed: %s printed as frozen, now %s", ws, key, frozen, walked)
			}
		}
	}
}

// TestPreludeAsBuilt checks that a grammar using the prelude is the grammar
// the same compile builds without it, byte for byte.
func TestPreludeAsBuilt(t *testing.T) {
	for _, schema := range []string{
		`{}`,
		`{"type":"string"}`,
		`{"type":"integer"}`,
		`{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"},"é\"":{}},"required":["name"]}`,
		`{"type":"array","items":{"type":"object","properties":{"string":{"type":"number"}}}}`,
	} {
		c := checkSchema(t, schema)
		for _, ws := range []Whitespace{Bounded, Compact} {
			with, err := Compile(c, Options{Whitespace: ws})
			if err != nil {
				t.Fatal(err)
			}
			cp := compilerWithoutPrelude(c, Options{Whitespace: ws})
			without, err := cp.run()
			if err != nil {
				t.Fatal(err)
			}
			if with.String() != without.String() {
				t.Errorf("%s %s: with the prelude:\n%s\nwithout:\n%s", schema, ws, with, without)
			}
		}
	}
}

package compile

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/internal/oracle"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"

	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden grammars in testdata/*.txtar")

// corpusDir holds one folder of *.json schemas per subset: the slice vendored
// in testdata/ by default, the whole JSONSchemaBench corpus with -corpus.
var corpusDir = flag.String("corpus", filepath.Join("..", "testdata", "corpus"), "directory of subset folders of *.json schemas")

// checkSchema reads and checks a schema text.
func checkSchema(t testing.TB, schema string) *subsetcheck.Checked {
	t.Helper()
	doc, err := subsetcheck.Read("schema.json", []byte(schema), subsetcheck.Limits{})
	if err != nil {
		t.Fatalf("read schema: %v\n%s", err, schema)
	}
	c, err := subsetcheck.Check(doc, subsetcheck.Options{})
	if err != nil {
		t.Fatalf("check schema: %v\n%s", err, schema)
	}
	return c
}

// mustGrammar compiles, then insists the grammar is valid GBNF that prints
// and parses back to a grammar that matches the same way.
func mustGrammar(t testing.TB, c *subsetcheck.Checked, opts Options) (*gbnf.Grammar, *gbnf.Matcher) {
	t.Helper()
	g, err := Compile(c, opts)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	if err := gbnf.Validate(g); err != nil {
		t.Fatalf("invalid grammar: %v\n%s", err, g)
	}
	text := g.String()
	back, err := gbnf.Parse(text)
	if err != nil {
		t.Fatalf("printed grammar does not parse: %v\n%s", err, text)
	}
	if back.String() != text {
		t.Fatalf("grammar does not print back the same:\n%s\n---\n%s", text, back)
	}
	m, err := gbnf.NewMatcher(back)
	if err != nil {
		t.Fatalf("matcher: %v\n%s", err, text)
	}
	return g, m
}

// newOracle is the shared oracle with the validator's own format checks
// and regexp engine, as these tests have always judged.
func newOracle(t testing.TB, schema string) *oracle.Oracle {
	t.Helper()
	o, err := oracle.New([]byte(schema), subsetcheck.Draft2020, oracle.LibraryFormats(), oracle.At("schema.json"))
	if err != nil {
		t.Fatalf("oracle: %v", err)
	}
	return o
}

// oracleAccepts says whether text is JSON the oracle accepts.
func oracleAccepts(o *oracle.Oracle, text string) bool {
	ok, err := o.Valid(text)
	return ok && err == nil
}

// lines splits a txtar section into texts: one per line; a line starting
// with "q:" is a Go-quoted string (for whitespace and control characters).
func lines(t *testing.T, data []byte) []string {
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" {
			continue
		}
		if q, ok := strings.CutPrefix(l, "q:"); ok {
			u, err := strconv.Unquote(q)
			if err != nil {
				t.Fatalf("bad quoted line %q: %v", l, err)
			}
			l = u
		}
		out = append(out, l)
	}
	return out
}

// TestCases runs testdata/*.txtar. Sections: schema.json; accept and reject
// (texts the grammar must accept / reject; accepted texts must also satisfy
// the oracle); values (JSON values whose canonical text the grammar must
// accept, "value => canonical" to pin the text); options ("compact");
// error (the expected problem code instead of a grammar); warning (the
// codes of the compile's warnings, one a line; none when absent); grammar
// (golden).
func TestCases(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no test cases")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			ar := txtar.Parse(data)
			sec := map[string][]byte{}
			for _, f := range ar.Files {
				sec[f.Name] = f.Data
			}
			schema := string(sec["schema.json"])
			c := checkSchema(t, schema)
			opts := Options{}
			if strings.TrimSpace(string(sec["options"])) == "compact" {
				opts.Whitespace = Compact
			}
			if want := strings.TrimSpace(string(sec["error"])); want != "" {
				_, err := Compile(c, opts)
				var list subsetcheck.ErrorList
				if !errors.As(err, &list) || len(list) == 0 || string(list[0].Code) != want {
					t.Fatalf("want error %s, got %v", want, err)
				}
				return
			}
			g, m := mustGrammar(t, c, opts)
			_, warns, _ := CompileWithWarnings(c, opts)
			var codes []string
			for _, w := range warns {
				codes = append(codes, string(w.Code))
			}
			if got, want := strings.Join(codes, "\n"), strings.TrimSpace(string(sec["warning"])); got != want {
				t.Errorf("warnings %q, want %q: %v", got, want, warns)
			}
			o := newOracle(t, schema)
			for _, text := range lines(t, sec["accept"]) {
				if !m.Accepts(text) {
					t.Errorf("grammar rejects %q\n%s", text, g)
				}
				if !oracleAccepts(o, text) {
					t.Errorf("test expects %q accepted, but the oracle rejects it", text)
				}
			}
			for _, text := range lines(t, sec["reject"]) {
				if m.Accepts(text) {
					t.Errorf("grammar accepts %q (oracle valid: %v)\n%s", text, oracleAccepts(o, text), g)
				}
			}
			for _, l := range lines(t, sec["values"]) {
				value, want, pinned := strings.Cut(l, " => ")
				vdoc, err := subsetcheck.Read("value", []byte(value), subsetcheck.Limits{})
				if err != nil {
					t.Fatalf("value %q: %v", value, err)
				}
				got, err := Canonical(c, vdoc.Root)
				if err != nil {
					t.Errorf("Canonical(%s): %v", value, err)
					continue
				}
				if pinned && got != want {
					t.Errorf("Canonical(%s) = %s, want %s", value, got, want)
				}
				if !m.Accepts(got) {
					t.Errorf("grammar rejects the canonical text %q of %s\n%s", got, value, g)
				}
				if !oracleAccepts(o, got) {
					t.Errorf("oracle rejects the canonical text %q of %s", got, value)
				}
			}
			// Only cases with a grammar section are golden; add an empty one
			// and run with -update to make a case golden.
			if golden, ok := sec["grammar"]; ok {
				text := g.String()
				if *update {
					setSection(ar, "grammar", text)
					if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
						t.Fatal(err)
					}
				} else if !bytes.Equal(golden, []byte(text)) {
					t.Errorf("grammar differs from the golden one (run with -update and review the diff):\n%s", text)
				}
			}
		})
	}
}

func setSection(ar *txtar.Archive, name, text string) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = []byte(text)
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(text)})
}

func readValue(t testing.TB, text string) *subsetcheck.Value {
	t.Helper()
	doc, err := subsetcheck.Read("value", []byte(text), subsetcheck.Limits{})
	if err != nil {
		t.Fatalf("value %q: %v", text, err)
	}
	return doc.Root
}

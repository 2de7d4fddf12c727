package compile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/gbnf"

	"golang.org/x/tools/txtar"
)

// EngineCase is a testdata case for the llama.cpp interop test (an external
// test package, so that it may import interop without an import cycle).
type EngineCase struct {
	Name    string
	Schema  string
	Options Options
	Texts   []string // accept, reject and canonical texts
}

// minEngineCases is the fewest testdata cases EngineCases may find: fewer
// means the folder moved or the reading broke, and the engine test would
// pass on nothing.
const minEngineCases = 20

// EngineCases reads testdata/*.txtar (cases that compile); it fails on
// fewer than minEngineCases, and on a case without texts.
func EngineCases(t *testing.T) []EngineCase {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no testdata/*.txtar")
	}
	var out []EngineCase
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		ar := txtar.Parse(data)
		sec := map[string][]byte{}
		for _, f := range ar.Files {
			sec[f.Name] = f.Data
		}
		if len(sec["error"]) > 0 {
			continue
		}
		c := EngineCase{Name: filepath.Base(file), Schema: string(sec["schema.json"])}
		if strings.TrimSpace(string(sec["options"])) == "compact" {
			c.Options.Whitespace = Compact
		}
		c.Texts = append(lines(t, sec["accept"]), lines(t, sec["reject"])...)
		checked := checkSchema(t, c.Schema)
		for _, l := range lines(t, sec["values"]) {
			value, _, _ := strings.Cut(l, " => ")
			if text, err := Canonical(checked, readValue(t, value)); err == nil {
				c.Texts = append(c.Texts, text)
			}
		}
		if len(c.Texts) == 0 {
			t.Errorf("%s: no accept, reject or values texts", file)
		}
		out = append(out, c)
	}
	if len(out) < minEngineCases {
		t.Fatalf("only %d testdata cases compile (want at least %d)", len(out), minEngineCases)
	}
	return out
}

// CheckSchema is checkSchema for the external tests.
var CheckSchema = checkSchema

// SampleTexts draws up to n random texts from g (see sampler).
func SampleTexts(g *gbnf.Grammar, seed uint64, n int) []string {
	s := newSampler(g, seed)
	var out []string
	for i := 0; i < n; i++ {
		if text, ok := s.draw(); ok {
			out = append(out, text)
		}
	}
	return out
}

// CorpusDir is the -corpus flag, for the external tests.
var CorpusDir = corpusDir

package compile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/interop"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// TestEngine loads every testdata grammar into llama.cpp's own engine
// (node-llama-cpp) and requires its verdict on every test text to match our
// matcher's. Skipped with -short; a missing node fails.
func TestEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("interop")
	}
	e := interop.Shared(t)
	judged := 0
	t.Cleanup(func() {
		t.Logf("llama.cpp and our matcher judged %d testdata texts alike", judged)
		if judged < 200 {
			t.Errorf("llama.cpp judged %d testdata texts, want at least 200", judged)
		}
	})
	for _, c := range compile.EngineCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			g, err := compile.Compile(compile.CheckSchema(t, c.Schema), c.Options)
			if err != nil {
				t.Fatal(err)
			}
			lg, err := e.Load(g.String())
			if err != nil {
				t.Fatalf("llama.cpp refuses the grammar: %v\n%s", err, g)
			}
			defer lg.Close()
			m, err := gbnf.NewMatcher(g)
			if err != nil {
				t.Fatal(err)
			}
			var texts []string
			for _, text := range c.Texts {
				// llama.cpp reads C strings and replaces invalid UTF-8: only
				// texts without NUL make sense there.
				if utf8.ValidString(text) && !strings.ContainsRune(text, 0) {
					texts = append(texts, text)
				}
			}
			got, err := lg.Accepts(texts)
			if err != nil {
				t.Fatal(err)
			}
			judged += len(texts)
			for i, text := range texts {
				if ours := m.Accepts(text); ours != got[i] {
					t.Errorf("%q: llama.cpp %v, our matcher %v\n%s", text, got[i], ours, g)
				}
			}
		})
	}
}

// TestEngineBigBounds: llama.cpp loads the grammars of big bounds (its
// repetition expansion stays small) and judges lengths at the bound as we do.
func TestEngineBigBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("interop")
	}
	e := interop.Shared(t)
	for _, tc := range []struct {
		schema string
		n      int
	}{
		{`{"type":"string","maxLength":5000}`, 5000},
		{`{"type":"string","minLength":3000,"maxLength":3100}`, 3000},
		// up to MaxRepeatCount, llama.cpp's own x{0,n}; one more, the chain
		{`{"type":"string","maxLength":100}`, 100},
		{`{"type":"string","maxLength":101}`, 101},
		{`{"type":"string","minLength":20,"maxLength":80}`, 20},
		{`{"type":"string","minLength":20,"maxLength":80}`, 80},
		{`{"type":"array","items":{"type":"null"},"maxItems":100}`, 100},
		{`{"type":"string","maxLength":100000}`, 0},
		{`{"type":"string","maxLength":1000000000}`, 0},
		{`{"type":"array","items":{"type":"null"},"maxItems":1000}`, 1000},
		{`{"type":"integer","minimum":-1e40,"maximum":1e40}`, 0},
	} {
		t.Run(tc.schema, func(t *testing.T) {
			g, err := compile.Compile(compile.CheckSchema(t, tc.schema), compile.Options{})
			if err != nil {
				t.Fatal(err)
			}
			lg, err := e.Load(g.String())
			if err != nil {
				t.Fatalf("llama.cpp refuses the grammar: %v\n%s", err, g)
			}
			defer lg.Close()
			texts := []string{`""`, `"a"`, `[]`, `[null]`, `0`, `-10000000000000000000000000000000000000000`, `100000000000000000000000000000000000000001`}
			for k := tc.n - 1; tc.n > 0 && k <= tc.n+1; k++ {
				texts = append(texts, `"`+strings.Repeat("x", k)+`"`, "["+strings.TrimSuffix(strings.Repeat("null,", k), ",")+"]")
			}
			got, err := lg.Accepts(texts)
			if err != nil {
				t.Fatal(err)
			}
			m, _ := gbnf.NewMatcher(g)
			for i, text := range texts {
				if ours := m.Accepts(text); ours != got[i] {
					t.Errorf("%.40q (%d bytes): llama.cpp %v, our matcher %v", text, len(text), got[i], ours)
				}
			}
		})
	}
}

// TestEngineCorpus loads a sample of the corpus grammars into llama.cpp and
// requires its verdict to match our matcher's on texts sampled from the
// grammar and on their one-character truncations (near misses).
func TestEngineCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("interop")
	}
	e := interop.Shared(t)
	files, _ := filepath.Glob(filepath.Join(*compile.CorpusDir, "*", "*.json"))
	if len(files) == 0 {
		t.Fatalf("no schemas in %s", *compile.CorpusDir)
	}
	loaded, judged := 0, 0
	for i, file := range files {
		if i%40 != 0 {
			continue
		}
		data, _ := os.ReadFile(file)
		doc, err := subsetcheck.Read(filepath.Base(file), data, subsetcheck.Limits{})
		if err != nil {
			continue
		}
		c, err := subsetcheck.Check(doc, subsetcheck.Options{})
		if err != nil {
			continue
		}
		g, err := compile.Compile(c, compile.Options{})
		if err != nil {
			continue
		}
		lg, err := e.Load(g.String())
		if err != nil {
			t.Errorf("%s: llama.cpp refuses the grammar: %v", file, err)
			continue
		}
		loaded++
		var texts []string
		for _, s := range compile.SampleTexts(g, uint64(i), 10) {
			if utf8.ValidString(s) && !strings.ContainsRune(s, 0) {
				texts = append(texts, s)
				if r := []rune(s); len(r) > 1 {
					texts = append(texts, string(r[:len(r)-1]))
				}
			}
		}
		got, err := lg.Accepts(texts)
		lg.Close()
		if err != nil {
			t.Fatal(err)
		}
		m, _ := gbnf.NewMatcher(g)
		for j, text := range texts {
			judged++
			if ours := m.Accepts(text); ours != got[j] {
				t.Errorf("%s: %.80q: llama.cpp %v, our matcher %v", file, text, got[j], ours)
			}
		}
	}
	t.Logf("%d corpus grammars loaded by llama.cpp, %d texts judged alike", loaded, judged)
	// Every 40th schema is sent: at least 5 grammars and 50 texts of the
	// vendored slice, more of the whole corpus.
	if loaded < 5 || judged < 50 {
		t.Errorf("llama.cpp loaded %d corpus grammars and judged %d texts, want at least 5 and 50", loaded, judged)
	}
}

package interop

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// corpusGrammar is one grammar of testdata/gbnf with its expected verdicts
// (the format is described in testdata/gbnf/README.md).
type corpusGrammar struct {
	File, Name string
	Text       string
	Accept     []string
	Reject     []string
	Refuse     *string // llama.cpp must refuse; a piece of its message
	Unsafe     string  // llama.cpp is never asked; why
}

func (g *corpusGrammar) String() string { return g.File + ":" + g.Name }

// loads reports whether llama.cpp is expected to load the grammar.
func (g *corpusGrammar) loads() bool { return g.Refuse == nil && g.Unsafe == "" }

func corpusDir(tb testing.TB) string {
	dir, err := Dir()
	if err != nil {
		tb.Fatal(err)
	}
	return filepath.Join(dir, "..", "testdata", "gbnf")
}

// loadCorpus reads every grammar of testdata/gbnf, in file and section order.
func loadCorpus(tb testing.TB) []*corpusGrammar {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(corpusDir(tb), "*.txtar"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no corpus files in %s (%v)", corpusDir(tb), err)
	}
	sort.Strings(files)
	var all []*corpusGrammar
	for _, file := range files {
		ar := txtar.Parse(readFile(tb, file))
		base := filepath.Base(file)
		byName := map[string]*corpusGrammar{}
		get := func(name string) *corpusGrammar {
			if g := byName[name]; g != nil {
				return g
			}
			g := &corpusGrammar{File: base, Name: name}
			byName[name] = g
			all = append(all, g)
			return g
		}
		for _, f := range ar.Files {
			name, kind, ok := strings.Cut(f.Name, ".")
			if !ok {
				tb.Fatalf("%s: section %q is not NAME.KIND", base, f.Name)
			}
			g := get(name)
			switch kind {
			case "gbnf":
				g.Text = string(f.Data)
			case "accept", "reject":
				texts, err := parseTexts(f.Data)
				if err != nil {
					tb.Fatalf("%s: section %s: %v", base, f.Name, err)
				}
				if kind == "accept" {
					g.Accept = texts
				} else {
					g.Reject = texts
				}
			case "refuse":
				piece := strings.TrimSpace(string(f.Data))
				g.Refuse = &piece
			case "unsafe":
				g.Unsafe = strings.TrimSpace(string(f.Data))
			default:
				tb.Fatalf("%s: section %q: unknown kind %q", base, f.Name, kind)
			}
		}
	}
	return all
}

// parseTexts reads one text per line: JSON strings, each optionally
// repeated with *N, joined with " + ". Blank lines and # lines are skipped.
func parseTexts(data []byte) ([]string, error) {
	var texts []string
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		text, err := parseTextLine(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %q: %v", i+1, line, err)
		}
		texts = append(texts, text)
	}
	return texts, nil
}

// maxCorpusText bounds a text built with *N, so a typo cannot eat memory.
const maxCorpusText = 1 << 20

func parseTextLine(line string) (string, error) {
	var b strings.Builder
	rest := line
	for {
		dec := json.NewDecoder(strings.NewReader(rest))
		var piece string
		if err := dec.Decode(&piece); err != nil {
			return "", fmt.Errorf("want a JSON string: %v", err)
		}
		rest = strings.TrimSpace(rest[dec.InputOffset():])
		count := 1
		if strings.HasPrefix(rest, "*") {
			digits := strings.TrimLeft(rest[1:], " ")
			end := 0
			for end < len(digits) && digits[end] >= '0' && digits[end] <= '9' {
				end++
			}
			n, err := strconv.Atoi(digits[:end])
			if err != nil {
				return "", fmt.Errorf("want a count after *: %v", err)
			}
			count = n
			rest = strings.TrimSpace(digits[end:])
		}
		if b.Len()+len(piece)*count > maxCorpusText {
			return "", fmt.Errorf("text longer than %d bytes", maxCorpusText)
		}
		b.WriteString(strings.Repeat(piece, count))
		if rest == "" {
			return b.String(), nil
		}
		if !strings.HasPrefix(rest, "+") {
			return "", fmt.Errorf("want + or end of line at %q", rest)
		}
		rest = strings.TrimSpace(rest[1:])
	}
}

func TestParseTextLine(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{`""`, ""},
		{`"a\nb"`, "a\nb"},
		{`"\u0000"`, "\x00"},
		{`"ab"*3`, "ababab"},
		{`"ab" * 2`, "abab"},
		{`"["*2 + "x" + "]"*2`, "[[x]]"},
		{`"a"*0`, ""},
	} {
		got, err := parseTextLine(c.line)
		if err != nil || got != c.want {
			t.Errorf("parseTextLine(%s) = %q, %v; want %q", c.line, got, err, c.want)
		}
	}
	for _, bad := range []string{`a`, `"a" x`, `"a"*`, `"a"*99999999`, `"a" +`, `'a'`} {
		if got, err := parseTextLine(bad); err == nil {
			t.Errorf("parseTextLine(%s) = %q, want an error", bad, got)
		}
	}
}

// TestCorpusWellFormed checks the corpus itself, without any engine.
func TestCorpusWellFormed(t *testing.T) {
	loading := 0
	for _, g := range loadCorpus(t) {
		if g.Text == "" && g.Name != "emptyroot" {
			t.Errorf("%s: no grammar text", g)
		}
		kinds := 0
		if len(g.Accept)+len(g.Reject) > 0 {
			kinds++
		}
		if g.Refuse != nil {
			kinds++
		}
		if g.Unsafe != "" {
			kinds++
		}
		if kinds != 1 {
			t.Errorf("%s: want exactly one of accept/reject texts, refuse, unsafe; have %d", g, kinds)
		}
		if g.loads() {
			loading++
			if len(g.Accept) == 0 || len(g.Reject) == 0 {
				t.Errorf("%s: want both accepted and rejected texts", g)
			}
		}
	}
	if loading < 20 {
		t.Errorf("corpus has %d loadable grammars, want 20 or more", loading)
	}
}

// TestCorpusLlama checks every verdict of the corpus with llama.cpp itself.
func TestCorpusLlama(t *testing.T) {
	e := Shared(t)
	t.Logf("engine versions: %v", e.Versions())
	for _, g := range loadCorpus(t) {
		t.Run(g.File+"/"+g.Name, func(t *testing.T) {
			if g.Unsafe != "" {
				t.Skipf("not sent to llama.cpp: %s", g.Unsafe)
			}
			lg, err := e.Load(g.Text)
			if g.Refuse != nil {
				if err == nil {
					lg.Close()
					t.Fatalf("llama.cpp loaded a grammar the corpus says it refuses:\n%s", g.Text)
				}
				ee, ok := err.(*EngineError)
				if !ok {
					t.Fatalf("harness failure, not a refusal: %v", err)
				}
				if !strings.Contains(ee.Detail, *g.Refuse) {
					t.Errorf("llama.cpp refused with %q, corpus expects a message containing %q", ee.Detail, *g.Refuse)
				}
				return
			}
			if err != nil {
				t.Fatalf("llama.cpp refused a grammar the corpus says it loads: %v\n%s", err, g.Text)
			}
			defer lg.Close()
			texts := append(append([]string{}, g.Accept...), g.Reject...)
			got, err := lg.Accepts(texts)
			if err != nil {
				t.Fatal(err)
			}
			for i, text := range texts {
				want := i < len(g.Accept)
				if got[i] != want {
					t.Errorf("text %s: llama.cpp says accepted=%v, corpus says %v\ngrammar:\n%s", quote(text), got[i], want, g.Text)
				}
			}
		})
	}
}

// quote shows a text in a failure message, shortened when long.
func quote(text string) string {
	if len(text) > 200 {
		return strconv.Quote(text[:100]) + fmt.Sprintf("…(%d bytes)…", len(text)-200) + strconv.Quote(text[len(text)-100:])
	}
	return strconv.Quote(text)
}

// readFile is os.ReadFile that fails the test.
func readFile(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

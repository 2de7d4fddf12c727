package compile

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// TestCorpus compiles every real-world schema the checker admits: no panic,
// only compile-stage codes, and every grammar valid GBNF. Skipped with -short.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus run")
	}
	files, _ := filepath.Glob(filepath.Join(*corpusDir, "*", "*.json"))
	if len(files) == 0 {
		t.Fatalf("no schemas in %s", *corpusDir)
	}
	checked, compiled := 0, 0
	codes := map[subsetcheck.Code]int{}
	biggest, biggestFile := 0, ""
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := subsetcheck.Read(filepath.Base(file), data, subsetcheck.Limits{})
		if err != nil {
			continue
		}
		c, err := subsetcheck.Check(doc, subsetcheck.Options{})
		if err != nil {
			continue
		}
		checked++
		g, err := Compile(c, Options{})
		if err != nil {
			var list subsetcheck.ErrorList
			if !errors.As(err, &list) {
				t.Errorf("%s: error of type %T: %v", file, err, err)
				continue
			}
			for _, p := range list {
				codes[p.Code]++
				// The compiler's own codes, and a string language past
				// its size limit, which the compiler meets where the
				// lengths and patterns of a string come together.
				if p.Code[0] != 'C' && p.Code != subsetcheck.CodePatternTooLarge {
					t.Errorf("%s: unexpected code: %v", file, p)
				}
			}
			continue
		}
		compiled++
		if err := gbnf.Validate(g); err != nil {
			t.Errorf("%s: invalid grammar: %v", file, err)
		}
		if n := len(g.String()); n > biggest {
			biggest, biggestFile = n, file
		}
	}
	var keys []string
	for k := range codes {
		keys = append(keys, string(k))
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("refused: %s × %d", k, codes[subsetcheck.Code(k)])
	}
	t.Logf("%d files, %d admitted by the checker, %d compiled; biggest grammar %d bytes (%s)", len(files), checked, compiled, biggest, biggestFile)
}

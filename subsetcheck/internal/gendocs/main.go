// Command gendocs writes docs/keywords.md and docs/codes.md from the
// subsetcheck tables, so that the docs never drift from the checker.
// Run from the module root: go run ./subsetcheck/internal/gendocs
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

func main() {
	dir := flag.String("dir", "docs", "directory to write the pages into")
	flag.Parse()
	pages := map[string]string{
		"keywords.md": subsetcheck.KeywordTableMarkdown(),
		"codes.md":    subsetcheck.CodesMarkdown(),
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	for name, text := range pages {
		if err := os.WriteFile(filepath.Join(*dir, name), []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

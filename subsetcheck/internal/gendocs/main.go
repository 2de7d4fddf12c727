// Command gendocs writes docs/keywords.md and docs/codes.md, and the
// "support" section of README.md, from the subsetcheck tables, so that the
// docs never drift from the checker.
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
	readme := flag.String("readme", "README.md", "file whose \"support\" section is rewritten")
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
	text, err := os.ReadFile(*readme)
	if err != nil {
		log.Fatal(err)
	}
	out, ok := subsetcheck.ReplaceSection(string(text), "support", subsetcheck.SupportMarkdown())
	if !ok {
		log.Fatalf("%s has no <!-- begin support --> ... <!-- end support --> section", *readme)
	}
	if err := os.WriteFile(*readme, []byte(out), 0o644); err != nil {
		log.Fatal(err)
	}
}

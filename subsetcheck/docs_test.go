package subsetcheck

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDocsUpToDate fails when docs/keywords.md or docs/codes.md differ from
// what the tables generate: run `go run ./subsetcheck/internal/gendocs`.
func TestDocsUpToDate(t *testing.T) {
	for name, want := range map[string]string{
		"keywords.md": KeywordTableMarkdown(),
		"codes.md":    CodesMarkdown(),
	} {
		got, err := os.ReadFile(filepath.Join("..", "docs", name))
		if err != nil {
			t.Fatalf("%v; run go run ./subsetcheck/internal/gendocs", err)
		}
		if string(got) != want {
			t.Errorf("docs/%s is out of date; run go run ./subsetcheck/internal/gendocs", name)
		}
	}
}

// TestReadmeSupportUpToDate fails when the README's table of supported
// keywords differs from the keyword table.
func TestReadmeSupportUpToDate(t *testing.T) {
	text, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	want, ok := ReplaceSection(string(text), "support", SupportMarkdown())
	if !ok {
		t.Fatal("README.md has no support section")
	}
	if want != string(text) {
		t.Error("README.md's support section is out of date; run go run ./subsetcheck/internal/gendocs")
	}
}

// TestCodeTableComplete checks that every code constant is documented once.
func TestCodeTableComplete(t *testing.T) {
	seen := map[Code]bool{}
	for _, c := range CodeTable {
		if seen[c.Code] || c.Meaning == "" || c.Fix == "" {
			t.Errorf("code %s: duplicate or undocumented", c.Code)
		}
		seen[c.Code] = true
	}
	for _, c := range []Code{CodeInvalidJSON, CodeDuplicateKey, CodeInvalidUTF8, CodeLoneSurrogate, CodeByteOrderMark, CodeTrailingData,
		CodeRefusedKeyword, CodeUnknownKeyword, CodeBadKeywordValue, CodeNotASchema, CodeUnresolvedRef, CodeRemoteRef, CodeRefCycle,
		CodeUnknownDraft, CodePortableRule, CodeFormatNotExact, CodeIgnoredKeyword, CodeFormatNotEnforced, CodeRefSiblingsIgnored, CodeNoValidValue,
		CodeNotExactlyCompilable, CodeGrammarTooLarge, CodeInputTooLarge, CodeTooDeep, CodeNumberTooLarge, CodeTooManySchemas, CodeTooManyValues,
		CodeRegexInvalidGrammar, CodeRegexRecursive, CodeRegexTooLarge, CodeRegexTooDeep, CodeRegexNoText} {
		if !seen[c] {
			t.Errorf("code %s missing from CodeTable", c)
		}
	}
}

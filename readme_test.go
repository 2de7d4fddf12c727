package schema2gbnf_test

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/compile"
)

var update = flag.Bool("update", false, "rewrite the README's generated example")

// section returns the text between the README's begin and end markers of
// name, and where it starts and ends.
func section(t *testing.T, readme, name string) (string, int, int) {
	t.Helper()
	begin := strings.Index(readme, "<!-- begin "+name)
	end := strings.Index(readme, "<!-- end "+name+" -->")
	if begin < 0 || end < begin {
		t.Fatalf("README.md has no %s section", name)
	}
	begin += strings.Index(readme[begin:], "-->") + len("-->\n")
	return readme[begin:end], begin, end
}

// TestREADMEExample: the README's schema and grammar side by side are what
// Compile makes of that schema, so they cannot drift (-update rewrites the
// grammar).
func TestREADMEExample(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	body, begin, end := section(t, readme, "example")
	blocks := regexp.MustCompile("(?s)```(json)?\n(.*?)```").FindAllStringSubmatch(body, -1)
	if len(blocks) != 2 {
		t.Fatalf("want a schema block and a grammar block, found %d blocks", len(blocks))
	}
	g, err := schema2gbnf.Compile([]byte(blocks[0][2]), schema2gbnf.Options{Whitespace: compile.Compact})
	if err != nil {
		t.Fatal(err)
	}
	// The provenance comment holds the hash of the README block's bytes;
	// the CLI on the same file gives the same line.
	if blocks[1][2] == g.GBNF {
		return
	}
	if !*update {
		t.Fatalf("the README's grammar is not what Compile makes of its schema (go test . -run TestREADMEExample -update):\n%s", g.GBNF)
	}
	body = strings.Replace(body, "```\n"+blocks[1][2]+"```", "```\n"+g.GBNF+"```", 1)
	if err := os.WriteFile("README.md", []byte(readme[:begin]+body+readme[end:]), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestREADMEGoSnippet: the README's Go snippet is ExampleCompile's body, so
// it compiles and runs (go test runs the example).
func TestREADMEGoSnippet(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	body, _, _ := section(t, string(data), "go-example")
	snippet := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(body), "```go\n"), "```")
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)func ExampleCompile\(\) \{\n(.*?)\n\t// Output:`).FindSubmatch(src)
	if m == nil {
		t.Fatal("no ExampleCompile in example_test.go")
	}
	var lines []string
	for _, l := range strings.Split(string(m[1]), "\n") {
		lines = append(lines, strings.TrimPrefix(l, "\t"))
	}
	if want := strings.Join(lines, "\n") + "\n"; snippet != want {
		t.Errorf("README.md's Go snippet is not ExampleCompile's body:\n--- README\n%s\n--- example_test.go\n%s", snippet, want)
	}
}

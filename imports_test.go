package schema2gbnf_test

import (
	"go/build"
	"strings"
	"testing"
)

// TestCompileImportsNoValidator: compiling depends on no JSON Schema
// validator and no network client. The validator is verdict's alone
// (internal/validate), for the lenient profile's check after decoding.
func TestCompileImportsNoValidator(t *testing.T) {
	forbidden := []string{"github.com/santhosh-tekuri/jsonschema", "github.com/dlclark/regexp2", "net/http"}
	seen := map[string]bool{}
	var walk func(path string, from string)
	walk = func(path, from string) {
		if seen[path] {
			return
		}
		seen[path] = true
		for _, f := range forbidden {
			if path == f || strings.HasPrefix(path, f+"/") {
				t.Errorf("%s imports %s", from, path)
			}
		}
		if path == "net" {
			t.Errorf("%s imports net", from)
		}
		pkg, err := build.Default.Import(path, ".", 0)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if pkg.Goroot {
			return // the standard library's own imports
		}
		for _, imp := range pkg.Imports {
			walk(imp, path)
		}
	}
	for _, root := range []string{"github.com/schema2gbnf/schema2gbnf", "github.com/schema2gbnf/schema2gbnf/compile",
		"github.com/schema2gbnf/schema2gbnf/subsetcheck", "github.com/schema2gbnf/schema2gbnf/gbnf", "github.com/schema2gbnf/schema2gbnf/regex"} {
		walk(root, root)
	}
	if !seen["github.com/schema2gbnf/schema2gbnf/subsetcheck"] {
		t.Fatal("the walk saw nothing")
	}
}

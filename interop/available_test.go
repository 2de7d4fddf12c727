package interop

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMissingNames what a machine lacks: no node, or one older than 20.
func TestMissingNames(t *testing.T) {
	empty := t.TempDir()
	t.Setenv("PATH", empty)
	if got := findMissing(); got != "node is not in PATH" {
		t.Errorf("without node: %q", got)
	}
	old := t.TempDir()
	script := "#!/bin/sh\necho v18.19.1\n"
	if err := os.WriteFile(filepath.Join(old, "node"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", old)
	if got := findMissing(); !strings.Contains(got, "v18.19.1, older than 20") {
		t.Errorf("with node 18: %q", got)
	}
}

// fakeTB records whether Require skipped or failed.
type fakeTB struct {
	testing.TB
	skipped, failed string
}

func (f *fakeTB) Helper()              {}
func (f *fakeTB) Skip(args ...any)     { f.skipped = args[0].(string) }
func (f *fakeTB) Fatal(args ...any)    { f.failed = args[0].(string) }
func (f *fakeTB) Skipf(string, ...any) { panic("unused") }

// TestRequireSkipsOutsideCI: a missing engine skips the test with one line
// that says how to run it, except under CI=true, where it fails.
func TestRequireSkipsOutsideCI(t *testing.T) {
	saved := Missing()
	missing.reason = "node is not in PATH"
	defer func() { missing.reason = saved }()
	skipSaid.Store(false)
	defer skipSaid.Store(false)

	t.Setenv("CI", "")
	var f fakeTB
	Require(&f)
	if f.failed != "" || !strings.Contains(f.skipped, "install Node.js 20 or newer") || strings.Contains(f.skipped, "\n") {
		t.Errorf("outside CI: skipped %q, failed %q", f.skipped, f.failed)
	}
	t.Setenv("CI", "true")
	f = fakeTB{}
	Require(&f)
	if f.failed == "" || !strings.Contains(f.failed, "CI=true") {
		t.Errorf("under CI: skipped %q, failed %q", f.skipped, f.failed)
	}
}

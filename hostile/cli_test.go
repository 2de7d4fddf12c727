package hostile

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	cliPath   string
	buildErr  error
)

// cli builds cmd/schema2gbnf once per test binary.
func cli(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "schema2gbnf-cli-")
		if err != nil {
			buildErr = err
			return
		}
		cliPath = filepath.Join(dir, "schema2gbnf")
		out, err := exec.Command("go", "build", "-o", cliPath, "../cmd/schema2gbnf").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("cannot build the CLI: %v", buildErr)
		}
		t.Skipf("cannot build the CLI: %v", buildErr)
	}
	return cliPath
}

// TestMain removes the built CLI after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if cliPath != "" {
		os.RemoveAll(filepath.Dir(cliPath))
	}
	os.Exit(code)
}

// runCLI runs the CLI and returns its exit code, stdout and stderr.
func runCLI(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(cli(t), args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

// TestCLIAtomicOutput: a failing compile or an unwritable place leaves the
// old output untouched and no temporary file behind; the message goes to
// stderr with exit status 1 (refused) or 2 (I/O).
func TestCLIAtomicOutput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "g.gbnf")
	const old = "old grammar\n"
	if err := os.WriteFile(out, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, stdin string
		args        []string
		exit        int
		stderr      string
	}{
		{"truncated schema", `{"type":"str`, []string{"-o", out}, 1, "[J101]"},
		{"no valid value", `{"type":"integer","minimum":3,"maximum":1}`, []string{"-o", out}, 1, "[C401]"},
		{"over -max-input-bytes", `{"type":"string"}`, []string{"-o", out, "-max-input-bytes", "5"}, 1, "[L501]"},
		{"over -max-nesting", `{"items":{"items":{"items":{}}}}`, []string{"-o", out, "-max-nesting", "2"}, 1, "[L502]"},
		{"over -max-rules", `{"properties":{"a":{"type":"string"}}}`, []string{"-o", out, "-max-rules", "1"}, 1, "[C403]"},
		{"json problems", `[]`, []string{"-o", out, "-error-format", "json"}, 1, `"code": "S204"`},
		{"bad limit flag", `{}`, []string{"-o", out, "-max-nesting", "many"}, 2, "invalid value"},
		{"unwritable directory", `{}`, []string{"-o", filepath.Join(dir, "missing", "g.gbnf")}, 2, "no such file"},
		{"output is a directory", `{}`, []string{"-o", dir}, 2, "schema2gbnf:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(t, tc.stdin, tc.args...)
			if code != tc.exit || !strings.Contains(stderr, tc.stderr) {
				t.Fatalf("exit %d, stderr %q; want exit %d and %q", code, stderr, tc.exit, tc.stderr)
			}
			if stdout != "" {
				t.Errorf("stdout %q, want nothing", stdout)
			}
			if b, _ := os.ReadFile(out); string(b) != old {
				t.Errorf("output changed to %q", b)
			}
			assertNoTemp(t, dir)
		})
	}
	// A read-only directory: nothing written (root ignores permissions).
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCLI(t, `{}`, "-o", filepath.Join(ro, "g.gbnf"))
		if code != 2 || !strings.Contains(stderr, "permission denied") {
			t.Fatalf("read-only dir: exit %d, stderr %q", code, stderr)
		}
		assertNoTemp(t, ro)
	}
	// Success replaces the old file whole.
	if code, _, stderr := runCLI(t, `{"type":"boolean"}`, "-o", out); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(out); !strings.Contains(string(b), "root ::=") {
		t.Fatalf("output %q", b)
	}
	assertNoTemp(t, dir)
	// A raised limit lets the same schema through.
	if code, _, stderr := runCLI(t, `{"items":{"items":{"items":{}}}}`, "-max-nesting", "10"); code != 0 {
		t.Fatalf("raised -max-nesting: exit %d: %s", code, stderr)
	}
}

// assertNoTemp fails when a temporary file of writeFileAtomic is left in dir.
func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// TestCLIHostileYAML: a YAML schema built to blow up a reader ends in a
// named problem: aliases are refused before anything expands (billion
// laughs), deep nesting and size hit their limits, and a text that would
// make the YAML library build millions of nodes is refused before it runs.
func TestCLIHostileYAML(t *testing.T) {
	dir := t.TempDir()
	var laughs strings.Builder
	laughs.WriteString("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for c := 'b'; c <= 'j'; c++ {
		refs := strings.Repeat("*"+string(c-1)+", ", 8) + "*" + string(c-1)
		laughs.WriteString(string(c) + ": &" + string(c) + " [" + refs + "]\n")
	}
	nested := "a: " + strings.Repeat("{a: ", 600) + "1" + strings.Repeat("}", 600) + "\n"
	for _, tc := range []struct {
		name, text, code string
	}{
		{"billion laughs", laughs.String(), "[J107]"},
		{"nested 100,000 deep", strings.Repeat("[", 100000) + strings.Repeat("]", 100000), "[L502]"},
		{"nested past -max-nesting", nested, "[L502]"},
		{"five million items", "a: [" + strings.Repeat("1,", 5000000) + "1]\n", "[L505]"},
		{"over 16 MiB", "description: " + strings.Repeat("x", 17<<20) + "\n", "[L501]"},
		{"a huge number", "minimum: 1" + strings.Repeat("0", 20000) + "\n", "[L503]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, "s.yaml")
			if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := runCLI(t, "", p, "-o", filepath.Join(dir, "g.gbnf"))
			if code != 1 || !strings.Contains(stderr, tc.code) {
				t.Fatalf("exit %d, stderr %.300q; want exit 1 and %s", code, stderr, tc.code)
			}
		})
	}
}

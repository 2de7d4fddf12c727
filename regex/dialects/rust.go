package dialects

import (
	"bufio"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The Rust dialect check: verdicts replayed in Rust's regex crate by
// rustcheck/, a small program built once per version of its sources with
// cargo, offline, against Debian's librust-regex-dev (regex 1.7).

//go:embed all:rustcheck
var rustSources embed.FS

var rust struct {
	once      sync.Once
	bin       string
	missing   string // a tool or the crate is not installed
	buildFail error  // everything is there, and the build failed
}

// rustChecker builds rustcheck/ into the user's cache (once per
// version of its sources) and returns the binary.
func rustChecker() (bin, missing string, err error) {
	rust.once.Do(func() {
		if _, err := exec.LookPath("cargo"); err != nil {
			rust.missing = "cargo not found"
			return
		}
		if m, _ := filepath.Glob("/usr/share/cargo/registry/regex-1.*"); len(m) == 0 {
			rust.missing = "Debian's librust-regex-dev is not installed (/usr/share/cargo/registry/regex-1.*)"
			return
		}
		h := sha256.New()
		data := map[string][]byte{}
		err := fs.WalkDir(rustSources, "rustcheck", func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := rustSources.ReadFile(p)
			data[strings.TrimPrefix(p, "rustcheck/")] = b
			h.Write([]byte(p))
			h.Write(b)
			return err
		})
		if err != nil {
			rust.buildFail = err
			return
		}
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		dir := filepath.Join(cache, "schema2gbnf", "rustcheck-"+hex.EncodeToString(h.Sum(nil))[:12])
		bin := filepath.Join(dir, "target", "release", "rustcheck")
		if _, err := os.Stat(bin); err == nil {
			rust.bin = bin
			return
		}
		for f, b := range data {
			p := filepath.Join(dir, f)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				rust.buildFail = err
				return
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				rust.buildFail = err
				return
			}
		}
		cmd := exec.Command("cargo", "build", "--offline", "--release", "--quiet")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CARGO_TARGET_DIR="+filepath.Join(dir, "target"))
		if out, err := cmd.CombinedOutput(); err != nil {
			rust.buildFail = errors.New("cargo build of regex/dialects/rustcheck: " + err.Error() + "\n" + shorten(string(out)))
			return
		}
		rust.bin = bin
	})
	return rust.bin, rust.missing, rust.buildFail
}

// CheckRust replays every case in Rust's regex crate (^(?:re)$) and
// requires Go's verdicts.
func CheckRust(t *testing.T, cases []Case) {
	t.Helper()
	if len(cases) == 0 {
		return
	}
	bin, missing, err := rustChecker()
	switch {
	case err != nil:
		t.Fatal(err)
	case missing != "":
		cannotRun(t, "Rust", missing, "cargo librust-regex-dev")
	}
	var in strings.Builder
	for _, c := range cases {
		in.WriteString(hex.EncodeToString([]byte(c.Re)))
		in.WriteByte(' ')
		in.WriteString(hex.EncodeToString([]byte(c.Text)))
		in.WriteByte('\n')
	}
	cmd := exec.Command(bin)
	cmd.Stdin = strings.NewReader(in.String())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("rustcheck: %v\n%s", err, shorten(stderr.String()))
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	i := 0
	tooBig := map[string]bool{}
	for ; sc.Scan() && i < len(cases); i++ {
		line := sc.Text()
		if strings.HasPrefix(line, "E ") {
			t.Errorf("Rust's regex refuses %s: %s", shorten(cases[i].Re), line[2:])
			continue
		}
		if rest, ok := strings.CutPrefix(line, "S "); ok {
			tooBig[cases[i].Re] = true
			line = rest
		}
		if got := line == "1"; got != cases[i].Want {
			t.Errorf("Rust disagrees with Go on %q\nregex %s\nRust says %v, Go says %v", cases[i].Text, shorten(cases[i].Re), got, cases[i].Want)
		}
	}
	if i != len(cases) {
		t.Fatalf("rustcheck answered %d of %d cases", i, len(cases))
	}
	t.Logf("Rust agreed on %d cases", len(cases))
	if len(tooBig) > 0 {
		// A known gap, not a disagreement: Emit bounds a regex by Go's
		// program size (R602), and Rust's default compiled size (10 MiB)
		// is smaller for some; callers raise RegexBuilder::size_limit.
		t.Logf("%d regexes pass Rust's default size_limit (10 MiB) and were judged with a limit of 1 GiB", len(tooBig))
	}
}

package interop

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// MinNodeMajor is the oldest Node.js that node-llama-cpp 3.21.1 runs on; the
// README and .ci/run ask for the same.
const MinNodeMajor = 20

var missing struct {
	once   sync.Once
	reason string
}

// Missing says what this machine lacks to run llama.cpp's engine: node in
// PATH, a node of version MinNodeMajor or newer, or npm while node_modules is
// not installed yet. It returns "" when nothing is missing.
func Missing() string {
	missing.once.Do(func() { missing.reason = findMissing() })
	return missing.reason
}

func findMissing() string {
	node, err := exec.LookPath("node")
	if err != nil {
		return "node is not in PATH"
	}
	out, err := exec.Command(node, "--version").Output()
	if err != nil {
		return fmt.Sprintf("%s --version failed: %v", node, err)
	}
	v := strings.TrimSpace(string(out))
	major, _, _ := strings.Cut(strings.TrimPrefix(v, "v"), ".")
	if n, err := strconv.Atoi(major); err != nil || n < MinNodeMajor {
		return fmt.Sprintf("node is %s, older than %d", v, MinNodeMajor)
	}
	if dir, err := Dir(); err == nil && !installed(dir) {
		if _, err := exec.LookPath("npm"); err != nil {
			return "npm is not in PATH (it installs node-llama-cpp on first use)"
		}
	}
	return ""
}

// InCI reports whether CI=true is set: there the engine must run, and a
// missing Node.js fails the tests instead of skipping them.
func InCI() bool { return os.Getenv("CI") == "true" }

// Skipped reports whether tests leave llama.cpp's engine out on this
// machine: it is missing and this is not CI. A test that leaves engine
// checks out this way must sit in a package where some test calls Require,
// so that the skip is said once.
func Skipped() bool { return Missing() != "" && !InCI() }

// Require skips tb, with one line saying what did not run and how to run it,
// when llama.cpp's engine cannot run here; under CI=true it fails tb instead.
func Require(tb testing.TB) {
	tb.Helper()
	why := Missing()
	if why == "" {
		return
	}
	msg := fmt.Sprintf("llama.cpp engine checks not run: %s; install Node.js %d or newer with npm (e.g. apt-get install nodejs npm) and run go test again", why, MinNodeMajor)
	if InCI() {
		tb.Fatal(msg + " (CI=true: the engine must run)")
	}
	if skipSaid.Swap(true) {
		tb.Skip("llama.cpp engine missing (said above)")
	}
	tb.Skip(msg)
}

// skipSaid keeps the whole skip message to the first skipped test.
var skipSaid atomic.Bool

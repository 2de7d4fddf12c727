// Package dialects replays regex verdicts in the other engines the regex
// emitter writes for, Python's re and Rust's regex crate, so that the
// tests of package regex and of regex/corpustest can require the same
// verdict as Go's regexp from each. Test support: nothing else imports it.
//
// A check that cannot run (python3, cargo or Debian's librust-regex-dev
// missing) skips its test with a line saying how to run it, except under
// CI=true, where it fails: .ci/run installs what they need.
package dialects

import (
	"os"
	"strings"
	"testing"
)

// Case is a regex as Emit writes it (no anchors), a text, and Go's verdict
// on a full match.
type Case struct {
	Re   string `json:"re"`
	Text string `json:"text"`
	Want bool   `json:"-"`
}

// cannotRun skips t, or fails it under CI=true, because what is missing.
func cannotRun(t *testing.T, check, missing, install string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("the %s dialect check cannot run: %s; under CI a check that cannot run fails (.ci/run installs %s)", check, missing, install)
	}
	t.Skipf("the %s dialect check did not run: %s (apt-get install %s)", check, missing, install)
}

func shorten(s string) string {
	if len(s) > 300 {
		return strings.ToValidUTF8(s[:300], "") + "…"
	}
	return s
}

package dialects

import (
	"bufio"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// pyScript reads {"re", "text"} lines and prints 1 or 0 per line for
// re.fullmatch (not "^(?:re)$": Python's $ also matches before a final
// newline). Warnings are errors: a FutureWarning about a possible set
// operation would mean a class Python may one day read differently.
const pyScript = `
import json, re, sys
for line in sys.stdin:
    d = json.loads(line)
    print(1 if re.fullmatch(d["re"], d["text"]) else 0, flush=False)
sys.stdout.flush()
`

// CheckPython runs every case through one python3 process and requires
// its verdicts to be Go's.
func CheckPython(t *testing.T, cases []Case) {
	t.Helper()
	if len(cases) == 0 {
		return
	}
	if _, err := exec.LookPath("python3"); err != nil {
		cannotRun(t, "Python", "python3 not found", "python3")
	}
	var in strings.Builder
	for _, c := range cases {
		line, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		in.Write(line)
		in.WriteByte('\n')
	}
	cmd := exec.Command("python3", "-W", "error", "-c", pyScript)
	cmd.Stdin = strings.NewReader(in.String())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3: %v\n%s", err, shorten(stderr.String()))
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	i := 0
	for ; sc.Scan() && i < len(cases); i++ {
		if got := sc.Text() == "1"; got != cases[i].Want {
			t.Errorf("Python disagrees with Go on %q\nregex %s\nPython says %v, Go says %v", cases[i].Text, shorten(cases[i].Re), got, cases[i].Want)
		}
	}
	if i != len(cases) {
		t.Fatalf("python3 answered %d of %d cases", i, len(cases))
	}
	t.Logf("Python agreed on %d cases", len(cases))
}

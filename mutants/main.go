// Command mutants plants each bug of its ledger (ledger.go) in a copy of
// the source, runs the tests that must catch it, and prints the kill ratio:
// the standing check that the proof is strong enough to fail on the bugs a
// grammar compiler is likely to have.
//
//	go run ./mutants              # every mutation
//	go run ./mutants -run int-    # the mutations whose id matches
//	go run ./mutants -list        # the ledger, without running it
//
// A mutation replaces one piece of text (its anchor) in one file; the
// mutated copy reaches the compiler through go test -overlay, so the
// working tree is never touched and an interrupted run leaves nothing
// behind. An anchor that is not found exactly once is a failure, so the
// ledger cannot rot silently as the code moves (TestLedger checks the
// anchors in every go test ./... run). A mutation is killed when its tests
// fail; one that does not build is a ledger error, not a kill. A surviving
// mutation fails the run unless the ledger lists it as equivalent, with
// the reason; an equivalent one that is killed fails it too.
//
// Why a small tool rather than a Go mutation testing library: the
// libraries mutate operators at random across a package and run every
// test per mutant, which on this codebase means hours and a stream of
// equivalent mutants to triage. A ledger of chosen bugs, each with the
// tests that must catch it, runs in minutes, names the hole when one
// survives, and reads as a list of what the proof is claimed to catch.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

func main() {
	only := flag.String("run", "", "run only the mutations whose id matches this regexp")
	list := flag.Bool("list", false, "print the ledger and stop")
	verbose := flag.Bool("v", false, "print the test output of every mutation")
	flag.Parse()
	root, err := moduleRoot()
	if err != nil {
		fatal(err)
	}
	if problems := checkLedger(root, ledger); len(problems) > 0 {
		for _, p := range problems {
			fmt.Fprintln(os.Stderr, "ledger:", p)
		}
		os.Exit(1)
	}
	var pick *regexp.Regexp
	if *only != "" {
		if pick, err = regexp.Compile(*only); err != nil {
			fatal(err)
		}
	}
	if *list {
		for _, m := range ledger {
			fmt.Printf("%-28s %-24s %s\n", m.ID, m.File, m.Bug)
		}
		return
	}
	tmp, err := os.MkdirTemp("", "mutants-")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(tmp)
	start := time.Now()
	var killed, equivalent, ran int
	var bad []string
	for _, m := range ledger {
		if pick != nil && !pick.MatchString(m.ID) {
			continue
		}
		ran++
		r := m.run(root, tmp)
		if *verbose {
			fmt.Println(r.output)
		}
		verdict := r.verdict(m)
		fmt.Printf("%-10s %-28s %5.1fs  %s\n", verdict, m.ID, r.took.Seconds(), r.detail)
		switch verdict {
		case "killed":
			killed++
		case "equivalent":
			equivalent++
		default:
			bad = append(bad, m.ID+" "+verdict)
		}
	}
	fmt.Printf("kill ratio %d/%d (%d listed as equivalent); %s\n", killed, ran-equivalent, equivalent, time.Since(start).Round(time.Second))
	if len(bad) > 0 {
		fmt.Printf("FAIL: %s\n", strings.Join(bad, "; "))
		os.Exit(1)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "mutants:", err)
	os.Exit(2)
}

// moduleRoot is the directory of the main module's go.mod.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", err
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("not inside the module: run from the repository")
	}
	return filepath.Dir(mod), nil
}

// result is what one mutation's test run did.
type result struct {
	failed, broken bool // tests failed; the mutated code or the tests did not build
	detail, output string
	took           time.Duration
}

func (r result) verdict(m mutation) string {
	switch {
	case r.broken:
		return "BROKEN"
	case r.failed && m.Equivalent != "":
		return "KILLED-EQUIVALENT"
	case r.failed:
		return "killed"
	case m.Equivalent != "":
		return "equivalent"
	}
	return "SURVIVED"
}

var failLine = regexp.MustCompile(`(?m)^\s*--- FAIL: (\S+)`)

// run applies m through an overlay and runs its tests.
func (m mutation) run(root, tmp string) result {
	src := filepath.Join(root, m.File)
	data, err := os.ReadFile(src)
	if err != nil {
		return result{broken: true, detail: err.Error()}
	}
	mutated := filepath.Join(tmp, m.ID+".go")
	if err := os.WriteFile(mutated, []byte(strings.Replace(string(data), m.Old, m.New, 1)), 0o644); err != nil {
		return result{broken: true, detail: err.Error()}
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": map[string]string{src: mutated}})
	overlayFile := filepath.Join(tmp, m.ID+".json")
	if err := os.WriteFile(overlayFile, overlay, 0o644); err != nil {
		return result{broken: true, detail: err.Error()}
	}
	args := []string{"test", "-overlay=" + overlayFile, "-count=1", "-timeout=10m", "-run", m.Run}
	if m.Short {
		args = append(args, "-short")
	}
	args = append(args, m.Pkgs...)
	args = append(args, m.Args...)
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	t0 := time.Now()
	err = cmd.Run()
	r := result{took: time.Since(t0), output: out.String()}
	text := out.String()
	switch {
	case strings.Contains(text, "no tests to run"):
		r.broken = true
		r.detail = "-run " + m.Run + " matches no test in a package"
	case err == nil:
		r.detail = "no test failed: " + strings.Join(m.Pkgs, " ") + " -run " + m.Run
	case strings.Contains(text, "[build failed]") || strings.Contains(text, "[setup failed]"):
		r.broken = true
		r.detail = "does not build: " + firstLines(text, 3)
	default:
		r.failed = true
		var names []string
		for _, f := range failLine.FindAllStringSubmatch(text, -1) {
			if !strings.Contains(f[1], "/") && len(names) < 4 {
				names = append(names, f[1])
			}
		}
		r.detail = "caught by " + strings.Join(names, " ")
		if len(names) == 0 {
			r.detail = "go test failed: " + firstLines(text, 2)
		}
	}
	return r
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}

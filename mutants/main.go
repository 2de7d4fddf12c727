// Command mutants plants each bug of its ledger (ledger*.go: the
// compiler's first stages, the combinators, the counting keywords, the
// string languages, the harness) in a copy of the source, runs the tests
// that must catch it, and prints the kill ratio: the standing check that
// the proof is strong enough to fail on the bugs a grammar compiler is
// likely to have.
//
//	go run ./mutants              # every mutation
//	go run ./mutants -run int-    # the mutations whose id matches
//	go run ./mutants -list        # the ledger, without running it
//
// Each distinct test command is first run on the source as it is (go
// test's cache makes a second run cheap): a command that fails there
// would count every mutation it judges as killed, so the run stops. The
// report gives each run's wall and CPU time (go test and all it ran): on
// a shared machine the CPU time says what the check costs. Two mutations
// are tried at once (-j), each with -failfast: one failing test kills it.
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
	"iter"
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
	base := flag.Bool("baseline", true, "first run each mutation's tests on the unmutated source, which must pass")
	jobs := flag.Int("j", 2, "how many mutations are tried at once")
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
	var picked []mutation
	for _, m := range ledger {
		if pick == nil || pick.MatchString(m.ID) {
			picked = append(picked, m)
		}
	}
	start := time.Now()
	var cpu time.Duration
	if *base {
		problems, c := baseline(root, picked, *jobs)
		cpu += c
		if len(problems) > 0 {
			for _, p := range problems {
				fmt.Fprintln(os.Stderr, "baseline:", p)
			}
			os.Exit(1)
		}
		fmt.Printf("baseline: the tests of %d mutations pass unmutated; %s (CPU %s)\n", len(picked), time.Since(start).Round(time.Second), c.Round(time.Second))
	}
	tmp, err := os.MkdirTemp("", "mutants-")
	if err != nil {
		fatal(err)
	}
	defer os.RemoveAll(tmp) // and before os.Exit, which runs no defer
	var killed, equivalent, ran int
	var bad []string
	for i, r := range inParallel(len(picked), *jobs, func(i int) result { return picked[i].run(root, tmp) }) {
		m := picked[i]
		ran++
		cpu += r.cpu
		if *verbose {
			fmt.Println(r.output)
		}
		verdict := r.verdict(m)
		fmt.Printf("%-10s %-30s %5.1fs %5.1fs CPU  %s\n", verdict, m.ID, r.took.Seconds(), r.cpu.Seconds(), r.detail)
		switch verdict {
		case "killed":
			killed++
		case "equivalent":
			equivalent++
		default:
			bad = append(bad, m.ID+" "+verdict)
		}
	}
	wall := time.Since(start)
	fmt.Printf("kill ratio %d/%d (%d listed as equivalent); %s, CPU %s (at least %s on 2 cores)\n", killed, ran-equivalent, equivalent,
		wall.Round(time.Second), cpu.Round(time.Second), (cpu / 2).Round(time.Second))
	if len(bad) > 0 {
		fmt.Printf("FAIL: %s\n", strings.Join(bad, "; "))
		os.RemoveAll(tmp)
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
	took, cpu      time.Duration // wall time; CPU time of go test and all it ran
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
	text, took, cpu, err := goTest(root, append([]string{"-overlay=" + overlayFile, "-count=1", "-failfast"}, m.testArgs()...))
	r := result{took: took, cpu: cpu, output: text}
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

// testArgs are the go test arguments that judge m, after the overlay.
func (m mutation) testArgs() []string {
	// vet and DWARF judge nothing here, and cost a sixth of a mutation's
	// build of compile/.
	args := []string{"-vet=off", "-ldflags=-w", "-timeout=10m", "-run", m.Run}
	if m.Short {
		args = append(args, "-short")
	}
	args = append(args, m.Pkgs...)
	return append(args, m.Args...)
}

// goTest runs go test with args in root and returns its output, the wall
// time and the CPU time it and everything it ran (the compiler, the test
// binaries) took: on a shared machine the CPU time is the figure that
// says what the run costs.
func goTest(root string, args []string) (string, time.Duration, time.Duration, error) {
	cmd := exec.Command("go", append([]string{"test"}, args...)...)
	cmd.Dir = root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	t0 := time.Now()
	err := cmd.Run()
	took := time.Since(t0)
	var cpu time.Duration
	if ps := cmd.ProcessState; ps != nil {
		cpu = ps.UserTime() + ps.SystemTime()
	}
	return out.String(), took, cpu, err
}

// baseline runs each distinct test command of ms once on the source as it
// is: a command that fails there would count every mutation it judges as
// killed, so the run stops before any mutation is tried. The results are
// go test's to cache, so a second run costs little.
func baseline(root string, ms []mutation, jobs int) (problems []string, cpu time.Duration) {
	seen := map[string]bool{}
	var distinct []mutation
	for _, m := range ms {
		key := strings.Join(m.testArgs(), "\x00")
		if !seen[key] {
			seen[key] = true
			distinct = append(distinct, m)
		}
	}
	type run struct {
		text string
		cpu  time.Duration
		err  error
	}
	for i, r := range inParallel(len(distinct), jobs, func(i int) run {
		text, _, c, err := goTest(root, distinct[i].testArgs())
		return run{text, c, err}
	}) {
		m := distinct[i]
		cpu += r.cpu
		switch {
		case strings.Contains(r.text, "no tests to run"):
			problems = append(problems, m.ID+": -run "+m.Run+" matches no test in "+strings.Join(m.Pkgs, " "))
		case r.err != nil:
			problems = append(problems, fmt.Sprintf("%s: go test %s fails without any mutation: %s", m.ID, strings.Join(m.testArgs(), " "), firstLines(r.text, 3)))
		}
	}
	return problems, cpu
}

// inParallel runs f(0) to f(n-1), jobs at a time, and yields their
// results in order, each as soon as it and those before it are done: the
// report reads the same however many run at once. On 2 cores two at a
// time keep both busy where one go test leaves one idle (linking, a test
// that runs one case at a time).
func inParallel[R any](n, jobs int, f func(int) R) iter.Seq2[int, R] {
	return func(yield func(int, R) bool) {
		done := make([]chan R, n)
		for i := range done {
			done[i] = make(chan R, 1)
		}
		next := make(chan int)
		go func() {
			defer close(next)
			for i := range n {
				next <- i
			}
		}()
		for range max(jobs, 1) {
			go func() {
				for i := range next {
					done[i] <- f(i)
				}
			}()
		}
		for i := range n {
			if !yield(i, <-done[i]) {
				return
			}
		}
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(strings.TrimSpace(s), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}

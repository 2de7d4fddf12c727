package interop

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestLoadRefusalCarriesLlamaMessage(t *testing.T) {
	e := Shared(t)
	for _, c := range []struct{ grammar, piece string }{
		{`root ::= "\d"`, `unknown escape at \d"`},
		{`root ::= x`, `Undefined rule identifier 'x'`},
		{`x ::= "a"`, `does not contain a 'root' symbol`},
		{`root ::= root "a" | "b"`, `left recursion detected`},
		{`root ::= "a"{,3}`, `expecting an int`},
	} {
		g, err := e.Load(c.grammar)
		var ee *EngineError
		if !errors.As(err, &ee) {
			if g != nil {
				g.Close()
			}
			t.Errorf("Load(%q) = %v, want an *EngineError", c.grammar, err)
			continue
		}
		if !strings.Contains(ee.Detail, c.piece) || !strings.Contains(err.Error(), c.piece) {
			t.Errorf("Load(%q) error %q, want it to contain %q", c.grammar, err, c.piece)
		}
	}
}

func TestAccepts(t *testing.T) {
	e := Shared(t)
	g, err := e.Load(`root ::= [a-z]+ ("," [a-z]+)*`)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for _, c := range []struct {
		text string
		want bool
	}{
		{"a", true},
		{"ab,cd", true},
		{"", false},
		{"ab,", false},
		{"AB", false},
		{"ab,cd\n", false},
	} {
		got, err := g.Accepts([]string{c.text})
		if err != nil || len(got) != 1 || got[0] != c.want {
			t.Errorf("Accepts(%q) = %v, %v; want %v", c.text, got, err, c.want)
		}
	}
	if got, err := g.Accepts(nil); err != nil || len(got) != 0 {
		t.Errorf("Accepts(nil) = %v, %v; want no verdicts", got, err)
	}
}

// TestAcceptsSplitsBigBatches sends more than maxBatchBytes in one call.
func TestAcceptsSplitsBigBatches(t *testing.T) {
	e := Shared(t)
	g, err := e.Load(`root ::= "a"*`)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	defer func(old int) { maxBatchBytes = old }(maxBatchBytes)
	maxBatchBytes = 1000
	big := strings.Repeat("a", 600)
	texts := []string{big, big + "b", big, "a", "b"}
	got, err := g.Accepts(texts)
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, false, true, true, false}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("verdicts %v, want %v", got, want)
	}
}

func TestBadInputGivesErrorsNotADeadEngine(t *testing.T) {
	e := Shared(t)
	g, err := e.Load(`root ::= "a"`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.Accepts([]string{"a", "\xff"}); err == nil {
		t.Error("Accepts with invalid UTF-8: no error")
	}
	if _, err := e.Load("root ::= \"\xff\""); err == nil {
		t.Error("Load with invalid UTF-8: no error")
	}
	if _, err := e.PeerGrammar([]byte(`{"type":`)); err == nil {
		t.Error("PeerGrammar with invalid JSON: no error")
	}
	e.mu.Lock()
	err = e.call(e.proc, map[string]any{"op": "check", "handle": 999999, "texts": []string{"a"}}, nil)
	err2 := e.call(e.proc, map[string]any{"op": "no-such-op"}, nil)
	e.mu.Unlock()
	if err == nil || err2 == nil {
		t.Errorf("unknown handle: %v; unknown op: %v; want errors", err, err2)
	}
	g.Close()
	g.Close()
	if _, err := g.Accepts([]string{"a"}); err == nil {
		t.Error("Accepts on a closed grammar: no error")
	}
	g2, err := e.Load(`root ::= "a"`)
	if err != nil {
		t.Fatalf("engine unusable after bad requests: %v", err)
	}
	defer g2.Close()
	if got, err := g2.Accepts([]string{"a"}); err != nil || !got[0] {
		t.Errorf("engine unusable after bad requests: %v %v", got, err)
	}
}

// TestRestartAfterCrash kills the node process: the next Load starts a new
// one, and grammars of the dead one report an error.
func TestRestartAfterCrash(t *testing.T) {
	Require(t)
	e, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	g, err := e.Load(`root ::= "a"`)
	if err != nil {
		t.Fatal(err)
	}
	e.mu.Lock()
	e.proc.cmd.Process.Kill()
	e.mu.Unlock()
	if _, err := g.Accepts([]string{"a"}); err == nil {
		t.Error("Accepts through a killed process: no error")
	}
	g2, err := e.Load(`root ::= "b"`)
	if err != nil {
		t.Fatalf("Load after a crash: %v", err)
	}
	if got, err := g2.Accepts([]string{"b"}); err != nil || !got[0] {
		t.Errorf("after restart: %v %v", got, err)
	}
	if _, err := g.Accepts([]string{"a"}); err == nil {
		t.Error("Accepts on a grammar of the dead process: no error")
	}
}

func TestPeerGrammar(t *testing.T) {
	e := Shared(t)
	text, err := e.PeerGrammar([]byte(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "root ::=") {
		t.Fatalf("peer grammar has no root rule:\n%s", text)
	}
	g, err := e.Load(text)
	if err != nil {
		t.Fatalf("llama.cpp refuses node-llama-cpp's own grammar: %v\n%s", err, text)
	}
	defer g.Close()
	got, err := g.Accepts([]string{`{"n": 12}` + "\n\n\n\n", `{"n": "x"}` + "\n\n\n\n"})
	if err != nil {
		t.Fatal(err)
	}
	if !got[0] || got[1] {
		t.Errorf("peer grammar verdicts %v, want [true false]\n%s", got, text)
	}
}

func TestVersionsArePinned(t *testing.T) {
	v := Shared(t).Versions()
	if v["node-llama-cpp"] != "3.21.1" || v["llama.cpp"] == "" {
		t.Errorf("versions %v, want node-llama-cpp 3.21.1 and a llama.cpp tag", v)
	}
}

// TestInstallOnceUnderLock runs `npm ci` from two goroutines in a fresh copy
// of the npm project: the file lock makes one install and the other wait.
func TestInstallOnceUnderLock(t *testing.T) {
	if testing.Short() {
		t.Skip("installs node-llama-cpp from the npm registry (~80 MB)")
	}
	Require(t)
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	for _, f := range []string{"package.json", "package-lock.json", ".npmrc"} {
		if err := os.WriteFile(filepath.Join(tmp, f), readFile(t, filepath.Join(dir, f)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = ensureModules(tmp)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("npm ci (two racing callers, one install): %v", time.Since(start).Round(time.Millisecond))
	if !installed(tmp) {
		t.Fatal("node_modules incomplete after ensureModules")
	}
	if _, err := os.Stat(filepath.Join(tmp, "node_modules", "@node-llama-cpp", "linux-x64-cuda")); err == nil {
		t.Error("npm ci installed a CUDA build: optional dependencies should be omitted")
	}
}

// benchmarkChecks measures llama.cpp checks per second through the harness.
func benchmarkChecks(b *testing.B, grammar string, text string) {
	e := Shared(b)
	g, err := e.Load(grammar)
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	const batch = 100
	texts := make([]string, batch)
	for i := range texts {
		texts[i] = text
	}
	b.ResetTimer()
	checks := 0
	for b.Loop() {
		if _, err := g.Accepts(texts); err != nil {
			b.Fatal(err)
		}
		checks += batch
	}
	b.ReportMetric(float64(checks)/b.Elapsed().Seconds(), "checks/s")
}

func BenchmarkChecksSmallGrammar(b *testing.B) {
	benchmarkChecks(b, `root ::= [a-z]+ ("," [a-z]+)*`, "abc,defg,hij")
}

// BenchmarkChecksLargeGrammar uses a grammar of about 1,500 rules:
// llama.cpp re-reads the whole grammar for every check.
func BenchmarkChecksLargeGrammar(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("root ::= r0\n")
	for i := 0; i < 1500; i++ {
		fmt.Fprintf(&sb, "r%d ::= \"k%d\" | [a-z] r%d\n", i, i, i+1)
	}
	sb.WriteString("r1500 ::= \"end\"\n")
	benchmarkChecks(b, sb.String(), "abcdefghijk9")
}

// TestMemoryBoundTurnsRunawayIntoError loads a grammar on which llama.cpp
// allocates without end: the address-space limit makes it a load error and
// the engine keeps serving.
func TestMemoryBoundTurnsRunawayIntoError(t *testing.T) {
	if testing.Short() {
		t.Skip("llama.cpp allocates up to MaxEngineMemory first (seconds)")
	}
	e := Shared(t)
	_, err := e.Load(`root ::= "a"{3,1}`)
	var ee *EngineError
	if !errors.As(err, &ee) || !strings.Contains(ee.Detail, "bad_alloc") {
		t.Fatalf("Load({3,1}) = %v, want an EngineError with std::bad_alloc", err)
	}
	g, err := e.Load(`root ::= "a"`)
	if err != nil {
		t.Fatalf("engine unusable after a runaway load: %v", err)
	}
	g.Close()
}

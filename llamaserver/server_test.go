package llamaserver

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/verdict"
)

// alive reports whether process pid exists (and is not a zombie).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	return err != nil || !strings.Contains(string(stat), ") Z ")
}

// TestServerStops: Stop ends the server, and a second Stop is harmless.
func TestServerStops(t *testing.T) {
	s, _ := server(t, built(t))
	pid := s.Pid()
	if !alive(pid) {
		t.Fatal("the server is not running")
	}
	s.Stop()
	s.Stop()
	if alive(pid) || !s.Exited() {
		t.Fatalf("llama-server %d still runs after Stop", pid)
	}
}

// TestServerDiesWithTest: a test binary that times out, and so never runs
// its cleanups, leaves no server behind: the server gets SIGKILL when the
// thread that started it ends.
func TestServerDiesWithTest(t *testing.T) {
	if os.Getenv("LLAMASERVER_ORPHAN_HELPER") == "1" {
		s, _ := server(t, built(t))
		fmt.Printf("pid %d\n", s.Pid())
		time.Sleep(time.Hour) // until -test.timeout panics
		return
	}
	built(t) // skips here, not in the helper, when llama-server cannot run
	cmd := exec.Command(os.Args[0], "-test.run=^TestServerDiesWithTest$", "-test.timeout=10s")
	cmd.Env = append(os.Environ(), "LLAMASERVER_ORPHAN_HELPER=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := 0
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if p, ok := strings.CutPrefix(sc.Text(), "pid "); ok {
			pid, _ = strconv.Atoi(p)
			break
		}
	}
	go func() {
		for sc.Scan() {
		}
	}()
	if pid == 0 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("the helper started no server")
	}
	if !alive(pid) {
		t.Fatalf("server %d is not running", pid)
	}
	cmd.Wait() // the helper times out and exits
	for i := 0; i < 50 && alive(pid); i++ {
		time.Sleep(100 * time.Millisecond)
	}
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("llama-server %d outlived the test binary that started it", pid)
	}
}

// TestUnspellableLiteral: the model's vocabulary (with its byte tokens
// banned, as the tests sample) has no token for 名 or 前. A grammar that
// forces them makes llama-server fail the request (HTTP 500, "Unexpected
// empty grammar stack after accepting piece"), which verdict reads as a
// PROVIDER_ERROR a retry does not cure; our grammar accepts the \u escape
// beside each such character, so the model writes that and the reply is
// COMPLETE_VALID.
func TestUnspellableLiteral(t *testing.T) {
	s, _ := server(t, built(t))
	schema := []byte(`{"type":"object","properties":{"名前":{"const":"前"}},"required":["名前"],"additionalProperties":false}`)
	g, err := schema2gbnf.Compile(schema, schema2gbnf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	j, err := verdict.New(g, verdict.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	_, body, err := s.Post("/completion", map[string]any{"prompt": prompt(1), "grammar": `root ::= "{\"名前\":\"前\"}"`, "n_predict": 64})
	if err != nil {
		t.Fatal(err)
	}
	v := j.JudgeReply(body)
	if v.Class != verdict.ProviderError || v.Retry || v.Error == nil || !strings.Contains(v.Error.Message, "Unexpected empty grammar stack") {
		t.Errorf("the raw literal: %s (retry %v): %s", v.Class, v.Retry, body)
	}
	_, body, err = s.Post("/completion", map[string]any{"prompt": prompt(1), "grammar": g.GBNF, "n_predict": 64})
	if err != nil {
		t.Fatal(err)
	}
	if v := j.JudgeReply(body); v.Class != verdict.CompleteValid {
		t.Errorf("our grammar: %s (%s): %s", v.Class, v.Message, body)
	}
	if s.Exited() {
		t.Error("llama-server died")
	}
}

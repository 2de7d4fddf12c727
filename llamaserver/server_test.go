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

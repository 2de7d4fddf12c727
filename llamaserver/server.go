package llamaserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os/exec"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// StartupTimeout bounds starting the server and loading the model: a
// second when the machine is idle, so generous.
const StartupTimeout = 2 * time.Minute

// Config says how to start a server.
type Config struct {
	Binary string
	Model  string
	Seed   uint64 // the sampling seed of every request that sets none
	// Bias is the default logit bias of every request (token id → bias,
	// -Inf bans), given as --logit-bias.
	Bias    map[int]float64
	Context int // the context size; the model's when 0
}

// Server is a running llama-server.
type Server struct {
	URL string // http://127.0.0.1:PORT

	cmd  *exec.Cmd
	done chan struct{} // closed when the process has ended
	err  error         // why it ended, once done is closed
	log  logBuffer
	stop sync.Once
}

// Start starts llama-server on a free port of 127.0.0.1 and waits until it
// answers /health. The process dies with this one (on Linux, even when a
// test times out and the test binary exits without cleaning up); Stop
// ends it sooner.
func Start(c Config) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	args := []string{
		"--model", c.Model,
		"--host", "127.0.0.1", "--port", strconv.Itoa(port),
		"--parallel", "1", "--threads", "1", "--threads-batch", "1",
		"--seed", strconv.FormatUint(c.Seed, 10),
		"--no-cache-prompt", // the same request gives the same reply, whatever came before
		"--no-webui",
	}
	if c.Context > 0 {
		args = append(args, "--ctx-size", strconv.Itoa(c.Context))
	}
	for _, id := range sortedIDs(c.Bias) {
		args = append(args, "--logit-bias", biasArg(id, c.Bias[id]))
	}
	s := &Server{URL: fmt.Sprintf("http://127.0.0.1:%d", port), done: make(chan struct{})}
	started := make(chan error, 1)
	go s.run(c.Binary, args, started)
	if err := <-started; err != nil {
		return nil, fmt.Errorf("llamaserver: starting %s: %w", c.Binary, err)
	}
	if err := s.waitHealthy(StartupTimeout); err != nil {
		s.Stop()
		return nil, fmt.Errorf("llamaserver: %w\n%s", err, s.LogTail(4000))
	}
	return s, nil
}

// run starts the process and waits for it on one locked OS thread: the
// parent-death signal is tied to the thread that started the child, so the
// thread must live as long as the child does.
func (s *Server) run(bin string, args []string, started chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &s.log, &s.log
	cmd.SysProcAttr = dieWithParent()
	if err := cmd.Start(); err != nil {
		started <- err
		close(s.done)
		return
	}
	s.cmd = cmd
	started <- nil
	s.err = cmd.Wait()
	close(s.done)
}

func (s *Server) waitHealthy(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	client := http.Client{Timeout: 2 * time.Second}
	for time.Now().Before(deadline) {
		select {
		case <-s.done:
			return fmt.Errorf("llama-server exited before it was ready: %v", s.err)
		default:
		}
		resp, err := client.Get(s.URL + "/health")
		if err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("llama-server was not ready within %v", timeout)
}

// Stop ends the server: SIGTERM, then SIGKILL after 5 s. Safe to call more
// than once.
func (s *Server) Stop() {
	s.stop.Do(func() {
		if s.cmd == nil || s.cmd.Process == nil {
			return
		}
		s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(5 * time.Second):
			s.cmd.Process.Kill()
			<-s.done
		}
	})
}

// Pid is the server's process id.
func (s *Server) Pid() int { return s.cmd.Process.Pid }

// Exited reports whether the process has ended.
func (s *Server) Exited() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// LogLen is the length of the server's log so far; LogSince(n) is what it
// wrote after that point. Requests made one at a time are told apart so.
func (s *Server) LogLen() int { return s.log.len() }

// LogSince returns the log from byte n on.
func (s *Server) LogSince(n int) string { return s.log.since(n) }

// LogTail is the last n bytes of the log.
func (s *Server) LogTail(n int) string {
	l := s.log.len()
	return s.log.since(max(0, l-n))
}

// Post sends body to path and returns the HTTP status and the reply body.
func (s *Server) Post(path string, body any) (int, []byte, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return 0, nil, err
	}
	client := http.Client{Timeout: 5 * time.Minute}
	resp, err := client.Post(s.URL+path, "application/json", bytes.NewReader(b))
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, err
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("llamaserver: no free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// biasArg is one --logit-bias value: "ID+B" or "ID-B", "-inf" to ban.
func biasArg(id int, b float64) string {
	sign := "+"
	if b < 0 {
		sign, b = "-", -b
	}
	v := strconv.FormatFloat(b, 'g', -1, 64)
	if math.IsInf(b, 1) {
		v = "inf"
	}
	return strconv.Itoa(id) + sign + v
}

func sortedIDs(m map[int]float64) []int {
	ids := make([]int, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	return ids
}

// logBuffer is the server's output, safe to read while it is written.
type logBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.b = append(l.b, p...)
	return len(p), nil
}

func (l *logBuffer) len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.b)
}

func (l *logBuffer) since(n int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if n > len(l.b) {
		return ""
	}
	return string(l.b[n:])
}

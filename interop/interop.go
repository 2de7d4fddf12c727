// Package interop runs llama.cpp's own grammar engine next to our tests, so
// that "llama.cpp parses every grammar we emit and agrees with our matcher"
// is checked, not assumed.
//
// The engine is node-llama-cpp (pinned in package-lock.json, CPU build for
// linux-x64) driven by llama.mjs, a long-lived node process that speaks
// newline-delimited JSON. Start installs the npm package with `npm ci` when
// node_modules is missing, under a file lock so that test binaries running in
// parallel install it once.
//
// Texts travel as JSON strings, so they must be valid UTF-8. llama.cpp's
// checker (isTextCompatible) reads them as code points and matches U+0000
// like any other; in real decoding, though, tokens are C strings and NUL
// never reaches the grammar, so comparisons with our matcher skip texts that
// contain NUL (see HasNUL).
package interop

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"unicode/utf8"
)

// maxBatchBytes bounds one check request: Accepts splits bigger batches so
// that no single JSON line grows without limit. A variable for tests.
var maxBatchBytes = 4 << 20

// MaxEngineMemory bounds the node process's address space (ulimit -v), so a
// grammar that makes llama.cpp allocate without end (this release on {3,1})
// ends in a load error ("std::bad_alloc") instead of exhausting the machine.
const MaxEngineMemory = 2 << 30

// Engine is one running node process holding llama.cpp's grammar engine.
// It is safe for concurrent use; requests are served one at a time.
type Engine struct {
	mu       sync.Mutex
	dir      string // the interop folder (package.json, llama.mjs)
	node     string // path of the node binary
	proc     *process
	versions map[string]string
}

// process is one generation of the node process; a crashed process is
// replaced on the next Load or PeerGrammar, and grammars loaded by it become
// invalid.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *os.File // a regular file, so llama.mjs can read llama.cpp's messages back
	nextID int64
	dead   error
}

// Grammar is a grammar loaded into llama.cpp.
type Grammar struct {
	e      *Engine
	proc   *process
	handle int64
	closed bool
}

// EngineError is a request the engine refused; from Load, llama.cpp refusing
// the grammar, with Detail saying what llama.cpp said
// (e.g. `parse: error parsing grammar: unknown escape at \d"`).
type EngineError struct {
	Message string
	Detail  string
}

func (e *EngineError) Error() string {
	if e.Detail == "" {
		return "llama.cpp: " + e.Message
	}
	return "llama.cpp: " + e.Message + ": " + e.Detail
}

// Dir returns the interop folder, found from this source file's location so
// that tests of any package can start the harness.
func Dir() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("interop: cannot locate interop.go (runtime.Caller failed)")
	}
	return filepath.Dir(file), nil
}

// Start finds node, installs node_modules when missing and starts llama.mjs.
func Start() (*Engine, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("interop: node not found in PATH (install Node.js %d or newer, e.g. apt-get install nodejs npm): %w", MinNodeMajor, err)
	}
	if err := ensureModules(dir); err != nil {
		return nil, err
	}
	e := &Engine{dir: dir, node: node}
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.spawn(); err != nil {
		return nil, err
	}
	return e, nil
}

// installed reports whether `npm ci` finished in dir: npm writes
// node_modules/.package-lock.json last.
func installed(dir string) bool {
	for _, p := range []string{
		"node_modules/.package-lock.json",
		"node_modules/node-llama-cpp/package.json",
		"node_modules/@node-llama-cpp/linux-x64/package.json",
	} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			return false
		}
	}
	return true
}

// ensureModules runs `npm ci` in dir unless node_modules is complete. The
// lock file lives in the temp dir (keyed by dir) to keep the work tree clean.
func ensureModules(dir string) error {
	if installed(dir) {
		return nil
	}
	sum := sha256.Sum256([]byte(dir))
	lockPath := filepath.Join(os.TempDir(), "schema2gbnf-npm-"+hex.EncodeToString(sum[:8])+".lock")
	lock, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return fmt.Errorf("interop: npm install lock: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("interop: npm install lock: %w", err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if installed(dir) { // another test binary installed it while we waited
		return nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return fmt.Errorf("interop: npm not found in PATH, needed to install node-llama-cpp in %s: %w", dir, err)
	}
	cmd := exec.Command(npm, "ci")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NODE_LLAMA_CPP_SKIP_DOWNLOAD=true", "CI=true")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("interop: npm ci in %s: %w\n%s", dir, err, tail(out, 4000))
	}
	if !installed(dir) {
		return fmt.Errorf("interop: npm ci in %s finished but node_modules is incomplete\n%s", dir, tail(out, 4000))
	}
	return nil
}

// spawn starts a new node process and asks its versions, which also waits
// until llama.cpp is loaded. e.mu must be held.
func (e *Engine) spawn() error {
	stderr, err := os.CreateTemp("", "schema2gbnf-llama-stderr-*.txt")
	if err != nil {
		return fmt.Errorf("interop: %w", err)
	}
	// Unlinked at once: node gets the open descriptor, both sides read it
	// through descriptors, and nothing is left in the temp dir.
	os.Remove(stderr.Name())
	// The shell sets the memory limit, then becomes node.
	limit := fmt.Sprintf("ulimit -v %d && exec \"$0\" llama.mjs", MaxEngineMemory>>10)
	cmd := exec.Command("/bin/sh", "-c", limit, e.node)
	cmd.Dir = e.dir
	cmd.Env = append(os.Environ(), "NODE_LLAMA_CPP_SKIP_DOWNLOAD=true")
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		stderr.Close()
		return fmt.Errorf("interop: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		stderr.Close()
		return fmt.Errorf("interop: %w", err)
	}
	if err := cmd.Start(); err != nil {
		stderr.Close()
		return fmt.Errorf("interop: starting node llama.mjs: %w", err)
	}
	p := &process{cmd: cmd, stdin: stdin, stdout: bufio.NewReaderSize(stdout, 1<<16), stderr: stderr}
	e.proc = p
	var reply struct {
		Versions map[string]string `json:"versions"`
	}
	if err := e.call(p, map[string]any{"op": "version"}, &reply); err != nil {
		return err
	}
	e.versions = reply.Versions
	return nil
}

// live returns the current process, starting a new one if it died.
func (e *Engine) live() (*process, error) {
	if e.proc == nil {
		return nil, errors.New("interop: engine is closed")
	}
	if e.proc.dead != nil {
		if err := e.spawn(); err != nil {
			return nil, err
		}
	}
	return e.proc, nil
}

// replyHeader is the part every reply has.
type replyHeader struct {
	ID     *int64 `json:"id"`
	Error  string `json:"error"`
	Detail string `json:"detail"`
}

// call sends one request to p and decodes the reply into out. e.mu must be
// held. A broken pipe or an unreadable reply kills p and reports node's stderr.
func (e *Engine) call(p *process, req map[string]any, out any) error {
	if p.dead != nil {
		return p.dead
	}
	p.nextID++
	id := p.nextID
	req["id"] = id
	line, err := json.Marshal(req)
	if err != nil {
		return fmt.Errorf("interop: encoding request: %w", err)
	}
	line = append(line, '\n')
	if _, err := p.stdin.Write(line); err != nil {
		return e.kill(p, fmt.Errorf("writing request: %w", err))
	}
	resp, err := p.stdout.ReadBytes('\n')
	if err != nil {
		return e.kill(p, fmt.Errorf("reading reply: %w", err))
	}
	var head replyHeader
	if err := json.Unmarshal(resp, &head); err != nil {
		return e.kill(p, fmt.Errorf("bad reply %q: %w", tail(resp, 200), err))
	}
	if head.ID == nil || *head.ID != id {
		return e.kill(p, fmt.Errorf("reply %q does not answer request %d", tail(resp, 200), id))
	}
	if head.Error != "" {
		return &EngineError{Message: head.Error, Detail: head.Detail}
	}
	if out != nil {
		if err := json.Unmarshal(resp, out); err != nil {
			return fmt.Errorf("interop: decoding reply: %w", err)
		}
	}
	return nil
}

// kill ends a process that broke the protocol and returns why, with the end
// of its stderr.
func (e *Engine) kill(p *process, cause error) error {
	p.stdin.Close()
	if p.cmd.Process != nil {
		p.cmd.Process.Kill()
	}
	p.cmd.Wait()
	p.dead = fmt.Errorf("interop: node llama.mjs: %v (%s)\nstderr: %s", cause, p.cmd.ProcessState, p.stderrTail())
	p.stderr.Close()
	return p.dead
}

func (p *process) stderrTail() string {
	const n = 2000
	info, err := p.stderr.Stat()
	if err != nil {
		return "(unreadable: " + err.Error() + ")"
	}
	start := max(info.Size()-n, 0)
	b := make([]byte, info.Size()-start)
	got, err := p.stderr.ReadAt(b, start)
	if err != nil && err != io.EOF {
		return "(unreadable: " + err.Error() + ")"
	}
	return string(tail(b[:got], n))
}

// Versions reports node's, node-llama-cpp's and llama.cpp's versions.
func (e *Engine) Versions() map[string]string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.versions
}

// Load parses grammar with llama.cpp. A grammar llama.cpp refuses gives a
// *EngineError carrying llama.cpp's message.
//
// Beware: this llama.cpp expands {m,n} with n < m into about 2⁶⁴ rules; the
// load then fails with std::bad_alloc at MaxEngineMemory, slowly (seconds).
func (e *Engine) Load(grammar string) (*Grammar, error) {
	if !utf8.ValidString(grammar) {
		return nil, errors.New("interop: grammar text is not valid UTF-8")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	p, err := e.live()
	if err != nil {
		return nil, err
	}
	var reply struct {
		Handle int64 `json:"handle"`
	}
	if err := e.call(p, map[string]any{"op": "load", "grammar": grammar}, &reply); err != nil {
		return nil, err
	}
	return &Grammar{e: e, proc: p, handle: reply.Handle}, nil
}

// Accepts reports, for each text, whether llama.cpp accepts the whole text.
// Texts must be valid UTF-8 (JSON strings cannot carry other bytes).
func (g *Grammar) Accepts(texts []string) ([]bool, error) {
	for i, t := range texts {
		if !utf8.ValidString(t) {
			return nil, fmt.Errorf("interop: text %d is not valid UTF-8: %q", i, t)
		}
	}
	g.e.mu.Lock()
	defer g.e.mu.Unlock()
	if g.closed {
		return nil, errors.New("interop: grammar is closed")
	}
	if g.proc != g.e.proc || g.proc.dead != nil {
		return nil, errors.New("interop: the node process that loaded this grammar has ended; load it again")
	}
	verdicts := make([]bool, 0, len(texts))
	for start := 0; start < len(texts); {
		end, size := start, 0
		for end < len(texts) && (end == start || size+len(texts[end]) <= maxBatchBytes) {
			size += len(texts[end]) + 8
			end++
		}
		var reply struct {
			Accepted []bool `json:"accepted"`
		}
		err := g.e.call(g.proc, map[string]any{"op": "check", "handle": g.handle, "texts": texts[start:end]}, &reply)
		if err != nil {
			return nil, err
		}
		if len(reply.Accepted) != end-start {
			return nil, fmt.Errorf("interop: asked %d texts, got %d verdicts", end-start, len(reply.Accepted))
		}
		verdicts = append(verdicts, reply.Accepted...)
		start = end
	}
	return verdicts, nil
}

// Close frees the grammar in llama.cpp. Closing twice is harmless.
func (g *Grammar) Close() {
	g.e.mu.Lock()
	defer g.e.mu.Unlock()
	if g.closed {
		return
	}
	g.closed = true
	if g.proc == g.e.proc && g.proc.dead == nil {
		g.e.call(g.proc, map[string]any{"op": "free", "handle": g.handle}, nil)
	}
}

// PeerGrammar converts a JSON schema with node-llama-cpp's own converter
// (createGrammarForJsonSchema) and returns its GBNF text, for side-by-side
// comparisons with ours.
func (e *Engine) PeerGrammar(schemaJSON []byte) (string, error) {
	if !json.Valid(schemaJSON) {
		return "", errors.New("interop: schema is not valid JSON")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	p, err := e.live()
	if err != nil {
		return "", err
	}
	var reply struct {
		Grammar string `json:"grammar"`
	}
	req := map[string]any{"op": "peer", "schema": json.RawMessage(schemaJSON)}
	if err := e.call(p, req, &reply); err != nil {
		var le *EngineError
		if errors.As(err, &le) {
			return "", fmt.Errorf("node-llama-cpp converter: %s", le.Message)
		}
		return "", err
	}
	return reply.Grammar, nil
}

// Close ends the node process.
func (e *Engine) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	p := e.proc
	e.proc = nil
	if p == nil || p.dead != nil {
		return nil
	}
	p.stdin.Close()
	err := p.cmd.Wait()
	p.stderr.Close()
	if err != nil {
		return fmt.Errorf("interop: node llama.mjs: %w", err)
	}
	return nil
}

// HasNUL reports whether text contains U+0000, which never reaches a grammar
// in real decoding; comparisons skip such texts.
func HasNUL(text string) bool { return strings.IndexByte(text, 0) >= 0 }

var shared struct {
	once   sync.Once
	engine *Engine
	err    error
}

// Shared returns one engine per test binary, started on first use. Where
// Node.js is missing it skips the test with one line (see Require; under
// CI=true it fails); an engine that is there but cannot start fails the test.
func Shared(tb testing.TB) *Engine {
	tb.Helper()
	Require(tb)
	shared.once.Do(func() { shared.engine, shared.err = Start() })
	if shared.err != nil {
		tb.Fatalf("llama.cpp interop engine: %v", shared.err)
	}
	return shared.engine
}

func tail(b []byte, n int) []byte {
	b = bytes.TrimSpace(b)
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

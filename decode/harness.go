package decode

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/schema2gbnf/schema2gbnf/interop"
)

// MaxEngineMemory bounds the node process's address space (ulimit -v), as in
// package interop: a grammar that makes llama.cpp allocate without end fails
// instead of exhausting the machine.
const MaxEngineMemory = 2 << 30

// WatchAfter is how long a reply may take before the watchdog reports what
// the engine is doing (on stderr: the request, and the node side's own
// note of the token it waits for), and again after each further
// WatchAfter. It never ends anything: a slow machine makes a slow test,
// never a failed one, and a real hang is ended by go test's -timeout,
// after these reports have said what hung.
const WatchAfter = 30 * time.Second

// End says how a generation ended.
type End string

const (
	EndEOS    End = "eos"    // the model sampled end-of-sequence: the output is finished
	EndBudget End = "budget" // cut by the token budget: INCOMPLETE, reported apart
	EndDone   End = "done"   // the engine stopped without EOS: a failure
	EndFailed End = "failed" // the engine aborted the generation (Output.Error says why): a failure
)

// Output is one generation.
type Output struct {
	Seed   uint64
	Tokens []int
	Bytes  []byte // the exact bytes of Tokens
	End    End
	Millis float64 // sampling time measured inside node, excluding our pipe
	Error  string  // with EndFailed, the engine's message
}

// Runner is one node process holding the model; not safe for concurrent use.
type Runner struct {
	model  string
	vocab  *Vocab
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *bufio.Reader
	stderr *os.File
	nextID int64
	// grammars loaded in the current process, by text, so a restart after a
	// failed generation reloads them.
	handles map[string]int64
	peers   map[string]int64
}

// Start starts decode.mjs on a model file written by WriteModel, whose
// vocabulary is vocab. node-llama-cpp comes from ../interop/node_modules, installed through package
// interop when missing.
func Start(modelPath string, vocab *Vocab) (*Runner, error) {
	if _, err := os.Stat(filepath.Join(interopDir(), "node_modules", "node-llama-cpp", "package.json")); err != nil {
		e, err := interop.Start() // runs npm ci under its lock
		if err != nil {
			return nil, err
		}
		e.Close()
	}
	r := &Runner{model: modelPath, vocab: vocab}
	if err := r.spawn(); err != nil {
		return nil, err
	}
	return r, nil
}

func interopDir() string {
	d, _ := interop.Dir()
	return d
}

func (r *Runner) spawn() error {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return errors.New("decode: cannot locate harness.go")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return fmt.Errorf("decode: node not found in PATH: %w", err)
	}
	stderr, err := os.CreateTemp("", "schema2gbnf-decode-stderr-*.txt")
	if err != nil {
		return err
	}
	limit := fmt.Sprintf("ulimit -v %d && exec \"$0\" decode.mjs \"$1\"", MaxEngineMemory>>10)
	cmd := exec.Command("/bin/sh", "-c", limit, node, r.model)
	cmd.Dir = filepath.Dir(file)
	cmd.Env = append(os.Environ(), "NODE_LLAMA_CPP_SKIP_DOWNLOAD=true")
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		stderr.Close()
		return fmt.Errorf("decode: starting node decode.mjs: %w", err)
	}
	r.cmd, r.stdin, r.stdout, r.stderr = cmd, stdin, bufio.NewReaderSize(stdout, 1<<16), stderr
	r.handles, r.peers = map[string]int64{}, map[string]int64{}
	// The first reply comes once llama.cpp and the model are loaded.
	return r.call(map[string]any{"op": "version"}, nil)
}

// call sends a request and decodes the reply. A broken process is ended and
// reported with its stderr; the next request starts a new one. While the
// reply is awaited, the watchdog reports every WatchAfter what it is.
func (r *Runner) call(req map[string]any, out any) error {
	if r.cmd == nil {
		if err := r.spawn(); err != nil {
			return err
		}
	}
	r.nextID++
	req["id"] = r.nextID
	line, err := json.Marshal(req)
	if err != nil {
		return err
	}
	if _, err := r.stdin.Write(append(line, '\n')); err != nil {
		return r.end(fmt.Errorf("writing request: %w", err))
	}
	stop := r.watch(req)
	resp, err := r.stdout.ReadBytes('\n')
	stop()
	if err != nil {
		return r.end(fmt.Errorf("reading reply: %w", err))
	}
	var head struct {
		ID    int64  `json:"id"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(resp, &head); err != nil || head.ID != r.nextID {
		return r.end(fmt.Errorf("bad reply %.200q", resp))
	}
	if head.Error != "" {
		return errors.New("llama.cpp: " + head.Error)
	}
	if out != nil {
		return json.Unmarshal(resp, out)
	}
	return nil
}

// watch reports on stderr, every WatchAfter until stop is called, that req
// has no reply yet, with the end of the node side's stderr (where
// decode.mjs notes the token a generation waits for).
func (r *Runner) watch(req map[string]any) (stop func()) {
	what := fmt.Sprintf("%v", req["op"])
	for _, k := range []string{"handle", "seed", "maxTokens"} {
		if v, ok := req[k]; ok {
			what += fmt.Sprintf(" %s=%v", k, v)
		}
	}
	if g, ok := req["grammar"].(string); ok {
		what += fmt.Sprintf(" grammar %.200q", g)
	}
	start, stderr := time.Now(), r.stderr.Name()
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(WatchAfter)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				b, _ := os.ReadFile(stderr)
				if len(b) > 1000 {
					b = b[len(b)-1000:]
				}
				fmt.Fprintf(os.Stderr, "decode watchdog: no reply to %s after %v; still waiting. node stderr ends: %s\n",
					what, time.Since(start).Round(time.Second), b)
			}
		}
	}()
	return func() { close(done) }
}

// end stops the process (it broke the protocol, or exited after a failed
// generation) and returns cause with the end of its stderr.
func (r *Runner) end(cause error) error {
	if r.cmd == nil {
		return cause
	}
	r.stdin.Close()
	r.cmd.Process.Kill()
	r.cmd.Wait()
	b, _ := os.ReadFile(r.stderr.Name())
	r.stderr.Close()
	os.Remove(r.stderr.Name())
	r.cmd = nil
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return fmt.Errorf("decode: node decode.mjs: %v\nstderr: %s", cause, b)
}

// Close ends the node process.
func (r *Runner) Close() {
	if r.cmd != nil {
		r.stdin.Close()
		r.cmd.Wait()
		r.stderr.Close()
		os.Remove(r.stderr.Name())
		r.cmd = nil
	}
}

// Grammar names what constrains a generation: our GBNF text, the peer
// converter's grammar for a schema, or nothing.
type Grammar struct {
	GBNF       string // our grammar
	PeerSchema []byte // or: node-llama-cpp's createGrammarForJsonSchema of this schema
}

// handle loads g in the current process (once) and returns its handle; 0 is
// no grammar.
func (r *Runner) handle(g Grammar) (int64, error) {
	if r.cmd == nil {
		if err := r.spawn(); err != nil {
			return 0, err
		}
	}
	var reply struct {
		Handle int64 `json:"handle"`
	}
	switch {
	case g.GBNF != "":
		if h, ok := r.handles[g.GBNF]; ok {
			return h, nil
		}
		if err := r.call(map[string]any{"op": "load", "grammar": g.GBNF}, &reply); err != nil {
			return 0, err
		}
		r.handles[g.GBNF] = reply.Handle
	case g.PeerSchema != nil:
		if h, ok := r.peers[string(g.PeerSchema)]; ok {
			return h, nil
		}
		req := map[string]any{"op": "peer", "schema": json.RawMessage(g.PeerSchema)}
		if err := r.call(req, &reply); err != nil {
			return 0, err
		}
		r.peers[string(g.PeerSchema)] = reply.Handle
	}
	return reply.Handle, nil
}

// Free unloads g from the engine, so that a long run over many schemas does
// not keep every grammar. Freeing a grammar never loaded is harmless.
func (r *Runner) Free(g Grammar) {
	if r.cmd == nil {
		return
	}
	var h int64
	if g.GBNF != "" {
		h = r.handles[g.GBNF]
		delete(r.handles, g.GBNF)
	} else if g.PeerSchema != nil {
		h = r.peers[string(g.PeerSchema)]
		delete(r.peers, string(g.PeerSchema))
	}
	if h != 0 {
		r.call(map[string]any{"op": "free", "handle": h}, nil)
	}
}

// Bias is a logit bias per token id; math.Inf(-1) bans a token.
type Bias map[int]float64

// Generate samples one output at temperature 1 from the BOS token, under g,
// with seed and at most maxTokens tokens.
func (r *Runner) Generate(g Grammar, seed uint64, maxTokens int, bias Bias) (Output, error) {
	if maxTokens <= 0 || maxTokens >= ContextLength {
		return Output{}, fmt.Errorf("decode: token budget %d outside 1..%d", maxTokens, ContextLength-1)
	}
	h, err := r.handle(g)
	if err != nil {
		return Output{}, err
	}
	pairs := make([][2]any, 0, len(bias))
	for _, id := range sortedKeys(bias) {
		var v any = bias[id]
		if bias[id] < -1e30 {
			v = nil // JSON has no -Inf: null means ban
		}
		pairs = append(pairs, [2]any{id, v})
	}
	var reply struct {
		Tokens []int   `json:"tokens"`
		End    End     `json:"end"`
		Ms     float64 `json:"ms"`
		Exit   bool    `json:"exit"`
		Error  string  `json:"why"`
	}
	req := map[string]any{"op": "generate", "handle": h, "seed": seed, "maxTokens": maxTokens,
		"watchMs": WatchAfter.Milliseconds(), "bias": pairs}
	if err := r.call(req, &reply); err != nil {
		return Output{}, err
	}
	if reply.Exit { // decode.mjs exits after a failed generation
		r.end(errors.New("generation " + string(reply.End)))
	}
	b, err := r.vocab.Bytes(reply.Tokens)
	if err != nil {
		return Output{}, err
	}
	return Output{Seed: seed, Tokens: reply.Tokens, Bytes: b, End: reply.End, Millis: reply.Ms, Error: reply.Error}, nil
}

func sortedKeys(b Bias) []int {
	keys := make([]int, 0, len(b))
	for k := range b {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Logit biases of SamplingBias. A random model spreads its probability over
// the whole vocabulary, so a string would close (one `"` token among
// hundreds) only after about a hundred tokens: favouring tokens that close
// something, and EOS where the grammar allows it, keeps outputs short enough
// to finish within a budget. The grammar still decides what is possible.
const (
	closingBias = 3.0
	eosBias     = 4.0
	// digitBias damps digit tokens: a number ends only when a closer is
	// drawn, and unchecked runs of digits after an exponent pass the strict
	// reader's MaxNumberDigits, which leaves the output unchecked.
	digitBias = -2.0
)

// SamplingBias is the harness's bias: BOS banned (llama.cpp's grammar treats
// control tokens as text that adds no bytes, so it could be sampled anywhere),
// closers and EOS favoured, digits damped, and with utf8Only every token that is not
// complete UTF-8 banned, so only whole characters are sampled.
func SamplingBias(v *Vocab, utf8Only bool) Bias {
	b := Bias{v.BOS: math.Inf(-1), v.EOS: eosBias}
	for id, t := range v.Tokens {
		switch {
		case bytes.ContainsAny(t, `"}]`):
			b[id] = closingBias
		case len(t) > 0 && len(bytes.Trim(t, "0123456789")) == 0:
			b[id] = digitBias
		}
	}
	if utf8Only {
		for _, id := range v.NotUTF8() {
			b[id] = math.Inf(-1)
		}
	}
	return b
}

// WithoutEOS returns a copy of b that bans EOS: a run without a grammar then
// goes on to its budget, so it can be timed at the length of a grammar's
// output (the cost of a token grows with its position).
func (b Bias) WithoutEOS(v *Vocab) Bias {
	c := make(Bias, len(b)+1)
	for id, x := range b {
		c[id] = x
	}
	c[v.EOS] = math.Inf(-1)
	return c
}

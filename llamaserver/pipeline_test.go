package llamaserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/tools/txtar"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/decode"
	"github.com/schema2gbnf/schema2gbnf/internal/oracle"
	"github.com/schema2gbnf/schema2gbnf/interop"
	"github.com/schema2gbnf/schema2gbnf/verdict"
)

var (
	flagSample  = flag.Int("llamaserver.sample", 4, "schemas taken from each subset of the vendored corpus testdata/corpus (0: all)")
	flagPrompts = flag.Int("llamaserver.prompts", 4, "prompts (fixed, one sampling stream each) per schema")
	flagSeed    = flag.Uint64("llamaserver.seed", 1, "the server's sampling seed")
	flagReadme  = flag.String("llamaserver.readme", "", "write the counts into the marked section of this file (../bench/README.md)")
	flagPeer    = flag.Bool("llamaserver.peer", true, "also run the server's json_schema route on the same schemas and prompts")
)

// tools the README's pipeline runs, besides schema2gbnf.
var pipelineTools = []string{"bash", "jq", "curl"}

// require skips the test with one line saying what did not run and how to
// run it, when this machine cannot build or run llama-server; under CI=true
// it fails instead. It returns the bundle's path.
func require(t *testing.T) string {
	t.Helper()
	why := ""
	if t := MissingTool(); t != "" {
		why = t + " is not in PATH (the build needs " + strings.Join(Tools, ", ") + ")"
	}
	for _, tool := range pipelineTools {
		if _, err := exec.LookPath(tool); err != nil && why == "" {
			why = tool + " is not in PATH (the README's pipeline runs " + strings.Join(pipelineTools, ", ") + ")"
		}
	}
	bundle := ""
	if why == "" {
		if dir, err := interop.Modules(); err != nil {
			why = "node-llama-cpp is not installed: " + firstLine(err.Error())
		} else {
			bundle = filepath.Join(dir, BundlePath)
			if _, err := os.Stat(bundle); err != nil {
				why = "node-llama-cpp ships no llama.cpp bundle at " + BundlePath
			}
		}
	}
	if why == "" {
		return bundle
	}
	msg := "llama-server checks not run: " + why + "; install them (apt-get install cmake g++ make git jq curl, and Node.js 20 with npm) and run go test again"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg + " (CI=true: llama-server must run)")
	}
	skip(t, msg)
	return ""
}

// skipSaid keeps the whole skip message to the first skipped test.
var skipSaid atomic.Bool

func skip(t *testing.T, msg string) {
	t.Helper()
	if skipSaid.Swap(true) {
		t.Skip("llama-server checks not run (said above)")
	}
	t.Skip(msg)
}

func firstLine(s string) string { l, _, _ := strings.Cut(s, "\n"); return l }

// TestBuild builds llama-server, or finds it in the cache. .ci/run runs it
// alone first, with a long timeout, so that the whole run finds the build.
func TestBuild(t *testing.T) {
	b := built(t)
	t.Logf("llama-server %s at %s (cached: %v, build took %v)", b.Version, b.Binary, b.Cached, b.Took.Round(time.Second))
}

// buildTime is what a build may take: about 7 minutes of two idle cores,
// far more on a busy machine.
const buildTime = 30 * time.Minute

// built returns llama-server, building it when the cache has none and the
// test's deadline leaves room for a build (go test's default 10 minutes do
// not): otherwise the test skips, saying how to build it once, except under
// CI=true, where it builds.
func built(t *testing.T) *Build {
	t.Helper()
	bundle := require(t)
	if b, ok := Cached(bundle); ok {
		return b
	}
	if deadline, ok := t.Deadline(); ok && time.Until(deadline) < buildTime && os.Getenv("CI") != "true" {
		skip(t, "llama-server checks not run: llama-server is not built yet, and a build (about 7 minutes on 2 cores) does not fit this run's timeout; build it once with: go test -run TestBuild -timeout 75m ./llamaserver")
	}
	var log bytes.Buffer
	b, err := Built(bundle, &log)
	if err != nil {
		t.Fatal(err)
	}
	if !b.Cached {
		t.Logf("built llama-server from %s in %v", BundlePath, b.Took.Round(time.Second))
	}
	return b
}

// server starts llama-server on a model decode writes, with decode's
// sampling bias as the server's default, and stops it with the test.
func server(t *testing.T, b *Build) (*Server, func() *Server) {
	t.Helper()
	model := filepath.Join(t.TempDir(), "model.gguf")
	f, err := os.Create(model)
	if err != nil {
		t.Fatal(err)
	}
	vocab, err := decode.WriteModel(f, decode.ModelConfig{Seed: 1})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Binary: b.Binary, Model: model, Seed: *flagSeed, Bias: decode.SamplingBias(vocab, true)}
	start := func() *Server {
		s, err := Start(cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Stop)
		return s
	}
	return start(), start
}

// readmeBlock is the shell code of the README block marked name.
func readmeBlock(t *testing.T, name string) string {
	t.Helper()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(readme)
	begin := "<!-- begin " + name + ":"
	i := strings.Index(doc, begin)
	j := strings.Index(doc, "<!-- end "+name+" -->")
	if i < 0 || j < i {
		t.Fatalf("README.md has no block %q … <!-- end %s -->", begin, name)
	}
	block := doc[i:j]
	k := strings.Index(block, "```sh\n")
	l := strings.LastIndex(block, "```")
	if k < 0 || l <= k {
		t.Fatalf("README.md block %s holds no ```sh code", name)
	}
	return block[k+len("```sh\n") : l]
}

// schemaBinary builds the command the README's pipeline calls.
func schemaBinary(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "schema2gbnf"), "../cmd/schema2gbnf")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/schema2gbnf: %v\n%s", err, out)
	}
	return dir
}

type namedSchema struct {
	name string
	data []byte
}

// vendoredSchemas: the schema of each compile/testdata case, testdata/equiv,
// and the first -llamaserver.sample schemas of each vendored corpus subset
// (the same set as decode's tests).
func vendoredSchemas(t *testing.T) []namedSchema {
	t.Helper()
	var out []namedSchema
	archives, _ := filepath.Glob("../compile/testdata/*.txtar")
	sort.Strings(archives)
	for _, p := range archives {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range txtar.Parse(b).Files {
			if f.Name == "schema.json" {
				out = append(out, namedSchema{"compile/testdata/" + filepath.Base(p), f.Data})
			}
		}
	}
	out = append(out, jsonFiles(t, "../testdata/equiv", 0)...)
	dirs, _ := filepath.Glob("../testdata/corpus/*")
	sort.Strings(dirs)
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			out = append(out, jsonFiles(t, d, *flagSample)...)
		}
	}
	return out
}

func jsonFiles(t *testing.T, dir string, limit int) []namedSchema {
	paths, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	sort.Strings(paths)
	if limit > 0 && len(paths) > limit {
		paths = paths[:limit]
	}
	var out []namedSchema
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, namedSchema{filepath.Base(dir) + "/" + filepath.Base(p), b})
	}
	return out
}

// prompt is the i-th fixed prompt: with a fixed seed and a fixed prompt,
// each request is one fixed sampling stream.
func prompt(i int) string { return fmt.Sprintf("Fill in the form as JSON. Sample %d.", i) }

// verdictLine is a line of verdicts.jsonl.
type verdictLine struct {
	ID json.RawMessage `json:"id"`
	verdict.Verdict
}

// TestPipeline runs the README's pipeline blocks, verbatim, against a real
// llama-server over the vendored schemas, one fixed sampling stream per
// prompt: every finished reply must be COMPLETE_VALID, written the
// grammar's way and accepted by the oracle validator, and every reply cut at
// the token limit INCOMPLETE; the server's own json_schema route runs on the
// same schemas and prompts beside it, for the figures.
func TestPipeline(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the README's pipeline against llama-server takes minutes")
	}
	b := built(t)
	srv, restart := server(t, b)
	bin := schemaBinary(t)
	single, batch := readmeBlock(t, "pipeline"), readmeBlock(t, "pipeline-batch")
	var ours, peer routeCounts
	compiled, refused := 0, 0
	var crashedOn []string
	begin := time.Now()
	deadline, hasDeadline := t.Deadline()
	for _, sc := range vendoredSchemas(t) {
		if hasDeadline && time.Until(deadline) < time.Minute {
			t.Fatalf("stopped after %d schemas: less than a minute of the test's timeout is left (a busy machine); run with a longer -timeout", compiled)
		}
		g, err := schema2gbnf.Compile(sc.data, schema2gbnf.Options{})
		if err != nil {
			refused++
			continue
		}
		compiled++
		o, err := oracle.New(sc.data, g.Schema.Draft)
		if err != nil {
			t.Fatalf("%s: the oracle refuses a schema we compile: %v", sc.name, err)
		}
		judge, err := verdict.New(g, verdict.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		write(t, filepath.Join(dir, "schema.json"), sc.data)
		var prompts bytes.Buffer
		for i := 1; i <= *flagPrompts; i++ {
			line, _ := json.Marshal(map[string]any{"id": fmt.Sprintf("%s#%d", sc.name, i), "prompt": prompt(i)})
			prompts.Write(append(line, '\n'))
		}
		write(t, filepath.Join(dir, "prompts.jsonl"), prompts.Bytes())

		// The batch block: every prompt.
		logAt := srv.LogLen()
		code, out := runBlock(t, batch, dir, bin, srv.URL, "")
		if srv.Exited() {
			crashedOn = append(crashedOn, sc.name+" (grammar route)")
			ours.Crashes++
			t.Errorf("%s: llama-server died under our grammar:\n%s", sc.name, srv.LogSince(logAt))
			srv = restart()
			continue
		}
		replies := readLines(t, filepath.Join(dir, "replies.jsonl"))
		verdicts := readLines(t, filepath.Join(dir, "verdicts.jsonl"))
		if len(replies) != *flagPrompts || len(verdicts) != *flagPrompts {
			t.Fatalf("%s: the batch block wrote %d replies and %d verdicts for %d prompts (exit %d)\n%s", sc.name, len(replies), len(verdicts), *flagPrompts, code, out)
		}
		for i := range verdicts {
			ours.Requests++
			var v verdictLine
			if err := json.Unmarshal([]byte(verdicts[i]), &v); err != nil {
				t.Fatalf("%s: %v: %s", sc.name, err, verdicts[i])
			}
			var entry struct {
				ID    json.RawMessage `json:"id"`
				Reply string          `json:"reply"`
			}
			if err := json.Unmarshal([]byte(replies[i]), &entry); err != nil {
				t.Fatalf("%s: %v: %s", sc.name, err, replies[i])
			}
			ours.add(v.Verdict)
			ours.timed([]byte(entry.Reply))
			checkOurs(t, sc, o, judge, string(v.ID), string(entry.ID), []byte(entry.Reply), v.Verdict)
		}

		// The single block, on the first prompt of every fourth schema (it
		// spawns five processes): its verdict is the batch's.
		if compiled%4 == 1 {
			code, out = runBlock(t, single, dir, bin, srv.URL, prompt(1))
			var v verdict.Verdict
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("%s: the single block printed no verdict (exit %d): %v\n%s", sc.name, code, err, out)
			}
			var first verdictLine
			json.Unmarshal([]byte(verdicts[0]), &first)
			if v.Class != first.Class || v.Offset != first.Offset || code != exitOf(v.Class) {
				t.Errorf("%s: the single block says %s at %d (exit %d), the batch %s at %d", sc.name, v.Class, v.Offset, code, first.Class, first.Offset)
			}
		}

		// Cut short: a direct request with a small n_predict, so that the
		// terminal gate meets the token limit.
		_, body, err := srv.Post("/completion", map[string]any{"prompt": prompt(1), "grammar": g.GBNF, "n_predict": cutN})
		if err != nil {
			t.Fatalf("%s: %v", sc.name, err)
		}
		cut := judge.JudgeReply(body)
		ours.cut(cut)
		if r := verdict.ReadReply(body); r.Stop == "limit" && cut.Class != verdict.CompleteValid && (cut.Class != verdict.Incomplete || len(cut.Next) == 0) {
			t.Errorf("%s: cut at %d tokens: %s (%s), next %v\ntext: %q", sc.name, cutN, cut.Class, cut.Message, cut.Next, r.Text)
		}

		if !*flagPeer {
			continue
		}
		if _, body, err := srv.Post("/completion", map[string]any{"prompt": prompt(1), "json_schema": json.RawMessage(sc.data), "n_predict": cutN}); err == nil {
			peer.cut(judge.JudgeReply(body))
		}
		for i := 1; i <= *flagPrompts; i++ {
			peer.Requests++
			logAt := srv.LogLen()
			status, body, err := srv.Post("/completion", map[string]any{"prompt": prompt(i), "json_schema": json.RawMessage(sc.data), "n_predict": 512})
			if srv.Exited() {
				crashedOn = append(crashedOn, sc.name+" (json_schema route)")
				peer.Crashes++
				srv = restart()
				continue
			}
			if err != nil {
				t.Fatalf("%s: json_schema route: %v", sc.name, err)
			}
			if status == 200 && strings.Contains(srv.LogSince(logAt), "error parsing grammar") {
				peer.Unconstrained++
			}
			v := judge.JudgeReply(body)
			peer.timed(body)
			if v.Class == verdict.ProviderError && status == 200 {
				t.Errorf("%s: an HTTP 200 judged PROVIDER_ERROR: %s", sc.name, body)
			}
			peer.add(v)
		}
	}
	t.Logf("%d schemas compiled (%d refused), %d prompts each, in %v; crashes on %v", compiled, refused, *flagPrompts, time.Since(begin).Round(time.Second), crashedOn)
	t.Logf("ours (grammar):         %+v", ours)
	t.Logf("server's json_schema:   %+v", peer)
	if ours.Requests == 0 || compiled < 50 {
		t.Fatalf("only %d schemas compiled", compiled)
	}
	if *flagReadme != "" {
		writeBench(t, *flagReadme, b, compiled, ours, peer)
	}
}

// checkOurs: a finished reply under our grammar is COMPLETE_VALID, in the
// grammar's spelling, and the oracle agrees; a reply cut at the limit is
// INCOMPLETE; the caller's id is kept.
func checkOurs(t *testing.T, sc namedSchema, o *oracle.Oracle, judge *verdict.Judge, id, wantID string, reply []byte, v verdict.Verdict) {
	t.Helper()
	if id != wantID {
		t.Errorf("%s: verdict id %s, reply id %s", sc.name, id, wantID)
	}
	r := verdict.ReadReply(reply)
	if r.Error != nil {
		t.Errorf("%s %s: the server answered an error to our grammar: %s", sc.name, id, reply)
		return
	}
	if again := judge.JudgeReply(reply); again.Class != v.Class || again.Offset != v.Offset {
		t.Errorf("%s %s: the CLI says %s, the library %s", sc.name, id, v.Class, again.Class)
	}
	switch {
	case r.Stop == "limit":
		if v.Class != verdict.Incomplete && v.Class != verdict.CompleteValid {
			t.Errorf("%s %s: stopped at the limit, verdict %s (%s)\ntext: %q", sc.name, id, v.Class, v.Message, r.Text)
		}
	case v.Class == verdict.ParseError && len(v.Problems) > 0 && v.Problems[0].Code == "J102":
		// an extra member name written twice: no grammar can forbid it
		// without blowing up, and the strict reader refuses it
		t.Logf("%s %s: repeated name: %s\n%q", sc.name, id, v.Problems[0].Message, r.Text)
	case v.Class != verdict.CompleteValid || v.Note != "":
		t.Errorf("%s %s: a finished reply is %s (%s; note %q)\nschema: %s\ntext: %q", sc.name, id, v.Class, v.Message, v.Note, sc.data, r.Text)
	default:
		if ok, err := o.Valid(r.Text); !ok {
			t.Errorf("%s %s: COMPLETE_VALID, the oracle says invalid (%v)\nschema: %s\ntext: %q", sc.name, id, err, sc.data, r.Text)
		}
	}
}

// runBlock runs a README block with bash in dir, schema2gbnf first in PATH,
// and returns its exit status and output. A block that takes more than two
// minutes is killed (a server that stopped answering).
func runBlock(t *testing.T, block, dir, bin, url, promptText string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-o", "pipefail", "-c", block)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "LLAMA_SERVER="+url, "PROMPT="+promptText)
	cmd.SysProcAttr = dieWithParent()
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("the README block timed out in %s\n%s", dir, errOut.String())
	}
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(errOut.String(), "schema2gbnf: warning:") || code == 2 {
		t.Errorf("the README block (exit %d) said on stderr:\n%s", code, errOut.String())
	}
	return code, out.String()
}

// exitOf is the CLI's exit status for a class (as the README's table says).
func exitOf(c verdict.Class) int {
	return map[verdict.Class]int{verdict.CompleteValid: 0, verdict.RefusedSchema: 1, verdict.Incomplete: 3, verdict.ParseError: 4,
		verdict.OffGrammar: 5, verdict.GrammarMismatch: 6, verdict.LimitExceeded: 7, verdict.ProviderError: 8, verdict.Refusal: 9}[c]
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, l)
		}
	}
	return out
}

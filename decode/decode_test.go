package decode

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/internal/oracle"
	"github.com/schema2gbnf/schema2gbnf/interop"

	"golang.org/x/tools/txtar"
)

var (
	flagCorpus = flag.String("decode.corpus", "", "decode the first -decode.sample schemas (by name) of this directory, e.g. path/to/jsonschemabench/Kubernetes, instead of the repository's")
	flagSample = flag.Int("decode.sample", 4, "schemas taken from each subset of the vendored corpus testdata/corpus, or from -decode.corpus (0: all)")
	flagSeeds  = flag.Int("decode.seeds", 4, "seeds (generations) per schema and grammar")
	flagBudget = flag.Int("decode.budget", 400, "token budget of one generation; outputs cut by it are INCOMPLETE")
	flagShow   = flag.Bool("decode.showpeer", false, "log why each of the peer's invalid outputs is invalid")
	flagPeer   = flag.Bool("decode.peer", true, "also decode with node-llama-cpp's converter and without a grammar, for the figures")
)

// repoRoot is the module root, two levels up from this package.
func repoRoot(t testing.TB) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Dir(wd)
}

type namedSchema struct {
	name string
	data []byte
}

// testSchemas gathers the repository's schemas: compile/testdata (schema.json
// of each txtar), testdata/equiv, and a fixed sample of the vendored corpus,
// or a whole directory given with -decode.corpus.
func testSchemas(t testing.TB) []namedSchema {
	root := repoRoot(t)
	var out []namedSchema
	if *flagCorpus != "" {
		return jsonFiles(t, *flagCorpus, *flagSample)
	}
	archives, _ := filepath.Glob(filepath.Join(root, "compile", "testdata", "*.txtar"))
	sort.Strings(archives)
	for _, path := range archives {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if schema, ok := txtarSection(b, "schema.json"); ok {
			out = append(out, namedSchema{"compile/testdata/" + filepath.Base(path), schema})
		}
	}
	out = append(out, jsonFiles(t, filepath.Join(root, "testdata", "equiv"), 0)...)
	out = append(out, jsonFiles(t, filepath.Join(root, "testdata", "equiv", "patterns"), 0)...)
	out = append(out, jsonFiles(t, filepath.Join(root, "testdata", "equiv", "names"), 0)...)
	subsets, _ := filepath.Glob(filepath.Join(root, "testdata", "corpus", "*"))
	sort.Strings(subsets)
	for _, dir := range subsets {
		if st, err := os.Stat(dir); err == nil && st.IsDir() {
			out = append(out, jsonFiles(t, dir, *flagSample)...)
		}
	}
	return out
}

// txtarSection returns the file called name in a txtar archive.
func txtarSection(archive []byte, name string) ([]byte, bool) {
	for _, f := range txtar.Parse(archive).Files {
		if f.Name == name {
			return f.Data, true
		}
	}
	return nil, false
}

// jsonFiles reads the *.json files of dir in name order, at most limit of
// them (0: all).
func jsonFiles(t testing.TB, dir string, limit int) []namedSchema {
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

// startModel writes a model into a temp dir and starts the harness on it.
func startModel(t *testing.T, cfg ModelConfig) (*Runner, *Vocab) {
	t.Helper()
	interop.Require(t)
	path := filepath.Join(t.TempDir(), "model.gguf")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	vocab, err := WriteModel(f, cfg)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	r, err := Start(path, vocab)
	if err != nil {
		t.Fatalf("starting llama.cpp on the test model: %v", err)
	}
	t.Cleanup(r.Close)
	return r, vocab
}

// tally counts a grammar's generations.
type tally struct {
	valid, invalid, duplicate, limit, incomplete, aborted, refused int
	tokens                                                         int
	millis                                                         float64
}

// count records a finished output's verdict.
func (c *tally) count(v verdict) {
	switch v {
	case valid:
		c.valid++
	case invalid:
		c.invalid++
	case duplicateExtra:
		c.duplicate++
	case beyondLimits:
		c.limit++
	}
}

func (c *tally) add(o Output) {
	c.tokens += len(o.Tokens)
	c.millis += o.Millis
}

func (c *tally) tokensPerSecond() float64 {
	if c.millis == 0 {
		return 0
	}
	return float64(c.tokens) / c.millis * 1000
}

func (c *tally) String() string {
	complete := c.valid + c.invalid
	share := 0.0
	if complete > 0 {
		share = 100 * float64(c.valid) / float64(complete)
	}
	return fmt.Sprintf("valid %d, invalid %d (%.1f%% of %d complete valid); apart: repeated extra name %d, beyond reader limits %d; INCOMPLETE %d, aborted %d, grammar refused %d; %d tokens, %.0f tokens/s",
		c.valid, c.invalid, share, complete, c.duplicate, c.limit, c.incomplete, c.aborted, c.refused, c.tokens, c.tokensPerSecond())
}

// TestDecode samples under our grammar for every schema that compiles, over
// several seeds: every finished output must be strict JSON that the oracle
// accepts. Outputs cut by the budget are counted as INCOMPLETE, not checked.
// The same schemas and seeds also run under node-llama-cpp's converter and
// with no grammar, for the figures (the peer's invalid outputs are counted,
// not failed).
func TestDecode(t *testing.T) {
	r, vocab := startModel(t, ModelConfig{Seed: 1})
	bias := SamplingBias(vocab, true)
	noEOS := bias.WithoutEOS(vocab)
	// noneOurs and nonePeer: without a grammar, as many tokens as ours or
	// the peer wrote, so each ratio compares the same positions.
	var ours, peer, noneOurs, nonePeer tally
	compiled := 0
	for _, s := range testSchemas(t) {
		g, err := schema2gbnf.Compile(s.data, schema2gbnf.Options{Name: s.name})
		if err != nil {
			continue
		}
		o, err := oracle.New(s.data, g.Schema.Draft)
		if err != nil {
			t.Errorf("%s: the oracle cannot compile a schema we compiled: %v", s.name, err)
			continue
		}
		compiled++
		declared := declaredNames(s.data)
		peerOK := *flagPeer
		for seed := uint64(1); seed <= uint64(*flagSeeds); seed++ {
			out, err := r.Generate(Grammar{GBNF: g.GBNF}, seed, *flagBudget, bias)
			if err != nil {
				t.Errorf("%s seed %d: %v", s.name, seed, err)
				ours.refused++
				break
			}
			ours.add(out)
			switch out.End {
			case EndEOS:
				v, why := check(o, out.Bytes, declared)
				ours.count(v)
				if v == invalid {
					t.Errorf("%s seed %d: finished output is invalid: %s\noutput: %q\nschema: %s", s.name, seed, why, out.Bytes, s.data)
				}
			case EndBudget:
				ours.incomplete++
			default:
				ours.aborted++
				t.Errorf("%s seed %d: generation %s after %d tokens: %q %s", s.name, seed, out.End, len(out.Tokens), out.Bytes, out.Error)
			}

			if !*flagPeer {
				continue
			}
			// Without a grammar, as many tokens as ours wrote: same positions.
			if out, err := r.Generate(Grammar{}, seed, max(1, len(out.Tokens)), noEOS); err == nil {
				noneOurs.add(out)
			} else {
				t.Errorf("%s seed %d without grammar: %v", s.name, seed, err)
			}
			if !peerOK {
				continue
			}
			pout, err := r.Generate(Grammar{PeerSchema: s.data}, seed, *flagBudget, bias)
			if err != nil {
				peer.refused++
				peerOK = false
				continue
			}
			peer.add(pout)
			if out, err := r.Generate(Grammar{}, seed, max(1, len(pout.Tokens)), noEOS); err == nil {
				nonePeer.add(out)
			} else {
				t.Errorf("%s seed %d without grammar: %v", s.name, seed, err)
			}
			switch pout.End {
			case EndEOS:
				v, why := check(o, pout.Bytes, declared)
				peer.count(v)
				if v == invalid && *flagShow {
					t.Logf("peer %s seed %d: %s\noutput: %q", s.name, seed, why, pout.Bytes)
				}
			case EndBudget:
				peer.incomplete++
			default:
				peer.aborted++
			}
		}
		r.Free(Grammar{GBNF: g.GBNF})
		r.Free(Grammar{PeerSchema: s.data})
	}
	if compiled == 0 {
		t.Fatal("no schema compiled: nothing was decoded")
	}
	t.Logf("%d schemas compiled, %d seeds each, budget %d tokens", compiled, *flagSeeds, *flagBudget)
	t.Logf("ours: %v", &ours)
	if *flagPeer {
		t.Logf("peer (node-llama-cpp converter): %v", &peer)
		t.Logf("no grammar, at our lengths: %.0f tokens/s; at the peer's: %.0f tokens/s", noneOurs.tokensPerSecond(), nonePeer.tokensPerSecond())
		if noneOurs.tokensPerSecond() > 0 && nonePeer.tokensPerSecond() > 0 {
			t.Logf("tokens/s relative to no grammar at the same lengths: ours %.2f, peer %.2f",
				ours.tokensPerSecond()/noneOurs.tokensPerSecond(), peer.tokensPerSecond()/nonePeer.tokensPerSecond())
		}
	}
	if ours.incomplete > (ours.valid+ours.invalid+ours.incomplete)/2 {
		t.Errorf("more than half of our generations hit the budget (%d): the test checks too little; raise -decode.budget or the closing bias", ours.incomplete)
	}
}

// TestListSchemas lists the schemas decoded and whether each compiles:
// go test ./decode -run TestListSchemas -v.
func TestListSchemas(t *testing.T) {
	if !testing.Verbose() {
		t.Skip("only with -v")
	}
	var names []string
	for _, s := range testSchemas(t) {
		_, err := schema2gbnf.Compile(s.data, schema2gbnf.Options{Name: s.name})
		names = append(names, fmt.Sprintf("%s compiles=%v", s.name, err == nil))
	}
	t.Log(strings.Join(names, "\n"))
}

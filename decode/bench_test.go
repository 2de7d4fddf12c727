package decode

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/interop"
)

// BenchmarkDecode samples with no grammar, ours and node-llama-cpp's
// converter's, for the compilable schemas of compile/testdata and
// testdata/equiv, the same seeds for each; it reports tokens/s as timed
// inside node (sampling only, no pipe). Compare the three in one run: the
// machines are shared and absolute figures drift.
func BenchmarkDecode(b *testing.B) {
	interop.Require(b)
	path := filepath.Join(b.TempDir(), "model.gguf")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	vocab, err := WriteModel(f, ModelConfig{Seed: 1})
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	r, err := Start(path, vocab)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	bias := SamplingBias(vocab, true)
	noEOS := bias.WithoutEOS(vocab)
	var schemas []namedSchema
	var ours []string
	saved := *flagSample
	*flagSample = 0
	for _, s := range testSchemas(b) {
		if filepath.Dir(s.name) != "compile/testdata" && filepath.Dir(s.name) != "equiv" {
			continue
		}
		if g, err := schema2gbnf.Compile(s.data, schema2gbnf.Options{}); err == nil {
			schemas = append(schemas, s)
			ours = append(ours, g.GBNF)
		}
	}
	*flagSample = saved
	// All run interleaved, schema by schema and seed by seed, so that the
	// load of a shared machine weighs on each alike; each grammar's run is
	// followed by one without a grammar of the same length (the cost of a
	// token grows with its position).
	var tokens, millis [4]float64 // ours, none at ours' lengths, peer, none at the peer's
	for i := 0; i < b.N; i++ {
		k := i % len(schemas)
		seed := uint64(i/len(schemas) + 1)
		for j, g := range []Grammar{{GBNF: ours[k]}, {PeerSchema: schemas[k].data}} {
			out, err := r.Generate(g, seed, *flagBudget, bias)
			if err != nil {
				continue // the peer refuses a few schemas
			}
			plain, err := r.Generate(Grammar{}, seed, max(1, len(out.Tokens)), noEOS)
			if err != nil {
				b.Fatal(err)
			}
			tokens[2*j] += float64(len(out.Tokens))
			millis[2*j] += out.Millis
			tokens[2*j+1] += float64(len(plain.Tokens))
			millis[2*j+1] += plain.Millis
		}
	}
	var rate [4]float64
	for m := range rate {
		if millis[m] > 0 {
			rate[m] = tokens[m] / millis[m] * 1000
		}
	}
	b.ReportMetric(rate[0], "ours-tokens/s")
	b.ReportMetric(rate[2], "peer-tokens/s")
	if rate[1] > 0 && rate[3] > 0 {
		b.ReportMetric(rate[0]/rate[1], "ours/none")
		b.ReportMetric(rate[2]/rate[3], "peer/none")
	}
}

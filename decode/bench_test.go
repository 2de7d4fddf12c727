package decode

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schema2gbnf/schema2gbnf"
)

// BenchmarkDecode samples with no grammar, ours and node-llama-cpp's
// converter's, for the compilable schemas of compile/testdata and
// testdata/equiv, the same seeds for each; it reports tokens/s as timed
// inside node (sampling only, no pipe). Compare the three in one run: the
// machines are shared and absolute figures drift.
func BenchmarkDecode(b *testing.B) {
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
	// The three run interleaved, schema by schema and seed by seed, so that
	// the load of a shared machine weighs on each alike.
	var tokens, millis [3]float64
	for i := 0; i < b.N; i++ {
		k := i % len(schemas)
		seed := uint64(i/len(schemas) + 1)
		for mode, g := range []Grammar{{}, {GBNF: ours[k]}, {PeerSchema: schemas[k].data}} {
			out, err := r.Generate(g, seed, *flagBudget, bias)
			if err != nil {
				continue // the peer refuses a few schemas
			}
			tokens[mode] += float64(len(out.Tokens))
			millis[mode] += out.Millis
		}
	}
	var rate [3]float64
	for mode := range rate {
		if millis[mode] > 0 {
			rate[mode] = tokens[mode] / millis[mode] * 1000
		}
	}
	b.ReportMetric(rate[0], "none-tokens/s")
	b.ReportMetric(rate[1], "ours-tokens/s")
	b.ReportMetric(rate[2], "peer-tokens/s")
	if rate[0] > 0 {
		b.ReportMetric(rate[1]/rate[0], "ours/none")
		b.ReportMetric(rate[2]/rate[0], "peer/none")
	}
}

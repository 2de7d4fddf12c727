package decode

import (
	"testing"

	schema2gbnf "github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/internal/oracle"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// TestDecodeFormats: llama.cpp generates under each asserted format's
// grammar, and every finished output is a member of the format by the
// validator's own format checks (draft-07, where it asserts them).
func TestDecodeFormats(t *testing.T) {
	r, vocab := startModel(t, ModelConfig{Seed: 2})
	bias := SamplingBias(vocab, true)
	schemas := []string{`{"type":"array","minItems":1,"maxItems":3,"items":{"type":"string","format":"date-time"}}`}
	for _, name := range subsetcheck.AssertedFormats {
		schemas = append(schemas, `{"type":"string","format":"`+name+`"}`)
	}
	var tally tally
	for _, s := range schemas {
		schema := `{"$schema":"http://json-schema.org/draft-07/schema#",` + s[1:]
		g, err := schema2gbnf.Compile([]byte(schema), schema2gbnf.Options{AssertFormat: true})
		if err != nil {
			t.Fatalf("%s: %v", schema, err)
		}
		o, err := oracle.New([]byte(schema), subsetcheck.Draft7, oracle.LibraryFormats())
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= uint64(*flagSeeds); seed++ {
			out, err := r.Generate(Grammar{GBNF: g.GBNF}, seed, *flagBudget, bias)
			if err != nil {
				t.Fatalf("%s seed %d: %v", s, seed, err)
			}
			tally.add(out)
			switch out.End {
			case EndEOS:
				v, why := check(o, out.Bytes, nil)
				tally.count(v)
				if v != valid {
					t.Errorf("%s seed %d: finished output is not valid: %s\noutput: %q", s, seed, why, out.Bytes)
				}
			case EndBudget:
				tally.incomplete++
			default:
				tally.aborted++
				t.Errorf("%s seed %d: generation %s after %d tokens: %q %s", s, seed, out.End, len(out.Tokens), out.Bytes, out.Error)
			}
		}
		r.Free(Grammar{GBNF: g.GBNF})
	}
	t.Logf("formats asserted: %v", &tally)
	if tally.valid == 0 {
		t.Error("no generation finished: the test checks nothing")
	}
}

package decode

import (
	"math"
	"testing"
	"time"
)

// TestStuck: a grammar that leaves no possible token (its only character is
// one the bias bans) makes this node-llama-cpp hang or abort; the harness
// reports "stuck" (after StuckAfter) or "failed", restarts the engine, and the
// next generation works.
func TestStuck(t *testing.T) {
	r, vocab := startModel(t, ModelConfig{Seed: 3})
	r.StuckAfter = 3 * time.Second
	bias := Bias{vocab.BOS: math.Inf(-1)}
	for id, tok := range vocab.Tokens {
		if len(tok) > 0 && tok[0] == 'x' {
			bias[id] = math.Inf(-1)
		}
	}
	out, err := r.Generate(Grammar{GBNF: `root ::= "x"`}, 1, 10, bias)
	if err != nil {
		t.Fatal(err)
	}
	if out.End != EndStuck && out.End != EndFailed {
		t.Errorf("generation ended %q with %q, want stuck or failed", out.End, out.Bytes)
	}
	t.Logf("no possible token: %s %s", out.End, out.Error)
	out, err = r.Generate(Grammar{GBNF: `root ::= "ab"`}, 1, 10, Bias{vocab.BOS: math.Inf(-1)})
	if err != nil {
		t.Fatalf("after a stuck generation: %v", err)
	}
	if out.End != EndEOS || string(out.Bytes) != "ab" {
		t.Errorf("after a stuck generation: ended %q with %q, want eos with \"ab\"", out.End, out.Bytes)
	}
}

package decode

import (
	"math"
	"testing"
)

// TestDeadEnd: a grammar that leaves no possible token (its only character
// is one the bias bans) makes node-llama-cpp abort the generation; the
// harness reports "failed" with the engine's reason, restarts the engine,
// and the next generation works. Nothing here is timed: were the engine to
// hang instead, the watchdog would report it and go test's -timeout end it.
func TestDeadEnd(t *testing.T) {
	r, vocab := startModel(t, ModelConfig{Seed: 3})
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
	if out.End != EndFailed {
		t.Errorf("generation ended %q with %q, want failed", out.End, out.Bytes)
	}
	t.Logf("no possible token: %s %s", out.End, out.Error)
	out, err = r.Generate(Grammar{GBNF: `root ::= "ab"`}, 1, 10, Bias{vocab.BOS: math.Inf(-1)})
	if err != nil {
		t.Fatalf("after a failed generation: %v", err)
	}
	if out.End != EndEOS || string(out.Bytes) != "ab" {
		t.Errorf("after a failed generation: ended %q with %q, want eos with \"ab\"", out.End, out.Bytes)
	}
}

package llamastacks

import (
	"testing"

	"github.com/schema2gbnf/schema2gbnf"
)

// Regression bounds on decoding cost: for representative schemas, the most
// stacks llama.cpp keeps alive after any code point of the given texts, with
// our default (bounded whitespace) grammar. Counts, never time. A shape
// change that multiplies stacks (a flat list of alternatives that all start
// alike, an ambiguous repeat) fails here; a change that lowers them should
// lower the bound too.
func TestStackBounds(t *testing.T) {
	for _, c := range []struct {
		name, schema string
		texts        []string
		maxStacks    int
	}{
		// Inside a string: the next character, an escape, or the closing
		// quote; with a big maxLength, the two readings of repeat.go's chain.
		{"string", `{"type":"string"}`, []string{`"abc\"\u00e9\ud83d\ude00 x"`}, 3},
		{"long-bounded-string", `{"type":"string","maxLength":5000}`, []string{`"` + repeatString("abcdefghij", 300) + `"`}, 5},
		{"integer-range", `{"type":"integer","minimum":-1000,"maximum":100000}`, []string{"-999", "0", "99999", "100000"}, 3},
		{"number", `{"type":"number"}`, []string{"-12.5e+3", "0", "3.25"}, 4},
		// Up to 50 items: the √n chain of repeat.go keeps two readings.
		{"array", `{"type":"array","items":{"type":"boolean"},"maxItems":50}`, []string{"[true,false,true]", "[]"}, 6},
		// Extra members allowed: the names' complement is a trie, so writing a
		// name that starts like a declared one keeps a handful of stacks.
		{"extra-names", `{"type":"object","properties":{"configuration":{"type":"string"},"configured":{"type":"boolean"},"id":{"type":"integer"}}}`,
			[]string{`{"configuration":"x","configured":true,"id":1}`, `{"configurator":1,"conf\n":2}`, `{"c":{},"":[]}`}, 11},
		// Optional members: each remaining one is an alternative starting with
		// ","; the bound grows with their number (see cost.go: a trie of the
		// names that may come next kept 6 here, and was withdrawn).
		{"optional-members", `{"type":"object","additionalProperties":false,"properties":{"a1":{"type":"integer"},"a2":{"type":"integer"},"a3":{"type":"integer"},"a4":{"type":"integer"},"a5":{"type":"integer"},"a6":{"type":"integer"}}}`,
			[]string{`{"a1":1,"a3":3,"a6":6}`, `{}`, `{"a6":1}`}, 10},
		// With extras, the chain keeps the extra-name trie alive beside the
		// declared names (a trie merged with the names' complement kept 14).
		{"optional-members-extras", `{"type":"object","properties":{"apiVersion":{"type":"string"},"kind":{"type":"string"},"metadata":{"type":"object"},"spec":{"type":"object"},"status":{"type":"object"},"selector":{"type":"string"},"serviceName":{"type":"string"},"replicas":{"type":"integer"},"revisionHistoryLimit":{"type":"integer"},"minReadySeconds":{"type":"integer"},"template":{"type":"object"},"updateStrategy":{"type":"object"}}}`,
			[]string{`{"apiVersion":"v1","kind":"K","metadata":{},"spec":{},"status":{},"selector":"s","serviceName":"n","replicas":1,"revisionHistoryLimit":2,"minReadySeconds":3,"template":{},"updateStrategy":{}}`, `{"status":{},"updateStrategy":{},"sx":1}`, `{"replicasX":1,"re":2}`}, 24},
	} {
		g, err := schema2gbnf.Compile([]byte(c.schema), schema2gbnf.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		lg, err := Parse(g.Rules.String())
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, text := range c.texts {
			cost, err := lg.Run(text)
			if err != nil || !cost.Accepted {
				t.Errorf("%s: %q not accepted (%v)", c.name, text, err)
				continue
			}
			if cost.MaxStacks > c.maxStacks {
				t.Errorf("%s: %q keeps %d stacks alive at most, bound %d", c.name, text, cost.MaxStacks, c.maxStacks)
			}
		}
	}
}

func repeatString(s string, n int) string {
	out := make([]byte, 0, len(s)*n)
	for range n {
		out = append(out, s...)
	}
	return string(out)
}

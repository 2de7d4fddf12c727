package equiv

import (
	"errors"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// This file holds the calls into parts that land later (the sampler, the
// llama.cpp interop harness), so that the rest of the harness runs before
// they exist.

var errNotLanded = errors.New("not available yet")

// sampleTexts returns n strings sampled from g.
func sampleTexts(g *gbnf.Grammar, seed uint64, n int) ([]string, error) {
	return nil, errNotLanded
}

// engineCheck sends a bounded, deterministic sample of the texts the
// matcher judged to llama.cpp's engine, which must load the grammar and
// give the same verdicts. Texts with NUL are skipped: llama.cpp reads C
// strings.
func (r *run) engineCheck() {
	var picked []engineCase
	var acc, rej int
	for _, c := range r.engine {
		if strings.ContainsRune(c.text, 0) {
			continue
		}
		if c.accepted && acc < engineTexts/2 || !c.accepted && rej < engineTexts/2 {
			picked = append(picked, c)
			if c.accepted {
				acc++
			} else {
				rej++
			}
		}
	}
	_ = picked
}

package equiv

import (
	"flag"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/interop"
)

var flagEngine = flag.Bool("engine", true, "send a sample of each schema's texts through llama.cpp's engine (node-llama-cpp)")

// maxSampleRunes bounds each sampled string.
const maxSampleRunes = 2000

// sampleTexts returns up to n strings sampled from g, fewer when the
// grammar's shortest text is longer than maxSampleRunes.
func sampleTexts(g *gbnf.Grammar, seed uint64, n int) ([]string, error) {
	s, err := gbnf.NewSampler(g, int64(seed))
	if err != nil {
		return nil, err
	}
	var out []string
	for range n {
		text, ok := s.Sample(maxSampleRunes)
		if !ok {
			break
		}
		out = append(out, text)
	}
	return out, nil
}

// TestLlamaEngine says, once for the package, when the harness's engine
// checks are left out because Node.js is missing (and fails under CI=true).
func TestLlamaEngine(t *testing.T) {
	if !*flagEngine {
		t.Skip("-engine=false: llama.cpp engine checks not run")
	}
	interop.Require(t)
}

// engineCheck sends a bounded, deterministic sample of the texts the
// matcher judged (half accepted, half rejected) to llama.cpp's engine,
// which must load the grammar and give the same verdicts. Texts with NUL or
// invalid UTF-8 are left out: llama.cpp reads C strings and turns bad bytes
// into U+FFFD, so it sees another text.
func (r *run) engineCheck() {
	if !*flagEngine || interop.Skipped() { // TestLlamaEngine says so, once
		return
	}
	var picked []engineCase
	var acc, rej int
	for _, c := range r.engine {
		if strings.ContainsRune(c.text, 0) || !utf8.ValidString(c.text) {
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
	texts := make([]string, len(picked))
	for i, c := range picked {
		texts[i] = c.text
	}
	e := interop.Shared(r.t)
	r.engineAgrees(e, "bounded", r.out.grammar, texts, func(i int) bool { return picked[i].accepted })
	if r.compactGrammar != nil && r.compact != nil {
		r.engineAgrees(e, "compact", r.compactGrammar, texts, func(i int) bool { return r.compact.Accepts(texts[i]) })
	}
}

// engineAgrees loads g into llama.cpp and compares its verdicts on texts
// with ours.
func (r *run) engineAgrees(e *interop.Engine, which string, g *gbnf.Grammar, texts []string, ours func(int) bool) {
	lg, err := e.Load(g.String())
	if err != nil {
		r.fail("ENGINE: llama.cpp refuses the "+which+" grammar: "+err.Error(), "", "loads", "-")
		return
	}
	defer lg.Close()
	got, err := lg.Accepts(texts)
	if err != nil {
		r.fail("ENGINE: "+err.Error(), "", "-", "-")
		return
	}
	r.tally.add(func(t *tally) { t.engine += len(texts) })
	for i := range texts {
		if want := ours(i); got[i] != want {
			r.fail("ENGINE DISAGREES ("+which+" grammar); the oracle line shows llama.cpp", texts[i], verdictName(want, nil), "llama.cpp "+verdictName(got[i], nil))
		}
	}
}

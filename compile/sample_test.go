package compile

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/internal/oracle"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"

	"golang.org/x/tools/txtar"
)

// sampler draws random texts from a grammar (soundness: the oracle must
// accept every one). A draw that grows past its budget is dropped.
type sampler struct {
	rules  map[string]*gbnf.Rule
	rng    *rand.Rand
	budget int
	b      strings.Builder
}

func newSampler(g *gbnf.Grammar, seed uint64) *sampler {
	s := &sampler{rules: map[string]*gbnf.Rule{}, rng: rand.New(rand.NewPCG(seed, 1))}
	for _, r := range g.Rules {
		s.rules[r.Name] = r
	}
	return s
}

func (s *sampler) draw() (string, bool) {
	s.b.Reset()
	s.budget = 400
	ok := s.expr(s.rules["root"].Expr, 0)
	return s.b.String(), ok
}

func (s *sampler) expr(e gbnf.Expr, depth int) bool {
	s.budget--
	if s.budget < 0 || depth > 60 {
		return false
	}
	switch e := e.(type) {
	case *gbnf.Lit:
		s.b.WriteString(e.Text)
	case *gbnf.Seq:
		for _, x := range e.Items {
			if !s.expr(x, depth+1) {
				return false
			}
		}
	case *gbnf.Alt:
		return s.expr(e.Alts[s.rng.IntN(len(e.Alts))], depth+1)
	case *gbnf.Repeat:
		n := e.Min
		extra := 3
		if e.Max >= 0 {
			extra = e.Max - e.Min
		}
		if extra > 0 {
			n += s.rng.IntN(min(extra, 3) + 1)
		}
		if e.Max >= 0 && s.rng.IntN(4) == 0 { // sometimes the maximum
			n = e.Max
		}
		for i := 0; i < n; i++ {
			if !s.expr(e.Expr, depth+1) {
				return false
			}
		}
	case *gbnf.Ref:
		return s.expr(s.rules[e.Name].Expr, depth+1)
	case *gbnf.Class:
		s.b.WriteRune(s.pick(e))
	case *gbnf.Any:
		s.b.WriteRune(rune('a' + s.rng.IntN(26)))
	}
	return true
}

// pick chooses a code point of the class, favouring the edges of ranges.
func (s *sampler) pick(c *gbnf.Class) rune {
	if !c.Negated {
		r := c.Ranges[s.rng.IntN(len(c.Ranges))]
		switch s.rng.IntN(3) {
		case 0:
			return r.Lo
		case 1:
			return r.Hi
		}
		return r.Lo + rune(s.rng.IntN(int(r.Hi-r.Lo)+1))
	}
	for {
		cands := []rune{'a', 'é', '~', 0x7f, '/', 'Z', '😀', 0xFFFE, ' ', 0x2028}
		r := cands[s.rng.IntN(len(cands))]
		in := false
		for _, x := range c.Ranges {
			if r >= x.Lo && r <= x.Hi {
				in = true
			}
		}
		if !in {
			return r
		}
	}
}

// TestSampledSound: random texts from the grammars of the testdata cases and
// of corpus schemas (without "format", which the oracle may assert) must be
// JSON values the oracle accepts.
func TestSampledSound(t *testing.T) {
	type entry struct {
		name   string
		schema []byte
	}
	var schemas []entry
	files, _ := filepath.Glob("testdata/*.txtar")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		for _, sec := range txtar.Parse(data).Files {
			if sec.Name == "schema.json" {
				schemas = append(schemas, entry{f, sec.Data})
			}
		}
	}
	if !testing.Short() {
		corpus, _ := filepath.Glob(filepath.Join(*corpusDir, "*", "*.json"))
		for i, f := range corpus {
			if i%7 != 0 {
				continue
			}
			data, _ := os.ReadFile(f)
			if !bytes.Contains(data, []byte(`"format"`)) {
				schemas = append(schemas, entry{f, data})
			}
		}
	}
	tried, drawn := 0, 0
	for _, e := range schemas {
		doc, err := subsetcheck.Read("schema.json", e.schema, subsetcheck.Limits{})
		if err != nil {
			continue
		}
		c, err := subsetcheck.Check(doc, subsetcheck.Options{})
		if err != nil {
			continue
		}
		g, err := Compile(c, Options{})
		if err != nil {
			continue
		}
		o, ok := oracleFor(e.schema, c.Draft)
		if !ok {
			continue
		}
		tried++
		s := newSampler(g, uint64(tried))
		for i := 0; i < 30; i++ {
			text, ok := s.draw()
			if !ok {
				continue
			}
			drawn++
			if !oracleAccepts(o, text) {
				t.Errorf("%s: the grammar produces %q, which the oracle rejects", e.name, text)
				break
			}
		}
	}
	t.Logf("%d schemas, %d sampled texts checked by the oracle", tried, drawn)
}

func oracleFor(schema []byte, d subsetcheck.Draft) (*oracle.Oracle, bool) {
	o, err := oracle.New(schema, d, oracle.LibraryFormats(), oracle.At("schema.json"))
	return o, err == nil
}

package compile

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// factorAlphabet is what the random expressions of TestFactorLanguage
// read: "é" and "ê" share their first byte, so a literal cut between
// bytes would show, and "😀" is four bytes.
var factorAlphabet = []string{"a", "b", "é", "ê", "😀"}

// factorHelpers are rules the random expressions refer to: one reads a
// single character, one may read nothing, one reads two characters or
// more.
var factorHelpers = []*gbnf.Rule{
	{Name: "one", Expr: alt(lit("a"), lit("é"))},
	{Name: "maybe", Expr: &gbnf.Repeat{Expr: lit("b"), Min: 0, Max: -1}},
	{Name: "two", Expr: seq(lit("ê"), ref("one"))},
}

// factorGen makes random alternatives that share heads often: their
// items come from a small pool, literals among them with common
// prefixes.
type factorGen struct{ rng *rand.Rand }

func (g factorGen) text(n int) string {
	s := ""
	for range n {
		s += factorAlphabet[g.rng.Intn(len(factorAlphabet))]
	}
	return s
}

func (g factorGen) item(depth int) gbnf.Expr {
	switch k := g.rng.Intn(10); {
	case k < 3:
		return lit(g.text(1 + g.rng.Intn(3)))
	case k == 3:
		return &gbnf.Class{Ranges: []gbnf.Range{{Lo: 'a', Hi: 'b'}}}
	case k == 4:
		return &gbnf.Class{Negated: true, Ranges: []gbnf.Range{{Lo: 'é', Hi: 'é'}}}
	case k == 5:
		return &gbnf.Any{}
	case k == 6:
		return ref(factorHelpers[g.rng.Intn(len(factorHelpers))].Name)
	case k == 7 && depth > 0:
		return &gbnf.Repeat{Expr: g.item(depth - 1), Min: g.rng.Intn(2), Max: []int{-1, 1, 2}[g.rng.Intn(3)]}
	case k == 8 && depth > 0:
		return g.alts(depth-1, g.pool(depth-1))
	}
	return ref("one")
}

func (g factorGen) pool(depth int) []gbnf.Expr {
	p := make([]gbnf.Expr, 2+g.rng.Intn(4))
	for i := range p {
		p[i] = g.item(depth)
	}
	return p
}

// alts is a union of 2 to 8 sequences of pool items, now and then one
// left unflattened (an Alt among alternatives, a Seq with adjacent
// literals) as a hand-built grammar may hold them.
func (g factorGen) alts(depth int, pool []gbnf.Expr) gbnf.Expr {
	as := make([]gbnf.Expr, 2+g.rng.Intn(7))
	for i := range as {
		items := make([]gbnf.Expr, g.rng.Intn(5))
		for j := range items {
			if g.rng.Intn(6) == 0 {
				items[j] = lit(g.text(1 + g.rng.Intn(2)))
			} else {
				items[j] = pool[g.rng.Intn(len(pool))]
			}
		}
		switch g.rng.Intn(8) {
		case 0:
			as[i] = &gbnf.Seq{Items: items}
		case 1:
			if depth > 0 {
				as[i] = g.alts(depth-1, pool)
				continue
			}
			fallthrough
		default:
			as[i] = seq(items...)
		}
	}
	if g.rng.Intn(8) == 0 {
		return &gbnf.Alt{Alts: as}
	}
	return alt(as...)
}

// TestFactorLanguage checks that left factoring keeps the language: for
// random unions, the grammar before and after accept the same texts, all
// texts over the alphabet up to four characters and texts sampled from
// either grammar; and that the factored grammar prints as GBNF that
// reads back to the same language.
func TestFactorLanguage(t *testing.T) {
	var texts []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		texts = append(texts, prefix)
		if n == 0 {
			return
		}
		for _, c := range factorAlphabet {
			grow(prefix+c, n-1)
		}
	}
	grow("", 4)
	cases, factored := 400, 0
	if testing.Short() {
		cases = 100
	}
	for seed := range int64(cases) {
		gen := factorGen{rand.New(rand.NewSource(seed))}
		var root gbnf.Expr
		switch seed % 3 {
		case 0:
			root = gen.alts(2, gen.pool(2))
		case 1: // a union inside a sequence
			root = seq(gen.item(1), gen.alts(2, gen.pool(2)))
		default: // a union under a repetition
			root = &gbnf.Repeat{Expr: gen.alts(1, gen.pool(1)), Min: 0, Max: 2}
		}
		grammar := func(e gbnf.Expr) *gbnf.Grammar {
			return &gbnf.Grammar{Rules: append([]*gbnf.Rule{{Name: "root", Expr: e}}, factorHelpers...)}
		}
		before := grammar(root)
		if gbnf.Validate(before) != nil {
			continue // a repetition of what may read nothing, as the compiler never writes
		}
		after, changed := new(factoring).expr(root)
		if !changed {
			continue
		}
		factored++
		factoredG := grammar(after)
		if err := gbnf.Validate(factoredG); err != nil {
			t.Fatalf("seed %d: the factored grammar is not valid: %v\n%s", seed, err, factoredG)
		}
		reread, err := gbnf.Parse(factoredG.String())
		if err != nil {
			t.Fatalf("seed %d: the factored grammar does not read back: %v\n%s", seed, err, factoredG)
		}
		mb, err := gbnf.NewMatcher(before)
		if err != nil {
			t.Fatal(err)
		}
		ma, err := gbnf.NewMatcher(factoredG)
		if err != nil {
			t.Fatal(err)
		}
		mr, err := gbnf.NewMatcher(reread)
		if err != nil {
			t.Fatal(err)
		}
		all := append([]string(nil), texts...)
		for _, g := range []*gbnf.Grammar{before, factoredG} {
			s, err := gbnf.NewSampler(g, seed)
			if err != nil {
				continue // the root reads no text
			}
			for range 20 {
				if text, ok := s.Sample(24); ok {
					all = append(all, text)
				}
			}
		}
		for _, text := range all {
			want := mb.Accepts(text)
			if got := ma.Accepts(text); got != want {
				t.Fatalf("seed %d: %q: before factoring %v, after %v\nbefore:\n%s\nafter:\n%s", seed, text, want, got, before, factoredG)
			}
			if got := mr.Accepts(text); got != want {
				t.Fatalf("seed %d: %q: before factoring %v, factored and read back %v\n%s", seed, text, want, got, reread)
			}
		}
		again, _ := new(factoring).expr(root)
		if again := grammar(again).String(); again != factoredG.String() {
			t.Fatalf("seed %d: factoring twice wrote different grammars:\n%s\n%s", seed, factoredG, again)
		}
	}
	if factored < cases/4 {
		t.Errorf("only %d of %d random unions were factored: the generator shares too little", factored, cases)
	}
}

// TestFactorWorkBounded builds unions whose factoring costs more than
// maxFactorWork, and checks that the work stops near it and the union
// still reads what it read: alternatives that part one at a time (work
// cubic in their number) and heads that differ only at their deepest item
// (work their size at each comparison).
func TestFactorWorkBounded(t *testing.T) {
	rules := []*gbnf.Rule{{Name: "x", Expr: lit("x")}, {Name: "y", Expr: lit("y")}}
	var stairs, deep []gbnf.Expr
	for i := 1; i <= 256; i++ {
		var items []gbnf.Expr
		for range i {
			items = append(items, ref("x"), lit(","))
		}
		stairs = append(stairs, seq(append(items, lit(strconv.Itoa(i)))...))
	}
	for i := 1; i <= 128; i++ {
		var head gbnf.Expr = lit(strconv.Itoa(i))
		for range 200 {
			head = &gbnf.Repeat{Expr: seq(ref("x"), head), Min: 0, Max: 1}
		}
		deep = append(deep, seq(head, ref("y")))
	}
	for _, tc := range []struct {
		name        string
		union       gbnf.Expr
		accept, not []string
	}{
		{"stairs", alt(stairs...), []string{"x,1", "x,x,2", "x,x,x,3", strings.Repeat("x,", 256) + "256"},
			[]string{"x,2", "x,x,1", "x,", strings.Repeat("x,", 257) + "257"}},
		{"deep heads", alt(deep...), []string{"y", "xxy", strings.Repeat("x", 200) + "7y", strings.Repeat("x", 200) + "128y"},
			[]string{"1y", "x", strings.Repeat("x", 200) + "129y", strings.Repeat("x", 201) + "7y"}},
	} {
		f := new(factoring)
		after, _ := f.expr(tc.union)
		if f.work > 2*maxFactorWork {
			t.Errorf("%s: factoring did %d units of work, past twice its budget %d", tc.name, f.work, maxFactorWork)
		}
		m, err := gbnf.NewMatcher(&gbnf.Grammar{Rules: append([]*gbnf.Rule{{Name: "root", Expr: after}}, rules...)})
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range tc.accept {
			if !m.Accepts(text) {
				t.Errorf("%s: %q rejected", tc.name, text)
			}
		}
		for _, text := range tc.not {
			if m.Accepts(text) {
				t.Errorf("%s: %q accepted", tc.name, text)
			}
		}
	}
}

// TestFactorNonASCIINames: objects whose alternatives read the same
// member, then names whose first characters share their first byte ("é",
// "ê": the literal is cut before them, not between their bytes), are
// factored and then escaped (escapeNonASCII runs after factoring): the
// grammar agrees with the validator, on the names raw and as \u escapes.
func TestFactorNonASCIINames(t *testing.T) {
	texts := objectsOf([]string{"é", "ê", "éa", "b"}, func(string) string { return "1" })
	texts = append(texts, `{"\u00e9":1}`, `{"\u00ea":1,"b":1}`, `{"\u00e9a":1,"é":1}`)
	for _, s := range []string{
		`{"oneOf":[{"properties":{"b":{"type":"integer"},"é":{"type":"integer"}},"required":["b","é"]},{"properties":{"b":{"type":"integer"},"ê":{}},"required":["b","ê"]}]}`,
		`{"oneOf":[{"required":["é"]},{"required":["ê"]},{"required":["éa"]}],"properties":{"b":{"type":"integer"}},"required":["b"]}`,
	} {
		agree(t, s, texts)
	}
}

package interop

import (
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// knownGaps is the ledger of corpus grammars on which our gbnf package
// knowingly departs from llama.cpp: the reason, and the one kind of
// disagreement the grammar must show (a substring of each). A listed
// grammar that now agrees fails (remove it from the ledger), and so does a
// disagreement of another kind on it (a new gap behind a known one), as
// any disagreement on a grammar not listed does.
var knownGaps = map[string]knownGap{
	"token-refs.txtar:tokens": {"gbnf.Parse refuses token references <[id]> and !<[id]> on purpose: they need a model vocabulary", refusesLoaded},
	// llama.cpp silently turns a maximum over 2000 into no maximum.
	"repeat-limits.txtar:over":     {"gbnf.Parse refuses counts over 1999 on purpose (MaxRepeat) rather than drop the bound", refusesLoaded},
	"repeat-limits.txtar:over2001": {"gbnf.Parse refuses counts over 1999 on purpose (MaxRepeat) rather than drop the bound", refusesLoaded},

	// Found by this harness; to be fixed in gbnf/ (docs/gbnf.md predates llama.cpp v0.4.0).
	"literal-escapes.txtar:dash": {`gbnf.Parse refuses the escape \- that llama.cpp v0.4.0 accepts`, refusesLoaded},

	"repeat-limits.txtar:nested": {"llama.cpp refuses stacked counts whose product reaches 2000; gbnf.Parse does not multiply", loadsRefused},
}

// knownGap is one entry of the ledger.
type knownGap struct {
	reason string
	shows  string // what each disagreement on the grammar says
}

// The kinds of disagreement the ledger's grammars show.
const (
	refusesLoaded = "gbnf.Parse refuses a grammar llama.cpp loads"
	loadsRefused  = "gbnf.Parse loads a grammar llama.cpp refuses or cannot run"
)

// disagreement is one place where our side and llama.cpp's differ.
type disagreement struct {
	what string
}

// ourVerdicts runs our parser on g and, when it loads, our matcher on texts.
// parsed is false when gbnf.Parse refused the grammar.
func ourVerdicts(t *testing.T, grammar string, texts []string) (parsed bool, parseErr error, verdicts []bool, limitErrs []error) {
	t.Helper()
	pg, err := gbnf.Parse(grammar)
	if err != nil {
		return false, err, nil, nil
	}
	m, err := gbnf.NewMatcher(pg)
	if err != nil {
		return false, err, nil, nil
	}
	verdicts = make([]bool, len(texts))
	limitErrs = make([]error, len(texts))
	for i, text := range texts {
		r, err := m.Check(text)
		verdicts[i], limitErrs[i] = r.Accepted, err
	}
	return true, nil, verdicts, limitErrs
}

// TestCorpusOurs requires our parser to load exactly the grammars llama.cpp
// loads and our matcher to give the corpus verdicts (checked against
// llama.cpp by TestCorpusLlama) on every text.
func TestCorpusOurs(t *testing.T) {
	seen := map[string]bool{}
	for _, g := range loadCorpus(t) {
		key := g.String()
		seen[key] = true
		t.Run(g.File+"/"+g.Name, func(t *testing.T) {
			var found []string
			texts := withoutNUL(append(append([]string{}, g.Accept...), g.Reject...))
			parsed, parseErr, got, limitErrs := ourVerdicts(t, g.Text, texts)
			switch {
			case !g.loads() && parsed:
				found = append(found, "gbnf.Parse loads a grammar llama.cpp refuses or cannot run ("+refusal(g)+")")
			case g.loads() && !parsed:
				found = append(found, "gbnf.Parse refuses a grammar llama.cpp loads: "+parseErr.Error())
			case parsed:
				accepted := map[string]bool{}
				for _, a := range g.Accept {
					accepted[a] = true
				}
				for i, text := range texts {
					if limitErrs[i] != nil {
						found = append(found, "text "+quote(text)+": our matcher gave up: "+limitErrs[i].Error())
					} else if got[i] != accepted[text] {
						found = append(found, verdictLine(text, got[i], accepted[text]))
					}
				}
			}
			reportGaps(t, key, g.Text, found)
		})
	}
	for key := range knownGaps {
		if !seen[key] {
			t.Errorf("knownGaps names %s, which is not in the corpus", key)
		}
	}
}

// refusal says why llama.cpp does not load g.
func refusal(g *corpusGrammar) string {
	if g.Unsafe != "" {
		return "unsafe: " + g.Unsafe
	}
	return "llama.cpp says: " + *g.Refuse
}

func verdictLine(text string, ours, llama bool) string {
	return "text " + quote(text) + ": our matcher accepted=" + yesNo(ours) + ", llama.cpp accepted=" + yesNo(llama)
}

func yesNo(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// reportGaps fails on disagreements, except on a grammar listed in
// knownGaps, which must disagree, and only in the way it is listed for.
func reportGaps(t *testing.T, key, grammar string, found []string) {
	t.Helper()
	if gap, ok := knownGaps[key]; ok {
		if len(found) == 0 {
			t.Errorf("GAP CLOSED: %s is in knownGaps (%s) but now agrees with llama.cpp: remove it from the ledger", key, gap.reason)
		}
		var other []string
		for _, f := range found {
			if !strings.Contains(f, gap.shows) {
				other = append(other, f)
			}
		}
		if len(other) == 0 {
			t.Logf("known gap (%s): %d disagreement(s), e.g. %s", gap.reason, len(found), firstOf(found))
			return
		}
		t.Errorf("NEW GAP on %s, listed in knownGaps only for %q:", key, gap.shows)
		found = other
	}
	const show = 10
	for i, f := range found {
		if i == show {
			t.Errorf("… and %d more", len(found)-show)
			break
		}
		t.Errorf("%s", f)
	}
	if len(found) > 0 {
		t.Logf("grammar:\n%s", grammar)
	}
}

func firstOf(xs []string) string {
	if len(xs) == 0 {
		return ""
	}
	return xs[0]
}

// withoutNUL drops texts holding NUL: llama.cpp's checker matches it, real
// decoding never shows it to the grammar, so neither verdict is a contract.
func withoutNUL(texts []string) []string {
	var out []string
	for _, t := range texts {
		if !HasNUL(t) {
			out = append(out, t)
		}
	}
	return out
}

// mutationsPerGrammar bounds the random texts asked per grammar: llama.cpp
// re-reads the grammar for each text (~300 texts/s on big grammars).
const mutationsPerGrammar = 150

// TestMutationsOursVsLlama asks both engines about random near misses of the
// corpus texts (a code point deleted, inserted, replaced or a piece
// doubled), drawn from the grammar's own characters.
func TestMutationsOursVsLlama(t *testing.T) {
	e := Shared(t)
	for _, g := range loadCorpus(t) {
		if !g.loads() {
			continue
		}
		if _, gap := knownGaps[g.String()]; gap {
			continue
		}
		t.Run(g.File+"/"+g.Name, func(t *testing.T) {
			seed := texts(g)
			rng := rand.New(rand.NewPCG(1, uint64(len(g.Text))))
			alphabet := alphabetOf(g.Text, seed)
			candidates := map[string]bool{}
			for i := 0; i < mutationsPerGrammar*3 && len(candidates) < mutationsPerGrammar; i++ {
				m := mutate(rng, seed[rng.IntN(len(seed))], alphabet)
				if !HasNUL(m) && utf8.ValidString(m) {
					candidates[m] = true
				}
			}
			compareOnTexts(t, e, g.String(), g.Text, sortedKeys(candidates))
		})
	}
}

// compareOnTexts asks llama.cpp and our matcher about texts and fails on
// every difference, printing the grammar, the text and both verdicts.
func compareOnTexts(t *testing.T, e *Engine, key, grammar string, texts []string) {
	t.Helper()
	lg, err := e.Load(grammar)
	if err != nil {
		t.Fatalf("llama.cpp: %v", err)
	}
	defer lg.Close()
	llama, err := lg.Accepts(texts)
	if err != nil {
		t.Fatal(err)
	}
	parsed, parseErr, ours, limitErrs := ourVerdicts(t, grammar, texts)
	if !parsed {
		t.Fatalf("gbnf.Parse refuses a grammar llama.cpp loads: %v\n%s", parseErr, grammar)
	}
	var found []string
	for i, text := range texts {
		if limitErrs[i] != nil {
			found = append(found, "text "+quote(text)+": our matcher gave up: "+limitErrs[i].Error())
		} else if ours[i] != llama[i] {
			found = append(found, verdictLine(text, ours[i], llama[i]))
		}
	}
	reportGaps(t, key, grammar, found)
}

func texts(g *corpusGrammar) []string {
	return append(append([]string{}, g.Accept...), g.Reject...)
}

// alphabetOf collects the code points of the grammar and its texts, plus a
// few that grammars often exclude, as material for mutations.
func alphabetOf(grammar string, texts []string) []rune {
	set := map[rune]bool{'\n': true, ' ': true, 'é': true, '😀': true, 0x7f: true, '\\': true, '"': true}
	for _, r := range grammar {
		set[r] = true
	}
	for _, t := range texts {
		for _, r := range t {
			set[r] = true
		}
	}
	var out []rune
	for r := range set {
		if r != 0 && r != utf8.RuneError {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// mutate makes a near miss of text, at code point granularity.
func mutate(rng *rand.Rand, text string, alphabet []rune) string {
	rs := []rune(text)
	for n := 1 + rng.IntN(2); n > 0; n-- {
		pos := 0
		if len(rs) > 0 {
			pos = rng.IntN(len(rs) + 1)
		}
		switch op := rng.IntN(4); {
		case op == 0 && pos < len(rs): // delete
			rs = append(rs[:pos:pos], rs[pos+1:]...)
		case op == 1 && pos < len(rs): // replace
			rs[pos] = alphabet[rng.IntN(len(alphabet))]
		case op == 2 && len(rs) > 0: // double a piece
			end := pos + 1 + rng.IntN(4)
			if pos >= len(rs) {
				pos = len(rs) - 1
			}
			if end > len(rs) {
				end = len(rs)
			}
			piece := append([]rune{}, rs[pos:end]...)
			rs = append(rs[:end:end], append(piece, rs[end:]...)...)
		default: // insert
			rs = append(rs[:pos:pos], append([]rune{alphabet[rng.IntN(len(alphabet))]}, rs[pos:]...)...)
		}
	}
	return string(rs)
}

func sortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// samplesPerGrammar bounds the texts drawn from gbnf.Sampler per grammar.
const samplesPerGrammar = 40

// TestSamplesOursVsLlama draws texts from our sampler (every one must be
// accepted by both engines) and near misses of them (both engines must
// agree).
func TestSamplesOursVsLlama(t *testing.T) {
	e := Shared(t)
	total := 0
	for _, g := range loadCorpus(t) {
		if !g.loads() {
			continue
		}
		if _, gap := knownGaps[g.String()]; gap {
			continue
		}
		t.Run(g.File+"/"+g.Name, func(t *testing.T) {
			pg, err := gbnf.Parse(g.Text)
			if err != nil {
				t.Fatalf("gbnf.Parse: %v", err)
			}
			s, err := gbnf.NewSampler(pg, int64(len(g.Text)))
			if err != nil {
				t.Fatalf("gbnf.NewSampler: %v", err)
			}
			// Short texts keep llama.cpp quick; grammars whose shortest
			// text is long (bigmin) get a bigger budget.
			budget := 200
			if _, ok := s.Sample(budget); !ok {
				budget = 2500
			}
			samples := map[string]bool{}
			for i := 0; i < samplesPerGrammar*2 && len(samples) < samplesPerGrammar; i++ {
				if text, ok := s.Sample(budget); ok && !HasNUL(text) {
					samples[text] = true
				}
			}
			sampled := sortedKeys(samples)
			if len(sampled) == 0 {
				t.Fatal("the sampler produced no text")
			}
			lg, err := e.Load(g.Text)
			if err != nil {
				t.Fatalf("llama.cpp: %v", err)
			}
			verdicts, err := lg.Accepts(sampled)
			lg.Close()
			if err != nil {
				t.Fatal(err)
			}
			for i, text := range sampled {
				if !verdicts[i] {
					t.Errorf("sampled text %s: llama.cpp rejects it (our sampler says the grammar accepts it)\ngrammar:\n%s", quote(text), g.Text)
				}
			}
			rng := rand.New(rand.NewPCG(2, uint64(len(g.Text))))
			alphabet := alphabetOf(g.Text, sampled)
			near := map[string]bool{}
			for i := 0; i < mutationsPerGrammar*3 && len(near) < mutationsPerGrammar; i++ {
				m := mutate(rng, sampled[rng.IntN(len(sampled))], alphabet)
				if !HasNUL(m) && utf8.ValidString(m) {
					near[m] = true
				}
			}
			all := append(sampled, sortedKeys(near)...)
			total += len(all)
			compareOnTexts(t, e, g.String(), g.Text, all)
		})
	}
	t.Logf("%d texts compared", total)
}

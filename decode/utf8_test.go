package decode

import (
	"flag"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/internal/oracle"
)

var flagHoleSeeds = flag.Int("decode.holeseeds", 60, "seeds per schema and grammar in TestUTF8Hole")

// badUTF8 is a kind of byte sequence that is not UTF-8, named by what
// llama.cpp's lenient decoder (decode_utf8 in llama-grammar.cpp) makes of it.
type badUTF8 int

const (
	// badSurrogate: ED A0–BF, a code point D800–DFFF; a grammar that
	// excludes surrogates closes it.
	badSurrogate badUTF8 = iota
	// badAbove: a code point above U+10FFFF (F4 90+, leads F5–FF; the
	// engine reads up to U+3FFFFF); a grammar whose classes exclude
	// U+110000–U+3FFFFF closes it.
	badAbove
	// badAlias: bytes the engine reads as an allowed character although they
	// are not its UTF-8 (overlong C0/C1, E0 80–9F, F0 80–8F): no grammar can
	// stop it.
	badAlias
	// badOther: a sequence the engine itself would refuse (stray
	// continuation, truncated end).
	badOther
	badKinds
)

var badNames = [badKinds]string{"encoded surrogate", "above U+10FFFF", "overlong/alias", "other"}

// engineRune decodes one character at b[0] as llama.cpp's grammar does: the
// length from the lead byte's top nibble (F8–FF count as 4-byte leads), the
// lead's low 8-n bits kept, continuation bytes required to be 10xxxxxx, and no
// check for overlong forms, surrogates or range.
func engineRune(b []byte) (r rune, size int, ok bool) {
	lengths := [16]int{1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 2, 2, 3, 4}
	n := lengths[b[0]>>4]
	if n == 0 || len(b) < n {
		return 0, 1, false
	}
	r = rune(b[0]) & (1<<(8-n) - 1) // one bit more than UTF-8's: F8–FF give U+200000–U+3FFFFF
	for _, c := range b[1:n] {
		if c>>6 != 2 {
			return 0, 1, false
		}
		r = r<<6 | rune(c&0x3F)
	}
	return r, n, true
}

// classifyBad returns the kinds of invalid UTF-8 found in b.
func classifyBad(b []byte) (kinds [badKinds]bool) {
	for i := 0; i < len(b); {
		if r, size := utf8.DecodeRune(b[i:]); r != utf8.RuneError || size > 1 {
			i += size
			continue
		}
		r, size, ok := engineRune(b[i:])
		switch {
		case !ok:
			kinds[badOther] = true
		case r >= 0xD800 && r <= 0xDFFF:
			kinds[badSurrogate] = true
		case r > utf8.MaxRune:
			kinds[badAbove] = true
		default:
			kinds[badAlias] = true
		}
		i += size
	}
	return kinds
}

// holeTally counts complete outputs by the invalid UTF-8 they hold.
type holeTally struct {
	complete, strictValid, anyBad, rawFFFD int
	kinds                                  [badKinds]int
}

func (h *holeTally) add(out []byte, o *oracle.Oracle, declared map[string]bool) {
	h.complete++
	if v, _ := check(o, out, declared); v == valid {
		h.strictValid++
	}
	kinds := classifyBad(out)
	bad := false
	for k, present := range kinds {
		if present {
			h.kinds[k]++
			bad = true
		}
	}
	if bad {
		h.anyBad++
	}
	if utf8.Valid(out) && containsFFFD(out) {
		h.rawFFFD++
	}
}

func containsFFFD(b []byte) bool {
	for _, r := range string(b) {
		if r == '\uFFFD' {
			return true
		}
	}
	return false
}

func (h *holeTally) String() string {
	s := fmt.Sprintf("%d complete, %d valid (strict JSON + oracle), %d hold bytes that are not UTF-8 (", h.complete, h.strictValid, h.anyBad)
	for k := badUTF8(0); k < badKinds; k++ {
		if k > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%s %d", badNames[k], h.kinds[k])
	}
	return s + fmt.Sprintf("), raw U+FFFD %d", h.rawFFFD)
}

// TestUTF8Hole samples string-heavy schemas with a model whose vocabulary
// holds raw high bytes and tokens that are not UTF-8. llama.cpp's engine
// decodes such bytes leniently; our grammars exclude the code points of
// surrogates and U+FFFD, which closes encoded surrogates. Overlong forms
// decode to characters the grammar allows, so no grammar can stop them:
// that remainder is measured, next to node-llama-cpp's converter on the same
// model and seeds.
func TestUTF8Hole(t *testing.T) {
	r, vocab := startModel(t, ModelConfig{Seed: 2, RawBytes: true})
	bias := SamplingBias(vocab, false)
	schemas := []string{
		`{"type":"string"}`,
		`{"type":"string","maxLength":6}`,
		`{"type":"array","items":{"type":"string"},"maxItems":3}`,
		`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"required":["a","b"],"additionalProperties":false}`,
	}
	var ours, capped, peer holeTally
	for _, schema := range schemas {
		g, err := schema2gbnf.Compile([]byte(schema), schema2gbnf.Options{})
		if err != nil {
			t.Fatalf("%s: %v", schema, err)
		}
		o, err := oracle.New([]byte(schema), g.Schema.Draft)
		if err != nil {
			t.Fatal(err)
		}
		declared := declaredNames([]byte(schema))
		for seed := uint64(1); seed <= uint64(*flagHoleSeeds); seed++ {
			out, err := r.Generate(Grammar{GBNF: g.GBNF}, seed, 200, bias)
			if err != nil {
				t.Fatalf("%s seed %d: %v", schema, seed, err)
			}
			if out.End == EndEOS {
				ours.add(out.Bytes, o, declared)
				if k := classifyBad(out.Bytes); k[badSurrogate] || k[badAbove] || k[badOther] {
					t.Logf("ours %s seed %d: %q", schema, seed, out.Bytes)
				}
			}
			// The same grammar with its string classes also excluding what
			// lies above U+10FFFF (the engine decodes up to U+3FFFFF):
			// what a compile change would close.
			cout, err := r.Generate(Grammar{GBNF: capAbove(g.GBNF)}, seed, 200, bias)
			if err != nil {
				t.Fatalf("capped %s seed %d: %v", schema, seed, err)
			}
			if cout.End == EndEOS {
				capped.add(cout.Bytes, o, declared)
				if k := classifyBad(cout.Bytes); k[badAbove] {
					t.Logf("capped %s seed %d: %q %v", schema, seed, cout.Bytes, pieces(vocab, cout.Tokens))
				}
			}
			pout, err := r.Generate(Grammar{PeerSchema: []byte(schema)}, seed, 200, bias)
			if err != nil {
				t.Fatalf("peer %s seed %d: %v", schema, seed, err)
			}
			if pout.End == EndEOS {
				peer.add(pout.Bytes, o, declared)
			}
		}
	}
	t.Logf("ours: %v", &ours)
	t.Logf("ours, classes capped at U+10FFFF: %v", &capped)
	t.Logf("peer: %v", &peer)
	if ours.kinds[badSurrogate] > 0 || ours.rawFFFD > 0 {
		t.Errorf("our grammars let encoded surrogates (%d) or raw U+FFFD (%d) through", ours.kinds[badSurrogate], ours.rawFFFD)
	}
	if capped.kinds[badAbove] > 0 || capped.kinds[badSurrogate] > 0 {
		t.Errorf("classes excluding U+110000–U+3FFFFF still let %d outputs above U+10FFFF and %d encoded surrogates through",
			capped.kinds[badAbove], capped.kinds[badSurrogate])
	}
	if ours.complete == 0 || peer.complete == 0 {
		t.Errorf("no complete output (ours %d, peer %d): nothing measured", ours.complete, peer.complete)
	}
}

// capAbove adds U+110000–U+3FFFFF to every negated class that excludes
// surrogates, as a compile change would.
func capAbove(gbnf string) string {
	return strings.ReplaceAll(gbnf, `\uD800-\uDFFF`, `\uD800-\uDFFF\U00110000-\U003FFFFF`)
}

// pieces spells each token's bytes, to show where tokens split a character.
func pieces(v *Vocab, ids []int) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = fmt.Sprintf("%q", v.Tokens[id])
	}
	return out
}

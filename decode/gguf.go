// Package decode drives real decoding in llama.cpp under our grammars: a tiny
// random-weight model, written here as a GGUF file, samples at temperature 1
// while the grammar constrains it, and the tests check every finished output
// with the JSON Schema oracle. A random model is a fuzzer that walks the
// grammar the way the engine does, token by token, with tokens that span
// several characters and cross JSON token boundaries.
package decode

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sort"
	"unicode/utf8"
)

// Model shape: the smallest llama that node-llama-cpp 3.21.1 loads happily.
const (
	embedding   = 64
	heads       = 4
	headSize    = embedding / heads // llama.rope.dimension_count must equal it
	feedForward = 128
	blocks      = 2
	// ContextLength is the model's (and the harness's) context; a
	// generation's token budget must stay below it.
	ContextLength = 1024
	alignment     = 32
)

// Token types of tokenizer.ggml.token_type.
const (
	tokenNormal  = 1
	tokenControl = 3
)

// ModelConfig says which model to write.
type ModelConfig struct {
	Seed uint64 // the weights; the vocabulary does not depend on it
	// RawBytes adds tokens that are not UTF-8 (lead bytes F5–FF, encoded
	// surrogates, code points above U+10FFFF, overlong forms) as whole
	// tokens, to probe what the engine lets through.
	RawBytes bool
}

// Vocab is the written model's vocabulary: Tokens[id] is the exact bytes the
// token adds to the output (empty for control tokens).
type Vocab struct {
	Tokens [][]byte
	BOS    int
	EOS    int
}

// Bytes returns the exact bytes of a token sequence, control tokens adding
// nothing, as llama.cpp's grammar sees them. An unknown id is an error.
func (v *Vocab) Bytes(ids []int) ([]byte, error) {
	var out []byte
	for _, id := range ids {
		if id < 0 || id >= len(v.Tokens) {
			return nil, fmt.Errorf("decode: token id %d outside the vocabulary of %d", id, len(v.Tokens))
		}
		out = append(out, v.Tokens[id]...)
	}
	return out, nil
}

// NotUTF8 lists the tokens whose bytes are not complete UTF-8 (lone bytes
// 0x80–0xFF and the RawBytes tokens). The UTF-8 model bans them, so that only
// whole characters are sampled.
func (v *Vocab) NotUTF8() []int {
	var ids []int
	for id, t := range v.Tokens {
		if len(t) > 0 && !utf8.Valid(t) {
			ids = append(ids, id)
		}
	}
	return ids
}

// jsonPieces are multi-character tokens a JSON-trained tokenizer would have:
// structure fused with quotes, literals, digit pairs, whitespace runs,
// escapes and multi-byte characters as whole tokens.
var jsonPieces = []string{
	`{"`, `":`, `",`, `":"`, `","`, `"}`, `"]`, `},`, `}]`, `[{`, `[]`, `{}`, `["`, `":[`, `":{`, `":"`, `,"`,
	`": `, `", "`, `, "`, `": "`, `},{`, `]}`, `]]`, `[[`, `}}`,
	"true", "false", "null", "tr", "fa", "nu", "-1", "0.", ".5", "e+", "E-", "e1", "-0",
	"  ", "    ", "\n", "\n  ", "\n    ", " \n", "\t", "\r\n",
	`\"`, `\\`, `\n`, `\t`, `\u`, `\u00`, `\ud83d`, `\ude00`, `\/`, `\b`, `\r`, `\f`,
	"é", "ü", "ß", "ñ", "€", "中", "文", "日本", "😀", "🙂", "\u00a0", "\u2028", "\ufffd", "\u007f", "\ufeff",
	"name", "id", "type", "value", "data", "items", "key", "url", "http", "://", "the", "a", "ab", "abc",
	"string", "object", "array", "number", "integer", "version", "description", "title", "email", "@",
	"2026", "-11-", "T12:", ":00Z",
}

// rawPieces are tokens that are not UTF-8, in the RawBytes model.
var rawPieces = []string{
	"\xed\xa3\xbc", "\xed\xa0\x80", "\xed\xbf\xbf", // encoded surrogates
	"\xf4\x90\x80\x80", "\xf7\xbf\xbf\xbf", // above U+10FFFF
	"\xc0\xa2", "\xc1\x81", "\xe0\x82\xa2", "\xe0\x81\x81", "\xf0\x80\x80\xa2", "\xf0\x80\x81\x81", // overlong
	"\xf5", "\xf8\x88\x80\x80\x80", "\xfe", "\xff", "\xc3", "\xa9", "\x80",
}

// NewVocab builds the vocabulary: the control tokens, all 256 bytes (a
// byte-level BPE needs them), then the pieces and every prefix a merge needs.
// It returns the tokens and the merges in rank order.
func NewVocab(raw bool) (*Vocab, []string) {
	v := &Vocab{Tokens: [][]byte{{}, {}}, BOS: 0, EOS: 1}
	index := map[string]int{}
	add := func(s string) {
		if _, ok := index[s]; ok {
			return
		}
		index[s] = len(v.Tokens)
		v.Tokens = append(v.Tokens, []byte(s))
	}
	for b := 0; b < 256; b++ {
		add(string([]byte{byte(b)}))
	}
	for d := 0; d < 100; d++ {
		add(fmt.Sprintf("%02d", d))
	}
	pieces := append([]string(nil), jsonPieces...)
	if raw {
		pieces = append(pieces, rawPieces...)
	}
	// Each multi-byte token is its one-shorter prefix merged with its last
	// byte, so every token is reachable by merges.
	type merge struct {
		left, right string
	}
	var merges []merge
	seen := map[string]bool{}
	var reach func(s string)
	reach = func(s string) {
		if len(s) < 2 || seen[s] {
			return
		}
		seen[s] = true
		reach(s[:len(s)-1])
		add(s)
		merges = append(merges, merge{s[:len(s)-1], s[len(s)-1:]})
	}
	for d := 0; d < 100; d++ {
		reach(fmt.Sprintf("%02d", d))
	}
	for _, p := range pieces {
		reach(p)
	}
	// Shorter results first: a merge's parts must exist before it applies.
	sort.SliceStable(merges, func(i, j int) bool {
		return len(merges[i].left)+len(merges[i].right) < len(merges[j].left)+len(merges[j].right)
	})
	out := make([]string, len(merges))
	for i, m := range merges {
		out[i] = gpt2Spelling([]byte(m.left)) + " " + gpt2Spelling([]byte(m.right))
	}
	return v, out
}

// byteRunes is GPT-2's byte-to-unicode table: printable Latin-1 bytes stand
// for themselves, the others map to U+0100 onwards, in byte order.
var byteRunes = func() [256]rune {
	var t [256]rune
	n := 0
	for b := 0; b < 256; b++ {
		if (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF) {
			t[b] = rune(b)
		} else {
			t[b] = rune(256 + n)
			n++
		}
	}
	return t
}()

func gpt2Spelling(b []byte) string {
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = byteRunes[c]
	}
	return string(r)
}

// WriteModel writes a GGUF v3 llama model with random F32 weights drawn from
// cfg.Seed and returns its vocabulary. The same config gives the same bytes.
func WriteModel(w io.Writer, cfg ModelConfig) (*Vocab, error) {
	vocab, merges := NewVocab(cfg.RawBytes)
	n := len(vocab.Tokens)
	g := &ggufWriter{w: bufio.NewWriter(w)}

	tokens := make([]string, n)
	types := make([]int32, n)
	for id, t := range vocab.Tokens {
		tokens[id] = gpt2Spelling(t)
		types[id] = tokenNormal
	}
	tokens[vocab.BOS], types[vocab.BOS] = "<s>", tokenControl
	tokens[vocab.EOS], types[vocab.EOS] = "</s>", tokenControl

	type kv struct {
		key   string
		value any
	}
	kvs := []kv{
		{"general.architecture", "llama"},
		{"general.name", "schema2gbnf-decode-test"},
		{"general.alignment", uint32(alignment)},
		{"llama.context_length", uint32(ContextLength)},
		{"llama.embedding_length", uint32(embedding)},
		{"llama.block_count", uint32(blocks)},
		{"llama.feed_forward_length", uint32(feedForward)},
		{"llama.attention.head_count", uint32(heads)},
		{"llama.attention.head_count_kv", uint32(heads)},
		{"llama.rope.dimension_count", uint32(headSize)},
		{"llama.attention.layer_norm_rms_epsilon", float32(1e-5)},
		{"llama.rope.freq_base", float32(10000)},
		{"tokenizer.ggml.model", "gpt2"},
		{"tokenizer.ggml.pre", "default"},
		{"tokenizer.ggml.tokens", tokens},
		{"tokenizer.ggml.token_type", types},
		{"tokenizer.ggml.merges", merges},
		{"tokenizer.ggml.bos_token_id", uint32(vocab.BOS)},
		{"tokenizer.ggml.eos_token_id", uint32(vocab.EOS)},
		{"tokenizer.ggml.add_bos_token", false},
	}

	type tensor struct {
		name  string
		dims  []uint64 // innermost first
		scale float32  // 0 means all ones (norm weights)
	}
	var tensors []tensor
	tensors = append(tensors,
		tensor{"token_embd.weight", []uint64{embedding, uint64(n)}, 1},
		tensor{"output_norm.weight", []uint64{embedding}, 0},
		tensor{"output.weight", []uint64{embedding, uint64(n)}, 0.25},
	)
	for b := 0; b < blocks; b++ {
		p := fmt.Sprintf("blk.%d.", b)
		tensors = append(tensors,
			tensor{p + "attn_norm.weight", []uint64{embedding}, 0},
			tensor{p + "attn_q.weight", []uint64{embedding, embedding}, 0.125},
			tensor{p + "attn_k.weight", []uint64{embedding, embedding}, 0.125},
			tensor{p + "attn_v.weight", []uint64{embedding, embedding}, 0.125},
			tensor{p + "attn_output.weight", []uint64{embedding, embedding}, 0.125},
			tensor{p + "ffn_norm.weight", []uint64{embedding}, 0},
			tensor{p + "ffn_gate.weight", []uint64{embedding, feedForward}, 0.125},
			tensor{p + "ffn_up.weight", []uint64{embedding, feedForward}, 0.125},
			tensor{p + "ffn_down.weight", []uint64{feedForward, embedding}, 0.09},
		)
	}

	g.u32(0x46554747) // "GGUF"
	g.u32(3)
	g.u64(uint64(len(tensors)))
	g.u64(uint64(len(kvs)))
	for _, e := range kvs {
		g.str(e.key)
		g.value(e.value)
	}
	offset := uint64(0)
	sizes := make([]uint64, len(tensors))
	for i, t := range tensors {
		g.str(t.name)
		g.u32(uint32(len(t.dims)))
		count := uint64(1)
		for _, d := range t.dims {
			g.u64(d)
			count *= d
		}
		g.u32(0) // GGML_TYPE_F32
		g.u64(offset)
		sizes[i] = count
		offset += pad(count * 4)
	}
	g.padTo()
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x5eed))
	for i, t := range tensors {
		for k := uint64(0); k < sizes[i]; k++ {
			v := float32(1)
			if t.scale != 0 {
				v = float32(rng.NormFloat64()) * t.scale
			}
			g.u32(math.Float32bits(v))
		}
		g.padTo()
	}
	if g.err != nil {
		return nil, g.err
	}
	if err := g.w.Flush(); err != nil {
		return nil, err
	}
	return vocab, nil
}

func pad(n uint64) uint64 { return (n + alignment - 1) / alignment * alignment }

// ggufWriter writes little-endian GGUF fields and remembers the first error.
type ggufWriter struct {
	w   *bufio.Writer
	n   uint64
	err error
}

func (g *ggufWriter) bytes(b []byte) {
	if g.err != nil {
		return
	}
	_, g.err = g.w.Write(b)
	g.n += uint64(len(b))
}

func (g *ggufWriter) u32(v uint32) { g.bytes(binary.LittleEndian.AppendUint32(nil, v)) }
func (g *ggufWriter) u64(v uint64) { g.bytes(binary.LittleEndian.AppendUint64(nil, v)) }
func (g *ggufWriter) str(s string) { g.u64(uint64(len(s))); g.bytes([]byte(s)) }
func (g *ggufWriter) padTo()       { g.bytes(make([]byte, pad(g.n)-g.n)) }

// GGUF value types.
const (
	ggufUint32  = 4
	ggufInt32   = 5
	ggufFloat32 = 6
	ggufBool    = 7
	ggufString  = 8
	ggufArray   = 9
)

func (g *ggufWriter) value(v any) {
	switch v := v.(type) {
	case uint32:
		g.u32(ggufUint32)
		g.u32(v)
	case float32:
		g.u32(ggufFloat32)
		g.u32(math.Float32bits(v))
	case bool:
		g.u32(ggufBool)
		if v {
			g.bytes([]byte{1})
		} else {
			g.bytes([]byte{0})
		}
	case string:
		g.u32(ggufString)
		g.str(v)
	case []string:
		g.u32(ggufArray)
		g.u32(ggufString)
		g.u64(uint64(len(v)))
		for _, s := range v {
			g.str(s)
		}
	case []int32:
		g.u32(ggufArray)
		g.u32(ggufInt32)
		g.u64(uint64(len(v)))
		for _, x := range v {
			g.u32(uint32(x))
		}
	default:
		if g.err == nil {
			g.err = fmt.Errorf("decode: no GGUF encoding for %T", v)
		}
	}
}

package decode

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

func TestWriteModelDeterministic(t *testing.T) {
	var a, b, c bytes.Buffer
	if _, err := WriteModel(&a, ModelConfig{Seed: 7}); err != nil {
		t.Fatal(err)
	}
	WriteModel(&b, ModelConfig{Seed: 7})
	WriteModel(&c, ModelConfig{Seed: 8})
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("the same seed wrote different models")
	}
	if bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Error("different seeds wrote the same model")
	}
	head := a.Bytes()
	if string(head[:4]) != "GGUF" || binary.LittleEndian.Uint32(head[4:]) != 3 {
		t.Errorf("header %q is not GGUF v3", head[:8])
	}
	if n := binary.LittleEndian.Uint64(head[8:]); n != 3+9*blocks {
		t.Errorf("%d tensors, want %d", n, 3+9*blocks)
	}
	if a.Len()%alignment != 0 || a.Len() > 1<<20 {
		t.Errorf("model is %d bytes: want a multiple of %d under 1 MB", a.Len(), alignment)
	}
}

// TestVocabReachable: byte-level BPE finds a multi-byte token only through a
// merge of two tokens that exist, ranked before it.
func TestVocabReachable(t *testing.T) {
	notUTF8 := map[bool]int{}
	for _, raw := range []bool{false, true} {
		v, merges := NewVocab(raw)
		rank := map[string]int{}
		for i, m := range merges {
			left, right, ok := strings.Cut(m, " ")
			if !ok {
				t.Fatalf("merge %q has no space", m)
			}
			rank[left+right] = i
			for _, part := range []string{left, right} {
				if r, ok := rank[part]; ok && r >= i {
					t.Errorf("merge %q uses %q before it is made", m, part)
				}
			}
		}
		seen := map[string]bool{}
		for id, tok := range v.Tokens {
			if id == v.BOS || id == v.EOS {
				continue
			}
			s := gpt2Spelling(tok)
			if seen[s] {
				t.Errorf("token %q twice", tok)
			}
			seen[s] = true
			if len(tok) > 1 {
				if _, ok := rank[s]; !ok {
					t.Errorf("raw=%v: token %q is reached by no merge", raw, tok)
				}
			}
		}
		notUTF8[raw] = len(v.NotUTF8())
	}
	// Lone bytes 80–FF and the prefixes of multi-byte pieces; more with raw.
	if notUTF8[false] < 128 || notUTF8[true] <= notUTF8[false] {
		t.Errorf("tokens that are not UTF-8: %d, with raw pieces %d", notUTF8[false], notUTF8[true])
	}
}

func TestClassifyBad(t *testing.T) {
	for _, c := range []struct {
		in   string
		want badUTF8 // badKinds: none
	}{
		{"plain é 中 😀", badKinds},
		{"\xed\xa3\xbc", badSurrogate},
		{"\xf4\x90\x80\x80", badAbove},
		{"\xf5\x80\x80\x80", badAbove},
		{"\xf8\x88\x80\x80", badAbove}, // the engine keeps the lead's fourth bit: U+208000
		{"\xfe\xaa\xb9\x8c", badAbove},
		{"\xc0\xa2", badAlias}, // an overlong quote
		{"\xe0\x82\xa2", badAlias},
		{"\xf0\x80\x80\xa2", badAlias},
		{"\x80", badOther},
		{"\xe4\xb8", badOther},
	} {
		got := classifyBad([]byte(c.in))
		for k := badUTF8(0); k < badKinds; k++ {
			if got[k] != (k == c.want) {
				t.Errorf("classifyBad(%q)[%s] = %v", c.in, badNames[k], got[k])
			}
		}
	}
}

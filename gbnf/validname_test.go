package gbnf

import (
	"strings"
	"testing"
)

// TestValidName compares validName, which checks eight bytes at a time,
// with isNameByte on every byte value at every position of names of 1 to
// 20 bytes, so each byte lands in a whole word, an overlapping last word
// and the short path.
func TestValidName(t *testing.T) {
	if validName("") {
		t.Error(`validName("") = true`)
	}
	for n := 1; n <= 20; n++ {
		for pos := 0; pos < n; pos++ {
			for c := 0; c < 256; c++ {
				b := []byte(strings.Repeat("aZ9-", 5)[:n])
				b[pos] = byte(c)
				if got, want := validName(string(b)), isNameByte(byte(c)); got != want {
					t.Fatalf("validName(%q) = %v, want %v", b, got, want)
				}
			}
		}
	}
}

func BenchmarkValidName(b *testing.B) {
	names := []string{"ws", "value", "string", "properties-properties-extra", "canonical-tail-not-x2a", "root"}
	for b.Loop() {
		for _, n := range names {
			if !validName(n) {
				b.Fatal(n)
			}
		}
	}
}

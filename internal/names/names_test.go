package names

import (
	"fmt"
	"strings"
	"testing"
)

// TestIndex: names get indices in the order added; a second Add finds the
// first; Lookup finds every name even where guesses collide (a thousand
// names share 256 guesses); Reset forgets them all.
func TestIndex(t *testing.T) {
	var x Index
	for round := range 2 {
		n := 1000 + round
		x.Reset(n)
		for i := range n {
			if j, dup := x.Add(fmt.Sprintf("r%d-%d", round, i)); dup || j != int32(i) {
				t.Fatalf("round %d: Add of name %d = %d, %v", round, i, j, dup)
			}
		}
		if j, dup := x.Add(fmt.Sprintf("r%d-7", round)); !dup || j != 7 {
			t.Errorf("second Add of name 7 = %d, %v", j, dup)
		}
		for i := range n {
			if j, ok := x.Lookup(fmt.Sprintf("r%d-%d", round, i)); !ok || j != int32(i) {
				t.Fatalf("round %d: Lookup of name %d = %d, %v", round, i, j, ok)
			}
		}
		if _, ok := x.Lookup("r0-1x"); ok {
			t.Error("Lookup found a name never added")
		}
		if x.Len() != n {
			t.Errorf("Len = %d, want %d", x.Len(), n)
		}
	}
	x.Reset(1)
	if _, ok := x.Lookup("r1-0"); ok || x.Len() != 0 {
		t.Error("Reset kept a name")
	}
}

// TestSeen: a name is found by the address of its bytes only when it is
// the same string: a prefix at the same address is another name, an equal
// string elsewhere is the same name, and the empty string is no name.
func TestSeen(t *testing.T) {
	var x Index
	x.Reset(4)
	long := strings.Repeat("ab", 8)
	x.Add(long)
	x.Add(long[:4])
	for range 2 { // the second time from seen
		if i, ok := x.Lookup(long); !ok || i != 0 {
			t.Errorf("Lookup(long) = %d, %v", i, ok)
		}
		if i, ok := x.Lookup(long[:4]); !ok || i != 1 {
			t.Errorf("Lookup(prefix) = %d, %v", i, ok)
		}
		if _, ok := x.Lookup(long[:6]); ok {
			t.Error("a longer prefix at the same address was found")
		}
		if i, ok := x.Lookup(strings.Clone(long)); !ok || i != 0 {
			t.Errorf("Lookup(copy) = %d, %v", i, ok)
		}
		if _, ok := x.Lookup(""); ok {
			t.Error("the empty string was found")
		}
	}
}

package reuse

import "testing"

func TestZeroed(t *testing.T) {
	s := []int{1, 2, 3, 4}
	z := Zeroed(s, 3)
	if len(z) != 3 || &z[0] != &s[0] || z[0]|z[1]|z[2] != 0 || s[3] != 4 {
		t.Errorf("Zeroed reused wrongly: %v, array %v", z, s)
	}
	if g := Slice(s[:1], 4); len(g) != 4 || &g[0] != &s[0] {
		t.Errorf("Slice did not reuse the array: %v", g)
	}
	if g := Slice(s, 5); len(g) != 5 || &g[0] == &s[0] {
		t.Errorf("Slice of a short array: %v", g)
	}
}

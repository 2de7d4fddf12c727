package strlang

import (
	"slices"
)

// Literals is the language of exactly the given strings (enum and const
// values, declared property names). Each is read as Match reads it. The
// trie of the strings may have at most Limits.States states.
func Literals(strs []string, lim Limits) (*Lang, error) {
	lim = lim.orDefaults()
	// The code points used, each its own class; the rest one more class.
	var used []rune
	for _, s := range strs {
		for _, c := range s {
			used = append(used, c)
		}
	}
	slices.Sort(used)
	used = slices.Compact(used)
	var sets []Set
	for _, c := range used {
		sets = append(sets, runeSet(c))
	}
	al := partition(sets)
	classOfRune := map[rune]int32{}
	for i, c := range used {
		classOfRune[c] = al.of[i][0]
	}
	k := len(al.classes)
	t := &table{classes: al.classes, next: make([]int32, k), accept: []bool{false}}
	for i := range t.next {
		t.next[i] = -1
	}
	for _, s := range strs {
		q := int32(0)
		for _, c := range s {
			i := int(q)*k + int(classOfRune[c])
			if t.next[i] < 0 {
				if full(len(t.accept), k, lim.States) {
					return nil, newError(ErrLimitStates, "", -1, "the strings make a trie of more than %d states (Limits.States)", lim.States)
				}
				t.next[i] = int32(len(t.accept))
				t.accept = append(t.accept, false)
				for range k {
					t.next = append(t.next, -1)
				}
			}
			q = t.next[i]
		}
		t.accept[q] = true
	}
	return finish(t), nil
}

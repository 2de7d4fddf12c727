// Package reuse resizes the working arrays that gbnf's Validate and the
// compiler's prune keep in pools between calls, so that a call allocates
// only when its grammar is larger than any before it.
package reuse

// Slice returns s with length n, reusing its array when it is large enough;
// the elements are not cleared.
func Slice[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// Zeroed returns s with length n and every element zero.
func Zeroed[T any](s []T, n int) []T {
	s = Slice(s, n)
	clear(s)
	return s
}

package strlang

import "testing"

// Typical patterns of real schemas: parse, determinize and minimize each.
var benchPatterns = []struct{ name, pattern string }{
	{"identifier", `^[a-z][a-z0-9_-]{0,63}$`},
	{"date", `^\d{4}-\d{2}-\d{2}$`},
	{"email", `^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$`},
	{"uuid", `^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`},
	{"unanchored", `\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}.\d{6}`},
	{"letters", `^\p{L}[\p{L}\p{N} ]*$`},
}

func BenchmarkCompile(b *testing.B) {
	for _, bp := range benchPatterns {
		b.Run(bp.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Compile(bp.pattern, Limits{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkMatch(b *testing.B) {
	l, err := Compile(`^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$`, Limits{})
	if err != nil {
		b.Fatal(err)
	}
	s := "some.one+tag@example.co.uk"
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		l.Match(s)
	}
}

func BenchmarkWithLength(b *testing.B) {
	l, err := Compile(`^[a-z][a-z0-9_-]*$`, Limits{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := WithLength(l, 1, 64, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIntersect(b *testing.B) {
	x, _ := Compile(`^[a-z0-9-]+$`, Limits{})
	y, _ := Compile(`^[a-f0-9]{8}-`, Limits{})
	for b.Loop() {
		if _, err := Intersect(x, y, Limits{}); err != nil {
			b.Fatal(err)
		}
	}
}

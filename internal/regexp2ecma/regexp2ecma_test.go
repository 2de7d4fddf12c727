package regexp2ecma

import "testing"

func TestRewrite(t *testing.T) {
	for _, p := range []string{`^[a-z]+$`, `\d{2,3}?`, `(?<n>a)\k<n>`, `[\-\b]`, `\u{1F600}\uD83D\uDE00`, `(?i:a)`, `\p{L}\P{sc=Greek}`, `a|(?:b)`, `[]`} {
		if got, err := Rewrite(p); err != nil || got != p {
			t.Errorf("%s: %q, %v", p, got, err)
		}
	}
	for _, p := range []string{`a{`, `}`, `]`, `\a`, `\-`, `(?i)a`, `(?#x)`, `(?>a)`, `(?'n'a)`, `\c1`, `\01`, `[\B]`, `[\1]`, `\x4`, `\u12`, `a{,2}`, `(?-:a)`, `(?ii:a)`, "\xff"} {
		if got, err := Rewrite(p); err == nil {
			t.Errorf("%s: rewritten as %q, want an error", p, got)
		}
	}
}

package gbnf

import (
	"fmt"
	"testing"
)

func TestMatcherNext(t *testing.T) {
	const g = `root ::= "{" ws "\"a\"" ws ":" ws num ws "}"
num ::= "-"? [1-9] [0-9]*
ws ::= " "?`
	for _, c := range []struct {
		text   string
		viable bool
		want   string
	}{
		{"", true, "[{]"},
		{"{", true, `[ "]`},
		{`{"a":`, true, `[ \-1-9]`},
		{`{"a":1`, true, `[ 0-9}]`},
		{`{"a":1}`, true, `[]`},
		{`{"b"`, false, `[]`},
	} {
		gr, err := Parse(g)
		if err != nil {
			t.Fatal(err)
		}
		m, err := NewMatcher(gr)
		if err != nil {
			t.Fatal(err)
		}
		rs, viable, err := m.Next(c.text)
		if err != nil || viable != c.viable || show(rs) != c.want {
			t.Errorf("Next(%q) = %s, %v, %v; want %s, %v", c.text, show(rs), viable, err, c.want, c.viable)
		}
	}
}

func show(rs []Range) string {
	s := "["
	for _, r := range rs {
		switch {
		case r.Lo == r.Hi && r.Lo == '-':
			s += `\-`
		case r.Lo == r.Hi:
			s += string(r.Lo)
		default:
			s += fmt.Sprintf("%c-%c", r.Lo, r.Hi)
		}
	}
	return s + "]"
}

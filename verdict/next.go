package verdict

import (
	"fmt"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// next fills in what the grammar allows after prefix: Next, the allowed code
// points, and NextLiteral, the text forced while only one code point is
// allowed at each step (it stops where the text could also end).
func (j *Judge) next(v *Verdict, prefix string) {
	if len(prefix) > j.lim.MaxProbeBytes {
		v.Message += fmt.Sprintf("; what may come next is not computed beyond Limits.MaxProbeBytes (%d)", j.lim.MaxProbeBytes)
		return
	}
	rs, viable, err := j.matcher.Next(prefix)
	if err != nil || !viable {
		return
	}
	v.Next = describe(rs)
	var lit strings.Builder
	cur := prefix
	for n := 0; n < j.lim.MaxLiteral && len(rs) == 1 && rs[0].Lo == rs[0].Hi; n++ {
		lit.WriteRune(rs[0].Lo)
		cur += string(rs[0].Lo)
		if j.matcher.Accepts(cur) {
			break
		}
		if rs, viable, err = j.matcher.Next(cur); err != nil || !viable {
			break
		}
	}
	v.NextLiteral = lit.String()
}

// describe spells ranges for people and programs alike: a code point as
// itself ("space" for U+0020, quoted Go-style when a control character), a run of three
// or more ASCII code points as "a-z", and all code points beyond ASCII as
// one "non-ASCII" entry.
func describe(rs []gbnf.Range) []string {
	var out []string
	nonASCII := false
	for _, r := range rs {
		if r.Hi >= 128 {
			nonASCII = true
		}
		if r.Lo >= 128 {
			continue
		}
		hi := min(r.Hi, 127)
		switch {
		case hi-r.Lo >= 2:
			out = append(out, spell(r.Lo)+"-"+spell(hi))
		default:
			for c := r.Lo; c <= hi; c++ {
				out = append(out, spell(c))
			}
		}
	}
	if nonASCII {
		out = append(out, "non-ASCII")
	}
	return out
}

func spell(c rune) string {
	if c == ' ' {
		return "space"
	}
	if c < 0x20 || c == 0x7f {
		return fmt.Sprintf("%q", string(c))
	}
	return string(c)
}

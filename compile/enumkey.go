package compile

import (
	"sort"
	"strconv"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// enumKey is a string that is the same for two values that equal says are
// equal, so that enum members are deduplicated through a map: comparing each
// member with every kept one made a million-member enum quadratic (hours).
// Numbers are keyed by their parsed decimal, which costs no more than their
// text (no big.Rat of a 10,000-digit exponent).
func enumKey(v *subsetcheck.Value) string {
	var b strings.Builder
	writeEnumKey(&b, v)
	return b.String()
}

func writeEnumKey(b *strings.Builder, v *subsetcheck.Value) {
	switch v.Kind {
	case subsetcheck.Null:
		b.WriteByte('n')
	case subsetcheck.Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case subsetcheck.Number:
		if d, ok := parseDecimal(v.Num); ok {
			b.WriteByte('#')
			if d.neg {
				b.WriteByte('-')
			}
			b.WriteString(d.digits)
			b.WriteByte('e')
			b.WriteString(strconv.Itoa(d.exp))
		} else { // equal falls back to the text too
			b.WriteString("#?")
			b.WriteString(v.Num)
		}
	case subsetcheck.String:
		b.WriteString(strconv.Quote(v.Str))
	case subsetcheck.Array:
		b.WriteByte('[')
		for _, item := range v.Items {
			writeEnumKey(b, item)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case subsetcheck.Object:
		ms := append([]subsetcheck.Member(nil), v.Members...)
		sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
		b.WriteByte('{')
		for _, m := range ms {
			b.WriteString(strconv.Quote(m.Name))
			b.WriteByte(':')
			writeEnumKey(b, m.Value)
			b.WriteByte(',')
		}
		b.WriteByte('}')
	}
}

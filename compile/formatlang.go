package compile

import (
	"fmt"
	"sync"

	"github.com/schema2gbnf/schema2gbnf/strlang"
)

// Asserted formats as string languages, for a pattern beside a format: each
// format's strings written as an ECMA-262 pattern that follows its grammar
// in format.go rule for rule, compiled once per process. The formats are
// regular; time's leap second is too, but its table of 1,440 offsets
// makes an automaton of 11,000 states, so time and date-time are split:
// the strings without second 60 (a small language), and the shape of the
// leap-second ones (hh:mm:60 with any offset), a superset of the format's
// leap seconds. A pattern that meets no leap-second shape meets the format
// where its seconds are 00-59; one that holds both parts holds the whole
// format; any other is refused (formatLang.meet).

// formatLang is an asserted format's language, as meet needs it.
type formatLang struct {
	exact *strlang.Lang // the format's language; nil for time and date-time
	plain *strlang.Lang // time and date-time: the strings whose second is 00-59
	leap  *strlang.Lang // time and date-time: every string of their shape with second 60
}

// meet intersects the format with l. covered: every string of the format
// is in l (then the format's own grammar is the intersection). inter nil
// and covered false: the intersection cuts through the leap seconds.
func (f *formatLang) meet(l *strlang.Lang, lim strlang.Limits) (inter *strlang.Lang, covered bool, err error) {
	if f.exact != nil {
		inter, err = strlang.Intersect(l, f.exact, lim)
		return inter, false, err
	}
	leap, err := strlang.Intersect(l, f.leap, lim)
	if err != nil {
		return nil, false, err
	}
	if leap.IsEmpty() {
		inter, err = strlang.Intersect(l, f.plain, lim)
		return inter, false, err
	}
	whole, err := strlang.Union(f.plain, f.leap, lim)
	if err != nil {
		return nil, false, err
	}
	covered, err = strlang.Subset(whole, l, lim)
	return nil, covered, err
}

// formatLanguage returns the language of an asserted format.
func formatLanguage(name string) (*formatLang, bool) {
	f, ok := formatLangs()[name]
	return f, ok
}

var formatLangs = sync.OnceValue(func() map[string]*formatLang {
	// The formats' own patterns, far under these limits; fixed, so that
	// no schema's limits change them.
	lim := strlang.Limits{PatternBytes: 1 << 16, Repeat: 1 << 16}
	must := func(p string) *strlang.Lang {
		l, err := strlang.Compile("^(?:"+p+")$", lim)
		if err != nil {
			panic("compile: a format's pattern does not compile: " + err.Error())
		}
		return l
	}
	d := formatPatterns()
	return map[string]*formatLang{
		"date":      {exact: must(d.date)},
		"uuid":      {exact: must(d.uuid)},
		"ipv4":      {exact: must(d.ipv4)},
		"ipv6":      {exact: must(d.ipv6)},
		"duration":  {exact: must(d.duration)},
		"time":      {plain: must(d.time), leap: must(d.leap)},
		"date-time": {plain: must(d.date + "[Tt]" + d.time), leap: must(d.date + "[Tt]" + d.leap)},
	}
})

// formatPatternSet holds the formats' patterns.
type formatPatternSet struct {
	date, uuid, ipv4, ipv6, duration, time, leap string
}

// formatPatterns writes each format as a pattern, rule for rule as
// format.go writes its grammar.
func formatPatterns() formatPatternSet {
	var p formatPatternSet
	day28 := `0[1-9]|1\d|2[0-8]`
	day30 := `0[1-9]|[12]\d|30`
	day31 := `0[1-9]|[12]\d|3[01]`
	month31 := `0[13578]|1[02]`
	month30 := `0[469]|11`
	monthDay := fmt.Sprintf(`(?:%s)-(?:%s)|(?:%s)-(?:%s)|02-(?:%s)`, month31, day31, month30, day30, day28)
	evenTens := `[02468][048]`
	oddTens := `[13579][26]`
	nonZeroMultipleOf4 := `0[48]|[2468][048]|` + oddTens
	leapYear := fmt.Sprintf(`\d\d(?:%s)|(?:%s|%s)00`, nonZeroMultipleOf4, evenTens, oddTens)
	p.date = fmt.Sprintf(`(?:\d{4}-(?:%s)|(?:%s)-02-29)`, monthDay, leapYear)

	h := `[0-9A-Fa-f]`
	p.uuid = fmt.Sprintf(`%s{8}-%s{4}-%s{4}-%s{4}-%s{12}`, h, h, h, h, h)

	octet := `(?:\d|[1-9]\d|1\d\d|2[0-4]\d|25[0-5])`
	p.ipv4 = fmt.Sprintf(`%s\.%s\.%s\.%s`, octet, octet, octet, octet)

	// ipv6: as formatIPv6, tail(n) and after(k) expanded.
	h16 := h + `{1,4}`
	ipv4 := `(?:` + p.ipv4 + `)`
	var tail func(n int) string
	tail = func(n int) string {
		if n == 1 {
			return h16
		}
		return fmt.Sprintf(`(?:%s(?::%s)?|%s)`, h16, tail(n-1), ipv4)
	}
	var after func(k int) string
	after = func(k int) string {
		if k == 7 {
			return `(?:` + h16 + `|:)`
		}
		out := fmt.Sprintf(`%s:%s|:(?:%s)?`, h16, after(k+1), tail(7-k))
		if k == 6 {
			out += `|` + ipv4
		}
		return `(?:` + out + `)`
	}
	p.ipv6 = fmt.Sprintf(`%s:%s|::(?:%s)?`, h16, after(1), tail(7))

	ordered := func(a, b, c string) string {
		part := func(u string) string { return `\d+` + u }
		return fmt.Sprintf(`(?:%s(?:%s)?(?:%s)?|%s(?:%s)?|%s)`, part(a), part(b), part(c), part(b), part(c), part(c))
	}
	timePart := `T` + ordered("H", "M", "S")
	p.duration = fmt.Sprintf(`P(?:\d+W|%s(?:%s)?|%s)`, ordered("Y", "M", "D"), timePart, timePart)

	fraction := `(?:\.\d+)?`
	hh, mm := `(?:[01]\d|2[0-3])`, `[0-5]\d`
	offset := fmt.Sprintf(`(?:[Zz]|[+-]%s:%s)`, hh, mm)
	p.time = fmt.Sprintf(`%s:%s:%s%s%s`, hh, mm, mm, fraction, offset)
	p.leap = fmt.Sprintf(`%s:%s:60%s%s`, hh, mm, fraction, offset)
	return p
}

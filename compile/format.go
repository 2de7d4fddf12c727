package compile

import (
	"fmt"
	"strings"
	"sync"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// Asserted formats (subsetcheck.AssertedFormats): for each, a grammar of
// its strings and a recogniser that accepts exactly the same set. Both
// follow the validator (santhosh-tekuri/jsonschema/v6) except where it
// reads numeric fields with strconv.Atoi and so lets a sign in ("+1:00:00Z",
// "-0.0.0.0"): RFC 3339 and dotted decimal allow digits only, and so do we.
// Every format character is printable ASCII other than " and \, so the
// JSON text of a format string is its characters between quotes.

// formatString is the JSON string text (quotes included) of every string in
// the format, in canonical spelling: every character written raw. nil (no
// text) for a name that is not an asserted format.
func (cp *compiler) formatString(name string) gbnf.Expr {
	var body gbnf.Expr
	switch name {
	case "date":
		body = cp.formatDate()
	case "time":
		body = cp.formatTime()
	case "date-time":
		body = cp.shared("format-date-time", func(string) gbnf.Expr {
			return seq(cp.formatDate(), class(false, 'T', 't'), cp.formatTime())
		})
	case "uuid":
		body = cp.shared("format-uuid", func(string) gbnf.Expr {
			h := hexDigit()
			return seq(rep(h, 8, 8), lit("-"), rep(h, 4, 4), lit("-"), rep(h, 4, 4), lit("-"),
				rep(h, 4, 4), lit("-"), rep(h, 12, 12))
		})
	case "ipv4":
		body = cp.formatIPv4()
	case "ipv6":
		body = cp.formatIPv6()
	case "duration":
		body = cp.formatDuration()
	default:
		return nil
	}
	return seq(lit(`"`), body, lit(`"`))
}

func digit() gbnf.Expr { return rangeClass('0', '9') }
func hexDigit() gbnf.Expr {
	return &gbnf.Class{Ranges: []gbnf.Range{{Lo: '0', Hi: '9'}, {Lo: 'A', Hi: 'F'}, {Lo: 'a', Hi: 'f'}}}
}

// twoDigits is "00" to "<hi>" for a two-digit bound hi ("23", "59").
func twoDigits(hi int) gbnf.Expr {
	tens, ones := rune('0'+hi/10), rune('0'+hi%10)
	if ones == '9' {
		return seq(rangeClass('0', tens), digit())
	}
	return alt(seq(rangeClass('0', tens-1), digit()), seq(lit(string(tens)), rangeClass('0', ones)))
}

// formatDate is full-date of RFC 3339 as time.Parse("2006-01-02") reads it:
// four-digit years 0000-9999, and February 29 only in Gregorian leap years
// (year 0000 is one).
func (cp *compiler) formatDate() gbnf.Expr {
	return cp.shared("format-date", func(string) gbnf.Expr {
		day28 := alt(seq(lit("0"), rangeClass('1', '9')), seq(lit("1"), digit()), seq(lit("2"), rangeClass('0', '8')))
		day30 := alt(seq(lit("0"), rangeClass('1', '9')), seq(rangeClass('1', '2'), digit()), lit("30"))
		day31 := alt(seq(lit("0"), rangeClass('1', '9')), seq(rangeClass('1', '2'), digit()), seq(lit("3"), rangeClass('0', '1')))
		month31 := alt(seq(lit("0"), class(false, '1', '3', '5', '7', '8')), seq(lit("1"), class(false, '0', '2')))
		month30 := alt(seq(lit("0"), class(false, '4', '6', '9')), lit("11"))
		monthDay := alt(seq(month31, lit("-"), day31), seq(month30, lit("-"), day30), seq(lit("02-"), day28))
		// A leap year is a multiple of 4 whose last two digits are not 00,
		// or a multiple of 400: two-digit multiples of 4 then "00".
		evenTens := seq(class(false, '0', '2', '4', '6', '8'), class(false, '0', '4', '8'))
		oddTens := seq(class(false, '1', '3', '5', '7', '9'), class(false, '2', '6'))
		nonZeroMultipleOf4 := alt(seq(lit("0"), class(false, '4', '8')), seq(class(false, '2', '4', '6', '8'), class(false, '0', '4', '8')), oddTens)
		leapYear := alt(seq(digit(), digit(), nonZeroMultipleOf4), seq(alt(evenTens, oddTens), lit("00")))
		return alt(seq(rep(digit(), 4, 4), lit("-"), monthDay), seq(leapYear, lit("-02-29")))
	})
}

// formatTime is full-time of RFC 3339 as the validator reads it: second 60
// only when the time, taken back to UTC by its offset, is 23:59. With "+"
// the offset must be the local time plus one minute (mod 24 h), with "-"
// it must be 23:59 minus the local time, so the offset depends on both hour
// and minute across the fraction: one rule per hour, one alternative per
// minute, each naming its two offsets.
func (cp *compiler) formatTime() gbnf.Expr {
	return cp.shared("format-time", func(string) gbnf.Expr {
		fraction := opt(seq(lit("."), &gbnf.Repeat{Expr: digit(), Min: 1, Max: -1}))
		offset := alt(class(false, 'Z', 'z'), seq(class(false, '+', '-'), twoDigits(23), lit(":"), twoDigits(59)))
		plain := seq(twoDigits(23), lit(":"), twoDigits(59), lit(":"), twoDigits(59), fraction, offset)
		// "leap" (second 60 and its fraction) is named in each of the 1440
		// alternatives: a short name keeps the grammar about 10 KB smaller.
		leapTail := cp.shared("leap", func(string) gbnf.Expr { return seq(lit(":60"), fraction) })
		var leap []gbnf.Expr
		for h := 0; h < 24; h++ {
			hour := clockText()[h*60]
			leap = append(leap, seq(lit(hour.hh+":"), cp.shared("format-leap-"+hour.hh, func(string) gbnf.Expr {
				minutes := make([]gbnf.Expr, 0, 2*60+1)
				for m := 0; m < 60; m++ {
					local := h*60 + m
					plus, minus := clockText()[(local+1)%1440], clockText()[1439-local]
					mm := clockText()[m].mm
					// One alternative per offset, not a group of offsets:
					// llama.cpp makes a rule of every group, and 1440 fewer
					// rules halve the time it takes to read this grammar
					// (1.6 → 0.85 ms), though the text is 23% longer.
					minutes = append(minutes, seq(lit(mm), leapTail, lit("+"+plus.hhmm)), seq(lit(mm), leapTail, lit("-"+minus.hhmm)))
					if local == 1439 {
						minutes = append(minutes, seq(lit(mm), leapTail, class(false, 'Z', 'z')))
					}
				}
				return alt(minutes...)
			})))
		}
		return alt(plain, alt(leap...))
	})
}

// clockText spells each minute of the day (index hour*60+minute) once
// per process: the leap-second table names every one of them twice.
var clockText = sync.OnceValue(func() *[1440]struct{ hh, mm, hhmm string } {
	out := new([1440]struct{ hh, mm, hhmm string })
	for i := range out {
		out[i].hh = fmt.Sprintf("%02d", i/60)
		out[i].mm = fmt.Sprintf("%02d", i%60)
		out[i].hhmm = out[i].hh + ":" + out[i].mm
	}
	return out
})

// formatIPv4 is four dotted decimals 0-255 without leading zeros.
func (cp *compiler) formatIPv4() gbnf.Expr {
	return cp.shared("format-ipv4", func(string) gbnf.Expr {
		octet := cp.shared("format-octet", func(string) gbnf.Expr {
			return alt(digit(), seq(rangeClass('1', '9'), digit()), seq(lit("1"), digit(), digit()),
				seq(lit("2"), rangeClass('0', '4'), digit()), seq(lit("25"), rangeClass('0', '5')))
		})
		return seq(octet, lit("."), octet, lit("."), octet, lit("."), octet)
	})
}

// formatIPv6 is what netip.ParseAddr accepts with a colon and no zone:
// eight groups of 1-4 hex digits, the last two of which may be a dotted
// ipv4, or fewer with one "::" standing for at least one zero group.
// format-ipv6-k follows k groups and their colons before any "::";
// format-ipv6-tail-n is at most n groups after the "::".
func (cp *compiler) formatIPv6() gbnf.Expr {
	return cp.shared("format-ipv6", func(string) gbnf.Expr {
		h16 := cp.shared("format-h16", func(string) gbnf.Expr { return rep(hexDigit(), 1, 4) })
		ipv4 := cp.formatIPv4()
		var tail func(n int) gbnf.Expr
		tail = func(n int) gbnf.Expr {
			return cp.shared(fmt.Sprintf("format-ipv6-tail-%d", n), func(string) gbnf.Expr {
				if n == 1 {
					return h16
				}
				return alt(seq(h16, opt(seq(lit(":"), tail(n-1)))), ipv4)
			})
		}
		var after func(k int) gbnf.Expr
		after = func(k int) gbnf.Expr {
			return cp.shared(fmt.Sprintf("format-ipv6-%d", k), func(string) gbnf.Expr {
				if k == 7 {
					return alt(h16, lit(":"))
				}
				out := alt(seq(h16, lit(":"), after(k+1)), seq(lit(":"), opt(tail(7-k))))
				if k == 6 {
					out = alt(out, ipv4)
				}
				return out
			})
		}
		return alt(seq(h16, lit(":"), after(1)), seq(lit("::"), opt(tail(7))))
	})
}

// formatDuration is RFC 3339 appendix A duration: "P" then weeks alone, or
// years, months, days in that order (each optional) then optionally "T"
// and hours, minutes, seconds in that order, at least one part after "P"
// and after "T"; whole numbers only.
func (cp *compiler) formatDuration() gbnf.Expr {
	return cp.shared("format-duration", func(string) gbnf.Expr {
		n := cp.shared("format-digits", func(string) gbnf.Expr { return &gbnf.Repeat{Expr: digit(), Min: 1, Max: -1} })
		part := func(unit string) gbnf.Expr { return seq(n, lit(unit)) }
		// ordered is a non-empty run of the units a, b, c in order.
		ordered := func(a, b, c string) gbnf.Expr {
			return alt(seq(part(a), opt(part(b)), opt(part(c))), seq(part(b), opt(part(c))), part(c))
		}
		timePart := seq(lit("T"), cp.shared("format-duration-time", func(string) gbnf.Expr { return ordered("H", "M", "S") }))
		datePart := cp.shared("format-duration-date", func(string) gbnf.Expr { return ordered("Y", "M", "D") })
		return seq(lit("P"), alt(part("W"), seq(datePart, opt(timePart)), timePart))
	})
}

// formatValid says whether s (a decoded string) is in the format: exactly
// the strings formatString accepts between its quotes.
func formatValid(name, s string) bool {
	switch name {
	case "date":
		return validDate(s)
	case "time":
		return validTime(s)
	case "date-time":
		return len(s) > 11 && (s[10] == 'T' || s[10] == 't') && validDate(s[:10]) && validTime(s[11:])
	case "uuid":
		return validUUID(s)
	case "ipv4":
		return validIPv4(s)
	case "ipv6":
		return validIPv6(s)
	case "duration":
		return validDuration(s)
	}
	return false
}

// formatLength is the length range of the format's strings in code points;
// max is -1 when unbounded.
func formatLength(name string) (min, max int) {
	switch name {
	case "date":
		return 10, 10
	case "time":
		return len("00:00:00Z"), -1
	case "date-time":
		return len("2000-01-01T00:00:00Z"), -1
	case "uuid":
		return 36, 36
	case "ipv4":
		return len("0.0.0.0"), len("255.255.255.255")
	case "ipv6":
		return len("::"), len("ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255")
	case "duration":
		return len("P0D"), -1
	}
	return 0, -1
}

// unsignedNumber reads s as unsigned decimal digits only (no sign, unlike
// strconv.Atoi); ok is false for "" or any other character.
func unsignedNumber(s string) (n int, ok bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}

func validDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	year, ok1 := unsignedNumber(s[:4])
	month, ok2 := unsignedNumber(s[5:7])
	day, ok3 := unsignedNumber(s[8:])
	if !ok1 || !ok2 || !ok3 || month < 1 || month > 12 || day < 1 {
		return false
	}
	days := [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[month]
	if month == 2 && year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		days = 29
	}
	return day <= days
}

// twoDigitField reads s[i:i+2] as a number at most max.
func twoDigitField(s string, i, max int) (int, bool) {
	if len(s) < i+2 {
		return 0, false
	}
	n, ok := unsignedNumber(s[i : i+2])
	return n, ok && n <= max
}

func validTime(s string) bool {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return false
	}
	h, ok1 := twoDigitField(s, 0, 23)
	m, ok2 := twoDigitField(s, 3, 59)
	sec, ok3 := twoDigitField(s, 6, 60)
	if !ok1 || !ok2 || !ok3 {
		return false
	}
	rest := s[8:]
	if r, ok := strings.CutPrefix(rest, "."); ok {
		i := 0
		for i < len(r) && r[i] >= '0' && r[i] <= '9' {
			i++
		}
		if i == 0 {
			return false
		}
		rest = r[i:]
	}
	utc := h*60 + m
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := twoDigitField(rest, 1, 23)
		om, ok2 := twoDigitField(rest, 4, 59)
		if !ok1 || !ok2 {
			return false
		}
		if rest[0] == '+' {
			utc = (utc - (oh*60 + om) + 1440) % 1440
		} else {
			utc += oh*60 + om // past 23:59 is no leap-second minute either
		}
	default:
		return false
	}
	return sec < 60 || utc == 23*60+59
}

func validUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if s[i] != '-' {
				return false
			}
		} else if !isHex(s[i]) {
			return false
		}
	}
	return true
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func validIPv4(s string) bool {
	fields := strings.Split(s, ".")
	if len(fields) != 4 {
		return false
	}
	for _, f := range fields {
		n, ok := unsignedNumber(f)
		if !ok || n > 255 || len(f) > 1 && f[0] == '0' {
			return false
		}
	}
	return true
}

func validIPv6(s string) bool {
	halves := strings.Split(s, "::")
	if len(halves) > 2 {
		return false
	}
	var groups []string
	for _, half := range halves {
		if half != "" {
			groups = append(groups, strings.Split(half, ":")...)
		}
	}
	// A dotted ipv4 may only end the address (not before a final "::").
	ipv4Last := !strings.HasSuffix(s, "::")
	units := 0
	for i, g := range groups {
		switch {
		case ipv4Last && i == len(groups)-1 && strings.Contains(g, "."):
			if !validIPv4(g) {
				return false
			}
			units += 2
		case len(g) >= 1 && len(g) <= 4 && strings.IndexFunc(g, func(r rune) bool { return r > 127 || !isHex(byte(r)) }) < 0:
			units++
		default:
			return false
		}
	}
	if len(halves) == 2 {
		return units <= 7
	}
	return units == 8
}

func validDuration(s string) bool {
	rest, ok := strings.CutPrefix(s, "P")
	if !ok || rest == "" {
		return false
	}
	if weeks, ok := strings.CutSuffix(rest, "W"); ok {
		return digitsOnly(weeks)
	}
	date, clock, hasT := strings.Cut(rest, "T")
	if !unitRun(date, "YMD") || !unitRun(clock, "HMS") {
		return false
	}
	return !hasT || clock != ""
}

// digitsOnly says whether s is one or more ASCII digits.
func digitsOnly(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// unitRun says whether s is a (possibly empty) sequence of number+unit
// parts whose units appear in units in order, each at most once.
func unitRun(s, units string) bool {
	for s != "" {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i == len(s) {
			return false
		}
		j := strings.IndexByte(units, s[i])
		if j < 0 {
			return false
		}
		units, s = units[j+1:], s[i+1:]
	}
	return true
}

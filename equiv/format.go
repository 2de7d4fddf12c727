package equiv

import (
	"net/netip"
	"strings"
	"time"
)

// This file is the generator's side of the asserted formats
// (subsetcheck.AssertedFormats): its own reading of each format, for Holds,
// and the strings worth trying, for the generator.
//
// The reading follows the validator (santhosh-tekuri/jsonschema/v6) except
// where the validator reads a numeric field with strconv.Atoi and so lets a
// sign in ("+1:00:00Z", "+1.2.3.4"): RFC 3339 and dotted decimal allow
// digits only, and so do we. No string below has a sign in such a field,
// so the harness never meets that difference.

// formatHolds says whether s is a string of the asserted format name.
func formatHolds(name, s string) bool {
	switch name {
	case "date":
		return isDate(s)
	case "time":
		return isTime(s)
	case "date-time":
		return len(s) >= 20 && (s[10] == 'T' || s[10] == 't') && isDate(s[:10]) && isTime(s[11:])
	case "uuid":
		return isUUID(s)
	case "ipv4":
		return isIPv4(s)
	case "ipv6":
		a, err := netip.ParseAddr(s)
		return err == nil && strings.Contains(s, ":") && a.Zone() == ""
	case "duration":
		return isDuration(s)
	}
	return true // not asserted: an annotation
}

// isDate is RFC 3339's full-date, which Go's layout parser checks with
// the calendar (month lengths, leap years).
func isDate(s string) bool {
	_, err := time.Parse("2006-01-02", s)
	return err == nil && len(s) == 10
}

// digitsValue reads a field of ASCII digits only (no sign).
func digitsValue(s string) (int, bool) {
	if s == "" || len(s) > 4 {
		return 0, false
	}
	n := 0
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// isTime is RFC 3339's full-time: a leap second (:60) only where the
// time, moved to UTC by its offset, is 23:59.
func isTime(s string) bool {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return false
	}
	h, ok1 := digitsValue(s[0:2])
	m, ok2 := digitsValue(s[3:5])
	sec, ok3 := digitsValue(s[6:8])
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || sec > 60 {
		return false
	}
	rest := s[8:]
	if frac, ok := strings.CutPrefix(rest, "."); ok {
		n := len(frac) - len(strings.TrimLeft(frac, "0123456789"))
		if n == 0 {
			return false
		}
		rest = frac[n:]
	}
	minutes := h*60 + m
	if rest != "Z" && rest != "z" {
		if len(rest) != 6 || rest[3] != ':' || rest[0] != '+' && rest[0] != '-' {
			return false
		}
		oh, ok1 := digitsValue(rest[1:3])
		om, ok2 := digitsValue(rest[4:6])
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return false
		}
		if rest[0] == '+' {
			minutes -= oh*60 + om
		} else {
			minutes += oh*60 + om
		}
		if minutes < 0 {
			minutes += 24 * 60
		}
	}
	return sec < 60 || minutes == 23*60+59
}

func isUUID(s string) bool {
	groups := strings.Split(s, "-")
	if len(groups) != 5 {
		return false
	}
	for i, g := range groups {
		if len(g) != []int{8, 4, 4, 4, 12}[i] || strings.Trim(g, "0123456789abcdefABCDEF") != "" {
			return false
		}
	}
	return true
}

func isIPv4(s string) bool {
	octets := strings.Split(s, ".")
	if len(octets) != 4 {
		return false
	}
	for _, o := range octets {
		n, ok := digitsValue(o)
		if !ok || n > 255 || len(o) > 1 && o[0] == '0' {
			return false
		}
	}
	return true
}

// isDuration is RFC 3339 appendix A's duration: weeks alone, or date
// units in the order Y M D, then T and time units in the order H M S.
func isDuration(s string) bool {
	rest, ok := strings.CutPrefix(s, "P")
	if !ok || rest == "" {
		return false
	}
	if weeks, ok := strings.CutSuffix(rest, "W"); ok {
		return weeks != "" && strings.Trim(weeks, "0123456789") == ""
	}
	date, clock, hasT := strings.Cut(rest, "T")
	return unitsInOrder(date, "YMD") && unitsInOrder(clock, "HMS") && (!hasT || clock != "")
}

// unitsInOrder says whether s is number-unit pairs whose units come from
// units in order, each at most once.
func unitsInOrder(s, units string) bool {
	for s != "" {
		n := len(s) - len(strings.TrimLeft(s, "0123456789"))
		if n == 0 || n == len(s) {
			return false
		}
		i := strings.IndexByte(units, s[n])
		if i < 0 {
			return false
		}
		units, s = units[i+1:], s[n+1:]
	}
	return true
}

// formatMembers are strings of each format at its edges: calendar and
// clock limits, leap days and leap seconds, both letter cases, every
// place a "::" can stand.
var formatMembers = map[string][]string{
	"date": {
		"2024-02-29", "2000-02-29", "0000-02-29", "0400-02-29", "1900-02-28", "2023-02-28", "2100-02-28",
		"2024-01-31", "2024-03-31", "2024-04-30", "2024-06-30", "2024-09-30", "2024-11-30", "2024-12-31",
		"9999-12-31", "0000-01-01", "0001-01-01", "1963-06-19", "2024-10-01",
	},
	"time": {
		"00:00:00Z", "23:59:59.999+14:00", "12:30:45z", "23:59:60Z", "23:59:60z", "23:59:60.5Z",
		"15:59:60-08:00", "00:59:60+01:00", "23:59:60+00:00", "23:59:60-00:00", "00:00:60+00:01", "23:58:60-00:01",
		"12:00:00.1Z", "12:00:00.12Z", "12:00:00.123Z", "12:00:00.123456789Z", "08:30:06+23:59", "08:30:06-23:59",
		"19:20:30.45+01:00", "00:00:00-00:00",
	},
	"date-time": {
		"2024-02-29T23:59:60Z", "1985-04-12t23:20:50.52z", "1990-12-31T15:59:60-08:00", "0000-01-01T00:00:00Z",
		"9999-12-31T23:59:59.999+14:00", "2000-02-29t00:00:00.1-00:00", "1963-06-19T08:30:06.283185Z",
	},
	"uuid": {
		"2eb8aa08-aa98-11ea-b4aa-73b441d16380", "2EB8AA08-AA98-11EA-B4AA-73B441D16380", "2eB8aA08-Aa98-11eA-b4Aa-73B441d16380",
		"00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
	},
	"ipv4": {
		"0.0.0.0", "255.255.255.255", "192.168.0.1", "1.2.3.4", "10.0.0.10", "100.200.250.99", "249.199.99.9",
	},
	"ipv6": {
		"::", "::1", "1::", "1:2:3:4:5:6:7:8", "FFFF:ffff:ABCD:0:0:0:0:1", "abcd:EF01:2345:6789:abcd:ef01:2345:6789",
		"1::8", "1:2::8", "1:2:3::8", "1:2:3:4::8", "1:2:3:4:5::8", "1:2:3:4:5:6::8", "1:2:3:4:5:6:7::",
		"::2:3:4:5:6:7:8", "1::3:4:5:6:7:8", "1:2::4:5:6:7:8", "0:0:0:0:0:0:0:0", "fe80::1", "2001:db8::ff00:42:8329",
		"::ffff:1.2.3.4", "::1.2.3.4", "1:2:3:4:5:6:1.2.3.4", "1::6:255.255.255.255", "::ffff:0.0.0.0", "0001:02:003:0004::",
	},
	"duration": {
		"P1W", "P1Y2M3D", "PT1H", "P1DT2M", "PT0S", "P0D", "P1Y", "P1M", "PT1M", "PT1S", "P1Y2M3DT4H5M6S",
		"P12W", "PT36H", "P1Y2D", "PT1H2S", "P0Y", "P1YT1S", "P2MT30M", "P0000D",
	},
}

// formatNearMisses are strings one step outside each format.
var formatNearMisses = map[string][]string{
	"date": {
		"2023-02-29", "1900-02-29", "2100-02-29", "0100-02-29", "2024-02-30", "2024-04-31", "2024-06-31", "2024-01-32",
		"2024-13-01", "2024-00-10", "2024-01-00", "2024-1-01", "2024-01-1", "24-01-01", "12024-01-01", "2024/01/01",
		"2024-01-01T", "2024-01-01 ", " 2024-01-01", "2024-01-01Z", "20240101", "2024-W01", "2024-0a-01", "2024-01-0\u09ea",
		"", "10000-01-01",
	},
	"time": {
		"24:00:00Z", "23:60:00Z", "23:59:61Z", "23:59:60+01:00", "22:59:60Z", "23:59:60-00:01", "15:59:60-07:59",
		"12:00:00", "12:00:00+01", "12:00:00+0100", "12:00:00+1:00", "12:00:00+24:00", "12:00:00+01:60", "12:00:00.Z",
		"12:00:00ZZ", "12:00:00+01:00Z", "1:00:00Z", "12:0:00Z", "12:00:0Z", "12:00:00 Z", "12:00:00X", "T12:00:00Z",
		"12:00:00.5", "12.00.00Z", "12:00:00,5Z", "12:00:00\u0662Z", "",
	},
	"date-time": {
		"2024-02-29 23:59:59Z", "2023-02-29T00:00:00Z", "2024-01-01T24:00:00Z", "2024-01-01T00:00:00",
		"2024-01-01X00:00:00Z", "2024-01-01T12:00:60Z", "2024-01-01T", "2024-01-01T00:00Z", "2024-01-01", "00:00:00Z",
		"2024-01-01TT00:00:00Z", "2024-1-01T00:00:00Z", "2024-01-01T00:00:00+01:00Z",
	},
	"uuid": {
		"2eb8aa08-aa98-11ea-b4aa-73b441d1638", "2eb8aa08-aa98-11ea-b4aa-73b441d163800", "2eb8aa0-aa98-11ea-b4aa-73b441d16380",
		"2eb8aa08-aa981-1ea-b4aa-73b441d16380", "2eb8aa08aa9811eab4aa73b441d16380", "2eb8aa08-aa98-11ea-b4aa-73b441d1638g",
		"{2eb8aa08-aa98-11ea-b4aa-73b441d16380}", "urn:uuid:2eb8aa08-aa98-11ea-b4aa-73b441d16380", "2eb8aa08-aa98-11ea-b4aa_73b441d16380",
		"2eb8aa08-aa98-11ea-b4aa-73b441d16380-", "-2eb8aa08-aa98-11ea-b4aa-73b441d16380", "",
	},
	"ipv4": {
		"256.1.1.1", "1.2.3.256", "300.300.300.300", "01.2.3.4", "1.2.3.04", "1.2.3.00", "1.2.3", "1.2.3.4.5", "1..2.3",
		"1.2.3.4.", ".1.2.3.4", " 1.2.3.4", "1.2.3.a", "0x1.2.3.4", "1.2.3.4/8", "1.2.3.\u0664", "", "1:2:3:4",
	},
	"ipv6": {
		"1::2::3", "fe80::1%eth0", "12345::1", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8::", ":::",
		"::ffff:256.1.1.1", "::ffff:01.2.3.4", "::1.2.3.4:1", "1.2.3.4", "g::1", "::12345", "1:2:3:4:5:6:7:1.2.3.4",
		" ::1", "[::1]", ":1:2:3:4:5:6:7", "1:2:3:4:5:6:7:", "::1.2.3", "", "1::2:3:4:5:6:7:8",
	},
	"duration": {
		"P", "PT", "P1H", "P1M1Y", "p1d", "P1d", "PT1h", "pT1H", "P1DT", "P1.5D", "P1,5D", "P1W2D", "PW", "P-1D", "P1Y2Y",
		"PT1H1H", "P1YT", "P1D2H", "1D", "P1DT1D", "PT1S1M", "P1D ", "PTW", "P1", "",
	},
}

// formatStrings are the strings to try for format name: its members when
// valid, else its near misses and its members (which a length bound or an
// enum beside the format may still reject).
func formatStrings(name string, valid bool) []string {
	if valid {
		return formatMembers[name]
	}
	return append(append([]string(nil), formatNearMisses[name]...), formatMembers[name]...)
}

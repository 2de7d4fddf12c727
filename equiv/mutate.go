package equiv

import (
	"strings"
)

// RawNearMisses returns texts one edit away from text (a JSON text) that a
// grammar must treat with care: most are not JSON at all (a raw control
// character or invalid UTF-8 in a string, a lone surrogate escape, an
// unknown escape, a trailing comma, a leading zero, "+1", ".5", "1.",
// NaN, a byte order mark, trailing data, a truncated text, a repeated
// member), some are JSON spelled unusually ("-0", leading whitespace). A
// grammar may reject any of them; it may accept one only if the text is
// strict JSON and the oracle accepts its value.
func RawNearMisses(text string) []string {
	var out []string
	add := func(s string) {
		if s != text {
			out = append(out, s)
		}
	}
	strs, nums, objs := tokens(text)
	if len(strs) > 0 {
		i := strs[0] + 1 // just inside the first string
		for _, ins := range []string{"\x01", "\n", "\t", "\x00", "\x1f", `\ud800`, `\udc00`, `\ud83d\u0041`, `\q`, `\x41`, `\u12`, "\xff", "\xc0\xaf", "\xed\xa0\x80", `\'`, `\U0001F600`} {
			add(text[:i] + ins + text[i:])
		}
		add(text[:strs[0]] + "'" + text[strs[0]+1:])
	}
	for _, n := range nums {
		num := text[n[0]:n[1]]
		for _, alt := range []string{"0" + num, "+" + num, num + ".", "." + strings.TrimPrefix(num, "-"), "-" + num, num + "e", num + "e+", "0x1F", "NaN", "Infinity", "-Infinity", "1_000"} {
			add(text[:n[0]] + alt + text[n[1]:])
		}
		break
	}
	if i := strings.LastIndexAny(text, "]}"); i > 0 && text[i-1] != '[' && text[i-1] != '{' {
		add(text[:i] + "," + text[i:])
	}
	if len(objs) > 0 {
		// Repeat the first member of the first non-empty object.
		o := objs[0]
		if end := memberEnd(text, o+1); end > o+1 {
			add(text[:end] + "," + text[o+1:end] + text[end:])
		}
	}
	add("\ufeff" + text)
	add(text + "x")
	add(text + " " + text)
	add(" " + text)
	add(text + "\n")
	if len(text) > 1 {
		add(text[:len(text)-1])
	}
	add("")
	add(strings.ToUpper(text))
	return out
}

// tokens finds, outside strings, where strings start, where numbers are and
// where non-empty objects open.
func tokens(text string) (strs []int, nums [][2]int, objs []int) {
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '"':
			strs = append(strs, i)
			i++
			for i < len(text) && text[i] != '"' {
				if text[i] == '\\' {
					i++
				}
				i++
			}
			i++
		case c == '-' || c >= '0' && c <= '9':
			j := i + 1
			for j < len(text) && strings.IndexByte("0123456789.eE+-", text[j]) >= 0 {
				j++
			}
			nums = append(nums, [2]int{i, j})
			i = j
		case c == '{':
			if i+1 < len(text) && text[i+1] != '}' {
				objs = append(objs, i)
			}
			i++
		default:
			i++
		}
	}
	return strs, nums, objs
}

// memberEnd returns the index just after the member starting at i (a
// compact text), or i when it cannot tell.
func memberEnd(text string, i int) int {
	depth := 0
	inStr := false
	for j := i; j < len(text); j++ {
		c := text[j]
		if inStr {
			switch c {
			case '\\':
				j++
			case '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return j
			}
			depth--
		case ',':
			if depth == 0 {
				return j
			}
		}
	}
	return i
}

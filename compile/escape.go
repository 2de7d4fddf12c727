package compile

import (
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// A literal's non-ASCII characters (in member names, enum members, consts:
// only JSON strings hold them) are also accepted as \u escapes, lower-case
// hex, a surrogate pair beyond U+FFFF: "名" | "\\u540d".
//
// Why: llama.cpp cannot go on when the grammar forces a character no token
// of the model's vocabulary spells (an ASCII vocabulary, or one whose byte
// tokens are banned): llama-server answers HTTP 500 "Unexpected empty
// grammar stack after accepting piece", node-llama-cpp fails the
// generation, releases that do not catch it abort. With the escape beside
// it, six ASCII characters always spell the character. The escape is the
// same value (sound); the canonical text is unchanged (complete); grammars
// of schemas whose strings are all ASCII are byte for byte as before (all
// but one of the 5,861 corpus schemas that compile), and a non-ASCII
// literal costs llama.cpp one more stack where it starts (bench/escapecost:
// 1.02x the stacks built per code point on that corpus schema, a Hebrew
// enum; 1.17x with Japanese member names; 2.1x on an enum of two-character
// names).

// escapeNonASCII rewrites the grammar's literals so. It runs only when the
// schema's text may hold a non-ASCII string (mayHoldNonASCII: 157 of the
// 7,093 corpus files, mostly for a description), and leaves the prelude's
// rules, shared by every grammar and ASCII, as they are.
func (cp *compiler) escapeNonASCII() {
	if cp.checked.Doc != nil && !mayHoldNonASCII(cp.checked.Doc.Data) {
		return
	}
	for _, r := range cp.g.Rules {
		if cp.templates.byBody[r.Expr] != nil {
			continue
		}
		if e, changed := escapeExpr(r.Expr); changed {
			r.Expr = e
		}
	}
}

// mayHoldNonASCII reports whether a schema's text may spell a non-ASCII
// character: a byte above ASCII, a \u escape of U+0080 or above, or a
// backslash JSON does not know (YAML's \x, \U, \N, ...). The text is
// scanned eight bytes at a time; JSON's other escapes are skipped.
func mayHoldNonASCII(b []byte) bool {
	const high, ones = 0x8080808080808080, 0x0101010101010101
	for i := 0; i < len(b); {
		if i+8 <= len(b) {
			w := binary.LittleEndian.Uint64(b[i:])
			x := w ^ ones*'\\' // a zero byte where b has a backslash
			if w&high == 0 && (x-ones)&^x&high == 0 {
				i += 8
				continue
			}
		}
		switch c := b[i]; {
		case c >= utf8.RuneSelf:
			return true
		case c != '\\':
			i++
			continue
		}
		if i+1 >= len(b) {
			return true
		}
		switch b[i+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			i += 2
		case 'u':
			if i+6 > len(b) || !(b[i+2] == '0' && b[i+3] == '0' && b[i+4] >= '0' && b[i+4] <= '7') {
				return true
			}
			i += 6
		default:
			return true
		}
	}
	return false
}

// escapeExpr returns e with its non-ASCII literals escaped too, and whether
// anything changed; unchanged nodes (shared ones among them) are kept.
func escapeExpr(e gbnf.Expr) (gbnf.Expr, bool) {
	switch e := e.(type) {
	case *gbnf.Lit:
		return escapeLit(e)
	case *gbnf.Seq:
		items, changed := escapeList(e.Items)
		if !changed {
			return e, false
		}
		return &gbnf.Seq{Items: items}, true
	case *gbnf.Alt:
		alts, changed := escapeList(e.Alts)
		if !changed {
			return e, false
		}
		return &gbnf.Alt{Alts: alts}, true
	case *gbnf.Repeat:
		x, changed := escapeExpr(e.Expr)
		if !changed {
			return e, false
		}
		return &gbnf.Repeat{Expr: x, Min: e.Min, Max: e.Max}, true
	}
	return e, false
}

func escapeList(xs []gbnf.Expr) ([]gbnf.Expr, bool) {
	var out []gbnf.Expr
	for i, x := range xs {
		y, changed := escapeExpr(x)
		if changed && out == nil {
			out = append(make([]gbnf.Expr, 0, len(xs)), xs[:i]...)
		}
		if out != nil {
			out = append(out, y)
		}
	}
	return out, out != nil
}

// escapeLit is lit with each non-ASCII code point c replaced by (c | \uXXXX).
func escapeLit(l *gbnf.Lit) (gbnf.Expr, bool) {
	s := l.Text
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	if i == len(s) {
		return l, false
	}
	var items []gbnf.Expr
	start := 0
	for i, r := range s {
		if r < utf8.RuneSelf {
			continue
		}
		if start < i {
			items = append(items, lit(s[start:i]))
		}
		start = i + utf8.RuneLen(r)
		items = append(items, &gbnf.Alt{Alts: []gbnf.Expr{lit(string(r)), lit(unicodeEscape(r))}})
	}
	if start < len(s) {
		items = append(items, lit(s[start:]))
	}
	if len(items) == 1 {
		return items[0], true
	}
	return &gbnf.Seq{Items: items}, true
}

// unicodeEscape is r as JSON's \u escape, lower-case, a surrogate pair
// beyond the Basic Multilingual Plane.
func unicodeEscape(r rune) string {
	const hexDigits = "0123456789abcdef"
	u := func(b []byte, x rune) []byte {
		return append(b, '\\', 'u', hexDigits[x>>12&15], hexDigits[x>>8&15], hexDigits[x>>4&15], hexDigits[x&15])
	}
	if r > 0xFFFF {
		hi, lo := utf16.EncodeRune(r)
		return string(u(u(nil, hi), lo))
	}
	return string(u(nil, r))
}

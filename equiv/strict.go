package equiv

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// maxStrictDepth bounds the nesting StrictJSON follows, so that a hostile
// text cannot exhaust the stack.
const maxStrictDepth = 10000

// StrictResult is what StrictJSON found in a text.
type StrictResult struct {
	Err        error    // nil when the text is one RFC 8259 JSON value (duplicates aside)
	Duplicates []string // member names that appear twice in one object
	// First and Last are the text's value, decoded as encoding/json does
	// (numbers as json.Number), with a repeated name's first or last value
	// winning: readers differ, so a text with repeats is sound only if the
	// validator accepts both readings.
	First, Last any
}

// StrictJSON checks that text is exactly one RFC 8259 JSON value: UTF-8,
// no raw control characters in strings, no lone surrogate escapes, numbers
// without leading zeros, whitespace only where the RFC allows it. It is
// written apart from subsetcheck.Read so that the harness does not trust
// the reader it tests. Duplicate names are listed, not refused: DESIGN.md
// §2 leaves repeated extra members outside the soundness claim.
func StrictJSON(text string) StrictResult {
	p := &strictParser{s: text}
	p.ws()
	first, last := p.value(0)
	p.ws()
	if p.err == nil && p.i != len(p.s) {
		p.fail("data after the value")
	}
	return StrictResult{Err: p.err, Duplicates: p.dups, First: first, Last: last}
}

type strictParser struct {
	s    string
	i    int
	err  error
	dups []string
}

func (p *strictParser) fail(why string) {
	if p.err == nil {
		p.err = fmt.Errorf("byte %d: %s", p.i, why)
	}
}

func (p *strictParser) ws() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *strictParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *strictParser) value(depth int) (first, last any) {
	if p.err != nil {
		return nil, nil
	}
	if depth > maxStrictDepth {
		p.fail("nesting too deep")
		return nil, nil
	}
	switch c := p.peek(); {
	case c == '{':
		p.i++
		p.ws()
		fo, lo := map[string]any{}, map[string]any{}
		if p.peek() == '}' {
			p.i++
			return fo, lo
		}
		for p.err == nil {
			p.ws()
			if p.peek() != '"' {
				p.fail("expected a member name")
				break
			}
			name := p.str()
			_, seen := fo[name]
			if seen {
				p.dups = append(p.dups, name)
			}
			p.ws()
			if p.peek() != ':' {
				p.fail("expected ':'")
				break
			}
			p.i++
			p.ws()
			f, l := p.value(depth + 1)
			if !seen {
				fo[name] = f
			}
			lo[name] = l
			p.ws()
			switch p.peek() {
			case ',':
				p.i++
			case '}':
				p.i++
				return fo, lo
			default:
				p.fail("expected ',' or '}'")
			}
		}
		return fo, lo
	case c == '[':
		p.i++
		p.ws()
		fa, la := []any{}, []any{}
		if p.peek() == ']' {
			p.i++
			return fa, la
		}
		for p.err == nil {
			p.ws()
			f, l := p.value(depth + 1)
			fa, la = append(fa, f), append(la, l)
			p.ws()
			switch p.peek() {
			case ',':
				p.i++
			case ']':
				p.i++
				return fa, la
			default:
				p.fail("expected ',' or ']'")
			}
		}
		return fa, la
	case c == '"':
		v := p.str()
		return v, v
	case c == '-' || c >= '0' && c <= '9':
		start := p.i
		p.number()
		n := json.Number(p.s[start:p.i])
		return n, n
	default:
		for _, w := range []struct {
			text string
			v    any
		}{{"true", true}, {"false", false}, {"null", nil}} {
			if len(p.s)-p.i >= len(w.text) && p.s[p.i:p.i+len(w.text)] == w.text {
				p.i += len(w.text)
				return w.v, w.v
			}
		}
		p.fail("expected a value")
	}
	return nil, nil
}

func (p *strictParser) digits() int {
	n := 0
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
		n++
	}
	return n
}

func (p *strictParser) number() {
	if p.peek() == '-' {
		p.i++
	}
	switch c := p.peek(); {
	case c == '0':
		p.i++
	case c >= '1' && c <= '9':
		p.digits()
	default:
		p.fail("expected a digit")
		return
	}
	if p.peek() == '.' {
		p.i++
		if p.digits() == 0 {
			p.fail("expected a fraction digit")
			return
		}
	}
	if c := p.peek(); c == 'e' || c == 'E' {
		p.i++
		if c := p.peek(); c == '+' || c == '-' {
			p.i++
		}
		if p.digits() == 0 {
			p.fail("expected an exponent digit")
		}
	}
}

// str reads a string starting at its opening quote and returns its value.
func (p *strictParser) str() string {
	p.i++ // opening quote
	var out []rune
	for p.err == nil {
		if p.i >= len(p.s) {
			p.fail("unterminated string")
			break
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return string(out)
		case c < 0x20:
			p.fail("raw control character in a string")
		case c == '\\':
			p.i++
			r := p.escape()
			out = append(out, r)
		default:
			r, n := utf8.DecodeRuneInString(p.s[p.i:])
			if r == utf8.RuneError && n <= 1 {
				p.fail("invalid UTF-8")
				break
			}
			out = append(out, r)
			p.i += n
		}
	}
	return string(out)
}

func (p *strictParser) escape() rune {
	c := p.peek()
	p.i++
	switch c {
	case '"', '\\', '/':
		return rune(c)
	case 'b':
		return '\b'
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'u':
		r := p.hex4()
		switch {
		case r >= 0xdc00 && r <= 0xdfff:
			p.fail("lone low surrogate")
		case r >= 0xd800 && r <= 0xdbff:
			if len(p.s)-p.i < 2 || p.s[p.i:p.i+2] != `\u` {
				p.fail("lone high surrogate")
				return r
			}
			p.i += 2
			lo := p.hex4()
			if lo < 0xdc00 || lo > 0xdfff {
				p.fail("high surrogate without a low one")
				return r
			}
			return 0x10000 + (r-0xd800)<<10 + (lo - 0xdc00)
		}
		return r
	}
	p.i--
	p.fail("invalid escape")
	return 0
}

func (p *strictParser) hex4() rune {
	if len(p.s)-p.i < 4 {
		p.fail("short \\u escape")
		return 0
	}
	var r rune
	for k := range 4 {
		c := p.s[p.i+k]
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			p.fail("bad hex digit in \\u escape")
			return 0
		}
	}
	p.i += 4
	return r
}

package gbnf

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// String returns the grammar as GBNF text (see Print). A grammar Print
// refuses comes out as a single comment line naming the problem, which
// llama.cpp rejects for lack of a root rule.
func (g *Grammar) String() string { return printString(g, "", false) }

// StringAfter returns header's lines, a newline, then String(), printed in
// one buffer: Compile puts its provenance comment first, and joining the two
// strings copied the whole grammar once more.
func (g *Grammar) StringAfter(header string) string { return printString(g, header, true) }

// printString prints g, after header and a newline when headerLine, into a
// pooled buffer and copies out the string.
func printString(g *Grammar, header string, headerLine bool) string {
	scratch := printBuffers.Get().(*[]byte)
	b := (*scratch)[:0]
	if headerLine {
		b = append(append(b, header...), '\n')
	}
	b, err := appendGrammar(b, g)
	s := string(b)
	putPrintBuffer(scratch, b)
	switch {
	case err == nil:
		return s
	case headerLine:
		return header + "\n" + cannotPrint(err)
	}
	return cannotPrint(err)
}

// cannotPrint is the comment String returns for a grammar Print refuses.
func cannotPrint(err error) string {
	return "# gbnf: cannot print grammar: " + strings.ReplaceAll(err.Error(), "\n", " ") + "\n"
}

// Print writes g as llama.cpp GBNF text: one "name ::= body" line per rule,
// in g.Rules order, deterministic. It adds parentheses only where needed and
// escapes only with escapes llama.cpp knows; printable non-ASCII is written
// as raw UTF-8. It refuses, writing nothing, what GBNF cannot spell: a class
// without ranges (llama.cpp reads [] as the empty string), a choice without
// alternatives, nil nodes, invalid names, bad repeat bounds.
func Print(w io.Writer, g *Grammar) error {
	scratch := printBuffers.Get().(*[]byte)
	b, err := appendGrammar((*scratch)[:0], g)
	if err == nil {
		_, err = w.Write(b)
	}
	putPrintBuffer(scratch, b)
	return err
}

// printBuffers holds scratch buffers the printer appends to, so that a
// printed grammar costs one allocation of exactly its size (the string
// copied out of the buffer) instead of a buffer grown from a guess.
var printBuffers = sync.Pool{New: func() any { return new([]byte) }}

// maxPooledPrintBuffer is the largest buffer kept for reuse: a huge
// grammar's buffer goes to the garbage collector, not to the pool.
const maxPooledPrintBuffer = 1 << 20

// putPrintBuffer returns b, grown from *scratch, to the pool.
func putPrintBuffer(scratch *[]byte, b []byte) {
	if cap(b) > maxPooledPrintBuffer {
		return
	}
	*scratch = b[:0]
	printBuffers.Put(scratch)
}

// appendGrammar appends g's text to b. The printer appends to a []byte
// passed by value rather than writing through a *strings.Builder: no
// write barrier per write, no copy check, and the slice stays in registers.
func appendGrammar(b []byte, g *Grammar) ([]byte, error) {
	if g == nil {
		return b, errors.New("gbnf: nil grammar")
	}
	for i, r := range g.Rules {
		if r == nil {
			return b, fmt.Errorf("gbnf: rule %d is nil", i)
		}
		if f := r.frozenAs(); f != nil {
			b = append(b, f.line...) // printed by Freeze
			continue
		}
		var err error
		if b, err = appendRule(b, r); err != nil {
			return b, err
		}
	}
	return b, nil
}

// appendRule appends r's line, "name ::= body\n", to b.
func appendRule(b []byte, r *Rule) ([]byte, error) {
	if !validName(r.Name) {
		return b, fmt.Errorf("gbnf: rule name %q is not a GBNF name", r.Name)
	}
	b = append(b, r.Name...)
	b = append(b, " ::= "...)
	var err error
	if b, err = appendExpr(b, r.Expr, ctxTop); err != nil {
		return b, fmt.Errorf("gbnf: rule %s: %w", r.Name, err)
	}
	return append(b, '\n'), nil
}

// printCtx is where an expression is printed, which decides its parentheses.
type printCtx int

const (
	ctxTop    printCtx = iota // a rule body or one alternative of it
	ctxSeq                    // an item of a sequence
	ctxRepeat                 // the operand of a postfix operator
)

// unwrap looks through sequences and choices of one element, which print
// as that element.
func unwrap(e Expr) Expr {
	for {
		switch x := e.(type) {
		case *Seq:
			if x == nil || len(x.Items) != 1 {
				return e
			}
			e = x.Items[0]
		case *Alt:
			if x == nil || len(x.Alts) != 1 {
				return e
			}
			e = x.Alts[0]
		default:
			return e
		}
	}
}

// appendExpr appends e printed in context ctx. Sequences and choices of
// one element print as that element, looked through in the same type
// switch that prints: one switch per node.
func appendExpr(b []byte, e Expr, ctx printCtx) ([]byte, error) {
	var err error
	switch e := e.(type) {
	case nil:
		return b, errors.New("nil expression")
	case *Alt:
		if e == nil || len(e.Alts) == 0 {
			return b, errors.New("choice without alternatives")
		}
		if len(e.Alts) == 1 {
			return appendExpr(b, e.Alts[0], ctx)
		}
		if ctx != ctxTop {
			b = append(b, '(')
		}
		for i, a := range e.Alts {
			if i > 0 {
				b = append(b, " | "...)
			}
			if b, err = appendExpr(b, a, ctxTop); err != nil {
				return b, err
			}
		}
		if ctx != ctxTop {
			b = append(b, ')')
		}
		return b, nil
	case *Seq:
		if e == nil {
			return b, errors.New("nil sequence")
		}
		switch len(e.Items) {
		case 0:
			return appendEmpty(b, ctx), nil
		case 1:
			return appendExpr(b, e.Items[0], ctx)
		}
		if ctx == ctxRepeat {
			b = append(b, '(')
		}
		for i, it := range e.Items {
			if i > 0 {
				b = append(b, ' ')
			}
			if b, err = appendExpr(b, it, ctxSeq); err != nil {
				return b, err
			}
		}
		if ctx == ctxRepeat {
			b = append(b, ')')
		}
		return b, nil
	case *Lit:
		if e == nil {
			return b, errNotUTF8
		}
		if e.Text == "" {
			return appendEmpty(b, ctx), nil
		}
		return appendLit(b, e.Text)
	case *Class:
		return appendClass(b, e)
	case *Any:
		return append(b, '.'), nil
	case *Ref:
		if e == nil || !validName(e.Name) {
			return b, errors.New("reference without a valid GBNF name")
		}
		return append(b, e.Name...), nil
	case *Repeat:
		if e == nil {
			return b, errors.New("nil repeat")
		}
		if e.Min < 0 || e.Max < -1 {
			return b, fmt.Errorf("repeat bounds {%d,%d} out of range", e.Min, e.Max)
		}
		// x{0} leaves llama.cpp nothing to apply a further operator to.
		if inner, ok := unwrap(e.Expr).(*Repeat); ok && inner != nil && inner.Max == 0 {
			b = append(b, '(')
			if b, err = appendExpr(b, inner, ctxTop); err != nil {
				return b, err
			}
			b = append(b, ')')
		} else if b, err = appendExpr(b, e.Expr, ctxRepeat); err != nil {
			return b, err
		}
		return appendRepeatSuffix(b, e.Min, e.Max), nil
	default:
		return b, fmt.Errorf("unknown expression type %T", e)
	}
}

var errNotUTF8 = errors.New("literal is not valid UTF-8")

// appendEmpty appends the empty string: "" on its own, () under an
// operator (llama.cpp refuses ""*, but accepts ()*).
func appendEmpty(b []byte, ctx printCtx) []byte {
	if ctx == ctxRepeat {
		return append(b, "()"...)
	}
	return append(b, `""`...)
}

func appendRepeatSuffix(b []byte, lo, hi int) []byte {
	switch {
	case lo == 0 && hi < 0:
		return append(b, '*')
	case lo == 1 && hi < 0:
		return append(b, '+')
	case lo == 0 && hi == 1:
		return append(b, '?')
	}
	b = append(b, '{')
	b = strconv.AppendInt(b, int64(lo), 10)
	switch {
	case hi < 0:
		b = append(b, ',')
	case lo != hi:
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(hi), 10)
	}
	return append(b, '}')
}

// appendLit appends a non-empty literal in quotes: runs of bytes that
// print as themselves at once, escapes from a table, and non-ASCII code
// points as their own bytes when printable. Text that is not UTF-8 is an
// error.
func appendLit(b []byte, s string) ([]byte, error) {
	b = append(b, '"')
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && litPlain[s[j]] {
			j++
		}
		b = append(b, s[i:j]...)
		if j == len(s) {
			break
		}
		if c := s[j]; c < utf8.RuneSelf {
			b = append(b, asciiEscapes[c]...)
			i = j + 1
			continue
		}
		r, n := utf8.DecodeRuneInString(s[j:])
		if r == utf8.RuneError && n == 1 {
			return b, errNotUTF8
		}
		b = appendNonASCII(b, r)
		i = j + n
	}
	return append(b, '"'), nil
}

func appendClass(b []byte, c *Class) ([]byte, error) {
	if c == nil || len(c.Ranges) == 0 {
		return b, errors.New("character class without ranges (llama.cpp reads [] as the empty string)")
	}
	b = append(b, '[')
	if c.Negated {
		b = append(b, '^')
	}
	for i, r := range c.Ranges {
		if r.Lo < 0 || r.Hi < 0 {
			return b, errors.New("negative code point in class range")
		}
		b = appendClassRune(b, r.Lo, i == 0, c.Negated)
		if r.Hi != r.Lo {
			b = append(b, '-')
			b = appendClassRune(b, r.Hi, false, c.Negated)
		}
	}
	return append(b, ']'), nil
}

// appendClassRune appends one code point of a class. ] \ [ take a
// backslash; ^ first in a plain class would negate it and - after the
// first position could read as a range, and llama.cpp has no \^ or \-
// escape, so both are written in hex there.
func appendClassRune(b []byte, r rune, first, negated bool) []byte {
	if r >= utf8.RuneSelf {
		return appendNonASCII(b, r)
	}
	switch c := byte(r); {
	case first && c == '-':
		return append(b, '-')
	case first && c == '^' && !negated:
		return append(b, `\x5E`...)
	case classPlain[c]:
		return append(b, c)
	default:
		return append(b, classEscapes[c]...)
	}
}

// The ASCII tables: which bytes print as themselves in a literal and in a
// class (after the first position), and the escape of every other one.
var (
	litPlain, classPlain       [256]bool
	asciiEscapes, classEscapes [utf8.RuneSelf]string
)

func init() {
	for c := range utf8.RuneSelf {
		esc := string(rune(c))
		switch {
		case c == '\t':
			esc = `\t`
		case c == '\r':
			esc = `\r`
		case c == '\n':
			esc = `\n`
		case c < 0x20 || c == 0x7F:
			esc = string([]byte{'\\', 'x', hexDigit(rune(c), 4), hexDigit(rune(c), 0)})
		}
		asciiEscapes[c], classEscapes[c] = esc, esc
		litPlain[c] = c >= 0x20 && c < 0x7F
		classPlain[c] = litPlain[c]
	}
	for _, c := range []byte(`"\`) {
		asciiEscapes[c] = `\` + string(rune(c))
		litPlain[c] = false
	}
	for _, c := range []byte(`]\[`) {
		classEscapes[c] = `\` + string(rune(c))
		classPlain[c] = false
	}
	classEscapes['-'] = `\x2D`
	classPlain['-'] = false
}

// appendNonASCII appends a code point from U+0080 up raw when it is
// printable, and as an escape when it is a control, invisible,
// unassigned, a surrogate, U+FFFD (which looks like a decoding accident)
// or beyond Unicode.
func appendNonASCII(b []byte, r rune) []byte {
	switch {
	case r != utf8.RuneError && utf8.ValidRune(r) && unicode.IsPrint(r):
		return utf8.AppendRune(b, r)
	case r <= 0xFF:
		return append(b, '\\', 'x', hexDigit(r, 4), hexDigit(r, 0))
	case r <= 0xFFFF:
		return append(b, '\\', 'u', hexDigit(r, 12), hexDigit(r, 8), hexDigit(r, 4), hexDigit(r, 0))
	default:
		return append(b, '\\', 'U', hexDigit(r, 28), hexDigit(r, 24), hexDigit(r, 20), hexDigit(r, 16),
			hexDigit(r, 12), hexDigit(r, 8), hexDigit(r, 4), hexDigit(r, 0))
	}
}

// hexDigit is the upper-case hex digit of r at bit shift. Escapes are
// most of a grammar's classes: each is one append of all its bytes, not
// fmt (once a tenth of compile time) nor a byte at a time.
func hexDigit(r rune, shift uint) byte {
	return "0123456789ABCDEF"[uint32(r)>>shift&15]
}

package gbnf

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// String returns the grammar as GBNF text (see Print). A grammar Print
// refuses comes out as a single comment line naming the problem, which
// llama.cpp rejects for lack of a root rule.
func (g *Grammar) String() string {
	var b strings.Builder
	if err := printGrammar(&b, g); err != nil {
		return cannotPrint(err)
	}
	return b.String()
}

// StringAfter returns header's lines, a newline, then String(), printed in
// one buffer: Compile puts its provenance comment first, and joining the two
// strings copied the whole grammar once more.
func (g *Grammar) StringAfter(header string) string {
	var b strings.Builder
	if g != nil {
		b.Grow(len(header) + 1 + bytesPerRule*len(g.Rules))
	}
	b.WriteString(header)
	b.WriteByte('\n')
	if err := printGrammar(&b, g); err != nil {
		return header + "\n" + cannotPrint(err)
	}
	return b.String()
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
	var b strings.Builder
	if err := printGrammar(&b, g); err != nil {
		return err
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// bytesPerRule is a guess of a printed rule's length, to size the buffer
// once instead of doubling it from nothing. Compiled corpus grammars print
// a median 145 and a 90th percentile 199 bytes per rule; a guess below the
// size costs a copy of everything printed so far, one above it only
// unused capacity.
const bytesPerRule = 200

// printGrammar appends g to b, which String returns without copying.
func printGrammar(b *strings.Builder, g *Grammar) error {
	if g == nil {
		return errors.New("gbnf: nil grammar")
	}
	b.Grow(bytesPerRule * len(g.Rules))
	for i, r := range g.Rules {
		if r == nil {
			return fmt.Errorf("gbnf: rule %d is nil", i)
		}
		if !validName(r.Name) {
			return fmt.Errorf("gbnf: rule name %q is not a GBNF name", r.Name)
		}
		b.WriteString(r.Name)
		b.WriteString(" ::= ")
		if err := printExpr(b, r.Expr, ctxTop); err != nil {
			return fmt.Errorf("gbnf: rule %s: %w", r.Name, err)
		}
		b.WriteByte('\n')
	}
	return nil
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

func printExpr(b *strings.Builder, e Expr, ctx printCtx) error {
	e = unwrap(e)
	switch e := e.(type) {
	case nil:
		return errors.New("nil expression")
	case *Alt:
		if e == nil || len(e.Alts) == 0 {
			return errors.New("choice without alternatives")
		}
		if ctx != ctxTop {
			b.WriteByte('(')
		}
		for i, a := range e.Alts {
			if i > 0 {
				b.WriteString(" | ")
			}
			if err := printExpr(b, a, ctxTop); err != nil {
				return err
			}
		}
		if ctx != ctxTop {
			b.WriteByte(')')
		}
	case *Seq:
		if e == nil {
			return errors.New("nil sequence")
		}
		if len(e.Items) == 0 {
			printEmpty(b, ctx)
			return nil
		}
		if ctx == ctxRepeat {
			b.WriteByte('(')
		}
		for i, it := range e.Items {
			if i > 0 {
				b.WriteByte(' ')
			}
			if err := printExpr(b, it, ctxSeq); err != nil {
				return err
			}
		}
		if ctx == ctxRepeat {
			b.WriteByte(')')
		}
	case *Lit:
		if e == nil || !utf8.ValidString(e.Text) {
			return errors.New("literal is not valid UTF-8")
		}
		if e.Text == "" {
			printEmpty(b, ctx)
			return nil
		}
		b.WriteByte('"')
		if plainASCII(e.Text) {
			b.WriteString(e.Text)
		} else {
			for _, r := range e.Text {
				writeLitRune(b, r)
			}
		}
		b.WriteByte('"')
	case *Class:
		return printClass(b, e)
	case *Any:
		b.WriteByte('.')
	case *Ref:
		if e == nil || !validName(e.Name) {
			return errors.New("reference without a valid GBNF name")
		}
		b.WriteString(e.Name)
	case *Repeat:
		if e == nil {
			return errors.New("nil repeat")
		}
		if e.Min < 0 || e.Max < -1 {
			return fmt.Errorf("repeat bounds {%d,%d} out of range", e.Min, e.Max)
		}
		// x{0} leaves llama.cpp nothing to apply a further operator to.
		if inner, ok := unwrap(e.Expr).(*Repeat); ok && inner != nil && inner.Max == 0 {
			b.WriteByte('(')
			if err := printExpr(b, inner, ctxTop); err != nil {
				return err
			}
			b.WriteByte(')')
		} else if err := printExpr(b, e.Expr, ctxRepeat); err != nil {
			return err
		}
		b.WriteString(repeatSuffix(e.Min, e.Max))
	default:
		return fmt.Errorf("unknown expression type %T", e)
	}
	return nil
}

// printEmpty prints the empty string: "" on its own, () under an operator
// (llama.cpp refuses ""*, but accepts ()*).
func printEmpty(b *strings.Builder, ctx printCtx) {
	if ctx == ctxRepeat {
		b.WriteString("()")
	} else {
		b.WriteString(`""`)
	}
}

func repeatSuffix(lo, hi int) string {
	switch {
	case lo == 0 && hi < 0:
		return "*"
	case lo == 1 && hi < 0:
		return "+"
	case lo == 0 && hi == 1:
		return "?"
	case hi < 0:
		return "{" + strconv.Itoa(lo) + ",}"
	case lo == hi:
		return "{" + strconv.Itoa(lo) + "}"
	}
	return "{" + strconv.Itoa(lo) + "," + strconv.Itoa(hi) + "}"
}

func printClass(b *strings.Builder, c *Class) error {
	if c == nil || len(c.Ranges) == 0 {
		return errors.New("character class without ranges (llama.cpp reads [] as the empty string)")
	}
	b.WriteByte('[')
	if c.Negated {
		b.WriteByte('^')
	}
	first := true
	for _, r := range c.Ranges {
		if r.Lo < 0 || r.Hi < 0 {
			return errors.New("negative code point in class range")
		}
		writeClassRune(b, r.Lo, first, c.Negated)
		first = false
		if r.Hi != r.Lo {
			b.WriteByte('-')
			writeClassRune(b, r.Hi, false, c.Negated)
		}
	}
	b.WriteByte(']')
	return nil
}

// plainASCII says whether a literal prints as its own bytes: printable
// ASCII without `"` or `\`, as most literals are.
func plainASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7F || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// writeLitRune writes one code point of a literal.
func writeLitRune(b *strings.Builder, r rune) {
	switch r {
	case '"':
		b.WriteString(`\"`)
	case '\\':
		b.WriteString(`\\`)
	default:
		writeRune(b, r)
	}
}

// writeClassRune writes one code point of a class. ] \ [ take a backslash;
// ^ first in a plain class would negate it and - after the first position
// could read as a range, and llama.cpp has no \^ or \- escape, so both are
// written in hex there.
func writeClassRune(b *strings.Builder, r rune, first, negated bool) {
	switch {
	case r == ']' || r == '\\' || r == '[':
		b.WriteByte('\\')
		b.WriteRune(r)
	case r == '^' && first && !negated:
		b.WriteString(`\x5E`)
	case r == '-' && !first:
		b.WriteString(`\x2D`)
	default:
		writeRune(b, r)
	}
}

// writeRune writes a code point raw when it is printable, and as an
// escape when it is a control, invisible, unassigned, a surrogate, U+FFFD
// (which looks like a decoding accident) or beyond Unicode.
func writeRune(b *strings.Builder, r rune) {
	switch r {
	case '\t':
		b.WriteString(`\t`)
		return
	case '\r':
		b.WriteString(`\r`)
		return
	case '\n':
		b.WriteString(`\n`)
		return
	}
	if r >= 0x20 && r < 0x7F { // printable ASCII
		b.WriteByte(byte(r))
		return
	}
	printable := r == ' ' || r != utf8.RuneError && utf8.ValidRune(r) && unicode.IsPrint(r)
	switch {
	case printable:
		b.WriteRune(r)
	case r <= 0xFF:
		writeHex(b, `\x`, r, 2)
	case r <= 0xFFFF:
		writeHex(b, `\u`, r, 4)
	default:
		writeHex(b, `\U`, r, 8)
	}
}

// writeHex writes prefix and r as digits upper-case hex digits: escapes are
// most of a grammar's classes, and fmt was a tenth of compile time.
func writeHex(b *strings.Builder, prefix string, r rune, digits int) {
	b.WriteString(prefix)
	for shift := 4 * (digits - 1); shift >= 0; shift -= 4 {
		b.WriteByte("0123456789ABCDEF"[(uint32(r)>>shift)&15])
	}
}

package compile_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/equiv"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/internal/oracle"
	"github.com/schema2gbnf/schema2gbnf/interop"
)

// Schemas whose literals hold non-ASCII characters: declared names (with
// extra members allowed or not), enum members, consts, astral characters.
var nonASCIISchemas = []string{
	`{"type":"object","properties":{"名前":{"type":"string"},"年齢":{"type":"integer","minimum":0}},"required":["名前"],"additionalProperties":false}`,
	`{"type":"object","properties":{"名前":{"type":"string"},"名字":{"type":"boolean"}}}`,
	`{"enum":["東京","大阪","京都","é","😀","a😀b",null]}`,
	`{"const":{"キー":"値","list":["ü",1]}}`,
	`{"type":"array","items":{"type":"object","properties":{"ü":{"const":"ö"}},"required":["ü"]},"maxItems":3}`,
}

// escapeAll writes every non-ASCII code point of a JSON text (they are all
// inside strings) that is one of the schema's as a lower-case \u escape, a
// surrogate pair beyond U+FFFF. (Extra member names keep their canonical
// spelling: the generator's own, "é😀", is in no schema here.)
func escapeAll(text, schema string) string {
	var b strings.Builder
	for _, r := range text {
		switch {
		case r < utf8.RuneSelf || !strings.ContainsRune(schema, r):
			b.WriteRune(r)
		case r > 0xFFFF:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, hi, lo)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// nearMisses are the escaped text with one escape changed: another code
// point, or the same in upper case.
func nearMisses(esc string) []string {
	var out []string
	for i := strings.Index(esc, `\u`); i >= 0 && i+6 <= len(esc); {
		last := esc[i+5]
		other := byte('0')
		if last == '0' {
			other = '1'
		}
		out = append(out, esc[:i+5]+string(other)+esc[i+6:], esc[:i+2]+strings.ToUpper(esc[i+2:i+6])+esc[i+6:])
		j := strings.Index(esc[i+6:], `\u`)
		if j < 0 {
			break
		}
		i += 6 + j
	}
	return out
}

// TestNonASCIIEscapes: every non-ASCII character of a literal is accepted
// raw and as a lower-case \u escape, for every valid value, by our matcher
// and by llama.cpp's engine; texts with one escape changed are accepted only
// when the validator accepts their value (soundness).
func TestNonASCIIEscapes(t *testing.T) {
	var e *interop.Engine
	if !testing.Short() {
		e = interop.Shared(t)
	}
	for _, schema := range nonASCIISchemas {
		g, err := schema2gbnf.Compile([]byte(schema), schema2gbnf.Options{})
		if err != nil {
			t.Fatal(err)
		}
		o, err := oracle.New([]byte(schema), g.Schema.Draft)
		if err != nil {
			t.Fatal(err)
		}
		m, err := gbnf.NewMatcher(g.Rules)
		if err != nil {
			t.Fatal(err)
		}
		var accept []string
		for _, v := range equiv.NewGenerator(g.Schema, 1).Valid() {
			c, err := compile.Canonical(g.Schema, v)
			if err != nil {
				continue
			}
			esc := escapeAll(c, schema)
			for _, text := range []string{c, esc} {
				if !m.Accepts(text) {
					t.Errorf("%s: the grammar rejects %q\n%s", schema, text, g.GBNF)
				}
				accept = append(accept, text)
			}
			for _, miss := range nearMisses(esc) {
				ok, err := o.Valid(miss)
				if m.Accepts(miss) && !ok {
					t.Errorf("%s: the grammar accepts %q, the validator rejects it (%v)", schema, miss, err)
				}
			}
		}
		if len(accept) < 2 {
			t.Fatalf("%s: no valid value generated", schema)
		}
		if e == nil {
			continue
		}
		lg, err := e.Load(g.GBNF)
		if err != nil {
			t.Fatalf("llama.cpp refuses the grammar: %v\n%s", err, g.GBNF)
		}
		got, err := lg.Accepts(accept)
		lg.Close()
		if err != nil {
			t.Fatal(err)
		}
		for i, text := range accept {
			if !got[i] {
				t.Errorf("%s: llama.cpp rejects %q", schema, text)
			}
		}
	}
}

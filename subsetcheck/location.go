// Where a problem is: JSON Pointers (RFC 6901) spelled, escaped and
// unescaped, into an arena so that a pointer per subschema costs no
// allocation of its own; and byte offsets turned into line:column.

package subsetcheck

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// join appends token, escaped, to the pointer ptr: for reports; the walk
// spells its pointers into the arena (spellArena.join).
func join(ptr, token string) string { return ptr + "/" + escapePointerToken(token) }

// maxSpellChunk bounds a chunk of the pointer arena.
const maxSpellChunk = 8 << 10

// spellPerPosition is the size of the first chunk of the pointer arena
// per schema position.
const spellPerPosition = 32

// spellArena hands out the strings of spelled JSON Pointers cut from
// shared chunks, one allocation for many: a pointer per subschema and per
// reported keyword was most of the checker's allocations. A chunk is a
// strings.Builder written only past its end, so the bytes under a string
// handed out never change (a chunk that must grow is copied, and the
// strings already cut keep the old one). Chunks start small and double, so
// that a small schema costs little.
type spellArena struct {
	b    strings.Builder
	size int // capacity of the current chunk
}

// room returns the chunk, with room for n more bytes: the caller writes
// them and reads them back with since before the arena is asked again.
func (a *spellArena) room(n int) *strings.Builder {
	if a.b.Cap()-a.b.Len() >= n {
		return &a.b
	}
	a.size = min(max(2*a.size, 128), maxSpellChunk)
	a.b.Reset() // the strings cut from the old chunk keep it
	a.b.Grow(max(n, a.size))
	return &a.b
}

// since returns what was written to chunk b from start on.
func since(b *strings.Builder, start int) string { return b.String()[start:] }

// join is the package's join, spelled into the arena.
func (a *spellArena) join(ptr, token string) string {
	token = escapePointerToken(token)
	b := a.room(len(ptr) + 1 + len(token))
	start := b.Len()
	b.WriteString(ptr)
	b.WriteByte('/')
	b.WriteString(token)
	return since(b, start)
}

// pointerSpeller hands out pointers that spellPointers wrote into one
// string.
type pointerSpeller struct {
	all    string
	at     int
	prefix int // length of the part before each token
}

// spellPointers writes ptr/keyword/token(i) (ptr/token(i) when keyword is
// "") for i < n one after another into the arena, so that the n subschemas
// of a keyword get their pointers from one string; next hands them out in
// order. token must return escaped tokens, the same each time.
func (a *spellArena) spellPointers(ptr, keyword string, n int, token func(int) string) pointerSpeller {
	prefix := len(ptr) + 1
	if keyword != "" {
		prefix += len(keyword) + 1
	}
	total := 0
	for i := range n {
		total += prefix + len(token(i))
	}
	b := a.room(total)
	start := b.Len()
	for i := range n {
		b.WriteString(ptr)
		b.WriteByte('/')
		if keyword != "" {
			b.WriteString(keyword)
			b.WriteByte('/')
		}
		b.WriteString(token(i))
	}
	return pointerSpeller{all: since(b, start), prefix: prefix}
}

// next returns the next pointer, whose last token is n bytes long.
func (p *pointerSpeller) next(n int) string {
	end := p.at + p.prefix + n
	s := p.all[p.at:end]
	p.at = end
	return s
}

// unescapeToken decodes ~1 and ~0 in one JSON Pointer token.
func unescapeToken(s string) (string, bool) {
	if !strings.Contains(s, "~") {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '~' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 >= len(s) || (s[i+1] != '0' && s[i+1] != '1') {
			return "", false
		}
		if s[i+1] == '0' {
			b.WriteByte('~')
		} else {
			b.WriteByte('/')
		}
		i++
	}
	return b.String(), true
}

func pointerOrRoot(p string) string {
	if p == "" {
		return "#"
	}
	return "#" + p
}

// lineStarts lists the byte offset at which each line begins.
func lineStarts(data []byte) []int {
	starts := make([]int, 1, 1+bytes.Count(data, []byte{'\n'}))
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			return starts
		}
		i += j + 1
		starts = append(starts, i)
	}
}

// Position turns a byte offset into a 1-based line and a 1-based column
// counted in bytes. Offsets past the end are clamped to the end.
func (d *Document) Position(offset int) (line, col int) {
	if offset < 0 {
		offset = 0
	}
	if offset > len(d.Data) {
		offset = len(d.Data)
	}
	// Line starts are found on the first call only: most documents have
	// no problem to place, and a search of every newline per Read was a
	// tenth of reading.
	p := d.lineStarts.Load()
	if p == nil {
		// A new variable: taking the address of one declared for both
		// branches moved it to the heap on every call.
		starts := lineStarts(d.Data)
		p = &starts
		d.lineStarts.Store(p)
	}
	starts := *p
	// The last line starting at or before offset (the first starts at 0).
	lo, hi := 0, len(starts)
	for hi-lo > 1 {
		mid := int(uint(lo+hi) >> 1)
		if starts[mid] > offset {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo + 1, offset - starts[lo] + 1
}

// problem builds a Problem located at offset in d.
func (d *Document) problem(code Code, pointer string, offset int, format string, args ...any) *Problem {
	p := new(Problem)
	d.place(p, code, pointer, offset, fmt.Sprintf(format, args...))
	return p
}

// place fills p as problem would build it, with the message spelled.
func (d *Document) place(p *Problem, code Code, pointer string, offset int, message string) {
	line, col := d.Position(offset)
	*p = Problem{Code: code, File: d.Name, Pointer: pointer, Line: line, Col: col, Message: message}
}

// escapePointerToken escapes one JSON Pointer reference token (RFC 6901).
func escapePointerToken(s string) string {
	if strings.IndexByte(s, '~') < 0 && strings.IndexByte(s, '/') < 0 {
		return s // nearly always: two byte searches are cheaper than ContainsAny
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(s)
}

// At returns the value at JSON Pointer ptr in the document, or nil.
func (d *Document) At(ptr string) *Value {
	cur := d.Root
	if ptr == "" {
		return cur
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil
	}
	for _, raw := range strings.Split(ptr[1:], "/") {
		tok, ok := unescapeToken(raw)
		if !ok || cur == nil {
			return nil
		}
		switch cur.Kind {
		case Object:
			cur = cur.Get(tok)
		case Array:
			n, err := strconv.Atoi(tok)
			if err != nil || n < 0 || n >= len(cur.Items) || strconv.Itoa(n) != tok {
				return nil
			}
			cur = cur.Items[n]
		default:
			return nil
		}
	}
	return cur
}

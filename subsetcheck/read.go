// The reader: strict RFC 8259 JSON into a Value tree, in one scan that
// never recurses, within named limits.

package subsetcheck

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/strlang"
)

// InputTooLarge is the L501 problem for an input of size bytes, more than
// limit; size < 0 means only that it is longer than limit (a stream read up
// to the limit and one byte more).
func InputTooLarge(name string, size int64, limit int) *Problem {
	is := fmt.Sprintf("the input is %d bytes, longer than", size)
	if size < 0 {
		is = "the input is longer than"
	}
	return &Problem{Code: CodeInputTooLarge, File: name, Line: 1, Col: 1,
		Message: fmt.Sprintf("%s the limit of %d bytes (-max-input-bytes, Limits.MaxInputBytes); split the schema or raise the limit", is, limit)}
}

// DefaultLimits are the limits used for every zero field of Limits.
var DefaultLimits = Limits{
	MaxInputBytes:   16 << 20,
	MaxDepth:        512,
	MaxNumberDigits: 10000,
	MaxSubschemas:   100000,
	MaxNestedBytes:  256 << 20,
	MaxValues:       2_000_000,
	MaxRefDocuments: 1000,
	MaxRefBytes:     64 << 20,

	MaxPatternBytes:   strlang.DefaultPatternBytes,
	MaxPatternNesting: strlang.DefaultDepth,
	MaxPatternRepeat:  strlang.DefaultRepeat,
	MaxPatternStates:  strlang.DefaultStates,
	MaxLengthStates:   strlang.DefaultLengthStates,
	MaxNameRegions:    DefaultNameRegions,
}

// DefaultNameRegions is the default of Limits.MaxNameRegions: n
// patternProperties whose languages overlap in every way split an
// object's extra member names into up to 2^n regions, each with its own
// value schema and a part of the names' automaton.
const DefaultNameRegions = 64

// withDefaults fills the zero fields of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	if l.MaxInputBytes <= 0 {
		l.MaxInputBytes = DefaultLimits.MaxInputBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultLimits.MaxDepth
	}
	if l.MaxNumberDigits <= 0 {
		l.MaxNumberDigits = DefaultLimits.MaxNumberDigits
	}
	if l.MaxSubschemas <= 0 {
		l.MaxSubschemas = DefaultLimits.MaxSubschemas
	}
	if l.MaxNestedBytes <= 0 {
		l.MaxNestedBytes = DefaultLimits.MaxNestedBytes
	}
	if l.MaxValues <= 0 {
		l.MaxValues = DefaultLimits.MaxValues
	}
	if l.MaxRefDocuments <= 0 {
		l.MaxRefDocuments = DefaultLimits.MaxRefDocuments
	}
	if l.MaxRefBytes <= 0 {
		l.MaxRefBytes = DefaultLimits.MaxRefBytes
	}
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.MaxPatternBytes, DefaultLimits.MaxPatternBytes)
	def(&l.MaxPatternNesting, DefaultLimits.MaxPatternNesting)
	def(&l.MaxPatternRepeat, DefaultLimits.MaxPatternRepeat)
	def(&l.MaxPatternStates, DefaultLimits.MaxPatternStates)
	def(&l.MaxLengthStates, DefaultLimits.MaxLengthStates)
	def(&l.MaxNameRegions, DefaultLimits.MaxNameRegions)
	return l
}

// Read reads one strict RFC 8259 JSON text (a schema, or an instance a model
// wrote) into a Value tree. It refuses what lenient readers let through:
// a byte order mark, trailing data, duplicate member names, invalid UTF-8 and
// lone surrogates; and it bounds the work with lim. Its error is an ErrorList.
//
// One scanner that never recurses (so nesting 100,000 deep ends in L502, not
// a stack overflow) validates the text and builds the tree as it goes; the
// tree is returned only when the whole text is valid.
func Read(name string, data []byte, lim Limits) (*Document, error) {
	lim = lim.withDefaults()
	doc := &Document{Name: name, Data: data}
	if len(data) > lim.MaxInputBytes {
		return nil, ErrorList{InputTooLarge(name, int64(len(data)), lim.MaxInputBytes)}
	}
	// One copy of the text: every string and number of the tree is a
	// substring of it, as the caller may reuse data.
	s := scanner{doc: doc, data: data, text: string(data), lim: lim, stack: make([]frame, 0, 16)}
	// Every value but the root is the first of its container (after a
	// '[' or a '{') or follows a ','. Those bytes are counted inside
	// strings too: the counts are upper bounds.
	commas, brackets := bytes.Count(data, []byte{','}), bytes.Count(data, []byte{'['})
	s.valuesLeft = 1 + commas + brackets + bytes.Count(data, []byte{'{'})
	// An item follows a '[' or a ','; a member has a ':'.
	s.itemsLeft = commas + brackets
	s.membersLeft = bytes.Count(data, []byte{':'})
	s.items = make([]*Value, 0, min(s.itemsLeft, 16))
	s.members = make([]Member, 0, min(s.membersLeft, 16))
	s.scan()
	if len(s.problems) > 0 {
		return nil, s.problems.Err()
	}
	if len(s.duplicates) > 0 {
		return nil, s.duplicates.Err()
	}
	doc.Root = s.root
	return doc, nil
}

// frame is one open object or array during scanning, kept to name the
// JSON Pointer of a syntax error.
type frame struct {
	val        *Value         // the value being built; nil inside a duplicate member, which is left out
	names      map[string]int // objects past linearMembers: member name -> offset of the name
	start      int            // offset of the opening bracket
	index      int            // arrays: index of the current item
	keyStart   int            // objects: offset of the current member name's quote, -1 before the first
	keyEnd     int            // objects: offset just past the closing quote
	first      int            // index of its first item or member in the scanner's items or members
	object     bool
	keyEscaped bool // the member name holds an escape: decode it
}

// scanner validates a JSON text without recursion and builds its Value tree.
type scanner struct {
	doc        *Document
	data       []byte
	text       string // data as a string, for the tree's substrings
	lim        Limits
	pos        int
	stack      []frame
	problems   ErrorList
	duplicates ErrorList // duplicate member names: reported only if the text is valid
	root       *Value
	nested     int // sum of the sizes of all containers: bytes times their depth
	// The items and members of the open containers, innermost last: a
	// container's are copied out at its close into a slice of exactly
	// their number, not grown one append at a time (which was most of
	// the reader's allocations).
	items   []*Value
	members []Member
	// Values are handed out from blocks (one allocation for many), sized
	// by valuesLeft, an upper bound on the values still to come.
	block      []Value
	valuesLeft int
	// Likewise the closed containers' Items and Members.
	itemBlock   []*Value
	itemsLeft   int
	memberBlock []Member
	membersLeft int
	values      int // values seen so far, against Limits.MaxValues
}

// close pops a container and counts its bytes towards Limits.MaxNestedBytes,
// which bounds the work of whoever walks the tree level by level.
func (s *scanner) close() {
	top := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	if v := top.val; v != nil {
		if top.object {
			if n := len(s.members) - top.first; n > 0 {
				v.Members = take(&s.memberBlock, &s.membersLeft, n, maxSliceBlock)
				copy(v.Members, s.members[top.first:])
				s.members = s.members[:top.first]
			}
		} else if n := len(s.items) - top.first; n > 0 {
			v.Items = take(&s.itemBlock, &s.itemsLeft, n, maxItemBlock)
			copy(v.Items, s.items[top.first:])
			s.items = s.items[:top.first]
		}
	}
	s.nested += s.pos - top.start
	if s.nested > s.lim.MaxNestedBytes {
		s.add(CodeTooDeep, top.start, "the text is too deeply nested for its size: its bytes times their depth pass %d (-max-nested-bytes, Limits.MaxNestedBytes); flatten the document, or raise the limit", s.lim.MaxNestedBytes)
		panic(errSyntax{})
	}
}

// errSyntax stops the scan: after a syntax error nothing later is reliable.
type errSyntax struct{}

func (s *scanner) pointer() string {
	var b strings.Builder
	for i := range s.stack {
		f := &s.stack[i]
		if f.object {
			if f.keyStart < 0 {
				break
			}
			b.WriteByte('/')
			b.WriteString(escapePointerToken(decodeString(string(s.data[f.keyStart:f.keyEnd]))))
		} else {
			b.WriteByte('/')
			b.WriteString(strconv.Itoa(f.index))
		}
	}
	return b.String()
}

func (s *scanner) add(code Code, offset int, format string, args ...any) {
	s.problems = append(s.problems, s.doc.problem(code, s.pointer(), offset, format, args...))
}

func (s *scanner) fail(offset int, format string, args ...any) {
	s.add(CodeInvalidJSON, offset, format, args...)
	panic(errSyntax{})
}

// describe names the byte at offset for a syntax error message.
func (s *scanner) describe(offset int) string {
	if offset >= len(s.data) {
		return "the end of the input"
	}
	c := s.data[offset]
	if c >= 0x20 && c < 0x7f {
		return fmt.Sprintf("%q", string(rune(c)))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

func (s *scanner) skipSpace() {
	// A local index: the field would be loaded and stored at every byte.
	i, d := s.pos, s.data
	for i < len(d) {
		c := d[i]
		if c == ' ' {
			// Indentation eight spaces at a time; compact text, the
			// usual case, never gets here.
			if i+8 <= len(d) && binary.LittleEndian.Uint64(d[i:]) == eightSpaces {
				i += 8
				continue
			}
			// Fewer than eight left in this run: byte by byte.
			for i++; i < len(d) && d[i] == ' '; i++ {
			}
			continue
		}
		if c != '\n' && c != '\t' && c != '\r' {
			break
		}
		i++
	}
	s.pos = i
}

const (
	eightSpaces = 0x2020202020202020
	lowBits     = 0x0101010101010101 // the lowest bit of each byte
	highBits    = 0x8080808080808080 // the highest bit of each byte
)

// plainWord reports whether the eight bytes of w (the text at i, read
// little-endian) are all plain string bytes (see plainStringByte): none is
// 0x80 or more, less than 0x20, '"' or '\\'. Each test is exact: a byte
// less than n (at most 0x80) borrows in w - n*lowBits and has its high bit
// clear in ^w, and a byte that borrows was itself below n.
func plainWord(w uint64) bool {
	quote, backslash := w^('"'*lowBits), w^('\\'*lowBits) // zero bytes where w has one
	special := w & highBits                               // non-ASCII
	special |= (w - 0x20*lowBits) &^ w                    // a control character
	special |= (quote - lowBits) &^ quote                 // '"'
	special |= (backslash - lowBits) &^ backslash
	return special&highBits == 0
}

func (s *scanner) scan() {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(errSyntax); !ok {
				panic(r)
			}
		}
	}()
	if len(s.data) >= 3 && s.data[0] == 0xEF && s.data[1] == 0xBB && s.data[2] == 0xBF {
		s.add(CodeByteOrderMark, 0, "the input starts with a UTF-8 byte order mark, which RFC 8259 forbids a JSON text to add; save the file without it")
		return
	}
	s.skipSpace()
	for {
		s.value()
		// After a value: close containers or move to the next item.
		for {
			s.skipSpace()
			if len(s.stack) == 0 {
				if s.pos < len(s.data) {
					s.add(CodeTrailingData, s.pos, "found %s after the end of the JSON value; a JSON text holds exactly one value, remove what follows it", s.describe(s.pos))
				}
				return
			}
			top := &s.stack[len(s.stack)-1]
			if s.pos >= len(s.data) {
				s.fail(s.pos, "unexpected end of the input inside an %s; close it with %q", map[bool]string{true: "object", false: "array"}[top.object], map[bool]string{true: "}", false: "]"}[top.object])
			}
			c := s.data[s.pos]
			if top.object && c == '}' || !top.object && c == ']' {
				s.pos++
				s.close()
				continue
			}
			if c != ',' {
				s.fail(s.pos, "expected ',' or %q, found %s", map[bool]string{true: "}", false: "]"}[top.object], s.describe(s.pos))
			}
			s.pos++
			s.skipSpace()
			if top.object {
				s.memberName(top)
			} else {
				top.index++
			}
			break
		}
	}
}

// open pushes a container, refusing to pass Limits.MaxDepth.
func (s *scanner) open(object bool, v *Value) {
	if len(s.stack) >= s.lim.MaxDepth {
		s.add(CodeTooDeep, s.pos, "values are nested more than %d deep (-max-nesting, Limits.MaxDepth); flatten the document, for example with $ref to $defs, or raise the limit", s.lim.MaxDepth)
		panic(errSyntax{})
	}
	first := len(s.items)
	if object {
		first = len(s.members)
	}
	s.stack = append(s.stack, frame{object: object, start: s.pos, keyStart: -1, val: v, first: first})
	s.pos++
}

// maxValueBlock bounds a block of values, so that a text whose strings
// are full of commas does not make the reader reserve memory for values
// that never come.
const maxValueBlock = 512

// alloc returns a new Value at the position.
func (s *scanner) alloc() *Value {
	if len(s.block) == 0 {
		s.block = make([]Value, max(1, min(s.valuesLeft, maxValueBlock)))
		s.valuesLeft -= len(s.block)
	}
	v := &s.block[0]
	s.block = s.block[1:]
	v.Offset = s.pos
	if s.doc.values < math.MaxUint32 {
		s.doc.values++
		v.id = uint32(s.doc.values)
	}
	return v
}

// newValue makes the Value starting at the position and hangs it in the
// tree: the root, an item of the open array, or the member of the open
// object whose name was just read. It returns nil inside a duplicate
// member, and for the duplicate itself, which it reports.
func (s *scanner) newValue() *Value {
	if len(s.stack) == 0 {
		s.root = s.alloc()
		return s.root
	}
	top := &s.stack[len(s.stack)-1]
	parent := top.val
	if parent == nil {
		return nil
	}
	if !top.object {
		v := s.alloc()
		s.items = append(s.items, v)
		return v
	}
	name := s.text[top.keyStart+1 : top.keyEnd-1]
	if top.keyEscaped {
		name = decodeString(s.text[top.keyStart:top.keyEnd])
	}
	if first, dup := s.memberOffset(top, name); dup {
		fl, fc := s.doc.Position(first)
		s.duplicates = append(s.duplicates, s.doc.problem(CodeDuplicateKey, s.pointer(), top.keyStart,
			"member name %q appears twice in one object, first at %d:%d and again here; validators disagree on which value wins, so keep only one", name, fl, fc))
		return nil
	}
	v := s.alloc()
	s.members = append(s.members, Member{Name: name, NameOffset: top.keyStart, Value: v})
	if top.names != nil {
		top.names[name] = top.keyStart
	}
	return v
}

// linearMembers is how many members an object may have before duplicate
// names are looked up in a map rather than by a scan of the members.
const linearMembers = 16

// memberOffset finds the member called name in the object f being built.
func (s *scanner) memberOffset(f *frame, name string) (int, bool) {
	ms := s.members[f.first:]
	if len(ms) <= linearMembers {
		for i := range ms {
			if ms[i].Name == name {
				return ms[i].NameOffset, true
			}
		}
		return 0, false
	}
	if f.names == nil {
		f.names = make(map[string]int, 2*len(ms))
		for _, m := range ms {
			f.names[m.Name] = m.NameOffset
		}
	}
	offset, ok := f.names[name]
	return offset, ok
}

// memberName reads `"name" :` and leaves the position on the value.
func (s *scanner) memberName(f *frame) {
	if s.pos >= len(s.data) || s.data[s.pos] != '"' {
		s.fail(s.pos, "expected a member name in double quotes, found %s", s.describe(s.pos))
	}
	start := s.pos
	f.keyEscaped = s.str()
	f.keyStart, f.keyEnd = start, s.pos
	s.skipSpace()
	if s.pos >= len(s.data) || s.data[s.pos] != ':' {
		s.fail(s.pos, "expected ':' after a member name, found %s", s.describe(s.pos))
	}
	s.pos++
	s.skipSpace()
}

// value reads one scalar, or opens a container and reads up to its first
// item (whose own reading is left to the loop in scan).
func (s *scanner) value() {
	for {
		// Each Value costs about a hundred bytes once built: count them
		// here, before anything is allocated.
		if s.values++; s.values > s.lim.MaxValues {
			s.add(CodeTooManyValues, s.pos, "the text holds more than %d values (-max-values, Limits.MaxValues); split it or raise the limit", s.lim.MaxValues)
			panic(errSyntax{})
		}
		s.skipSpace()
		if s.pos >= len(s.data) {
			s.fail(s.pos, "unexpected end of the input; expected a value")
		}
		v := s.newValue()
		start := s.pos
		switch c := s.data[s.pos]; c {
		case '{':
			if v != nil {
				v.Kind = Object
			}
			s.open(true, v)
			s.skipSpace()
			if s.pos < len(s.data) && s.data[s.pos] == '}' {
				s.pos++
				s.close()
				return
			}
			s.memberName(&s.stack[len(s.stack)-1])
			continue
		case '[':
			if v != nil {
				v.Kind = Array
			}
			s.open(false, v)
			s.skipSpace()
			if s.pos < len(s.data) && s.data[s.pos] == ']' {
				s.pos++
				s.close()
				return
			}
			continue
		case '"':
			escaped := s.str()
			if v != nil {
				v.Kind, v.Str = String, s.text[start+1:s.pos-1]
				if escaped {
					v.Str = decodeString(s.text[start:s.pos])
				}
			}
		case 't':
			s.literal("true")
			if v != nil {
				v.Kind, v.Bool = Bool, true
			}
		case 'f':
			s.literal("false")
			if v != nil {
				v.Kind = Bool
			}
		case 'n':
			s.literal("null") // Null is Kind's zero
		default:
			if c == '-' || c >= '0' && c <= '9' {
				s.number()
				if v != nil {
					v.Kind, v.Num = Number, s.text[start:s.pos]
				}
			} else {
				s.fail(s.pos, "expected a value, found %s", s.describe(s.pos))
			}
		}
		return
	}
}

func (s *scanner) literal(word string) {
	if !strings.HasPrefix(string(s.data[s.pos:min(len(s.data), s.pos+len(word))]), word) {
		s.fail(s.pos, "expected a value, found %s (JSON's literals are true, false and null, in lower case)", s.describe(s.pos))
	}
	s.pos += len(word)
}

// number checks the RFC 8259 number grammar and Limits.MaxNumberDigits, so
// that no later big.Rat is asked for 10^999999999.
func (s *scanner) number() {
	start := s.pos
	d := s.data
	digits := func() int {
		n := 0
		for s.pos < len(d) && d[s.pos] >= '0' && d[s.pos] <= '9' {
			s.pos++
			n++
		}
		return n
	}
	if d[s.pos] == '-' {
		s.pos++
	}
	intStart := s.pos
	n := digits()
	if n == 0 {
		s.fail(s.pos, "a number needs a digit after '-', found %s", s.describe(s.pos))
	}
	if n > 1 && d[intStart] == '0' {
		s.fail(intStart, "a number may not start with a leading zero; write %s", strings.TrimLeft(string(d[intStart:s.pos]), "0"))
	}
	mantissa := n
	if s.pos < len(d) && d[s.pos] == '.' {
		s.pos++
		n = digits()
		if n == 0 {
			s.fail(s.pos, "a number needs a digit after '.', found %s", s.describe(s.pos))
		}
		mantissa += n
	}
	exponent := 0
	if s.pos < len(d) && (d[s.pos] == 'e' || d[s.pos] == 'E') {
		s.pos++
		if s.pos < len(d) && (d[s.pos] == '+' || d[s.pos] == '-') {
			s.pos++
		}
		expStart := s.pos
		if digits() == 0 {
			s.fail(s.pos, "a number needs a digit in its exponent, found %s", s.describe(s.pos))
		}
		e := strings.TrimLeft(string(d[expStart:s.pos]), "0")
		if len(e) > 9 {
			exponent = math.MaxInt32
		} else if e != "" {
			exponent, _ = strconv.Atoi(e)
		}
	}
	if mantissa > s.lim.MaxNumberDigits || exponent > s.lim.MaxNumberDigits {
		s.add(CodeNumberTooLarge, start, "the number has %d digits and an exponent of magnitude %d; at most %d of each are read (-max-number-digits, Limits.MaxNumberDigits); write a smaller number or raise the limit", mantissa, exponent, s.lim.MaxNumberDigits)
		panic(errSyntax{})
	}
}

// plainStringByte marks the bytes that a string may hold as they are:
// printable ASCII other than '"' and '\'.
var plainStringByte = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str checks one string: escapes, control characters, UTF-8 and
// surrogate pairs. Encoding problems are reported and the scan goes on.
// It returns whether the string holds an escape (else its text between
// the quotes is its value).
func (s *scanner) str() (escaped bool) {
	start := s.pos
	d := s.data
	i := s.pos + 1
	reportedUTF8 := false
	for {
		// Runs of plain bytes, the bulk of every string, with a local
		// index: one table look-up per byte for the first eight (most
		// strings are shorter), then eight bytes at a time.
		for limit := min(len(d), i+8); i < limit && plainStringByte[d[i]]; {
			i++
		}
		if i < len(d) && plainStringByte[d[i]] {
			for i+8 <= len(d) && plainWord(binary.LittleEndian.Uint64(d[i:])) {
				i += 8
			}
			for i < len(d) && plainStringByte[d[i]] {
				i++
			}
		}
		s.pos = i
		if i >= len(d) {
			s.fail(start, "a string is not closed; end it with '\"'")
		}
		c := d[i]
		switch {
		case c == '"':
			s.pos++
			return escaped
		case c < 0x20:
			s.fail(i, "a raw control character (byte 0x%02x) inside a string; write it as an escape such as \\n or \\u%04x", c, c)
		case c == '\\':
			escaped = true
			s.escape()
			i = s.pos
		default:
			r, size := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && size <= 1 {
				if !reportedUTF8 {
					s.add(CodeInvalidUTF8, i, "byte 0x%02x is not valid UTF-8; JSON text must be UTF-8 (write the character as \\u escapes or re-encode the file)", c)
					reportedUTF8 = true
				}
				i++
				continue
			}
			i += size
		}
	}
}

// escape reads one backslash escape, pairing \uD800-\uDBFF with a following
// \uDC00-\uDFFF.
func (s *scanner) escape() {
	d := s.data
	at := s.pos
	if s.pos+1 >= len(d) {
		s.fail(s.pos, "a string ends inside an escape")
	}
	switch d[s.pos+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.pos += 2
		return
	case 'u':
	default:
		s.fail(s.pos, "\\%s is not a JSON escape; the escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX", s.describe(s.pos+1))
	}
	r := s.hex4()
	switch {
	case utf16.IsSurrogate(r) && r < 0xDC00:
		if s.pos+1 < len(d) && d[s.pos] == '\\' && d[s.pos+1] == 'u' {
			save := s.pos
			r2 := s.hex4()
			if r2 >= 0xDC00 && r2 <= 0xDFFF {
				return
			}
			s.pos = save
		}
		s.add(CodeLoneSurrogate, at, "\\u%04X is a high surrogate without a following low surrogate (\\uDC00-\\uDFFF); write the whole pair, or the character itself", r)
	case utf16.IsSurrogate(r):
		s.add(CodeLoneSurrogate, at, "\\u%04X is a low surrogate without a preceding high surrogate; write the whole pair, or the character itself", r)
	}
}

// hex4 reads `\uXXXX` at the position and returns its value.
func (s *scanner) hex4() rune {
	d := s.data
	s.pos += 2
	var r rune
	for i := 0; i < 4; i++ {
		if s.pos >= len(d) {
			s.fail(s.pos, "\\u needs four hexadecimal digits")
		}
		c := d[s.pos]
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			s.fail(s.pos, "\\u needs four hexadecimal digits, found %s", s.describe(s.pos))
		}
		r = r<<4 | rune(v)
		s.pos++
	}
	return r
}

// decodeString decodes a validated JSON string literal, quotes included.
// It is exact: every escape, surrogate pairs joined.
func decodeString(raw string) string {
	body := raw[1 : len(raw)-1]
	if !strings.Contains(body, `\`) {
		return body
	}
	var b strings.Builder
	b.Grow(len(body))
	for i := 0; i < len(body); {
		// The text up to the next escape, in one copy.
		j := strings.IndexByte(body[i:], '\\')
		if j < 0 {
			b.WriteString(body[i:])
			break
		}
		b.WriteString(body[i : i+j])
		i += j
		switch body[i+1] {
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r := parseHex4(body[i+2 : i+6])
			i += 6
			if utf16.IsSurrogate(r) && i+6 <= len(body) && body[i] == '\\' && body[i+1] == 'u' {
				if r2 := parseHex4(body[i+2 : i+6]); utf16.DecodeRune(r, r2) != utf8.RuneError {
					r = utf16.DecodeRune(r, r2)
					i += 6
				}
			}
			b.WriteRune(r) // a lone surrogate (never after validation) becomes U+FFFD
			continue
		default: // " \ /
			b.WriteByte(body[i+1])
		}
		i += 2
	}
	return b.String()
}

func parseHex4(h string) rune {
	v, _ := strconv.ParseUint(h, 16, 32)
	return rune(v)
}

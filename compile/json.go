package compile

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// The shared JSON rules: whitespace, any value, strings, numbers.

// wsRule: nothing, or a space or a newline followed by up to 20 spaces or
// tabs. One opening class rather than " " | "\n" indent: the slot keeps
// two readings alive (some whitespace, or none) instead of three, which
// took live stacks per code point 2.62 -> 2.44 on 492 corpus schemas
// (internal/llamastacks) and the schemas where llama.cpp keeps more stacks
// for our grammar than for the peer's from 210 to 151. The choice is the
// rule's own alternatives, not an optional group: two rules fewer for
// llama.cpp and two stacks fewer built at every whitespace slot.
// The indent is up to 4 groups of 4 and up to 4 more: llama.cpp expands
// x{0,20} into 20 rules, this into 9, and it parses them for every text
// node-llama-cpp checks (about a tenth of a small grammar's cost).
func (cp *compiler) wsRule() gbnf.Expr {
	return cp.shared("ws", func(string) gbnf.Expr {
		tab := class(false, '\t', ' ')
		indent := seq(&gbnf.Repeat{Expr: seq(tab, tab, tab, tab), Min: 0, Max: 4}, &gbnf.Repeat{Expr: tab, Min: 0, Max: 4})
		return alt(seq(class(false, '\n', ' '), indent), epsilon())
	})
}

// w is the whitespace slot between two tokens inside an object or array.
func (cp *compiler) w() gbnf.Expr {
	if isEpsilon(cp.ws) {
		return cp.ws
	}
	return cp.wsRule()
}

// anyValue is every JSON value: {} and true compile to it.
func (cp *compiler) anyValue() gbnf.Expr {
	return cp.shared("value", func(string) gbnf.Expr {
		obj := cp.shared("value-object", func(string) gbnf.Expr {
			member := seq(cp.stringAny(), cp.w(), lit(":"), cp.w(), ref("value"), cp.w())
			return seq(lit("{"), cp.w(), opt(seq(member, &gbnf.Repeat{Expr: seq(lit(","), cp.w(), member), Min: 0, Max: -1})), lit("}"))
		})
		arr := cp.shared("value-array", func(string) gbnf.Expr {
			item := seq(ref("value"), cp.w())
			return seq(lit("["), cp.w(), opt(seq(item, &gbnf.Repeat{Expr: seq(lit(","), cp.w(), item), Min: 0, Max: -1})), lit("]"))
		})
		return alt(obj, arr, cp.stringAny(), cp.number(), lit("true"), lit("false"), lit("null"))
	})
}

// stringAny is any JSON string.
func (cp *compiler) stringAny() gbnf.Expr {
	return cp.shared("string", func(string) gbnf.Expr {
		return seq(lit(`"`), &gbnf.Repeat{Expr: cp.char(), Min: 0, Max: -1}, lit(`"`))
	})
}

// boundedString is a JSON string of min to max characters (max < 0: no
// bound), one shared rule per pair of bounds: llama.cpp expands counts into
// rules and copies every rule for each text it checks, so a bounded string
// written out once per property multiplies that cost.
func (cp *compiler) boundedString(min, max int) gbnf.Expr {
	if min == 0 && max < 0 {
		return cp.stringAny()
	}
	key := "string-" + strconv.Itoa(min) + "-" + strconv.Itoa(max)
	if max < 0 {
		key = "string-" + strconv.Itoa(min) + "-up"
	}
	if n, ok := cp.helper[key]; ok {
		return ref(n)
	}
	body := cp.repeat(cp.char(), min, max)
	if body == nil {
		return nil
	}
	return cp.shared(key, func(string) gbnf.Expr { return seq(lit(`"`), body, lit(`"`)) })
}

// char is one character of a JSON string: a raw code point other than `"`,
// `\`, controls, surrogates and U+FFFD (llama.cpp decodes invalid UTF-8 to
// U+FFFD, so the raw form is refused and the escape required), or an escape;
// a surrogate pair written as two \u escapes is one character.
func (cp *compiler) char() gbnf.Expr {
	return cp.shared("char", func(string) gbnf.Expr {
		hex := cp.hex()
		nonSurrogate := alt(
			seq(class(false, '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'A', 'B', 'C', 'E', 'F', 'a', 'b', 'c', 'e', 'f'), hex, hex, hex),
			seq(class(false, 'D', 'd'), rangeClass('0', '7'), hex, hex))
		pair := seq(class(false, 'D', 'd'), class(false, '8', '9', 'A', 'B', 'a', 'b'), hex, hex,
			lit(`\u`), class(false, 'D', 'd'), class(false, 'C', 'D', 'E', 'F', 'c', 'd', 'e', 'f'), hex, hex)
		escape := seq(lit(`\`), alt(class(false, '"', '/', '\\', 'b', 'f', 'n', 'r', 't'), seq(lit("u"), alt(nonSurrogate, pair))))
		return alt(rawChars(nil), escape)
	})
}

func (cp *compiler) hex() gbnf.Expr {
	return cp.shared("hex", func(string) gbnf.Expr {
		return &gbnf.Class{Ranges: []gbnf.Range{{Lo: '0', Hi: '9'}, {Lo: 'A', Hi: 'F'}, {Lo: 'a', Hi: 'f'}}}
	})
}

// rawChars is the class of code points a string may hold unescaped, minus
// the sorted runes in except. It is built once per trie node of every
// extra-name rule, so it merges the two sorted lists instead of sorting.
func rawChars(except []rune) gbnf.Expr {
	c := &gbnf.Class{Negated: true, Ranges: make([]gbnf.Range, 0, notRawRanges+len(except)+2)}
	add := func(r rune) {
		if n := len(c.Ranges); n > 0 && c.Ranges[n-1].Hi+1 >= r {
			if r > c.Ranges[n-1].Hi {
				c.Ranges[n-1].Hi = r
			}
			return
		}
		c.Ranges = append(c.Ranges, gbnf.Range{Lo: r, Hi: r})
	}
	i := 0
	for _, r := range notRaw {
		for ; i < len(except) && except[i] < r; i++ {
			add(except[i])
		}
		add(r)
	}
	for ; i < len(except); i++ {
		add(except[i])
	}
	// Surrogates are never characters; llama.cpp may decode CESU-8 bytes to them.
	i = 0
	for i < len(c.Ranges) && c.Ranges[i].Lo < 0xD800 {
		i++
	}
	c.Ranges = slices.Insert(c.Ranges, i, gbnf.Range{Lo: 0xD800, Hi: 0xDFFF})
	// llama.cpp reads any lead byte F0–FF as a four-byte sequence and keeps
	// its low bits, so a model emitting raw bytes can produce "code points"
	// up to U+3FFFFF. None is a character: exclude them too.
	c.Ranges = append(c.Ranges, gbnf.Range{Lo: 0x110000, Hi: 0x3FFFFF})
	return c
}

// notRaw lists the code points a string never holds unescaped, besides
// surrogates: controls, `"`, `\` and U+FFFD (what llama.cpp makes of
// invalid UTF-8).
var notRaw = func() []rune {
	var rs []rune
	for r := rune(0); r < 0x20; r++ {
		rs = append(rs, r)
	}
	return append(rs, '"', '\\', 0xFFFD)
}()

// notRawRanges is how many ranges notRaw makes: controls, `"`, `\`, U+FFFD.
const notRawRanges = 4

// number is any JSON number.
func (cp *compiler) number() gbnf.Expr {
	return cp.shared("number", func(string) gbnf.Expr {
		digits := &gbnf.Repeat{Expr: rangeClass('0', '9'), Min: 1, Max: -1}
		integer := alt(lit("0"), seq(rangeClass('1', '9'), &gbnf.Repeat{Expr: rangeClass('0', '9'), Min: 0, Max: -1}))
		return seq(opt(lit("-")), integer,
			opt(seq(lit("."), digits)),
			opt(seq(class(false, 'E', 'e'), opt(class(false, '+', '-')), digits)))
	})
}

// integerAny is every integer in its canonical spelling (no "-0").
func (cp *compiler) integerAny() gbnf.Expr {
	return cp.shared("integer", func(string) gbnf.Expr {
		return alt(lit("0"), seq(opt(lit("-")), rangeClass('1', '9'), &gbnf.Repeat{Expr: rangeClass('0', '9'), Min: 0, Max: -1}))
	})
}

// Canonical spellings of string characters: each code point has exactly one.

// canonicalEscape returns how the canonical form writes r, and whether that
// is an escape.
func canonicalEscape(r rune) (string, bool) {
	switch r {
	case '"':
		return `\"`, true
	case '\\':
		return `\\`, true
	case '\b':
		return `\b`, true
	case '\f':
		return `\f`, true
	case '\n':
		return `\n`, true
	case '\r':
		return `\r`, true
	case '\t':
		return `\t`, true
	case 0xFFFD:
		return `\ufffd`, true
	}
	if r < 0x20 {
		return `\u00` + string("01"[r>>4]) + string("0123456789abcdef"[r&15]), true
	}
	return string(r), false
}

// quote writes s as a canonical JSON string.
func quote(b *strings.Builder, s string) {
	b.WriteByte('"')
	for _, r := range s {
		e, _ := canonicalEscape(r)
		b.WriteString(e)
	}
	b.WriteByte('"')
}

func quoted(s string) string {
	var b strings.Builder
	quote(&b, s)
	return b.String()
}

// canonicalEscapeRule is any canonical escape: the backslash, then a
// reference to the shared rule of what may follow it. The backslash is
// written where the escape is, not in the rule, so that llama.cpp meets a
// character at once instead of a reference to expand first: one stack
// copy less at each character of a name in the extra-name tries.
func (cp *compiler) canonicalEscapeRule() gbnf.Expr {
	return seq(lit(`\`), cp.shared("canonical-escape", func(string) gbnf.Expr {
		return escapesExcept(nil).(*gbnf.Seq).Items[1]
	}))
}

// rawOnlyRunes says whether every rune of rs is spelled raw, not escaped.
func rawOnlyRunes(rs []rune) bool {
	for _, r := range rs {
		if _, esc := canonicalEscape(r); esc {
			return false
		}
	}
	return true
}

// canonicalChar is one character in its canonical spelling, except the
// sorted runes in except.
func (cp *compiler) canonicalChar(except []rune) gbnf.Expr {
	if rawOnlyRunes(except) { // the usual case: only the raw class changes
		return alt(rawChars(except), cp.canonicalEscapeRule())
	}
	return alt(rawChars(rawOnly(except)), escapesExcept(except))
}

func rawOnly(rs []rune) []rune {
	var out []rune
	for _, r := range rs {
		if _, esc := canonicalEscape(r); !esc {
			out = append(out, r)
		}
	}
	return out
}

// escapesExcept is the canonical escapes, except those of the runes given.
func escapesExcept(except []rune) gbnf.Expr {
	ex := map[rune]bool{}
	for _, r := range except {
		ex[r] = true
	}
	var simple []rune // the letter after `\`
	for _, p := range [][2]rune{{'"', '"'}, {'\\', '\\'}, {'\b', 'b'}, {'\f', 'f'}, {'\n', 'n'}, {'\r', 'r'}, {'\t', 't'}} {
		if !ex[p[0]] {
			simple = append(simple, p[1])
		}
	}
	sort.Slice(simple, func(i, j int) bool { return simple[i] < simple[j] })
	var low0, low1 []rune // \u000X and \u001X, by their last hex digit
	for r := rune(0); r < 0x20; r++ {
		if e, _ := canonicalEscape(r); len(e) != 6 || ex[r] {
			continue
		}
		d := rune("0123456789abcdef"[r&15])
		if r < 0x10 {
			low0 = append(low0, d)
		} else {
			low1 = append(low1, d)
		}
	}
	var escapes []gbnf.Expr
	if len(simple) > 0 {
		escapes = append(escapes, class(false, simple...))
	}
	if len(low0) > 0 {
		escapes = append(escapes, seq(lit("u000"), class(false, low0...)))
	}
	if len(low1) > 0 {
		escapes = append(escapes, seq(lit("u001"), class(false, low1...)))
	}
	if !ex[0xFFFD] {
		escapes = append(escapes, lit("ufffd"))
	}
	return seq(lit(`\`), alt(escapes...))
}

// extraName is the rest of a JSON string after its opening quote,
// canonically spelled, whose decoded value is none of names: the
// complement of the names' trie. Only canonical spellings are allowed so
// that each decoded name has one spelling, and excluding the declared
// names' spellings excludes the names. With no names, any string in any
// spelling. The opening quote is left to the caller: objectExpr writes it
// once for the declared names and the extra ones.
//
// Each trie node is one group: stop here (unless a name ends here), take a
// child's character, or take any other character and then any rest. So
// along a name llama.cpp keeps about four stacks (stop, child, other raw
// character, escape), where one flat list of every way out (a rule per
// name, not per node) keeps one stack per list entry that still fits:
// after the opening quote, all of them (see cost.go).
//
// The trie is never built: in the sorted list of names, a node is a range
// of names sharing a prefix, and its children are the runs of that range
// sharing the next rune (UTF-8 byte order is code point order). Building
// trie nodes was a third of all compile allocations.
func (cp *compiler) extraName(names []string) gbnf.Expr {
	key := "name-any"
	if len(names) > 0 {
		key = "name-not:" + strings.Join(names, "\x00")
	}
	if n, ok := cp.helper[key]; ok {
		return ref(n)
	}
	var tail gbnf.Expr
	if len(names) > 0 {
		tail = cp.canonicalTail()
	}
	name := cp.newName("extra-name")
	cp.helper[key] = name
	r := cp.newRule(name, nil)
	if len(names) == 0 {
		r.Expr = seq(&gbnf.Repeat{Expr: cp.char(), Min: 0, Max: -1}, lit(`"`))
	} else {
		r.Expr = cp.nameNode(sortedValidNames(names), 0, tail)
	}
	return cp.ref(name)
}

// sortedValidNames is names sorted, each invalid UTF-8 byte spelled as
// U+FFFD (how ranging over the string decodes it), so that byte order is
// rune order. names itself is left as it is: it belongs to the caller.
func sortedValidNames(names []string) []string {
	valid := true
	for _, n := range names {
		if !utf8.ValidString(n) {
			valid = false
			break
		}
	}
	if valid && slices.IsSorted(names) {
		return names
	}
	out := slices.Clone(names)
	if !valid {
		for i, n := range out {
			if !utf8.ValidString(n) {
				var b strings.Builder
				for _, r := range n {
					b.WriteRune(r)
				}
				out[i] = b.String()
			}
		}
	}
	slices.Sort(out)
	return out
}

// nameNode is the trie node of the sorted names, which all share their
// first at bytes: the closing quote unless a name ends here, each next
// rune followed by its own node, or any other character and any rest.
func (cp *compiler) nameNode(names []string, at int, tail gbnf.Expr) gbnf.Expr {
	if len(names) == 1 {
		return cp.nameChain(names[0], at, tail)
	}
	var altBuf [8]gbnf.Expr
	var keyBuf [8]rune
	alts, keys := altBuf[:0], keyBuf[:0]
	i := 0
	for i < len(names) && len(names[i]) == at { // a name ending here sorts first
		i++
	}
	if i == 0 {
		alts = append(alts, lit(`"`))
	}
	for i < len(names) {
		r, size := utf8.DecodeRuneInString(names[i][at:])
		next := names[i][at : at+size]
		j := i + 1
		for j < len(names) && strings.HasPrefix(names[j][at:], next) {
			j++
		}
		keys = append(keys, r)
		var child gbnf.Expr
		if j-i == 1 && len(names) > 1 && len(names[i]) <= maxSharedName {
			child = cp.nameRest(names[i], at+size, tail)
		} else {
			child = cp.nameNode(names[i:j], at+size, tail)
		}
		alts = append(alts, cp.slab.pair(canonicalLit(r), child))
		i = j
	}
	alts = cp.appendOtherTail(alts, keys, tail)
	return cp.slab.alt(alts...)
}

// nameRest is the trie node of one name past its first at bytes: it depends
// on the rest of the name alone, so objects that declare the same names
// share it (the node is a part of several rules; printing writes it out in
// each). Only the top of such a chain is looked up: one hash per name.
func (cp *compiler) nameRest(name string, at int, tail gbnf.Expr) gbnf.Expr {
	rest := name[at:]
	if e, ok := cp.nameRests[rest]; ok {
		return e
	}
	e := cp.nameChain(name, at, tail)
	if cp.nameRests == nil {
		cp.nameRests = map[string]gbnf.Expr{}
	}
	cp.nameRests[rest] = e
	return e
}

// nameChain is the trie node of one name past its first at bytes: per
// rune, stop here, or the rune and the node of the rest, or any other
// character and any rest. It is nameNode for a single name, built from the
// name's end in a loop: below the point where names part, every node is
// such a chain, most of a trie's nodes. It adds the helper rules it uses in
// the order nameNode's recursion would, the deepest first.
func (cp *compiler) nameChain(name string, at int, tail gbnf.Expr) gbnf.Expr {
	var buf [3]gbnf.Expr
	node := cp.appendOtherTail(buf[:0], nil, tail)[0] // past the end: at least one more character
	for end := len(name); end > at; {
		r, size := utf8.DecodeLastRuneInString(name[at:end])
		end -= size
		except := [1]rune{r}
		alts := append(buf[:0], lit(`"`), cp.slab.pair(canonicalLit(r), node))
		node = cp.slab.alt(cp.appendOtherTail(alts, except[:], tail)...)
	}
	return node
}

// maxSharedName is the longest name whose trie nodes nameRest shares: a
// name adds two levels of nesting per byte, and outline must never reach
// into a shared node (it would move a part out of every rule holding it).
const maxSharedName = maxNesting/2 - 4

// canonicalLit is the literal of r's canonical spelling.
func canonicalLit(r rune) gbnf.Expr {
	if r < utf8.RuneSelf && r >= 0x20 && r != '"' && r != '\\' {
		return &asciiLits[r]
	}
	e, _ := canonicalEscape(r)
	return lit(e)
}

// canonicalTail is a reference to the shared rule of any canonical rest of
// a string, closing quote included.
func (cp *compiler) canonicalTail() gbnf.Expr {
	return cp.shared("canonical-tail", func(string) gbnf.Expr {
		return seq(&gbnf.Repeat{Expr: cp.canonicalCharRule(), Min: 0, Max: -1}, lit(`"`))
	})
}

// canonicalCharRule is a reference to the shared rule of one canonical
// character.
func (cp *compiler) canonicalCharRule() gbnf.Expr {
	return cp.shared("canonical-char", func(string) gbnf.Expr { return cp.canonicalChar(nil) })
}

// otherTail is a character other than the sorted runes in except, then any
// canonical rest of the string. A trie node deep inside a name has one
// child, so the rule "anything but this character, then the rest" is shared
// by every node with that child: it keeps the tries of long names small.
// The choice of character is spread over the alternatives (raw class, then
// the rest | escape, then the rest) rather than grouped: a group is one more
// rule for llama.cpp to parse, and keeps as many stacks.
func (cp *compiler) otherTail(except []rune, tail gbnf.Expr) gbnf.Expr {
	var buf [2]gbnf.Expr
	return alt(cp.appendOtherTail(buf[:0], except, tail)...)
}

// appendOtherTail appends the alternatives of otherTail to alts. tail is
// always the canonical-tail reference, so the parts that do not depend on
// except are built once per compile.
func (cp *compiler) appendOtherTail(alts []gbnf.Expr, except []rune, tail gbnf.Expr) []gbnf.Expr {
	switch len(except) {
	case 0: // the end of a declared name: at least one more character
		if cp.anyTail == nil {
			cp.anyTail = seq(cp.canonicalCharRule(), tail)
		}
		return append(alts, cp.anyTail)
	case 1:
	default:
		if rawOnlyRunes(except) { // the usual case: only the raw class changes
			if cp.escapeTail == nil {
				cp.escapeTail = seq(cp.canonicalEscapeRule(), tail)
			}
			return append(alts, cp.slab.seq(rawChars(except), tail), cp.escapeTail)
		}
		return append(alts, thenTail(cp.canonicalChar(except), tail))
	}
	r := except[0]
	if e, ok := cp.tailNot[r]; ok {
		return append(alts, e)
	}
	if e := cp.asciiTailNot(r); e != nil {
		return append(alts, e)
	}
	e := cp.shared(tailNotName(r), func(string) gbnf.Expr {
		if r < utf8.RuneSelf && cp.recording == nil { // (not while the prelude is built: it waits for that)
			return tailNotRule(cp.ws, r).body // built once per process (prelude.go)
		}
		return thenTail(cp.canonicalChar(except), tail)
	})
	// One reference node for every use: nothing changes it but prune's
	// alias renaming, and this rule's body is never a bare reference, so
	// it is never an alias.
	put(&cp.tailNot, r, e)
	return append(alts, e)
}

// tailNotName is the name of the rule canonical-tail-not-r: r itself when
// it is a letter or digit, else x and its hex code.
func tailNotName(r rune) string {
	if r < utf8.RuneSelf {
		return tailNotRefs[r].Name
	}
	return tailNotPrefix + "x" + strconv.FormatInt(int64(r), 16)
}

const tailNotPrefix = "canonical-tail-not-"

// tailNotRefs is, per ASCII rune r, the one reference node to
// canonical-tail-not-r in every grammar, and tailNotRunes its inverse.
var tailNotRefs, tailNotRunes = func() (refs [utf8.RuneSelf]gbnf.Ref, runes map[string]rune) {
	runes = make(map[string]rune, len(refs))
	for r := range rune(utf8.RuneSelf) {
		suffix := string(r)
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			suffix = "x" + strconv.FormatInt(int64(r), 16)
		}
		refs[r].Name = tailNotPrefix + suffix
		runes[refs[r].Name] = r
	}
	return refs, runes
}()

// asciiTailNot is the reference to canonical-tail-not-r for ASCII r, the
// shared frozen rule (tailNotRule) added on first use; nil when r is not ASCII,
// while the prelude is built, or when the name is a schema's rule already
// (then shared names the rule otherwise). It is what shared does for the
// other helpers, by a bit instead of three maps: the first use of each rune
// was a tenth of compiling a small object with extras allowed.
func (cp *compiler) asciiTailNot(r rune) gbnf.Expr {
	if r >= utf8.RuneSelf || cp.recording != nil {
		return nil
	}
	use := &tailNotRefs[r]
	word, bit := &cp.tailNotTaken[r>>6], uint64(1)<<(r&63)
	if *word&bit != 0 {
		return use
	}
	if cp.nameTaken(use.Name) {
		return nil
	}
	*word |= bit
	cp.addFrozen(tailNotRule(cp.ws, r))
	return use
}

// hasTailNot reports whether name is a canonical-tail-not-r rule that
// asciiTailNot added.
func (cp *compiler) hasTailNot(name string) bool {
	if cp.tailNotTaken == [2]uint64{} || len(name) <= len(tailNotPrefix) || name[:len(tailNotPrefix)] != tailNotPrefix {
		return false
	}
	r, ok := tailNotRunes[name]
	return ok && cp.tailNotTaken[r>>6]&(1<<(r&63)) != 0
}

// thenTail is (x) tail written without the group: x's alternatives each
// followed by tail.
func thenTail(x, tail gbnf.Expr) gbnf.Expr {
	a, ok := x.(*gbnf.Alt)
	if !ok {
		return seq(x, tail)
	}
	alts := make([]gbnf.Expr, len(a.Alts))
	for i, e := range a.Alts {
		alts[i] = seq(e, tail)
	}
	return alt(alts...)
}

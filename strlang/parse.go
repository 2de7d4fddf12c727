package strlang

import (
	"strings"
	"unicode/utf8"
)

// The parser reads ECMA-262's Pattern grammar with the u flag
// (ECMAScript 2025, §22.2.1, parameters [+UnicodeMode, +NamedCaptureGroups],
// without the v flag's class syntax), and its early errors. With the u
// flag Annex B's leniencies do not apply: an identity escape is only for
// a syntax character or /, a lone ] { } is an error, \c needs a letter,
// and there are no octal escapes.

// parse turns a pattern into its tree. Syntax errors come first (leftmost);
// then constructs this package refuses (leftmost).
func parse(pattern string, lim Limits) (tree *node, err error) {
	lim = lim.orDefaults()
	if len(pattern) > lim.PatternBytes {
		return nil, newError(ErrLimitPattern, pattern, -1,
			"the pattern has %d bytes, more than the limit of %d (Limits.PatternBytes)", len(pattern), lim.PatternBytes)
	}
	if !utf8.ValidString(pattern) {
		off := 0
		for off < len(pattern) {
			r, size := utf8.DecodeRuneInString(pattern[off:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			off += size
		}
		return nil, newError(ErrUTF8, pattern, off, "the pattern is not valid UTF-8")
	}
	p := &parser{src: pattern, lim: lim}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			tree, err = nil, e
		}
	}()
	tree = p.disjunction()
	if p.more() { // only a ')' stops a top-level disjunction early
		p.fail(ErrUnmatchedParen, p.pos, ") closes no group; write \\) for a parenthesis")
	}
	p.checkBackrefs()
	if p.refused != nil {
		return nil, p.refused
	}
	return tree, nil
}

type parser struct {
	src string
	pos int // byte offset of the next character
	lim Limits

	depth    int
	groups   int         // capturing groups so far
	names    []groupName // named groups so far
	path     []altRef    // the alternatives that enclose pos
	disjs    int         // disjunctions so far, to number them
	backrefs []backref
	refused  *Error // the first construct refused
}

// altRef is alternative alt of disjunction disj.
type altRef struct{ disj, alt int }

type groupName struct {
	name string
	path []altRef
	at   int
}

type backref struct {
	num  int    // \num, or
	name string // \k<name>
	at   int
}

func (p *parser) fail(kind ErrorKind, off int, format string, args ...any) {
	panic(newError(kind, p.src, off, format, args...))
}

// refuse notes a valid construct that this package does not build; the
// first one is the error, once the whole pattern is known to be valid.
func (p *parser) refuse(kind ErrorKind, off int, format string, args ...any) {
	if p.refused == nil {
		p.refused = newError(kind, p.src, off, format, args...)
	}
}

func (p *parser) more() bool { return p.pos < len(p.src) }

func (p *parser) peek() rune {
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return r
}

func (p *parser) next() rune {
	r, size := utf8.DecodeRuneInString(p.src[p.pos:])
	p.pos += size
	return r
}

func (p *parser) at(s string) bool { return strings.HasPrefix(p.src[p.pos:], s) }

// disjunction is alternatives separated by |, up to a ) or the end.
func (p *parser) disjunction() *node {
	id := p.disjs
	p.disjs++
	var alts []*node
	for i := 0; ; i++ {
		p.path = append(p.path, altRef{id, i})
		alts = append(alts, p.alternative())
		p.path = p.path[:len(p.path)-1]
		if !p.at("|") {
			return altNode(alts)
		}
		p.pos++
	}
}

func (p *parser) alternative() *node {
	var terms []*node
	for p.more() && !p.at("|") && !p.at(")") {
		terms = append(terms, p.term())
	}
	return concatNode(terms)
}

// term is an assertion, or an atom with an optional quantifier. With the u
// flag no assertion takes a quantifier: the next term then starts with
// one, which is an error there.
func (p *parser) term() *node {
	start := p.pos
	switch c := p.peek(); c {
	case '^':
		p.pos++
		return &node{op: opBegin}
	case '$':
		p.pos++
		return &node{op: opEnd}
	case '\\':
		if p.at(`\b`) || p.at(`\B`) {
			p.pos += 2
			if c := p.src[start+1]; c == 'b' {
				return &node{op: opWordBoundary}
			}
			return &node{op: opNotWordBoundary}
		}
	case '(':
		for _, look := range []struct{ open, name string }{
			{"(?=", "lookahead (?=…)"}, {"(?!", "negative lookahead (?!…)"},
			{"(?<=", "lookbehind (?<=…)"}, {"(?<!", "negative lookbehind (?<!…)"},
		} {
			if p.at(look.open) {
				p.pos += len(look.open)
				p.groupBody(start)
				p.refuse(ErrLookaround, start, "%s is not supported: a lookaround is not a regular language this package builds; "+
					"write the condition without it", look.name)
				return emptyNode
			}
		}
	case '*', '+', '?':
		p.fail(ErrNothingToRepeat, start, "%c has nothing to repeat", c)
	case '{':
		if _, _, ok := p.braceQuantifier(); ok {
			p.fail(ErrNothingToRepeat, start, "%s has nothing to repeat", p.src[start:p.pos])
		}
		p.fail(ErrLoneSyntax, start, "a lone { is not allowed with the u flag; write \\{")
	case '}', ']':
		p.fail(ErrLoneSyntax, start, "a lone %c is not allowed with the u flag; write \\%c", c, c)
	}
	atom := p.atom()
	return p.quantifier(atom)
}

// quantifier reads * + ? {n} {n,} {n,m}, greedy or lazy (the same
// language), after an atom.
func (p *parser) quantifier(atom *node) *node {
	if !p.more() {
		return atom
	}
	start := p.pos
	var lo, hi int
	switch p.src[p.pos] {
	case '*':
		p.pos++
		lo, hi = 0, -1
	case '+':
		p.pos++
		lo, hi = 1, -1
	case '?':
		p.pos++
		lo, hi = 0, 1
	case '{':
		var ok bool
		lo, hi, ok = p.braceQuantifier()
		if !ok {
			p.fail(ErrLoneSyntax, start, "{ here must start a quantifier {n}, {n,} or {n,m}; write \\{ for a brace")
		}
	default:
		return atom
	}
	if p.at("?") {
		p.pos++
	}
	return repeatNode(atom, lo, hi)
}

// maxCount stands for every count at least as big: no limit lets a count
// near it through, and it keeps products of counts from overflowing.
const maxCount = 1 << 30

// braceQuantifier reads {n}, {n,} or {n,m} at pos; it leaves pos alone
// when there is none. Counts past maxCount are maxCount.
func (p *parser) braceQuantifier() (lo, hi int, ok bool) {
	start := p.pos
	i := start + 1
	digits := func() (string, int) {
		j := i
		n := 0
		for j < len(p.src) && p.src[j] >= '0' && p.src[j] <= '9' {
			n = min(n*10+int(p.src[j]-'0'), maxCount)
			j++
		}
		s := p.src[i:j]
		i = j
		return s, n
	}
	loDigits, lo := digits()
	if loDigits == "" {
		return 0, 0, false
	}
	hi = lo
	var hiDigits string
	if i < len(p.src) && p.src[i] == ',' {
		i++
		hiDigits, hi = digits()
		if hiDigits == "" {
			hi = -1
		}
	}
	if i >= len(p.src) || p.src[i] != '}' {
		return 0, 0, false
	}
	p.pos = i + 1
	if hiDigits != "" && compareDigits(loDigits, hiDigits) > 0 {
		p.fail(ErrRepeatOrder, start, "in %s the first count is larger than the second", p.src[start:p.pos])
	}
	return lo, hi, true
}

// compareDigits compares two decimal numerals of any length.
func compareDigits(a, b string) int {
	a, b = strings.TrimLeft(a, "0"), strings.TrimLeft(b, "0")
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

func (p *parser) atom() *node {
	switch c := p.peek(); c {
	case '.':
		p.pos++
		return charNode(dotSet)
	case '(':
		return p.group()
	case '[':
		return charNode(p.class())
	case '\\':
		return p.atomEscape()
	default:
		p.pos += utf8.RuneLen(c)
		return charNode(runeSet(c))
	}
}

// group reads a group at pos: capturing, (?:…), (?<name>…), or a
// modifiers group (refused).
func (p *parser) group() *node {
	start := p.pos
	p.pos++ // (
	switch {
	case p.at("?:"):
		p.pos += 2
	case p.at("?<"):
		p.pos += 2
		nameAt := p.pos
		p.addName(p.groupName(start), nameAt)
		p.groups++
	case p.at("?"):
		p.pos++
		p.modifiers(start)
	default:
		p.groups++
	}
	return p.groupBody(start)
}

// groupBody reads a group's disjunction and its ), the group's ( being at
// start.
func (p *parser) groupBody(start int) *node {
	p.depth++
	if p.depth > p.lim.Depth {
		p.fail(ErrLimitDepth, start, "groups nest deeper than the limit of %d (Limits.Depth)", p.lim.Depth)
	}
	inner := p.disjunction()
	if !p.at(")") {
		p.fail(ErrMissingParen, start, "the group opened here has no )")
	}
	p.pos++
	p.depth--
	return inner
}

// modifiers reads the flags of (?ims-ims:…), after its "(?": valid in
// ECMAScript 2025, refused here (case-insensitive and multiline matching
// are not built).
func (p *parser) modifiers(start int) {
	seen := map[byte]bool{}
	flags := func() int {
		n := 0
		for p.more() && strings.IndexByte("ims", p.src[p.pos]) >= 0 {
			if seen[p.src[p.pos]] {
				p.fail(ErrGroup, p.pos, "the flag %c is repeated in a modifiers group", p.src[p.pos])
			}
			seen[p.src[p.pos]] = true
			p.pos++
			n++
		}
		return n
	}
	on := flags()
	off, dash := 0, false
	if p.at("-") {
		p.pos++
		dash = true
		off = flags()
	}
	if !p.at(":") || (dash && on+off == 0) || (!dash && on == 0) {
		p.fail(ErrGroup, start, "(? must be followed by : = ! <= <! or <name>")
	}
	p.pos++
	p.refuse(ErrModifiers, start, "the modifiers group %s is not supported; write the group without flags", p.src[start:p.pos])
}

// groupName reads RegExpIdentifierName and its >, after the <. start is
// where the construct began.
func (p *parser) groupName(start int) string {
	var name []rune
	for {
		if !p.more() {
			p.fail(ErrGroupName, start, "the group name has no >")
		}
		at := p.pos
		c := p.next()
		if c == '>' {
			if len(name) == 0 {
				p.fail(ErrGroupName, at, "the group name is empty")
			}
			return string(name)
		}
		if c == '\\' {
			if !p.at("u") {
				p.fail(ErrGroupName, at, "only \\u escapes may stand in a group name")
			}
			p.pos++
			c = p.unicodeEscape(at)
		}
		ok := c == '$' || c == '_'
		if len(name) == 0 {
			ok = ok || idStart().Contains(c)
		} else {
			ok = ok || c == 0x200C || c == 0x200D || idContinue().Contains(c)
		}
		if !ok {
			p.fail(ErrGroupName, at, "%q cannot stand in a group name (an identifier: a letter, $ or _, then also digits)", c)
		}
		name = append(name, c)
	}
}

func idStart() Set    { return binary("ID_Start") }
func idContinue() Set { return binary("ID_Continue") }

// addName notes a group name. Since ECMAScript 2025 a name may repeat in
// alternatives that cannot both take part in a match.
func (p *parser) addName(name string, at int) {
	path := append([]altRef(nil), p.path...)
	for _, g := range p.names {
		if g.name == name && !separate(g.path, path) {
			p.fail(ErrDuplicateName, at, "the group name %s is already used at byte %d", name, g.at)
		}
	}
	p.names = append(p.names, groupName{name, path, at})
}

// separate reports whether two places lie in different alternatives of a
// disjunction that holds both.
func separate(a, b []altRef) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i].disj != b[i].disj {
			return false
		}
		if a[i].alt != b[i].alt {
			return true
		}
	}
	return false
}

// atomEscape reads an escape outside a class, at its backslash.
func (p *parser) atomEscape() *node {
	start := p.pos
	p.pos++
	if !p.more() {
		p.fail(ErrEscape, start, "the pattern ends with a lone \\; write \\\\ for a backslash")
	}
	switch c := p.src[p.pos]; {
	case c >= '1' && c <= '9':
		n := 0
		for p.more() && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			n = min(n*10+int(p.src[p.pos]-'0'), maxCount)
			p.pos++
		}
		p.backrefs = append(p.backrefs, backref{num: n, at: start})
		p.refuse(ErrBackreference, start, "the backreference %s is not supported: it is not a regular language", p.src[start:p.pos])
		return emptyNode
	case c == 'k':
		p.pos++
		if !p.at("<") {
			p.fail(ErrEscape, start, "\\k must be followed by <name> with the u flag")
		}
		p.pos++
		name := p.groupName(start)
		p.backrefs = append(p.backrefs, backref{name: name, at: start})
		p.refuse(ErrBackreference, start, "the backreference %s is not supported: it is not a regular language", p.src[start:p.pos])
		return emptyNode
	case strings.IndexByte("dDsSwWpP", c) >= 0:
		return charNode(p.classEscape(start))
	}
	return charNode(runeSet(p.characterEscape(start)))
}

// checkBackrefs applies the early errors of backreferences: \n needs n
// groups, \k<name> a group of that name.
func (p *parser) checkBackrefs() {
	for _, b := range p.backrefs {
		if b.name == "" && b.num > p.groups {
			p.fail(ErrBackrefTarget, b.at, "\\%d refers to group %d, but the pattern has %d capturing groups", b.num, b.num, p.groups)
		}
		if b.name != "" && !slicesContainsName(p.names, b.name) {
			p.fail(ErrBackrefTarget, b.at, "\\k<%s> refers to no group of that name", b.name)
		}
	}
}

func slicesContainsName(names []groupName, name string) bool {
	for _, g := range names {
		if g.name == name {
			return true
		}
	}
	return false
}

// characterEscape reads CharacterEscape after the backslash at start: the
// code point it stands for.
func (p *parser) characterEscape(start int) rune {
	c := p.next()
	switch c {
	case 'f':
		return '\f'
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'v':
		return '\v'
	case 'c':
		if p.more() {
			if l := p.src[p.pos]; l >= 'a' && l <= 'z' || l >= 'A' && l <= 'Z' {
				p.pos++
				return rune(l % 32)
			}
		}
		p.fail(ErrEscape, start, "\\c must be followed by a letter A-Z or a-z with the u flag")
	case '0':
		if p.more() && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
			p.fail(ErrEscape, start, "\\0 followed by a digit is an octal escape, not allowed with the u flag; write \\x00 or \\u00XX")
		}
		return 0
	case 'x':
		if v, ok := p.hex(2); ok {
			return v
		}
		p.fail(ErrEscape, start, "\\x must be followed by two hex digits with the u flag")
	case 'u':
		return p.unicodeEscape(start)
	}
	if strings.ContainsRune(`^$\\.*+?()[]{}|/`, c) {
		return c
	}
	p.fail(ErrEscape, start, "\\%c is not an escape with the u flag: only syntax characters and / may be escaped so; write %c", c, c)
	return 0
}

// hex reads exactly n hex digits.
func (p *parser) hex(n int) (rune, bool) {
	if len(p.src)-p.pos < n {
		return 0, false
	}
	var v rune
	for i := 0; i < n; i++ {
		d := hexValue(p.src[p.pos+i])
		if d < 0 {
			return 0, false
		}
		v = v*16 + d
	}
	p.pos += n
	return v, true
}

func hexValue(c byte) rune {
	switch {
	case c >= '0' && c <= '9':
		return rune(c - '0')
	case c >= 'a' && c <= 'f':
		return rune(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return rune(c-'A') + 10
	}
	return -1
}

// unicodeEscape reads the rest of \uXXXX, \uLEAD\uTRAIL (one code point)
// or \u{X…} (up to 10FFFF), after the u; the backslash is at start. A
// lone surrogate is its own code point, which no string holds.
func (p *parser) unicodeEscape(start int) rune {
	if p.at("{") {
		p.pos++
		var v rune
		n := 0
		for p.more() && hexValue(p.src[p.pos]) >= 0 {
			v = v*16 + hexValue(p.src[p.pos])
			if v > MaxRune {
				p.fail(ErrEscape, start, "\\u{…} is larger than 10FFFF")
			}
			p.pos++
			n++
		}
		if n == 0 || !p.at("}") {
			p.fail(ErrEscape, start, "\\u{ must be followed by hex digits and }")
		}
		p.pos++
		return v
	}
	v, ok := p.hex(4)
	if !ok {
		p.fail(ErrEscape, start, "\\u must be followed by four hex digits or {hex digits}")
	}
	if v >= 0xD800 && v <= 0xDBFF && p.at(`\u`) {
		save := p.pos
		p.pos += 2
		if w, ok := p.hex(4); ok && w >= 0xDC00 && w <= 0xDFFF {
			return 0x10000 + (v-0xD800)<<10 + (w - 0xDC00)
		}
		p.pos = save
	}
	return v
}

// classEscape reads \d \D \s \S \w \W \p{…} \P{…}, the backslash being
// at start and pos at the letter.
func (p *parser) classEscape(start int) Set {
	c := p.src[p.pos]
	p.pos++
	switch c {
	case 'd':
		return digitSet
	case 'D':
		return digitSet.complement()
	case 's':
		return spaceSet
	case 'S':
		return spaceSet.complement()
	case 'w':
		return wordSet
	case 'W':
		return wordSet.complement()
	case 'p':
		return p.property(start)
	}
	return p.property(start).complement()
}

// property reads {…} of \p{…}: a General_Category value, name=value for
// General_Category, Script and Script_Extensions, or a binary property.
func (p *parser) property(start int) Set {
	if !p.at("{") {
		p.fail(ErrProperty, start, "%s must be followed by {property} with the u flag", p.src[start:p.pos])
	}
	end := strings.IndexByte(p.src[p.pos:], '}')
	if end < 0 {
		p.fail(ErrProperty, start, "%s has no }", p.src[start:p.pos+1])
	}
	body := p.src[p.pos+1 : p.pos+end]
	p.pos += end + 1
	text := p.src[start:p.pos]
	name, value, hasValue := strings.Cut(body, "=")
	if !propertyChars(name, false) || hasValue && !propertyChars(value, true) {
		p.fail(ErrProperty, start, "%s is not a property: names are letters and _, values letters, digits and _", text)
	}
	if !hasValue {
		if short, ok := generalCategories[name]; ok {
			return category(short)
		}
		canonical, ok := binaryProperties[name]
		if !ok {
			p.fail(ErrProperty, start, "%s names no General_Category value and no binary property of ECMA-262 (names are case-sensitive)", text)
		}
		if !binaryOK(canonical) {
			p.refuse(ErrUnsupportedProperty, start, "%s is not supported: Go's Unicode tables do not give %s exactly; "+
				"write the characters as a class", text, canonical)
			return anySet
		}
		return binary(canonical)
	}
	switch name {
	case "General_Category", "gc":
		if short, ok := generalCategories[value]; ok {
			return category(short)
		}
		p.fail(ErrProperty, start, "%s: %s is not a General_Category value", text, value)
	case "Script", "sc", "Script_Extensions", "scx":
		long := scriptLong(value)
		switch {
		case long == "" && newerScripts[value]:
			p.refuse(ErrUnsupportedProperty, start, "%s is not supported: the script %s is newer than Unicode %s, the version of Go's tables", text, value, UnicodeVersion)
			return anySet
		case long == "":
			p.fail(ErrProperty, start, "%s: %s is not a Script value of Unicode %s", text, value, UnicodeVersion)
		case name == "Script_Extensions" || name == "scx":
			p.refuse(ErrUnsupportedProperty, start, "%s is not supported: Go's tables have no Script_Extensions; "+
				"\\p{Script=%s} is the code points whose main script it is", text, long)
			return anySet
		}
		return script(long)
	}
	p.fail(ErrProperty, start, "%s: %s is not a property ECMA-262 lets take a value (General_Category, Script, Script_Extensions)", text, name)
	return Set{}
}

func propertyChars(s string, digits bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || digits && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// class reads [ … ] or [^ … ] at pos.
func (p *parser) class() Set {
	start := p.pos
	p.pos++
	negated := p.at("^")
	if negated {
		p.pos++
	}
	var ranges []Range
	var sets Set
	for {
		if !p.more() {
			p.fail(ErrMissingBracket, start, "the class opened here has no ]")
		}
		if p.at("]") {
			p.pos++
			break
		}
		aAt := p.pos
		a, aSet, aIsSet := p.classAtom()
		if p.at("-") && p.pos+1 < len(p.src) && p.src[p.pos+1] != ']' {
			p.pos++
			bAt := p.pos
			b, _, bIsSet := p.classAtom()
			switch {
			case aIsSet:
				p.fail(ErrClassInRange, aAt, "a class escape cannot start a range with the u flag; write - first or last, or escape it as \\-")
			case bIsSet:
				p.fail(ErrClassInRange, bAt, "a class escape cannot end a range with the u flag; write - first or last, or escape it as \\-")
			case a > b:
				p.fail(ErrRangeOrder, aAt, "the range %s is out of order", p.src[aAt:p.pos])
			}
			ranges = append(ranges, Range{a, b})
			continue
		}
		if aIsSet {
			sets = sets.union(aSet)
		} else {
			ranges = append(ranges, Range{a, a})
		}
	}
	s := NewSet(ranges...).union(sets)
	if negated {
		s = s.complement()
	}
	return s
}

// classAtom reads one code point of a class, or a class escape (isSet).
func (p *parser) classAtom() (c rune, s Set, isSet bool) {
	start := p.pos
	if !p.at("\\") {
		return p.next(), Set{}, false
	}
	p.pos++
	if !p.more() {
		p.fail(ErrMissingBracket, start, "the class has no ] (the pattern ends with a \\)")
	}
	switch d := p.src[p.pos]; {
	case d == 'b':
		p.pos++
		return '\b', Set{}, false
	case d == '-':
		p.pos++
		return '-', Set{}, false
	case strings.IndexByte("dDsSwWpP", d) >= 0:
		return 0, p.classEscape(start), true
	case d == 'B' || d == 'k' || d >= '1' && d <= '9':
		p.fail(ErrEscape, start, "\\%c is not allowed in a class", d)
	}
	return p.characterEscape(start), Set{}, false
}

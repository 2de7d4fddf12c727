// Package llamastacks is a deterministic cost meter for llama.cpp's grammar
// engine: a small Go model of its parser and of its set of pushdown stacks,
// so that the cost of a grammar while decoding can be counted instead of
// timed (timings on shared machines are noise; counts are not).
//
// # The model
//
// Parse reads GBNF text as llama.cpp's grammar parser does
// (src/llama-grammar.cpp, parse_sequence): every parenthesized group becomes
// a rule of its own, and a repetition of the last symbol S is rewritten into
// rules: S{m,n} is m inline copies of S followed by a chain of n-m rules
// S'(k) ::= S S'(k-1) | (the last one S'(1) ::= S |); S* is S' ::= S S' |,
// S+ is S S', and S? is S' ::= S |. A literal is one CHAR element per code
// point and a class one CHAR or CHAR_NOT element plus one element per further
// character or range.
//
// Run feeds a text code point by code point the way node-llama-cpp's
// isTextCompatible does (llama_grammar_init_impl, then llama_grammar_accept
// per code point). The state is a set of stacks of element positions. Every
// stack whose top element matches the code point advances; advance_stack then
// expands a rule reference at the top into one stack per alternative of the
// rule, recursively, until every stack has a character element on top (or is
// empty: the grammar is done). Stacks are deduplicated (llama.cpp with a linear
// std::find over the new stacks, and a set of the stacks already expanded).
//
// # What it counts
//
// Per text: the live stacks after each code point (sum and maximum), the
// stacks built while advancing (each one a vector copy in llama.cpp), the
// elements those copies hold, the comparisons of llama.cpp's linear
// duplicate check, and the character tests. While sampling, llama.cpp checks
// every live stack against every candidate token, so live stacks per code
// point is the figure that matters most for decoding; the others track the
// cost of accepting a token. Grammar.Rules and Grammar.Elements are the size
// of the parsed grammar, which node-llama-cpp pays again for every text it
// checks.
package llamastacks

import (
	"fmt"
	"unicode/utf8"
)

// kind is the type of a grammar element, as llama.cpp's llama_gretype.
type kind uint8

const (
	kEnd      kind = iota // end of a rule
	kAlt                  // start of another alternative
	kRef                  // reference to a rule
	kChar                 // a character, or the first of a class
	kCharNot              // the first character of a negated class
	kRngUpper             // upper end of the range started by the element before
	kCharAlt              // another character of the class
	kAny                  // any code point
)

type elem struct {
	kind  kind
	value uint32
}

// Grammar is a grammar as llama.cpp holds it after parsing: rules of flat
// elements, stored end to end so that a position is one int32.
type Grammar struct {
	elems []elem
	start []int32 // start[r] is where rule r begins in elems
	names []string
	base  []string // base[r] is the rule of the text that rule r was made for
	root  int32
	// Rules is how many rules llama.cpp makes of the text, counting one per
	// group and one per optional step of each repetition.
	Rules int
	// Elements is the number of elements of all rules, END and ALT included.
	Elements int
}

// Limits bound the work of Parse and Run on hostile input. A limit that is
// hit ends the call with an error that names it.
type Limits struct {
	// MaxRules is the most rules Parse builds: x{0,n} alone makes n rules.
	MaxRules int
	// MaxElements is the most elements of all rules together: x{n} copies x
	// n times.
	MaxElements int
	// MaxStacks is the most stacks alive, or built in one step, in Run.
	MaxStacks int
	// MaxDepth is the deepest stack Run builds.
	MaxDepth int
}

// DefaultLimits are used for zero fields of the Limits given.
var DefaultLimits = Limits{MaxRules: 200000, MaxElements: 4 << 20, MaxStacks: 100000, MaxDepth: 10000}

func (l Limits) withDefaults() Limits {
	if l.MaxRules <= 0 {
		l.MaxRules = DefaultLimits.MaxRules
	}
	if l.MaxElements <= 0 {
		l.MaxElements = DefaultLimits.MaxElements
	}
	if l.MaxStacks <= 0 {
		l.MaxStacks = DefaultLimits.MaxStacks
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultLimits.MaxDepth
	}
	return l
}

// LimitError says which limit a call hit.
type LimitError struct {
	Limit string // the Limits field
	Value int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("llamastacks: over %s (%d)", e.Limit, e.Value)
}

// Parse reads a GBNF text as llama.cpp does, with DefaultLimits.
func Parse(text string) (*Grammar, error) { return ParseLimits(text, Limits{}) }

// ParseLimits reads a GBNF text as llama.cpp does. It refuses what
// llama.cpp refuses (syntax errors, undefined rules, no root, left
// recursion) and what is over the limits.
func ParseLimits(text string, lim Limits) (*Grammar, error) {
	p := &parser{src: text, lim: lim.withDefaults(), ids: map[string]int{}}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.grammar()
}

type parser struct {
	src      string
	pos      int
	lim      Limits
	ids      map[string]int
	names    []string
	bases    []string
	rules    [][]elem
	elements int
}

type syntaxError struct {
	msg string
	at  int
}

func (e *syntaxError) Error() string { return fmt.Sprintf("llamastacks: %s at byte %d", e.msg, e.at) }

func (p *parser) fail(msg string) error { return &syntaxError{msg, p.pos} }

func (p *parser) peek(i int) byte {
	if p.pos+i < len(p.src) {
		return p.src[p.pos+i]
	}
	return 0
}

func (p *parser) space(newlineOK bool) {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t':
			p.pos++
		case c == '#':
			for p.pos < len(p.src) && p.src[p.pos] != '\r' && p.src[p.pos] != '\n' {
				p.pos++
			}
		case newlineOK && (c == '\r' || c == '\n'):
			p.pos++
		default:
			return
		}
	}
}

func isWordChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-'
}

func (p *parser) name() (string, error) {
	start := p.pos
	for p.pos < len(p.src) && isWordChar(p.src[p.pos]) {
		p.pos++
	}
	if p.pos == start {
		return "", p.fail("expecting name")
	}
	return p.src[start:p.pos], nil
}

func (p *parser) symbol(name string) int {
	if id, ok := p.ids[name]; ok {
		return id
	}
	id := len(p.names)
	p.ids[name] = id
	p.names = append(p.names, name)
	p.bases = append(p.bases, name)
	p.rules = append(p.rules, nil)
	return id
}

// generated is a new rule id, as generate_symbol_id.
func (p *parser) generated(base string) (int, error) {
	if len(p.names) >= p.lim.MaxRules {
		return 0, &LimitError{"MaxRules", p.lim.MaxRules}
	}
	id := len(p.names)
	p.names = append(p.names, fmt.Sprintf("%s_%d", base, id))
	p.bases = append(p.bases, base)
	p.rules = append(p.rules, nil)
	return id, nil
}

func (p *parser) addRule(id int, r []elem) error {
	p.elements += len(r)
	if p.elements > p.lim.MaxElements {
		return &LimitError{"MaxElements", p.lim.MaxElements}
	}
	p.rules[id] = r
	return nil
}

func hexValue(s string) (uint32, bool) {
	var v uint32
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			v = v<<4 + uint32(c-'0')
		case c >= 'a' && c <= 'f':
			v = v<<4 + uint32(c-'a'+10)
		case c >= 'A' && c <= 'F':
			v = v<<4 + uint32(c-'A'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// char reads one character of a literal or class, escapes included.
func (p *parser) char() (uint32, error) {
	if p.pos >= len(p.src) {
		return 0, p.fail("unexpected end of input")
	}
	if p.src[p.pos] != '\\' {
		r, n := utf8.DecodeRuneInString(p.src[p.pos:])
		p.pos += n
		return uint32(r), nil
	}
	size := 0
	switch p.peek(1) {
	case 'x':
		size = 2
	case 'u':
		size = 4
	case 'U':
		size = 8
	case 't':
		p.pos += 2
		return '\t', nil
	case 'r':
		p.pos += 2
		return '\r', nil
	case 'n':
		p.pos += 2
		return '\n', nil
	case '\\', '"', '[', ']':
		c := p.src[p.pos+1]
		p.pos += 2
		return uint32(c), nil
	default:
		return 0, p.fail("unknown escape")
	}
	if p.pos+2+size > len(p.src) {
		return 0, p.fail("expecting hex characters")
	}
	v, ok := hexValue(p.src[p.pos+2 : p.pos+2+size])
	if !ok {
		return 0, p.fail("expecting hex characters")
	}
	p.pos += 2 + size
	return v, nil
}

func (p *parser) int() (int, error) {
	start := p.pos
	n := 0
	for p.pos < len(p.src) && p.src[p.pos] >= '0' && p.src[p.pos] <= '9' {
		n = n*10 + int(p.src[p.pos]-'0')
		if n > p.lim.MaxRules {
			return 0, &LimitError{"MaxRules", p.lim.MaxRules}
		}
		p.pos++
	}
	if p.pos == start {
		return 0, p.fail("expecting an int")
	}
	return n, nil
}

func (p *parser) parse() error {
	p.space(true)
	for p.pos < len(p.src) {
		if err := p.rule(); err != nil {
			return err
		}
	}
	for id, r := range p.rules {
		if r == nil {
			return fmt.Errorf("llamastacks: undefined rule %q", p.names[id])
		}
	}
	return nil
}

func (p *parser) rule() error {
	name, err := p.name()
	if err != nil {
		return err
	}
	p.space(false)
	id := p.symbol(name)
	if p.peek(0) != ':' || p.peek(1) != ':' || p.peek(2) != '=' {
		return p.fail("expecting ::=")
	}
	p.pos += 3
	p.space(true)
	if err := p.alternates(name, id, false); err != nil {
		return err
	}
	switch p.peek(0) {
	case '\r':
		p.pos++
		if p.peek(0) == '\n' {
			p.pos++
		}
	case '\n':
		p.pos++
	case 0:
		if p.pos < len(p.src) {
			return p.fail("expecting newline or end")
		}
	default:
		return p.fail("expecting newline or end")
	}
	p.space(true)
	return nil
}

func (p *parser) alternates(name string, id int, nested bool) error {
	var r []elem
	r, err := p.sequence(name, r, nested)
	if err != nil {
		return err
	}
	for p.peek(0) == '|' {
		r = append(r, elem{kind: kAlt})
		p.pos++
		p.space(true)
		if r, err = p.sequence(name, r, nested); err != nil {
			return err
		}
	}
	return p.addRule(id, append(r, elem{kind: kEnd}))
}

func (p *parser) sequence(name string, r []elem, nested bool) ([]elem, error) {
	lastSym := len(r)
	for p.pos < len(p.src) {
		var err error
		switch c := p.src[p.pos]; {
		case c == '"':
			p.pos++
			lastSym = len(r)
			for p.peek(0) != '"' {
				if p.pos >= len(p.src) {
					return nil, p.fail("unexpected end of input")
				}
				v, err := p.char()
				if err != nil {
					return nil, err
				}
				r = append(r, elem{kChar, v})
			}
			p.pos++
			p.space(nested)
		case c == '[':
			p.pos++
			first := kChar
			if p.peek(0) == '^' {
				p.pos++
				first = kCharNot
			}
			lastSym = len(r)
			for p.peek(0) != ']' {
				if p.pos >= len(p.src) {
					return nil, p.fail("unexpected end of input")
				}
				v, err := p.char()
				if err != nil {
					return nil, err
				}
				k := first
				if lastSym < len(r) {
					k = kCharAlt
				}
				r = append(r, elem{k, v})
				if p.peek(0) == '-' && p.peek(1) != ']' {
					p.pos++
					if p.pos >= len(p.src) {
						return nil, p.fail("unexpected end of input")
					}
					hi, err := p.char()
					if err != nil {
						return nil, err
					}
					r = append(r, elem{kRngUpper, hi})
				}
			}
			p.pos++
			p.space(nested)
		case isWordChar(c):
			n, err := p.name()
			if err != nil {
				return nil, err
			}
			p.space(nested)
			lastSym = len(r)
			r = append(r, elem{kRef, uint32(p.symbol(n))})
		case c == '(':
			p.pos++
			p.space(true)
			sub, err := p.generated(name)
			if err != nil {
				return nil, err
			}
			if err := p.alternates(name, sub, true); err != nil {
				return nil, err
			}
			lastSym = len(r)
			r = append(r, elem{kRef, uint32(sub)})
			if p.peek(0) != ')' {
				return nil, p.fail("expecting ')'")
			}
			p.pos++
			p.space(nested)
		case c == '.':
			lastSym = len(r)
			r = append(r, elem{kind: kAny})
			p.pos++
			p.space(nested)
		case c == '*' || c == '+' || c == '?':
			p.pos++
			p.space(nested)
			min, max := 0, -1
			if c == '+' {
				min = 1
			} else if c == '?' {
				max = 1
			}
			r, err = p.repetition(name, r, lastSym, min, max)
		case c == '{':
			p.pos++
			p.space(nested)
			min, err := p.int()
			if err != nil {
				return nil, err
			}
			p.space(nested)
			max := -1
			switch p.peek(0) {
			case '}':
				max = min
			case ',':
				p.pos++
				p.space(nested)
				if c := p.peek(0); c >= '0' && c <= '9' {
					if max, err = p.int(); err != nil {
						return nil, err
					}
					p.space(nested)
				}
				if p.peek(0) != '}' {
					return nil, p.fail("expecting '}'")
				}
			default:
				return nil, p.fail("expecting ','")
			}
			p.pos++
			p.space(nested)
			r, err = p.repetition(name, r, lastSym, min, max)
		default:
			return r, nil
		}
		if err != nil {
			return nil, err
		}
	}
	return r, nil
}

// repetition rewrites the symbol r[lastSym:] as handle_repetitions does.
func (p *parser) repetition(name string, r []elem, lastSym, min, max int) ([]elem, error) {
	if lastSym == len(r) {
		return nil, p.fail("expecting preceding item to */+/?/{")
	}
	prev := append([]elem(nil), r[lastSym:]...)
	if min == 0 {
		r = r[:lastSym]
	} else {
		if (min-1)*len(prev) > p.lim.MaxElements {
			return nil, &LimitError{"MaxElements", p.lim.MaxElements}
		}
		for i := 1; i < min; i++ {
			r = append(r, prev...)
		}
	}
	nOpt := max - min
	if max < 0 {
		nOpt = 1
	}
	last := 0
	for i := 0; i < nOpt; i++ {
		id, err := p.generated(name)
		if err != nil {
			return nil, err
		}
		rec := append(append([]elem(nil), prev...), make([]elem, 0, 3)...)
		if i > 0 || max < 0 {
			ref := last
			if max < 0 {
				ref = id
			}
			rec = append(rec, elem{kRef, uint32(ref)})
		}
		rec = append(rec, elem{kind: kAlt}, elem{kind: kEnd})
		if err := p.addRule(id, rec); err != nil {
			return nil, err
		}
		last = id
	}
	if nOpt > 0 {
		r = append(r, elem{kRef, uint32(last)})
	}
	return r, nil
}

// grammar lays the rules end to end and checks what llama_grammar_init_impl
// checks: a root rule and no left recursion.
func (p *parser) grammar() (*Grammar, error) {
	root, ok := p.ids["root"]
	if !ok {
		return nil, fmt.Errorf("llamastacks: no root rule")
	}
	g := &Grammar{names: p.names, base: p.bases, root: int32(root), Rules: len(p.rules), Elements: p.elements}
	g.start = make([]int32, len(p.rules))
	g.elems = make([]elem, 0, p.elements)
	for id, r := range p.rules {
		g.start[id] = int32(len(g.elems))
		g.elems = append(g.elems, r...)
	}
	if name, ok := g.leftRecursive(); ok {
		return nil, fmt.Errorf("llamastacks: left recursion in rule %q", name)
	}
	return g, nil
}

// leftRecursive finds a rule that can reach itself without reading a
// character, as llama_grammar_detect_left_recursion; without this check
// advancing a stack would never end.
func (g *Grammar) leftRecursive() (string, bool) {
	n := len(g.start)
	nullable := make([]bool, n)
	for changed := true; changed; {
		changed = false
		for id := range n {
			if nullable[id] {
				continue
			}
			for _, alt := range g.alternatives(id) {
				all := true
				for _, e := range alt {
					if e.kind != kRef || !nullable[e.value] {
						all = false
						break
					}
				}
				if all {
					nullable[id], changed = true, true
					break
				}
			}
		}
	}
	// leftmost[id]: rules reachable from id at its start.
	const (
		unseen = iota
		active
		done
	)
	state := make([]uint8, n)
	var found = -1
	var visit func(id int) bool
	visit = func(id int) bool {
		switch state[id] {
		case active:
			found = id
			return true
		case done:
			return false
		}
		state[id] = active
		for _, alt := range g.alternatives(id) {
			for _, e := range alt {
				if e.kind != kRef {
					break
				}
				if visit(int(e.value)) {
					return true
				}
				if !nullable[e.value] {
					break
				}
			}
		}
		state[id] = done
		return false
	}
	for id := range n {
		if visit(id) {
			return g.names[found], true
		}
	}
	return "", false
}

// alternatives splits rule id at its ALT elements.
func (g *Grammar) alternatives(id int) [][]elem {
	var out [][]elem
	i := int(g.start[id])
	from := i
	for ; ; i++ {
		if k := g.elems[i].kind; k == kAlt || k == kEnd {
			out = append(out, g.elems[from:i])
			if k == kEnd {
				return out
			}
			from = i + 1
		}
	}
}

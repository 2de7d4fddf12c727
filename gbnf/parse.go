package gbnf

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// Error is one problem in a grammar: where it is and what is wrong.
// Pos is zero for grammars that were built rather than parsed.
type Error struct {
	Pos Pos
	Msg string
}

// Error formats the problem as "line:col: msg", or "msg" without a position.
func (e *Error) Error() string {
	if e.Pos.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("%d:%d: %s", e.Pos.Line, e.Pos.Col, e.Msg)
}

// ErrorList is the error type of Parse and Validate: every problem found,
// in position order. Parse stops at the first syntax error.
type ErrorList []*Error

func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// sort orders problems by position, keeping discovery order among equals.
func (l ErrorList) sort() {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// Parse reads GBNF text as llama.cpp does, within DefaultLimits, and
// validates the result. Its error is an ErrorList.
func Parse(text string) (*Grammar, error) {
	return ParseWithLimits(text, DefaultLimits)
}

// ParseWithLimits is Parse with caller-chosen limits.
//
// A zero field in lim means the default.
//
// Where it departs from llama.cpp, it refuses: text that is not valid UTF-8
// or holds a NUL byte (llama.cpp decodes the first leniently and stops
// reading at the second), token references <...> and negation ! (they need a
// model vocabulary), the escape \- (only recent releases accept it),
// {m,n} with n < m (releases disagree on it), and anything over a limit.
// Validate is stricter than llama.cpp in two corners, see there.
func ParseWithLimits(text string, lim Limits) (*Grammar, error) {
	p := &parser{text: text, lim: lim.withDefaults()}
	g, err := p.parse()
	if err != nil {
		return nil, ErrorList{err}
	}
	if err := Validate(g); err != nil {
		return nil, err
	}
	return g, nil
}

type parser struct {
	text       string
	lim        Limits
	lineStarts []int // byte offset where each line begins
}

// pos converts a byte offset into a 1-based line and byte column.
func (p *parser) pos(off int) Pos {
	i := sort.SearchInts(p.lineStarts, off+1) - 1
	return Pos{Line: i + 1, Col: off - p.lineStarts[i] + 1}
}

func (p *parser) errAt(off int, format string, args ...any) *Error {
	return &Error{Pos: p.pos(off), Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) parse() (*Grammar, *Error) {
	if len(p.text) > p.lim.MaxBytes {
		return nil, &Error{Msg: fmt.Sprintf("grammar text is %d bytes, over the MaxBytes limit of %d", len(p.text), p.lim.MaxBytes)}
	}
	p.lineStarts = []int{0}
	for i := 0; i < len(p.text); i++ {
		if p.text[i] == '\n' {
			p.lineStarts = append(p.lineStarts, i+1)
		}
	}
	if !utf8.ValidString(p.text) {
		off := 0
		for off < len(p.text) {
			r, n := utf8.DecodeRuneInString(p.text[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return nil, p.errAt(off, "grammar text is not valid UTF-8")
	}
	tokens, err := p.lex()
	if err != nil {
		return nil, err
	}
	// participle keeps a lot of bookkeeping per token until the whole input
	// is parsed, so it reads one rule at a time; llama.cpp's rules are
	// independent once the newline that ends each one is found.
	g := &Grammar{}
	for _, chunk := range ruleChunks(tokens) {
		file, perr := grammarParser().ParseFromLexer(mustUpgrade(chunk))
		if perr != nil {
			var pe participle.Error
			if errors.As(perr, &pe) {
				off := pe.Position().Offset
				return nil, p.errAt(off, "%s%s", pe.Message(), syntaxHint(tokens, off))
			}
			return nil, &Error{Msg: perr.Error()}
		}
		if err := p.convert(g, file); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// ruleChunks splits the tokens after each newline that ends a rule: one
// outside parentheses (the lexer drops the others) that does not follow
// ::= or |. Each chunk ends with an EOF token placed where the next begins.
func ruleChunks(tokens []lexer.Token) [][]lexer.Token {
	var chunks [][]lexer.Token
	start := 0
	var prev *lexer.Token // last token that is not a newline
	for i := range tokens {
		t := &tokens[i]
		if t.Type != tokNL {
			prev = t
			continue
		}
		if prev == nil || prev.Type == tokDefine || prev.Value == "|" {
			continue
		}
		chunk := append(tokens[start:i+1:i+1], lexer.Token{Type: lexer.EOF, Pos: tokens[i+1].Pos})
		chunks = append(chunks, chunk)
		start = i + 1
		prev = nil
	}
	return append(chunks, tokens[start:])
}

// syntaxHint explains the two surprises of GBNF's newline rule for a
// syntax error at byte offset off.
func syntaxHint(tokens []lexer.Token, off int) string {
	k := sort.Search(len(tokens), func(i int) bool { return tokens[i].Pos.Offset >= off })
	if k >= len(tokens) {
		return ""
	}
	switch {
	case tokens[k].Type == tokDefine:
		return " (a rule body goes on after ::= or | across newlines, so an empty or unfinished body takes in the next rule's name)"
	case k > 0 && tokens[k-1].Type == tokNL:
		return " (outside parentheses a newline ends the rule: end the line with | or wrap the body in ( ))"
	}
	return ""
}

// Token types of the lexer that feeds participle.
const (
	tokNL lexer.TokenType = iota + 1
	tokName
	tokDefine
	tokLiteral
	tokClass
	tokPunct
)

var tokenSymbols = map[string]lexer.TokenType{
	"EOF":     lexer.EOF,
	"NL":      tokNL,
	"Name":    tokName,
	"Define":  tokDefine,
	"Literal": tokLiteral,
	"Class":   tokClass,
	"Punct":   tokPunct,
}

// tokenDefinition tells participle the token types; lexing itself is done
// by parser.lex, because whether a newline matters depends on the
// parenthesis depth, and the depth must be checked before participle
// recurses into it.
type tokenDefinition struct{}

func (tokenDefinition) Symbols() map[string]lexer.TokenType { return tokenSymbols }

func (tokenDefinition) Lex(string, io.Reader) (lexer.Lexer, error) {
	return nil, errors.New("gbnf: use parser.lex")
}

// tokenSlice replays already lexed tokens to participle.
type tokenSlice struct {
	tokens []lexer.Token
	next   int
}

func (s *tokenSlice) Next() (lexer.Token, error) {
	t := s.tokens[s.next]
	if s.next < len(s.tokens)-1 {
		s.next++
	}
	return t, nil
}

func mustUpgrade(tokens []lexer.Token) *lexer.PeekingLexer {
	pl, err := lexer.Upgrade(&tokenSlice{tokens: tokens})
	if err != nil {
		panic(err) // tokenSlice never fails
	}
	return pl
}

// The participle grammar. Every struct consumes at least one token, so an
// empty sequence is an empty slice rather than a nil struct.
type pFile struct {
	Rules []*pRule `parser:"NL* ( @@ NL* )*"`
}

type pRule struct {
	Pos   lexer.Position
	Name  string     `parser:"@Name '::=' NL*"`
	First []*pItem   `parser:"@@*"`
	Rest  []*pBranch `parser:"@@*"`
}

// pBranch is "| items"; a newline may follow the bar, as in llama.cpp.
type pBranch struct {
	Bar   bool     `parser:"@'|' NL*"`
	Items []*pItem `parser:"@@*"`
}

type pGroup struct {
	Open  bool       `parser:"@'('"`
	First []*pItem   `parser:"@@*"`
	Rest  []*pBranch `parser:"@@* ')'"`
}

type pItem struct {
	Pos     lexer.Position
	Lit     *string     `parser:"(  @Literal"`
	Class   *string     `parser:" | @Class"`
	Any     bool        `parser:" | @'.'"`
	Ref     *string     `parser:" | @Name"`
	Group   *pGroup     `parser:" | @@ )"`
	Postfix []*pPostfix `parser:"@@*"`
}

type pPostfix struct {
	Pos   lexer.Position
	Op    string  `parser:"(  @('*' | '+' | '?')"`
	Min   *string `parser:" | '{' @Name"`
	Comma bool    `parser:"   ( @','"`
	Max   *string `parser:"     @Name? )? '}' )"`
}

// grammarParser is built on first use: building it takes most of a
// millisecond, and a process that only compiles schemas never parses GBNF.
var grammarParser = sync.OnceValue(func() *participle.Parser[pFile] {
	return participle.MustBuild[pFile](
		participle.Lexer(tokenDefinition{}),
		participle.UseLookahead(1),
	)
})

func isNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-'
}

// lex splits the text into tokens the way llama.cpp's parse_space and
// friends see it: spaces, tabs and comments vanish; a newline is a token
// only outside parentheses (inside, llama.cpp skips it). Literals and
// classes are single tokens, decoded later. It refuses nesting over
// MaxDepth and rule counts over MaxRules before participle runs.
func (p *parser) lex() ([]lexer.Token, *Error) {
	s := p.text
	var tokens []lexer.Token
	emit := func(t lexer.TokenType, start, end int) {
		pos := p.pos(start)
		tokens = append(tokens, lexer.Token{Type: t, Value: s[start:end],
			Pos: lexer.Position{Offset: start, Line: pos.Line, Column: pos.Col}})
	}
	depth, rules, postfixRun := 0, 0, 0
	inBraces := false // between { and }, where counts do not end a run of operators
	i := 0
	for i < len(s) {
		c := s[i]
		if n := len(tokens); n > 0 && !inBraces && !strings.Contains("*+?}", tokens[n-1].Value) {
			postfixRun = 0
		}
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '#':
			for i < len(s) && s[i] != '\n' && s[i] != '\r' {
				i++
			}
		case c == '\n' || c == '\r':
			n := 1
			if c == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				n = 2
			}
			if depth == 0 {
				emit(tokNL, i, i+n)
			}
			i += n
		case isNameByte(c):
			j := i
			for j < len(s) && isNameByte(s[j]) {
				j++
			}
			emit(tokName, i, j)
			i = j
		case c == ':':
			if !strings.HasPrefix(s[i:], "::=") {
				return nil, p.errAt(i, "expecting ::=")
			}
			rules++
			if rules > p.lim.MaxRules {
				return nil, p.errAt(i, "more than %d rules, over the MaxRules limit", p.lim.MaxRules)
			}
			emit(tokDefine, i, i+3)
			i += 3
		case c == '"' || c == '[':
			end, err := p.scanQuoted(i)
			if err != nil {
				return nil, err
			}
			if c == '"' {
				emit(tokLiteral, i, end)
			} else {
				emit(tokClass, i, end)
			}
			i = end
		case c == '(':
			depth++
			if depth > p.lim.MaxDepth {
				return nil, p.errAt(i, "parentheses nested more than %d deep, over the MaxDepth limit", p.lim.MaxDepth)
			}
			emit(tokPunct, i, i+1)
			i++
		case c == ')':
			if depth > 0 {
				depth--
			}
			emit(tokPunct, i, i+1)
			i++
		case strings.IndexByte("*+?{", c) >= 0:
			// A run of postfix operators nests one Repeat per operator;
			// refuse a long run here, before participle reads it all.
			postfixRun++
			inBraces = c == '{'
			if postfixRun > p.lim.MaxDepth {
				return nil, p.errAt(i, "more than %d repetition operators in a row, over the MaxDepth limit", p.lim.MaxDepth)
			}
			emit(tokPunct, i, i+1)
			i++
		case c == '}':
			inBraces = false
			emit(tokPunct, i, i+1)
			i++
		case c == '|' || c == '.' || c == ',':
			emit(tokPunct, i, i+1)
			i++
		case c == '<' || c == '!':
			return nil, p.errAt(i, "token references (<...>, !<...>) are not supported: they need a model vocabulary")
		case c == 0:
			return nil, p.errAt(i, "NUL byte in grammar text (llama.cpp would stop reading here)")
		default:
			r, _ := utf8.DecodeRuneInString(s[i:])
			return nil, p.errAt(i, "unexpected character %q", r)
		}
	}
	emit(lexer.EOF, len(s), len(s))
	return tokens, nil
}

// scanQuoted finds the end of a literal or class starting at start: the
// first unescaped closing quote or bracket. Escapes are checked later.
func (p *parser) scanQuoted(start int) (int, *Error) {
	s := p.text
	closer := byte('"')
	what := "literal"
	if s[start] == '[' {
		closer, what = ']', "character class"
	}
	for i := start + 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case 0:
			return 0, p.errAt(i, "NUL byte in grammar text (llama.cpp would stop reading here)")
		case closer:
			return i + 1, nil
		}
	}
	return 0, p.errAt(start, "unterminated %s", what)
}

// decodeChar reads one character of a literal or class at s[i], which is
// inside the token, as llama.cpp's parse_char does: an escape or one UTF-8
// code point. The value is a uint32 because \U can name any 32-bit value.
func (p *parser) decodeChar(i int) (uint32, int, *Error) {
	s := p.text
	if s[i] != '\\' {
		r, n := utf8.DecodeRuneInString(s[i:])
		return uint32(r), i + n, nil
	}
	if i+1 >= len(s) {
		return 0, 0, p.errAt(i, "unexpected end of input")
	}
	switch s[i+1] {
	case 'x':
		return p.decodeHex(i, 2)
	case 'u':
		return p.decodeHex(i, 4)
	case 'U':
		return p.decodeHex(i, 8)
	case 't':
		return '\t', i + 2, nil
	case 'r':
		return '\r', i + 2, nil
	case 'n':
		return '\n', i + 2, nil
	case '\\', '"', '[', ']':
		return uint32(s[i+1]), i + 2, nil
	}
	r, _ := utf8.DecodeRuneInString(s[i+1:])
	return 0, 0, p.errAt(i, "unknown escape \\%c (llama.cpp knows \\x \\u \\U \\t \\r \\n \\\\ \\\" \\[ \\])", r)
}

func (p *parser) decodeHex(i, size int) (uint32, int, *Error) {
	s := p.text
	start := i + 2
	var v uint32
	for k := 0; k < size; k++ {
		if start+k >= len(s) {
			return 0, 0, p.errAt(i, "expecting %d hex digits after \\%c", size, s[i+1])
		}
		d := s[start+k]
		switch {
		case '0' <= d && d <= '9':
			v = v<<4 | uint32(d-'0')
		case 'a' <= d && d <= 'f':
			v = v<<4 | uint32(d-'a'+10)
		case 'A' <= d && d <= 'F':
			v = v<<4 | uint32(d-'A'+10)
		default:
			return 0, 0, p.errAt(i, "expecting %d hex digits after \\%c", size, s[i+1])
		}
	}
	return v, start + size, nil
}

// clampRune keeps a \U value as written, so that print(parse(x)) keeps
// ranges such as \U00110000-\U003FFFFF (values llama.cpp can decode from
// invalid UTF-8); only values a rune cannot hold are cut to the largest one.
// Go text never holds a code point above U+10FFFF, so nothing above it ever
// matches here.
func clampRune(v uint32) rune {
	if v > math.MaxInt32 {
		return math.MaxInt32
	}
	return rune(v)
}

// decodeLiteral turns a literal token into an expression. Code points a Go
// string cannot hold (surrogates, values above U+10FFFF) become one-point
// classes, so the literal keeps matching exactly what llama.cpp matches.
// The empty literal is the empty Seq.
func (p *parser) decodeLiteral(start, end int) (Expr, *Error) {
	var items []Expr
	var text []byte
	flush := func() {
		if len(text) > 0 {
			items = append(items, &Lit{Text: string(text)})
			text = nil
		}
	}
	for i := start + 1; i < end-1; {
		v, next, err := p.decodeChar(i)
		if err != nil {
			return nil, err
		}
		if v <= utf8.MaxRune && utf8.ValidRune(rune(v)) {
			text = utf8.AppendRune(text, rune(v))
		} else {
			flush()
			r := clampRune(v)
			items = append(items, &Class{Ranges: []Range{{r, r}}})
		}
		i = next
	}
	flush()
	return seqOf(items), nil
}

// decodeClass turns a class token into a Class, following llama.cpp: a
// leading ^ negates, "a-b" is a range unless the - comes right before the
// closing ], a reversed range is kept (it matches nothing), and a class with
// no characters is the empty Seq, because that is how llama.cpp reads it.
func (p *parser) decodeClass(start, end int) (Expr, *Error) {
	s := p.text
	c := &Class{}
	i := start + 1
	if s[i] == '^' {
		c.Negated = true
		i++
	}
	last := end - 1 // the closing bracket
	for i < last {
		lo, next, err := p.decodeChar(i)
		if err != nil {
			return nil, err
		}
		hi := lo
		i = next
		if s[i] == '-' && i+1 < last {
			hi, next, err = p.decodeChar(i + 1)
			if err != nil {
				return nil, err
			}
			i = next
		}
		c.Ranges = append(c.Ranges, Range{clampRune(lo), clampRune(hi)})
	}
	if len(c.Ranges) == 0 {
		return &Seq{}, nil
	}
	return c, nil
}

// seqOf builds a sequence, flattening nested sequences; one item stands alone.
func seqOf(items []Expr) Expr {
	var flat []Expr
	for _, it := range items {
		if s, ok := it.(*Seq); ok {
			flat = append(flat, s.Items...)
		} else {
			flat = append(flat, it)
		}
	}
	switch len(flat) {
	case 0:
		return &Seq{}
	case 1:
		return flat[0]
	}
	return &Seq{Items: flat}
}

// altOf builds a choice, flattening nested choices; one alternative stands alone.
func altOf(alts []Expr) Expr {
	var flat []Expr
	for _, a := range alts {
		if x, ok := a.(*Alt); ok {
			flat = append(flat, x.Alts...)
		} else {
			flat = append(flat, a)
		}
	}
	if len(flat) == 1 {
		return flat[0]
	}
	return &Alt{Alts: flat}
}

// convert appends the rules of a parsed chunk to g.
func (p *parser) convert(g *Grammar, f *pFile) *Error {
	for _, r := range f.Rules {
		body, _, err := p.convertAlts(r.First, r.Rest)
		if err != nil {
			return err
		}
		g.Rules = append(g.Rules, &Rule{Name: r.Name, Expr: body, Pos: p.pos(r.Pos.Offset)})
	}
	return nil
}

// convertAlts converts alternatives and returns their nesting depth.
func (p *parser) convertAlts(first []*pItem, rest []*pBranch) (Expr, int, *Error) {
	branches := [][]*pItem{first}
	for _, b := range rest {
		branches = append(branches, b.Items)
	}
	var alts []Expr
	depth := 0
	for _, items := range branches {
		var seq []Expr
		for _, it := range items {
			e, d, err := p.convertItem(it)
			if err != nil {
				return nil, 0, err
			}
			seq = append(seq, e)
			depth = max(depth, d)
		}
		alts = append(alts, seqOf(seq))
	}
	return altOf(alts), depth, nil
}

// convertItem converts one atom and its postfix operators. An atom that
// stands for the empty string ("", [], [^]) cannot take an operator, nor can
// x{0}: llama.cpp leaves nothing for the operator to apply to and refuses.
func (p *parser) convertItem(it *pItem) (Expr, int, *Error) {
	var e Expr
	var err *Error
	depth := 0
	repeatable := true
	switch {
	case it.Lit != nil:
		e, err = p.decodeLiteral(it.Pos.Offset, it.Pos.Offset+len(*it.Lit))
		repeatable = !isEmptySeq(e)
	case it.Class != nil:
		e, err = p.decodeClass(it.Pos.Offset, it.Pos.Offset+len(*it.Class))
		repeatable = !isEmptySeq(e)
	case it.Any:
		e = &Any{}
	case it.Ref != nil:
		e = &Ref{Name: *it.Ref, Pos: p.pos(it.Pos.Offset)}
	case it.Group != nil:
		var d int
		e, d, err = p.convertAlts(it.Group.First, it.Group.Rest)
		depth = d + 1
	}
	if err != nil {
		return nil, 0, err
	}
	if err := p.checkDepth(it.Pos.Offset, depth); err != nil {
		return nil, 0, err
	}
	for _, op := range it.Postfix {
		if !repeatable {
			return nil, 0, p.errAt(op.Pos.Offset, "expecting an item before the repetition operator (an empty literal, empty class or x{0} leaves none)")
		}
		rep := &Repeat{Expr: e}
		switch op.Op {
		case "*":
			rep.Min, rep.Max = 0, -1
		case "+":
			rep.Min, rep.Max = 1, -1
		case "?":
			rep.Min, rep.Max = 0, 1
		default:
			if rep.Min, err = p.count(op.Pos.Offset, *op.Min); err != nil {
				return nil, 0, err
			}
			switch {
			case !op.Comma:
				rep.Max = rep.Min
			case op.Max == nil:
				rep.Max = -1
			default:
				if rep.Max, err = p.count(op.Pos.Offset, *op.Max); err != nil {
					return nil, 0, err
				}
				if rep.Max < rep.Min {
					return nil, 0, p.errAt(op.Pos.Offset, "repetition {%d,%d} has its maximum below its minimum (older llama.cpp reads it as {%d}, newer ones exhaust memory on it)", rep.Min, rep.Max, rep.Min)
				}
			}
		}
		depth++
		if err := p.checkDepth(op.Pos.Offset, depth); err != nil {
			return nil, 0, err
		}
		e = rep
		repeatable = rep.Max != 0
	}
	return e, depth, nil
}

func (p *parser) checkDepth(off, depth int) *Error {
	if depth > p.lim.MaxDepth {
		return p.errAt(off, "groups and repetitions nested more than %d deep, over the MaxDepth limit", p.lim.MaxDepth)
	}
	return nil
}

func isEmptySeq(e Expr) bool {
	s, ok := e.(*Seq)
	return ok && len(s.Items) == 0
}

// count reads a repetition count, which llama.cpp requires to be decimal digits.
func (p *parser) count(off int, digits string) (int, *Error) {
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, p.errAt(off, "expecting a decimal count in {...}, found %q", digits)
		}
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n > p.lim.MaxRepeat {
		return 0, p.errAt(off, "repetition count %s is over the MaxRepeat limit of %d", digits, p.lim.MaxRepeat)
	}
	return n, nil
}

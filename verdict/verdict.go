// Package verdict judges a model's output against the grammar it was held
// to: one typed verdict per text, from a closed set of classes with stable
// names, so a pipeline branches on the class instead of parsing messages.
//
// The gates run in order (terminal state, parse, schema), and the first that
// fails decides the class:
//
//	COMPLETE_VALID    the grammar accepts the whole text (so the schema does too)
//	INCOMPLETE        the text is a viable prefix: the grammar could still complete it
//	                  (empty or whitespace-only output is INCOMPLETE at byte 0)
//	PARSE_ERROR       the text left the grammar and is not strict JSON
//	OFF_GRAMMAR       the text is JSON but left the grammar; Reason says why:
//	                  "schema" (the schema rejects the value: keyword and pointers given)
//	                  or "spelling" (the schema accepts the value, but the grammar only
//	                  allows its canonical spelling: member order, "1.0", escapes,
//	                  whitespace beyond the bound, trailing whitespace)
//	SCHEMA_INVALID    a lenient grammar accepts the text, and the whole schema, checked
//	                  after decoding by a validator, rejects it for a constraint the
//	                  grammar relaxed: the keyword and both pointers given (lenient.go)
//	REFUSED_SCHEMA    the schema is outside the profile; Problems lists why
//	GRAMMAR_MISMATCH  the grammar accepts the text but the schema rejects it: the
//	                  grammar was not compiled from this schema (only with a grammar
//	                  given by the caller, see NewWithRules)
//	LIMIT_EXCEEDED    the text is too large to judge within Limits
//
// The verdict comes from the grammar's own matcher, so "valid by the grammar"
// and "valid by the schema" cannot disagree for a grammar Compile made.
package verdict

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/internal/validate"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Class is a verdict's class. Its values are stable names.
type Class string

const (
	CompleteValid   Class = "COMPLETE_VALID"
	Incomplete      Class = "INCOMPLETE"
	ParseError      Class = "PARSE_ERROR"
	OffGrammar      Class = "OFF_GRAMMAR"
	RefusedSchema   Class = "REFUSED_SCHEMA"
	GrammarMismatch Class = "GRAMMAR_MISMATCH"
	LimitExceeded   Class = "LIMIT_EXCEEDED"
	SchemaInvalid   Class = "SCHEMA_INVALID"
)

// Classes lists every class, in a fixed order (for counts and docs).
var Classes = []Class{CompleteValid, Incomplete, ParseError, OffGrammar, SchemaInvalid, RefusedSchema, GrammarMismatch, LimitExceeded}

// Reasons of an OFF_GRAMMAR verdict.
const (
	ReasonSchema   = "schema"   // the schema rejects the value
	ReasonSpelling = "spelling" // valid by the schema, but not in the grammar's canonical spelling
)

// Verdict is the judgement on one text.
type Verdict struct {
	Class   Class  `json:"class"`
	Message string `json:"message"`
	// Offset is the byte at which the grammar stopped taking the text: the
	// first byte it could not take, or len(text) for COMPLETE_VALID and
	// INCOMPLETE (0 for an empty or whitespace-only text). Line and Col
	// (1-based, Col in code points) say the same. -1 when no text was judged.
	Offset int `json:"offset"`
	Line   int `json:"line,omitempty"`
	Col    int `json:"col,omitempty"`
	// Next (INCOMPLETE, and OFF_GRAMMAR by spelling) lists what the grammar
	// allows at Offset: single
	// characters, ranges such as "0-9", and "non-ASCII" when some code point
	// beyond ASCII is allowed. NextLiteral is the text the grammar forces
	// next, when only one character is allowed at each step ("" otherwise).
	Next        []string `json:"next,omitempty"`
	NextLiteral string   `json:"next_literal,omitempty"`
	// Reason (OFF_GRAMMAR): ReasonSchema or ReasonSpelling.
	Reason string `json:"reason,omitempty"`
	// Failure (OFF_GRAMMAR by schema, GRAMMAR_MISMATCH): the first failing
	// keyword, its pointer in the schema and the value's pointer in the text.
	Keyword         string `json:"keyword,omitempty"`
	SchemaPointer   string `json:"schema_pointer,omitempty"`
	InstancePointer string `json:"instance_pointer,omitempty"`
	// Problems (PARSE_ERROR: where the text is not JSON; REFUSED_SCHEMA: the
	// schema's problems).
	Problems []Problem `json:"problems,omitempty"`
}

// Problem is a subsetcheck.Problem in the verdict's JSON form.
type Problem struct {
	Code    string `json:"code"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Pointer string `json:"pointer"`
	Message string `json:"message"`
}

// Limits bound the work one verdict may take. Zero fields take the defaults.
type Limits struct {
	// MaxTextBytes is the largest text judged (LIMIT_EXCEEDED beyond).
	MaxTextBytes int
	// MaxProbeBytes is the largest INCOMPLETE text whose next characters are
	// computed: NextLiteral re-matches the text once per forced code point.
	MaxProbeBytes int
	// MaxLiteral bounds NextLiteral, in code points.
	MaxLiteral int
}

// DefaultLimits are the limits used for zero fields.
var DefaultLimits = Limits{MaxTextBytes: 16 << 20, MaxProbeBytes: 256 << 10, MaxLiteral: 64}

func (l Limits) withDefaults() Limits {
	if l.MaxTextBytes <= 0 {
		l.MaxTextBytes = DefaultLimits.MaxTextBytes
	}
	if l.MaxProbeBytes <= 0 {
		l.MaxProbeBytes = DefaultLimits.MaxProbeBytes
	}
	if l.MaxLiteral <= 0 {
		l.MaxLiteral = DefaultLimits.MaxLiteral
	}
	return l
}

// Judge judges texts for one schema. Build it once per schema; it is safe for
// concurrent use.
type Judge struct {
	matcher *gbnf.Matcher
	schema  *subsetcheck.Checked
	lim     Limits
	// full validates the whole schema after decoding, for a lenient
	// grammar (lenient.go); nil for one that enforces its whole schema.
	full *validate.Validator
}

// New builds a Judge from a compiled grammar.
func New(g *schema2gbnf.Grammar, lim Limits) (*Judge, error) {
	if g == nil {
		return nil, errors.New("verdict: no grammar")
	}
	return NewWithRules(g.Rules, g.Schema, lim)
}

// NewWithRules builds a Judge from a grammar and a checked schema given
// separately, e.g. a grammar file read back from a pipeline. Nothing ties
// them together; a text the grammar accepts and the schema rejects is then
// GRAMMAR_MISMATCH.
func NewWithRules(rules *gbnf.Grammar, schema *subsetcheck.Checked, lim Limits) (*Judge, error) {
	if rules == nil || schema == nil {
		return nil, errors.New("verdict: a grammar and a checked schema are both needed")
	}
	m, err := gbnf.NewMatcher(rules)
	if err != nil {
		return nil, err
	}
	j := &Judge{matcher: m, schema: schema, lim: lim.withDefaults()}
	if err := j.validateAfter(); err != nil {
		return nil, err
	}
	return j, nil
}

// Refused is the verdict for a schema that did not compile: err's problems
// when it holds a subsetcheck.ErrorList, its text otherwise.
func Refused(err error) Verdict {
	v := Verdict{Class: RefusedSchema, Offset: -1, Message: "the schema is refused"}
	var list subsetcheck.ErrorList
	if errors.As(err, &list) {
		v.Problems = problems(list)
		if len(list) > 0 {
			v.Message = "the schema is refused: " + list[0].Error()
		}
	} else if err != nil {
		v.Message = "the schema is refused: " + err.Error()
	}
	return v
}

func problems(list subsetcheck.ErrorList) []Problem {
	out := make([]Problem, 0, len(list))
	for _, p := range list {
		out = append(out, Problem{Code: string(p.Code), Line: p.Line, Col: p.Col, Pointer: p.Pointer, Message: p.Message})
	}
	return out
}

// Judge returns the verdict on text.
func (j *Judge) Judge(text []byte) Verdict {
	if len(text) > j.lim.MaxTextBytes {
		return Verdict{Class: LimitExceeded, Offset: -1,
			Message: fmt.Sprintf("the text is %d bytes, more than Limits.MaxTextBytes (%d)", len(text), j.lim.MaxTextBytes)}
	}
	s := string(text)
	r, err := j.matcher.Check(s)
	if err != nil {
		return Verdict{Class: LimitExceeded, Offset: r.Offset, Message: "the matcher ran out of work budget: " + err.Error()}
	}
	if r.Accepted {
		v := j.at(CompleteValid, text, len(text))
		v.Message = "the grammar accepts the whole text"
		doc, err := subsetcheck.Read("text", text, subsetcheck.Limits{MaxInputBytes: j.lim.MaxTextBytes})
		if err == nil {
			if f := compile.Explain(j.schema, doc.Root); f != nil {
				v = j.at(GrammarMismatch, text, len(text))
				v.Message = "the grammar accepts the text but the schema rejects it (" + f.Message + "): the grammar was not compiled from this schema"
				v.setFailure(f)
				return v
			}
		}
		if j.full != nil {
			return j.afterDecoding(text, err, v)
		}
		return v
	}
	if strings.TrimLeft(s, " \t\r\n") == "" {
		v := j.at(Incomplete, text, 0)
		v.Message = "the text is empty or only whitespace"
		j.next(&v, "")
		return v
	}
	if r.Offset >= len(text) {
		v := j.at(Incomplete, text, len(text))
		v.Message = "the text ends before the grammar is complete"
		// A number is the one JSON value that is complete and can still
		// grow: "12" under "minimum": 100. Say what it is as it stands.
		if doc, err := subsetcheck.Read("text", text, subsetcheck.Limits{}); err == nil {
			if f := compile.Explain(j.schema, doc.Root); f != nil {
				v.Message += "; as it stands the text is JSON the schema rejects: " + f.Error()
			} else {
				v.Message += "; as it stands the text is JSON the schema accepts, in a spelling the grammar does not end with"
			}
		}
		j.next(&v, s)
		return v
	}
	doc, err := subsetcheck.Read("text", text, subsetcheck.Limits{MaxInputBytes: j.lim.MaxTextBytes})
	if err != nil {
		v := j.at(ParseError, text, r.Offset)
		var list subsetcheck.ErrorList
		if errors.As(err, &list) && len(list) > 0 {
			v.Problems = problems(list)
			p := list[0]
			v.Message = fmt.Sprintf("not JSON at %d:%d: %s", p.Line, p.Col, p.Message)
		} else {
			v.Message = "not JSON: " + err.Error()
		}
		return v
	}
	v := j.at(OffGrammar, text, r.Offset)
	if f := compile.Explain(j.schema, doc.Root); f != nil {
		v.Reason = ReasonSchema
		v.Message = "the schema rejects the value: " + f.Error()
		v.setFailure(f)
		return v
	}
	v.Reason = ReasonSpelling
	j.next(&v, s[:r.Offset])
	v.Message = "valid by the schema but not in the grammar's canonical spelling: " + spellingHint(text, r.Offset, v.NextLiteral)
	return v
}

func (v *Verdict) setFailure(f *compile.Failure) {
	v.Keyword, v.SchemaPointer, v.InstancePointer = f.Keyword, f.SchemaPointer, f.InstancePointer
}

// at is a verdict of class c at byte offset.
func (j *Judge) at(c Class, text []byte, offset int) Verdict {
	line, col := gbnf.Position(string(text), offset)
	return Verdict{Class: c, Offset: offset, Line: line, Col: col}
}

// spellingHint says what the grammar refused in a text the schema accepts.
func spellingHint(text []byte, offset int, wanted string) string {
	rest := text[offset:]
	if len(strings.TrimLeft(string(rest), " \t\r\n")) == 0 {
		return fmt.Sprintf("trailing whitespace at byte %d; the grammar ends with the value", offset)
	}
	c, _ := utf8.DecodeRune(rest)
	switch c {
	case ' ', '\t', '\r', '\n':
		return fmt.Sprintf("whitespace the grammar does not allow at byte %d (a space, or a newline and at most 20 spaces or tabs, between tokens; none in compact mode)", offset)
	}
	if wanted != "" {
		return fmt.Sprintf("the grammar cannot take %q at byte %d, it wants %q (members in the schema's order, numbers without 1.0 or 1e2, the canonical escapes)", c, offset, wanted)
	}
	return fmt.Sprintf("the grammar cannot take %q at byte %d (e.g. members in another order, a number spelled 1.0 or 1e2, an escape the canonical form does not use)", c, offset)
}

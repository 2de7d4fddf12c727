// Package verdict judges a model's output against the schema its grammar was
// compiled from: one typed verdict per output, from a closed set of classes
// with stable names, so a pipeline branches on the class instead of parsing
// messages, and retries only what a retry can fix.
//
// Four gates run in order; the first that fails decides the class, and the
// gates after it do not run:
//
//  1. terminal state: how generation ended. From a server's reply
//     (JudgeReply): an error reply is PROVIDER_ERROR and is never judged as
//     text; a refusal is REFUSAL; a stop at the token limit is INCOMPLETE,
//     with what the grammar allows next. From a bare text (Judge), the text
//     says it: a prefix the grammar could still complete is INCOMPLETE.
//  2. parse: the strict reader (RFC 8259, no repeated member names):
//     PARSE_ERROR with the reader's code.
//  3. schema: the value against the schema: OFF_GRAMMAR with the failing
//     keyword and both pointers. A value the schema accepts is never a
//     failure, even when it is not written the grammar's way (another
//     member order, 1.0, trailing whitespace): COMPLETE_VALID with a Note.
//     On a lenient grammar, which enforces its schema in part, a value the
//     grammar took is validated against the whole schema too: one that
//     breaks a constraint the grammar relaxed is SCHEMA_INVALID (lenient.go).
//  4. domain (library only): the application's own check (WithDomain):
//     DOMAIN_INVALID.
//
// COMPLETE_VALID is the one success. Besides the gates: REFUSED_SCHEMA (the
// schema did not compile), GRAMMAR_MISMATCH (a grammar given apart from its
// schema, NewWithRules, disagrees with it) and LIMIT_EXCEEDED (too large to
// judge within Limits). Every verdict says whether a bounded retry may help
// (Retry) and carries the grammar's provenance (the schema's hash and the
// compiler's version), so that "this output validated" says against what.
package verdict

import (
	"errors"
	"fmt"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Class is a verdict's class. Its values are stable names.
type Class string

const (
	CompleteValid   Class = "COMPLETE_VALID"
	ProviderError   Class = "PROVIDER_ERROR"
	Refusal         Class = "REFUSAL"
	Incomplete      Class = "INCOMPLETE"
	ParseError      Class = "PARSE_ERROR"
	OffGrammar      Class = "OFF_GRAMMAR"
	DomainInvalid   Class = "DOMAIN_INVALID"
	RefusedSchema   Class = "REFUSED_SCHEMA"
	GrammarMismatch Class = "GRAMMAR_MISMATCH"
	LimitExceeded   Class = "LIMIT_EXCEEDED"
	SchemaInvalid   Class = "SCHEMA_INVALID"
)

// Classes lists every class, in a fixed order (for counts and docs).
var Classes = []Class{CompleteValid, ProviderError, Refusal, Incomplete, ParseError, OffGrammar, SchemaInvalid, DomainInvalid, RefusedSchema, GrammarMismatch, LimitExceeded}

// Gate names the gate that decided a verdict: the one that failed, or for
// COMPLETE_VALID the last one run.
type Gate string

const (
	GateTerminal Gate = "terminal"
	GateParse    Gate = "parse"
	GateSchema   Gate = "schema"
	GateDomain   Gate = "domain"
	// GateCompile: the schema did not compile (REFUSED_SCHEMA), or its
	// grammar is beyond the matcher's limits; no output was judged.
	GateCompile Gate = "compile"
)

// Reasons of an OFF_GRAMMAR verdict.
const (
	// ReasonSchema: the schema rejects the value, by compile's own
	// validator for the checked subset (compile.Explain).
	ReasonSchema = "schema"
	// ReasonValidator: the grammar took the value but the validator given
	// with WithValidator rejects it (a grammar that enforces only part of
	// its schema; none does today).
	ReasonValidator = "validator"
)

// Verdict is the judgement on one output.
type Verdict struct {
	Class Class `json:"class"`
	Gate  Gate  `json:"gate"`
	// Retry says whether a bounded retry of the same request may help:
	// true for INCOMPLETE and for a provider error that says the server
	// was busy or unreachable; false for every other class, whose cure is
	// a change of schema, prompt, model, limits or data.
	Retry   bool   `json:"retry"`
	Message string `json:"message"`
	// Note (COMPLETE_VALID only) says the value, valid by the schema, was
	// not written the grammar's way, so a model held to the grammar did not
	// write it: another member order, a number spelled 1.0, an escape the
	// canonical form does not use, whitespace beyond the bound or after the
	// value. Offset, Next and NextLiteral then say where and what the
	// grammar wanted.
	Note string `json:"note,omitempty"`
	// Provenance is the grammar's: the schema's hash, the compiler's
	// version and options. Nil when the grammar has none.
	Provenance *schema2gbnf.Provenance `json:"provenance,omitempty"`
	// Stop is how the reply says generation ended (JudgeReply), as the
	// server wrote it: llama-server's stop_type ("eos", "word", "limit"),
	// a chat completion's finish_reason ("stop", "length", ...).
	Stop string `json:"stop,omitempty"`
	// Error (PROVIDER_ERROR) is the reply's error body.
	Error *ReplyError `json:"error,omitempty"`
	// Offset is the byte at which the grammar stopped taking the text: the
	// first byte it could not take, or len(text) when it took all of it (0
	// for an empty or whitespace-only text). Line and Col (1-based, Col in
	// code points) say the same. -1 when no text was judged.
	Offset int `json:"offset"`
	Line   int `json:"line,omitempty"`
	Col    int `json:"col,omitempty"`
	// Next (INCOMPLETE, and a COMPLETE_VALID with a Note) lists what the
	// grammar allows at Offset: single characters, ranges such as "0-9",
	// and "non-ASCII" when some code point beyond ASCII is allowed.
	// NextLiteral is the text the grammar forces next, when only one
	// character is allowed at each step ("" otherwise).
	Next        []string `json:"next,omitempty"`
	NextLiteral string   `json:"next_literal,omitempty"`
	// Reason (OFF_GRAMMAR): ReasonSchema or ReasonValidator.
	Reason string `json:"reason,omitempty"`
	// The first failing keyword, its pointer in the schema and the value's
	// pointer in the text (OFF_GRAMMAR, GRAMMAR_MISMATCH; DOMAIN_INVALID
	// gives the instance pointer when its check does).
	Keyword         string `json:"keyword,omitempty"`
	SchemaPointer   string `json:"schema_pointer,omitempty"`
	InstancePointer string `json:"instance_pointer,omitempty"`
	// Limit (LIMIT_EXCEEDED) names the limit met, as a field of Limits:
	// "MaxTextBytes", "Matcher.MaxStates", "Reader.MaxDepth", ...
	Limit string `json:"limit,omitempty"`
	// Problems (PARSE_ERROR and LIMIT_EXCEEDED from the reader: where the
	// text is not JSON; REFUSED_SCHEMA: the schema's problems).
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
	// MaxTextBytes is the largest text (or reply) judged (LIMIT_EXCEEDED
	// beyond).
	MaxTextBytes int
	// MaxProbeBytes is the largest INCOMPLETE text whose next characters are
	// computed: NextLiteral re-matches the text once per forced code point.
	MaxProbeBytes int
	// MaxLiteral bounds NextLiteral, in code points.
	MaxLiteral int
	// Reader bounds the strict reader on the text (nesting, number digits,
	// values); its MaxInputBytes is MaxTextBytes. Zero fields take
	// subsetcheck's defaults.
	Reader subsetcheck.Limits
	// Matcher bounds the grammar's matcher (states when it is built, Earley
	// items per text); zero fields take gbnf's defaults.
	Matcher gbnf.MatcherLimits
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
	l.Reader.MaxInputBytes = l.MaxTextBytes
	return l
}

// Judge judges outputs for one schema. Build it once per schema; it is safe
// for concurrent use.
type Judge struct {
	matcher   *gbnf.Matcher
	schema    *subsetcheck.Checked
	lim       Limits
	prov      *schema2gbnf.Provenance
	domain    func(text []byte) error
	validator func(text []byte, v *subsetcheck.Value) error
}

// New builds a Judge from a compiled grammar. An error is a
// *gbnf.MatcherLimitError when the grammar needs more than lim.Matcher
// allows (LimitVerdict turns it into a verdict).
func New(g *schema2gbnf.Grammar, lim Limits) (*Judge, error) {
	if g == nil {
		return nil, errors.New("verdict: no grammar")
	}
	j, err := NewWithRules(g.Rules, g.Schema, lim)
	if err != nil {
		return nil, err
	}
	p := g.Provenance
	j.prov = &p
	return j, nil
}

// NewWithRules builds a Judge from a grammar and a checked schema given
// separately, e.g. a grammar file read back from a pipeline. Nothing ties
// them together; a text the grammar accepts and the schema rejects (or the
// other way round) is then GRAMMAR_MISMATCH. WithProvenance attaches the
// grammar's provenance comment.
func NewWithRules(rules *gbnf.Grammar, schema *subsetcheck.Checked, lim Limits) (*Judge, error) {
	if rules == nil || schema == nil {
		return nil, errors.New("verdict: a grammar and a checked schema are both needed")
	}
	lim = lim.withDefaults()
	m, err := gbnf.NewMatcherLimits(rules, lim.Matcher)
	if err != nil {
		return nil, err
	}
	j := &Judge{matcher: m, schema: schema, lim: lim}
	return j.validateAfter()
}

// WithProvenance returns a copy of j whose verdicts carry p (read from a
// grammar file with schema2gbnf.ReadProvenance).
func (j *Judge) WithProvenance(p schema2gbnf.Provenance) *Judge {
	c := *j
	c.prov = &p
	return &c
}

// WithDomain returns a copy of j that runs check, the application's own
// rules (an ID that must exist, "priority high needs a human"), on every
// output that passed the first three gates. check gets the output's text,
// strict JSON the schema accepts, to decode as the application does; an
// error fails the output as DOMAIN_INVALID with the error's message (a
// *DomainError may also say where).
func (j *Judge) WithDomain(check func(text []byte) error) *Judge {
	c := *j
	c.domain = check
	return &c
}

// DomainError is an error a domain check may return to say which rule the
// value broke and where.
type DomainError struct {
	Rule            string // a name for the rule, e.g. "evidence-known"
	InstancePointer string // the value's pointer in the text ("" is the root)
	Message         string
}

func (e *DomainError) Error() string { return e.Message }

// WithValidator returns a copy of j that runs validate on every value the
// schema gate passes, for a grammar that enforces only part of its schema
// and leaves the rest to a validator after parsing. New and NewWithRules
// set one up for a lenient grammar (lenient.go), whose failures are
// SCHEMA_INVALID; any other validator's error fails the value as
// OFF_GRAMMAR with reason "validator".
func (j *Judge) WithValidator(validate func(text []byte, v *subsetcheck.Value) error) *Judge {
	c := *j
	c.validator = validate
	return &c
}

// Refused is the verdict for a schema that did not compile: err's problems
// when it holds a subsetcheck.ErrorList, its text otherwise.
func Refused(err error) Verdict {
	v := Verdict{Class: RefusedSchema, Gate: GateCompile, Offset: -1, Message: "the schema is refused"}
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

// LimitVerdict is the verdict for a grammar the matcher cannot be built for
// within its limits (the error of New or NewWithRules): LIMIT_EXCEEDED, with
// the limit named. ok is false for any other error.
func LimitVerdict(err error) (v Verdict, ok bool) {
	var le *gbnf.MatcherLimitError
	if !errors.As(err, &le) {
		return Verdict{}, false
	}
	return Verdict{Class: LimitExceeded, Gate: GateCompile, Offset: -1, Limit: "Matcher." + le.Limit,
		Message: fmt.Sprintf("the grammar is too large to judge within Limits.Matcher.%s (%d); raise it", le.Limit, le.Value)}, true
}

func problems(list subsetcheck.ErrorList) []Problem {
	out := make([]Problem, 0, len(list))
	for _, p := range list {
		out = append(out, Problem{Code: string(p.Code), Line: p.Line, Col: p.Col, Pointer: p.Pointer, Message: p.Message})
	}
	return out
}

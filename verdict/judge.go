package verdict

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// stop is how generation ended, as far as the judge knows.
type stop int

const (
	stopUnknown  stop = iota // a bare text: the text must say it
	stopComplete             // the server says the model ended the output
	stopLimit                // the server says the token limit cut it
)

// Judge judges a bare text, with no reply around it: its terminal state is
// inferred from the text (a prefix the grammar could still complete, or an
// empty text, is INCOMPLETE). The text is judged byte for byte: a final
// newline is trailing whitespace (see the CLI for the rule on files).
func (j *Judge) Judge(text []byte) Verdict {
	return j.judge(text, stopUnknown, "")
}

// judge runs the gates in order on text, whose terminal state is st.
func (j *Judge) judge(text []byte, st stop, stopName string) Verdict {
	v := j.gates(text, st)
	v.Provenance, v.Stop = j.prov, stopName
	v.Retry = v.Class == Incomplete
	return v
}

func (j *Judge) gates(text []byte, st stop) Verdict {
	if len(text) > j.lim.MaxTextBytes {
		return Verdict{Class: LimitExceeded, Gate: GateParse, Offset: -1, Limit: "MaxTextBytes",
			Message: fmt.Sprintf("the text is %d bytes, more than Limits.MaxTextBytes (%d)", len(text), j.lim.MaxTextBytes)}
	}
	s := string(text)
	r, err := j.matcher.Check(s)
	if err != nil {
		v := j.at(LimitExceeded, GateSchema, text, r.Offset)
		v.Message = "the grammar's matcher ran out of work budget: " + err.Error()
		var le *gbnf.MatcherLimitError
		if errors.As(err, &le) {
			v.Limit = "Matcher." + le.Limit
		}
		return v
	}

	// Gate 1: terminal state.
	if v, stopped := j.terminal(text, st, r); stopped {
		return v
	}

	// Gate 2: parse.
	doc, err := subsetcheck.Read("text", text, j.lim.Reader)
	if err != nil {
		return j.parseFailure(text, r, err)
	}

	// Gate 3: schema.
	v, ok := j.schemaGate(text, r, doc.Root)
	if !ok || j.domain == nil {
		return v
	}

	// Gate 4: domain.
	if err := j.domain(text); err != nil {
		d := j.at(DomainInvalid, GateDomain, text, len(text))
		d.Message = "the value breaks a domain rule: " + err.Error()
		var de *DomainError
		if errors.As(err, &de) {
			d.Keyword, d.InstancePointer = de.Rule, de.InstancePointer
		}
		return d
	}
	v.Gate = GateDomain
	return v
}

// terminal is gate 1. stopped is true when the output is not complete data.
func (j *Judge) terminal(text []byte, st stop, r gbnf.MatchResult) (Verdict, bool) {
	s := string(text)
	switch st {
	case stopComplete:
		return Verdict{}, false
	case stopLimit:
		// The value may have been complete when the limit fell: the grammar
		// took the whole text and allows nothing after it.
		if r.Accepted {
			if rs, _, err := j.matcher.Next(s); err == nil && len(rs) == 0 {
				return Verdict{}, false
			}
		}
		v := j.at(Incomplete, GateTerminal, text, r.Offset)
		switch {
		case r.Offset < len(text):
			v.Message = fmt.Sprintf("generation stopped at the token limit, and the text had left the grammar at byte %d: the grammar was not applied", r.Offset)
		case r.Accepted:
			v.Message = "generation stopped at the token limit; the grammar takes the text as it stands, but it could go on"
			j.next(&v, s)
		default:
			v.Message = "generation stopped at the token limit before the grammar was complete"
			j.next(&v, s)
		}
		return v, true
	}
	if r.Accepted {
		return Verdict{}, false
	}
	if strings.TrimLeft(s, " \t\r\n") == "" {
		v := j.at(Incomplete, GateTerminal, text, 0)
		v.Message = "the text is empty or only whitespace"
		j.next(&v, "")
		return v, true
	}
	if r.Offset < len(text) {
		return Verdict{}, false
	}
	v := j.at(Incomplete, GateTerminal, text, len(text))
	v.Message = "the text ends before the grammar is complete"
	// A number is the one JSON value that is complete and can still
	// grow: "12" under "minimum": 100. Say what it is as it stands.
	if doc, err := subsetcheck.Read("text", text, j.lim.Reader); err == nil {
		if f := compile.Explain(j.schema, doc.Root); f != nil {
			v.Message += "; as it stands the text is JSON the schema rejects: " + f.Error()
		} else {
			v.Message += "; as it stands the text is JSON the schema accepts, in a spelling the grammar does not end with"
		}
	}
	j.next(&v, s)
	return v, true
}

// parseFailure is gate 2's verdict: PARSE_ERROR, or LIMIT_EXCEEDED when the
// reader met one of its limits.
func (j *Judge) parseFailure(text []byte, r gbnf.MatchResult, err error) Verdict {
	var list subsetcheck.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		v := j.at(ParseError, GateParse, text, r.Offset)
		v.Message = "not JSON: " + err.Error()
		return v
	}
	p := list[0]
	c := ParseError
	if strings.HasPrefix(string(p.Code), "L") {
		c = LimitExceeded
	}
	v := j.at(c, GateParse, text, r.Offset)
	v.Problems = problems(list)
	if c == LimitExceeded {
		v.Limit = readerLimit(p)
		v.Message = fmt.Sprintf("the text is beyond the reader's limits at %d:%d: %s", p.Line, p.Col, p.Message)
	} else {
		v.Message = fmt.Sprintf("not JSON at %d:%d: %s", p.Line, p.Col, p.Message)
	}
	return v
}

// schemaGate is gate 3. ok is true when the value passed.
//
// A grammar Compile made is exact: it takes a text exactly when the schema
// accepts the value and the text is spelled the grammar's way. So the
// grammar's verdict stands, and compile's validator (Explain) only says why
// a text it refused was refused: the schema rejects the value, or the value
// is valid and only its spelling differs. For a grammar given apart from
// its schema (NewWithRules), the two can disagree: GRAMMAR_MISMATCH.
func (j *Judge) schemaGate(text []byte, r gbnf.MatchResult, value *subsetcheck.Value) (Verdict, bool) {
	f := compile.Explain(j.schema, value)
	if r.Accepted {
		if f != nil {
			v := j.at(GrammarMismatch, GateSchema, text, len(text))
			v.Message = "the grammar accepts the text but the schema rejects it (" + f.Message + "): the grammar was not compiled from this schema"
			v.setFailure(f)
			return v, false
		}
		if j.validator != nil {
			if err := j.validator(text, value); err != nil {
				var rf *relaxedFailure
				if errors.As(err, &rf) {
					return j.relaxedVerdict(text, rf), false
				}
				v := j.at(OffGrammar, GateSchema, text, len(text))
				v.Reason = ReasonValidator
				v.Message = "the validator rejects the value: " + err.Error()
				return v, false
			}
		}
		v := j.at(CompleteValid, GateSchema, text, len(text))
		v.Message = "the schema accepts the value, written the grammar's way"
		return v, true
	}
	if f != nil {
		v := j.at(OffGrammar, GateSchema, text, r.Offset)
		v.Reason = ReasonSchema
		v.Message = "the schema rejects the value: " + f.Error()
		v.setFailure(f)
		return v, false
	}
	// Valid, but not in the grammar's spelling. The grammar must still take
	// the value's canonical text, or it was not compiled from this schema.
	if c, err := compile.Canonical(j.schema, value); err == nil && !j.matcher.Accepts(c) {
		v := j.at(GrammarMismatch, GateSchema, text, r.Offset)
		v.Message = "the schema accepts the value but the grammar rejects even its canonical text " + quote(c, 80) + ": the grammar was not compiled from this schema"
		return v, false
	}
	if j.validator != nil {
		// The relaxed schema accepts the value; the whole one must too.
		if err := j.validator(text, value); err != nil {
			var rf *relaxedFailure
			if errors.As(err, &rf) {
				return j.relaxedVerdict(text, rf), false
			}
			v := j.at(OffGrammar, GateSchema, text, r.Offset)
			v.Reason = ReasonValidator
			v.Message = "the validator rejects the value: " + err.Error()
			return v, false
		}
	}
	s := string(text)
	v := j.at(CompleteValid, GateSchema, text, r.Offset)
	j.next(&v, s[:r.Offset])
	v.Message = "the schema accepts the value"
	v.Note = "not written the grammar's way, so a model held to the grammar did not write it: " + spellingHint(text, r.Offset, v.NextLiteral)
	return v, true
}

func (v *Verdict) setFailure(f *compile.Failure) {
	v.Keyword, v.SchemaPointer, v.InstancePointer = f.Keyword, f.SchemaPointer, f.InstancePointer
}

// at is a verdict of class c, decided at gate g, at byte offset.
func (j *Judge) at(c Class, g Gate, text []byte, offset int) Verdict {
	line, col := gbnf.Position(string(text), offset)
	return Verdict{Class: c, Gate: g, Offset: offset, Line: line, Col: col}
}

// spellingHint says what the grammar refused in a text the schema accepts.
func spellingHint(text []byte, offset int, wanted string) string {
	rest := text[offset:]
	if len(strings.TrimLeft(string(rest), " \t\r\n")) == 0 {
		return fmt.Sprintf("whitespace after the value at byte %d; the grammar ends with the value", offset)
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

// quote is s quoted, cut to at most n bytes of s.
func quote(s string, n int) string {
	if len(s) <= n {
		return fmt.Sprintf("%q", s)
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q…", s[:cut])
}

// readerLimit names the reader's limit a problem met.
func readerLimit(p *subsetcheck.Problem) string {
	switch p.Code {
	case subsetcheck.CodeInputTooLarge:
		return "MaxTextBytes"
	case subsetcheck.CodeTooDeep:
		if strings.Contains(p.Message, "MaxNestedBytes") {
			return "Reader.MaxNestedBytes"
		}
		return "Reader.MaxDepth"
	case subsetcheck.CodeNumberTooLarge:
		return "Reader.MaxNumberDigits"
	case subsetcheck.CodeTooManyValues:
		return "Reader.MaxValues"
	}
	return "Reader"
}

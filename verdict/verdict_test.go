package verdict

import (
	"errors"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

const person = `{"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer","minimum":0}},"required":["name"],"additionalProperties":false}`

func mustJudge(t testing.TB, schema string, lim Limits) *Judge {
	t.Helper()
	g, err := schema2gbnf.Compile([]byte(schema), schema2gbnf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	j, err := New(g, lim)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// want is the expected verdict; empty fields are not compared, offset -2 is
// "do not compare".
type want struct {
	class   Class
	offset  int
	reason  string
	keyword string
	schema  string // schema pointer
	inst    string // instance pointer
	next    string // Next joined by spaces
	literal string
	code    string // first problem's code
	note    bool   // a Note is given
	gate    Gate   // "" is not compared
}

func TestJudge(t *testing.T) {
	j := mustJudge(t, person, Limits{})
	for _, c := range []struct {
		text string
		want want
	}{
		{`{"name":"a","age":3}`, want{class: CompleteValid, offset: 20}},
		{"{\n  \"name\": \"a\"}", want{class: CompleteValid, offset: 16}},
		{``, want{class: Incomplete, offset: 0, next: "{", literal: "{"}},
		{"  \n\t", want{class: Incomplete, offset: 0, next: "{", literal: "{"}},
		{`{"na`, want{class: Incomplete, offset: 4, next: "m", literal: `me"`}},
		{`{"name":"a"`, want{class: Incomplete, offset: 11, next: `"\n" space , }`}},
		{`{"name":"a","age":`, want{class: Incomplete, offset: 18, next: `"\n" space 0-9`}},
		{`{"name":"caf`, want{class: Incomplete, offset: 12, next: `space-"\x7f" non-ASCII`}},
		{`{"name":1}`, want{class: OffGrammar, offset: 8, reason: ReasonSchema, keyword: "type", schema: "/properties/name/type", inst: "/name"}},
		{`{"age":3}`, want{class: OffGrammar, offset: 2, reason: ReasonSchema, keyword: "required", schema: "/required", inst: ""}},
		{`{"name":"a","age":-1}`, want{class: OffGrammar, offset: 18, reason: ReasonSchema, keyword: "minimum", schema: "/properties/age/minimum", inst: "/age"}},
		{`{"name":"a","x":1}`, want{class: OffGrammar, offset: 13, reason: ReasonSchema, keyword: "additionalProperties", schema: "/additionalProperties", inst: "/x"}},
		{`[]`, want{class: OffGrammar, offset: 0, reason: ReasonSchema, keyword: "type", schema: "/type"}},
		{`{"age":3,"name":"a"}`, want{class: CompleteValid, offset: 2, note: true, next: "n", literal: `name"`}},
		{`{"name":"a","age":3.0}`, want{class: CompleteValid, offset: 19, note: true}},
		{`{"\u006eame":"a"}`, want{class: CompleteValid, offset: 2, note: true}},
		{`{"name":"\u0061"}`, want{class: CompleteValid, offset: 17}},
		{"{\"name\":\"a\"}\n", want{class: CompleteValid, offset: 12, note: true}},
		{"{\"name\": \"a\"} ", want{class: CompleteValid, offset: 13, note: true}},
		{"{\"name\":\"a\",\n\n\"age\":1}", want{class: CompleteValid, offset: 13, note: true}},
		{`{"name":"a",}`, want{class: ParseError, offset: 12, code: "J101"}},
		{`{"name":"a"}}`, want{class: ParseError, offset: 12, code: "J106"}},
		{`{"name":"a","name":"b"}`, want{class: ParseError, offset: 13, code: "J102"}},
		{`hello`, want{class: ParseError, offset: 0, code: "J101"}},
		{"\xff", want{class: ParseError, offset: 0, code: "J101"}},
	} {
		got := j.Judge([]byte(c.text))
		check(t, c.text, got, c.want)
	}
}

func check(t *testing.T, text string, got Verdict, w want) {
	t.Helper()
	code := ""
	if len(got.Problems) > 0 {
		code = got.Problems[0].Code
	}
	next := strings.Join(got.Next, " ")
	bad := got.Class != w.class || got.Message == "" ||
		w.offset != -2 && got.Offset != w.offset ||
		got.Reason != w.reason ||
		w.keyword != "" && got.Keyword != w.keyword ||
		w.schema != "" && got.SchemaPointer != w.schema ||
		got.InstancePointer != w.inst ||
		w.next != "" && next != w.next ||
		w.literal != "" && got.NextLiteral != w.literal ||
		w.code != "" && code != w.code ||
		(got.Note != "") != w.note ||
		w.gate != "" && got.Gate != w.gate ||
		got.Retry != (got.Class == Incomplete)
	if bad {
		t.Errorf("%q: got %s@%d gate=%s retry=%v reason=%q kw=%q schema=%q inst=%q next=%q literal=%q code=%q (%s; note %q)\nwant %+v",
			text, got.Class, got.Offset, got.Gate, got.Retry, got.Reason, got.Keyword, got.SchemaPointer, got.InstancePointer, next, got.NextLiteral, code, got.Message, got.Note, w)
	}
}

func TestRefused(t *testing.T) {
	_, err := schema2gbnf.Compile([]byte(`{"type":"object","unevaluatedProperties":false}`), schema2gbnf.Options{})
	if err == nil {
		t.Fatal("unevaluatedProperties compiled")
	}
	v := Refused(err)
	if v.Class != RefusedSchema || v.Gate != GateCompile || v.Retry || len(v.Problems) == 0 || v.Problems[0].Code != "S201" || v.Problems[0].Pointer != "/unevaluatedProperties" {
		t.Errorf("got %+v", v)
	}
}

// TestGrammarMismatch: a grammar compiled from another schema accepts what
// this schema rejects; the verdict says so instead of COMPLETE_VALID.
func TestGrammarMismatch(t *testing.T) {
	other, err := schema2gbnf.Compile([]byte(`{"type":"integer"}`), schema2gbnf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	this, err := schema2gbnf.Check([]byte(`{"type":"integer","maximum":5}`), schema2gbnf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	j, err := NewWithRules(other.Rules, this, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text string
		want want
	}{
		{`3`, want{class: CompleteValid, offset: 1}},
		{`7`, want{class: GrammarMismatch, offset: 1, keyword: "maximum", schema: "/maximum"}},
	} {
		check(t, c.text, j.Judge([]byte(c.text)), c.want)
	}
}

// TestGrammarMismatchNarrower: a grammar narrower than the schema rejects
// a value the schema accepts, even in its canonical text: not a spelling
// matter, a mismatch.
func TestGrammarMismatchNarrower(t *testing.T) {
	narrow, err := schema2gbnf.Compile([]byte(`{"type":"integer","maximum":5}`), schema2gbnf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wide, err := schema2gbnf.Check([]byte(`{"type":"integer"}`), schema2gbnf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	j, err := NewWithRules(narrow.Rules, wide, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, `7`, j.Judge([]byte(`7`)), want{class: GrammarMismatch, offset: 0, gate: GateSchema})
	check(t, `3.0`, j.Judge([]byte(`3.0`)), want{class: CompleteValid, offset: 1, note: true})
	if v := j.Judge([]byte(`3`)); v.Provenance != nil {
		t.Errorf("provenance without WithProvenance: %+v", v.Provenance)
	}
	p := narrow.Provenance
	if v := j.WithProvenance(p).Judge([]byte(`3`)); v.Provenance == nil || *v.Provenance != p {
		t.Errorf("WithProvenance: %+v", v.Provenance)
	}
}

// TestValidator: the hook for a grammar that leaves part of its schema to a
// validator after parsing: its failure is OFF_GRAMMAR by "validator", run
// only on values the grammar took.
func TestValidator(t *testing.T) {
	calls := 0
	j := mustJudge(t, person, Limits{}).WithValidator(func(text []byte, v *subsetcheck.Value) error {
		calls++
		if strings.Contains(string(text), "Bob") {
			return errors.New("no Bob")
		}
		return nil
	})
	check(t, `{"name":"Bob"}`, j.Judge([]byte(`{"name":"Bob"}`)), want{class: OffGrammar, offset: 14, reason: ReasonValidator, gate: GateSchema})
	check(t, `{"name":"Ada"}`, j.Judge([]byte(`{"name":"Ada"}`)), want{class: CompleteValid, offset: 14, gate: GateSchema})
	check(t, `{"name":1}`, j.Judge([]byte(`{"name":1}`)), want{class: OffGrammar, offset: 8, reason: ReasonSchema, keyword: "type", inst: "/name"})
	if calls != 2 {
		t.Errorf("validator ran %d times, want 2", calls)
	}
}

// TestDomain: the domain gate runs last, only on values that passed the
// schema, and says where its rule broke.
func TestDomain(t *testing.T) {
	calls := 0
	j := mustJudge(t, person, Limits{}).WithDomain(func(text []byte) error {
		calls++
		if strings.Contains(string(text), "Bob") {
			return &DomainError{Rule: "no-bob", InstancePointer: "/name", Message: "Bob is not a customer"}
		}
		if strings.Contains(string(text), "Eve") {
			return errors.New("Eve is banned")
		}
		return nil
	})
	check(t, `{"name":"Bob"}`, j.Judge([]byte(`{"name":"Bob"}`)), want{class: DomainInvalid, offset: 14, keyword: "no-bob", inst: "/name", gate: GateDomain})
	check(t, `{"name":"Eve"}`, j.Judge([]byte(`{"name":"Eve"}`)), want{class: DomainInvalid, offset: 14, gate: GateDomain})
	check(t, `{"name":"Ada"}`, j.Judge([]byte(`{"name":"Ada"}`)), want{class: CompleteValid, offset: 14, gate: GateDomain})
	check(t, `{"age":1,"name":"Ada"}`, j.Judge([]byte(`{"age":1,"name":"Ada"}`)), want{class: CompleteValid, offset: 2, note: true, gate: GateDomain})
	for _, text := range []string{`{"name":1}`, `{"na`, `nope`} {
		if v := j.Judge([]byte(text)); v.Class == DomainInvalid || v.Gate == GateDomain {
			t.Errorf("%q: domain gate ran: %+v", text, v)
		}
	}
	if calls != 4 {
		t.Errorf("domain check ran %d times, want 4", calls)
	}
}

// TestMatcherLimit: a grammar beyond the matcher's limits is a typed
// LIMIT_EXCEEDED, and raising the limit judges it.
func TestMatcherLimit(t *testing.T) {
	g, err := schema2gbnf.Compile([]byte(person), schema2gbnf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = New(g, Limits{Matcher: gbnf.MatcherLimits{MaxStates: 3}})
	v, ok := LimitVerdict(err)
	if !ok || v.Class != LimitExceeded || v.Gate != GateCompile || !strings.Contains(v.Message, "MaxStates") {
		t.Fatalf("got %v, %+v", err, v)
	}
	if _, ok := LimitVerdict(errors.New("other")); ok {
		t.Error("LimitVerdict took another error")
	}
	if _, err := New(g, Limits{Matcher: gbnf.MatcherLimits{MaxStates: 1 << 10}}); err != nil {
		t.Error(err)
	}
}

func TestLimits(t *testing.T) {
	j := mustJudge(t, person, Limits{MaxTextBytes: 8, MaxProbeBytes: 2, MaxLiteral: 1})
	for _, c := range []struct {
		text string
		want want
	}{
		{`{"name":"a"}`, want{class: LimitExceeded, offset: -1}},
		{`{"n`, want{class: Incomplete, offset: 3}},            // beyond MaxProbeBytes: no Next
		{`{`, want{class: Incomplete, offset: 1, literal: ""}}, // Next, but no literal beyond one code point
	} {
		got := j.Judge([]byte(c.text))
		check(t, c.text, got, c.want)
		if c.text == `{"n` && got.Next != nil {
			t.Errorf("%q: Next computed beyond MaxProbeBytes: %v", c.text, got.Next)
		}
		if len([]rune(got.NextLiteral)) > 1 {
			t.Errorf("%q: NextLiteral %q longer than MaxLiteral", c.text, got.NextLiteral)
		}
	}
}

// TestCompact: in compact mode any whitespace is a spelling matter.
func TestCompact(t *testing.T) {
	g, err := schema2gbnf.Compile([]byte(person), schema2gbnf.Options{Whitespace: compile.Compact})
	if err != nil {
		t.Fatal(err)
	}
	j, err := New(g, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	check(t, `{"name": "a"}`, j.Judge([]byte(`{"name": "a"}`)), want{class: CompleteValid, offset: 8, note: true})
	check(t, `{"name":"a"}`, j.Judge([]byte(`{"name":"a"}`)), want{class: CompleteValid, offset: 12})
}

// TestIncompleteNumber: a complete number the grammar could still extend is
// INCOMPLETE, and the message says how the schema sees it as it stands.
func TestIncompleteNumber(t *testing.T) {
	j := mustJudge(t, `{"type":"integer","minimum":100}`, Limits{})
	for _, c := range []struct {
		text, inMessage string
		want            want
	}{
		{`12`, "schema rejects", want{class: Incomplete, offset: 2, next: "0-9"}},
		{`123`, "", want{class: CompleteValid, offset: 3}},
		{`-`, "", want{class: ParseError, offset: 0}}, // no negative number reaches 100
	} {
		v := j.Judge([]byte(c.text))
		check(t, c.text, v, c.want)
		if !strings.Contains(v.Message, c.inMessage) {
			t.Errorf("%q: message %q lacks %q", c.text, v.Message, c.inMessage)
		}
	}
}

package verdict

import (
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/compile"
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
		{`{"age":3,"name":"a"}`, want{class: OffGrammar, offset: 2, reason: ReasonSpelling, next: "n", literal: `name"`}},
		{`{"name":"a","age":3.0}`, want{class: OffGrammar, offset: 19, reason: ReasonSpelling}},
		{`{"\u006eame":"a"}`, want{class: OffGrammar, offset: 2, reason: ReasonSpelling}},
		{`{"name":"\u0061"}`, want{class: CompleteValid, offset: 17}},
		{"{\"name\":\"a\"}\n", want{class: OffGrammar, offset: 12, reason: ReasonSpelling}},
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
		w.code != "" && code != w.code
	if bad {
		t.Errorf("%q: got %s@%d reason=%q kw=%q schema=%q inst=%q next=%q literal=%q code=%q (%s)\nwant %+v",
			text, got.Class, got.Offset, got.Reason, got.Keyword, got.SchemaPointer, got.InstancePointer, next, got.NextLiteral, code, got.Message, w)
	}
}

func TestRefused(t *testing.T) {
	_, err := schema2gbnf.Compile([]byte(`{"type":"object","unevaluatedProperties":false}`), schema2gbnf.Options{})
	if err == nil {
		t.Fatal("unevaluatedProperties compiled")
	}
	v := Refused(err)
	if v.Class != RefusedSchema || len(v.Problems) == 0 || v.Problems[0].Code != "S201" || v.Problems[0].Pointer != "/unevaluatedProperties" {
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
	check(t, `{"name": "a"}`, j.Judge([]byte(`{"name": "a"}`)), want{class: OffGrammar, offset: 8, reason: ReasonSpelling})
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

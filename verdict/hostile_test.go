package verdict

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/equiv"
)

// TestHostile: huge, deep or odd texts end in a verdict, never a panic or a
// hang; the class says which bound was met.
func TestHostile(t *testing.T) {
	anything := mustJudge(t, `{}`, Limits{})
	person := mustJudge(t, person, Limits{})
	deep := strings.Repeat("[", 100000)
	for _, c := range []struct {
		name  string
		j     *Judge
		text  string
		class Class
		limit string // the Limits field named
	}{
		{"deep open arrays", anything, deep, Incomplete, ""},
		{"deep closed arrays", anything, deep + strings.Repeat("]", 100000), LimitExceeded, "Reader.MaxDepth"}, // {} takes it, but it is beyond the reader's MaxDepth
		{"long string, unfinished", anything, `"` + strings.Repeat("a", 1<<20), Incomplete, ""},
		{"long string", anything, `"` + strings.Repeat("a", 1<<20) + `"`, CompleteValid, ""},
		{"too large", anything, strings.Repeat(" ", 17<<20), LimitExceeded, "MaxTextBytes"},
		{"NUL", person, "{\x00", ParseError, ""},
		{"NUL in a string", person, "{\"name\":\"\x00\"}", ParseError, ""},
		{"long number", anything, strings.Repeat("9", 10000), CompleteValid, ""},
		{"huge exponent", person, `{"name":"a","age":1e999999999}`, LimitExceeded, "Reader.MaxNumberDigits"}, // beyond the reader's MaxNumberDigits
		{"many members", anything, "{" + strings.Repeat(`"b":1,`, 50000) + `"a":2}`, ParseError, ""},         // {} takes repeated names, the strict reader does not (J102)
		{"many distinct members", anything, "{" + strings.Repeat(`"b":1,`, 1) + members(50000) + `}`, CompleteValid, ""},
	} {
		v := c.j.Judge([]byte(c.text))
		if v.Class != c.class || v.Message == "" {
			t.Errorf("%s: got %s (%s), want %s", c.name, v.Class, v.Message, c.class)
		}
		if (v.Class == LimitExceeded) != (v.Limit != "") || v.Limit != c.limit {
			t.Errorf("%s: limit %q, want %q", c.name, v.Limit, c.limit)
		}
	}
}

// members is n members with distinct names: "m0":0,"m1":1,...
func members(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"m%d":%d`, i, i)
	}
	return b.String()
}

// FuzzJudge: every text gets a class from the closed set and an offset
// within the text.
func FuzzJudge(f *testing.F) {
	for _, s := range []string{``, `{"name":"a"}`, `{"na`, `{"age":1,"name":"a"}`, `[1,2]`, `{"name":1}`, "\xff"} {
		f.Add(s)
	}
	j := mustJudge(f, person, Limits{})
	f.Fuzz(func(t *testing.T, text string) {
		v := j.Judge([]byte(text))
		known := false
		for _, c := range Classes {
			known = known || c == v.Class
		}
		if !known || v.Message == "" || v.Gate == "" || v.Offset < 0 || v.Offset > len(text) {
			t.Fatalf("%q: %+v", text, v)
		}
		if v.Class == Incomplete && v.Offset != len(text) && v.Offset != 0 {
			t.Fatalf("%q: INCOMPLETE at %d", text, v.Offset)
		}
	})
}

func BenchmarkJudge(b *testing.B) {
	j := mustJudge(b, person, Limits{})
	for _, c := range []struct{ name, text string }{
		{"valid", `{"name":"Ada Lovelace","age":36}`},
		{"incomplete", `{"name":"Ada Lovelace","a`},
		{"schema", `{"name":"Ada Lovelace","age":-36}`},
		{"spelling", `{"age":36,"name":"Ada Lovelace"}`},
	} {
		b.Run(c.name, func(b *testing.B) {
			text := []byte(c.text)
			for b.Loop() {
				j.Judge(text)
			}
		})
	}
}

// BenchmarkJudgeReply: a reply's whole cost, envelope read included, for a
// small schema and for bench/'s typical one.
func BenchmarkJudgeReply(b *testing.B) {
	typical, err := os.ReadFile("../bench/testdata/typical.json")
	if err != nil {
		b.Fatal(err)
	}
	g, err := schema2gbnf.Compile(typical, schema2gbnf.Options{})
	if err != nil {
		b.Fatal(err)
	}
	var text string
	for _, v := range equiv.NewGenerator(g.Schema, 1).Valid() {
		if c, err := compile.Canonical(g.Schema, v); err == nil && len(c) > len(text) {
			text = c
		}
	}
	tj, err := New(g, Limits{})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		j    *Judge
		text string
	}{
		{"person", mustJudge(b, person, Limits{}), `{"name":"Ada Lovelace","age":36}`},
		{"typical", tj, text},
	} {
		reply := []byte(completion(c.text, "eos"))
		if v := c.j.JudgeReply(reply); v.Class != CompleteValid {
			b.Fatalf("%s: %s %s", c.name, v.Class, v.Message)
		}
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.text)))
			for b.Loop() {
				c.j.JudgeReply(reply)
			}
		})
	}
}

package compile

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// TestIntegerRanges compares the grammar with the bounds on every integer
// near zero and near each bound.
func TestIntegerRanges(t *testing.T) {
	for _, tc := range []struct{ bounds string }{
		{`"minimum":0,"maximum":0`},
		{`"minimum":1,"maximum":9`},
		{`"minimum":10,"maximum":99`},
		{`"minimum":0,"maximum":100`},
		{`"minimum":-5,"maximum":5`},
		{`"minimum":-100,"maximum":-10`},
		{`"minimum":7,"maximum":1234`},
		{`"minimum":123,"maximum":129`},
		{`"minimum":19,"maximum":21`},
		{`"minimum":99,"maximum":1001`},
		{`"minimum":-1001,"maximum":-99`},
		{`"minimum":-1001,"maximum":1001`},
		{`"minimum":5`},
		{`"minimum":1000`},
		{`"minimum":-7`},
		{`"maximum":-5`},
		{`"maximum":250`},
		{`"exclusiveMinimum":9.5,"exclusiveMaximum":200`},
		{`"minimum":0.5,"maximum":0.7`},
	} {
		t.Run(tc.bounds, func(t *testing.T) {
			schema := `{"type":"integer",` + tc.bounds + `}`
			c := checkSchema(t, schema)
			o := newOracle(t, schema)
			_, err := Compile(c, Options{})
			if tc.bounds == `"minimum":0.5,"maximum":0.7` {
				if err == nil {
					t.Fatal("an empty range compiled")
				}
				return
			}
			_, m := mustGrammar(t, c, Options{})
			for n := -1200; n <= 1200; n++ {
				text := strconv.Itoa(n)
				if got, want := m.Accepts(text), oracleAccepts(o, text); got != want {
					t.Errorf("%s: grammar %v, oracle %v", text, got, want)
				}
			}
			for _, text := range []string{"-0", "00", "01", "1.0", "", "-", "1e1", "+1"} {
				if m.Accepts(text) {
					t.Errorf("grammar accepts %q", text)
				}
			}
		})
	}
}

// TestBigBounds: big counts compile to small grammars whose repetition
// counts stay small, and the bounds hold exactly.
func TestBigBounds(t *testing.T) {
	for _, tc := range []struct {
		schema string
		n      int // a length at the bound, judged with n-1 / n / n+1 (0: skip)
		min    bool
	}{
		{`{"type":"string","maxLength":5000}`, 5000, false},
		{`{"type":"string","minLength":3000}`, 3000, true},
		{`{"type":"string","minLength":3000,"maxLength":5000}`, 5000, false},
		{`{"type":"string","maxLength":100000}`, 0, false},
		{`{"type":"string","maxLength":1000000000}`, 0, false},
		{`{"type":"string","minLength":1000000000}`, 0, false},
		{`{"type":"array","maxItems":1000,"items":{"type":"null"}}`, 1000, false},
		{`{"type":"array","minItems":250,"items":{"type":"null"}}`, 250, true},
	} {
		t.Run(tc.schema, func(t *testing.T) {
			g, m := mustGrammar(t, checkSchema(t, tc.schema), Options{})
			text := g.String()
			t.Logf("%d rules, %d bytes", len(g.Rules), len(text))
			if len(text) > 20000 {
				t.Errorf("grammar is %d bytes", len(text))
			}
			if c := maxCount(g); c > MaxRepeatCount {
				t.Errorf("a repetition count of %d", c)
			}
			if tc.n == 0 {
				return
			}
			make := func(k int) string {
				if strings.Contains(tc.schema, "array") {
					return "[" + strings.TrimSuffix(strings.Repeat("null,", k), ",") + "]"
				}
				return `"` + strings.Repeat("é", k) + `"`
			}
			for k := tc.n - 1; k <= tc.n+1; k++ {
				want := k <= tc.n
				if tc.min {
					want = k >= tc.n
				}
				if got := m.Accepts(make(k)); got != want {
					t.Errorf("length %d: grammar %v, want %v", k, got, want)
				}
			}
		})
	}
}

func maxCount(g *gbnf.Grammar) int {
	most := 0
	var walk func(e gbnf.Expr)
	walk = func(e gbnf.Expr) {
		switch e := e.(type) {
		case *gbnf.Seq:
			for _, x := range e.Items {
				walk(x)
			}
		case *gbnf.Alt:
			for _, x := range e.Alts {
				walk(x)
			}
		case *gbnf.Repeat:
			most = max(most, e.Min, e.Max)
			walk(e.Expr)
		}
	}
	for _, r := range g.Rules {
		walk(r.Expr)
	}
	return most
}

// TestDeterministic: the same schema gives the same grammar text every time.
func TestDeterministic(t *testing.T) {
	schema := `{"type":"object","properties":{"b":{"enum":[1,"x",{"k":[]}]},"a":{"anyOf":[{"type":"integer","minimum":3},{"$ref":"#/$defs/d"}]}},"$defs":{"d":{"type":"array","items":{"$ref":"#"}}}}`
	first := ""
	for i := 0; i < 5; i++ {
		g, _ := mustGrammar(t, checkSchema(t, schema), Options{})
		if i == 0 {
			first = g.String()
		} else if g.String() != first {
			t.Fatalf("run %d differs:\n%s\n---\n%s", i, g, first)
		}
	}
}

// TestErrors: schemas that admit nothing are refused with C401 at the root.
func TestErrors(t *testing.T) {
	for _, tc := range []struct{ schema, code, pointer, message string }{
		{`false`, "C401", "", "admits no value"},
		{`{"enum":[]}`, "C401", "", "admits no value"},
		{`{"type":"object","properties":{"a":false},"required":["a"]}`, "C401", "", `required property "a"`},
		{`{"type":"object","properties":{"a":{"$ref":"#"}},"required":["a"]}`, "C401", "", "admits no value"},
		{`{"type":"array","prefixItems":[false],"minItems":1}`, "C401", "", "at least 1"},
		{`{"type":"integer","minimum":5,"maximum":4}`, "C401", "", "admits no value"},
		{`{"type":"string","minLength":3,"maxLength":2}`, "C401", "", "admits no value"},
	} {
		t.Run(tc.schema, func(t *testing.T) {
			_, err := Compile(checkSchema(t, tc.schema), Options{})
			if err == nil || !strings.Contains(err.Error(), tc.code) || !strings.Contains(err.Error(), tc.message) {
				t.Fatalf("got %v, want %s containing %q", err, tc.code, tc.message)
			}
			if !strings.Contains(err.Error(), "schema.json:1:1:") {
				t.Errorf("no position in %v", err)
			}
		})
	}
}

// TestCanonicalTable pins canonical texts under a few schemas.
func TestCanonicalTable(t *testing.T) {
	for _, tc := range []struct{ schema, value, want string }{
		{`true`, `{"b":1.0,"a":[1e2,-0,"\u0041"]}`, `{"b":1,"a":[100,0,"A"]}`},
		{`{}`, `"\u001f\u007f\ud83d\ude00"`, `"\u001f` + "\x7f😀" + `"`},
		{`{"properties":{"a":{},"b":{}}}`, `{"c":1,"b":2,"a":3}`, `{"a":3,"b":2,"c":1}`},
		{`{"anyOf":[{"type":"string"},{"properties":{"x":{},"y":{}}}]}`, `{"y":1,"x":2}`, `{"x":2,"y":1}`},
		{`{"enum":[{"b":1,"a":2}]}`, `{"a":2,"b":1}`, `{"b":1,"a":2}`},
		{`{"type":"number"}`, `123.4500e1`, `1234.5`},
		{`{"type":"number"}`, `-5e-3`, `-0.005`},
		{`{"type":"array","prefixItems":[{"properties":{"a":{},"b":{}}}]}`, `[{"b":1,"a":2},{"b":1,"a":2}]`, `[{"a":2,"b":1},{"b":1,"a":2}]`},
	} {
		t.Run(tc.schema+" "+tc.value, func(t *testing.T) {
			c := checkSchema(t, tc.schema)
			got := canonicalOf(t, tc.schema, tc.value)
			if got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			_, m := mustGrammar(t, c, Options{})
			if !m.Accepts(got) {
				t.Errorf("grammar rejects its canonical text %s", got)
			}
		})
	}
}

func canonicalOf(t *testing.T, schema, value string) string {
	t.Helper()
	c := checkSchema(t, schema)
	v := readValue(t, value)
	got, err := Canonical(c, v)
	if err != nil {
		t.Fatalf("Canonical: %v", err)
	}
	return got
}

func TestCanonicalRefuses(t *testing.T) {
	c := checkSchema(t, `{"type":"string"}`)
	if _, err := Canonical(c, readValue(t, `1`)); err == nil {
		t.Fatal("Canonical wrote a value the schema rejects")
	}
	// A number without a canonical spelling is told apart from a rejected
	// value: the peer harness leaves such texts out.
	if _, err := Canonical(checkSchema(t, `{}`), readValue(t, `1234e9999`)); !errors.Is(err, ErrBeyondExponent) {
		t.Fatalf("Canonical(1234e9999) = %v, want ErrBeyondExponent", err)
	}
	if _, err := Canonical(c, readValue(t, `1`)); errors.Is(err, ErrBeyondExponent) {
		t.Fatal("a rejected value reported as beyond the exponent")
	}
}

// BenchmarkCompileTypical compiles a typical 20-property object schema.
func BenchmarkCompileTypical(b *testing.B) {
	var props []string
	kinds := []string{`{"type":"string","maxLength":80}`, `{"type":"integer","minimum":0,"maximum":1000}`,
		`{"type":"boolean"}`, `{"enum":["red","green","blue"]}`, `{"type":"array","items":{"type":"string"},"maxItems":10}`}
	for i := 0; i < 20; i++ {
		props = append(props, fmt.Sprintf(`"field%d":%s`, i, kinds[i%len(kinds)]))
	}
	schema := `{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":["field0","field3","field7"]}`
	c := checkSchema(b, schema)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(c, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestLiteralTrie: the trie of texts accepts exactly the texts, repeated
// ones and texts that extend others included.
func TestLiteralTrie(t *testing.T) {
	texts := []string{`"ab"`, `"a"`, `"a"`, `"abc"`, `1`, `10`, `"é"`, `"e"`}
	g := &gbnf.Grammar{Rules: []*gbnf.Rule{{Name: "root", Expr: literalTrie(slices.Clone(texts))}}}
	m, err := gbnf.NewMatcher(g)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range texts {
		if !m.Accepts(s) {
			t.Errorf("rejects %s", s)
		}
	}
	for _, s := range []string{`"`, `"ab`, `"abcd"`, `100`, `""`, `0`, `"b"`} {
		if m.Accepts(s) {
			t.Errorf("accepts %s", s)
		}
	}
}

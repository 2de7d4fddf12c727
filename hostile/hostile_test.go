// Package hostile drives the whole pipeline (schema2gbnf.Compile, gbnf.Parse
// and the CLI) with broken and hostile input: every case must end in a named
// error code or a small, exact grammar, never a panic, a hang or a partial
// file. Benchmarks in bench_test.go give each class's cost relative to a
// typical schema.
package hostile

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// codeOf compiles schema and returns the first problem's code, "" when it
// compiled. Any other error type fails the test.
func codeOf(t testing.TB, schema string, opts schema2gbnf.Options) (string, *schema2gbnf.Grammar) {
	t.Helper()
	g, err := schema2gbnf.Compile([]byte(schema), opts)
	if err == nil {
		return "", g
	}
	var l subsetcheck.ErrorList
	if !errors.As(err, &l) || len(l) == 0 {
		t.Fatalf("error is not a subsetcheck.ErrorList: %T %v", err, err)
	}
	if g != nil {
		t.Fatal("a grammar and an error")
	}
	return string(l[0].Code), nil
}

// TestRefused: broken input ends in the code that names what is wrong.
func TestRefused(t *testing.T) {
	for _, tc := range []struct {
		name, schema string
		opts         schema2gbnf.Options
		code         string
	}{
		// Reading.
		{"not JSON", `hello`, none, "J101"},
		{"empty input", ``, none, "J101"},
		{"truncated", `{"type":"str`, none, "J101"},
		{"truncated object", `{"type":"string",`, none, "J101"},
		{"byte order mark", "\xef\xbb\xbf{}", none, "J105"},
		{"trailing garbage", `{} x`, none, "J106"},
		{"two values", `{}{}`, none, "J106"},
		{"invalid UTF-8", "{\"enum\":[\"\xff\"]}", none, "J103"},
		{"overlong UTF-8", "{\"enum\":[\"\xc0\xaf\"]}", none, "J103"},
		{"encoded surrogate", "{\"enum\":[\"\xed\xa0\x80\"]}", none, "J103"},
		{"lone high surrogate", `{"enum":["\ud800"]}`, none, "J104"},
		{"lone low surrogate", `{"enum":["\udc00x"]}`, none, "J104"},
		{"duplicate keys", `{"type":"string","type":"integer"}`, none, "J102"},
		{"duplicate keys deep", `{"properties":{"a":{},"a":{}}}`, none, "J102"},
		{"array schema", `[1]`, none, "S204"},
		{"number schema", `42`, none, "S204"},
		{"string schema", `"string"`, none, "S204"},
		{"null schema", `null`, none, "S204"},
		{"subschema not a schema", `{"items":3}`, none, "S204"},
		{"50 MB", `{"enum":["` + strings.Repeat("a", 50<<20) + `"]}`, none, "L501"},
		{"over a lowered MaxInputBytes", `{"type":"string"}`, schema2gbnf.Options{Limits: subsetcheck.Limits{MaxInputBytes: 10}}, "L501"},
		{"arrays 100,000 deep", `{"enum":[` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `]}`, none, "L502"},
		{"subschemas 100,000 deep", strings.Repeat(`{"items":`, 100000) + "true" + strings.Repeat("}", 100000), none, "L502"},
		{"properties 100,000 deep", strings.Repeat(`{"properties":{"a":`, 50000) + "{}" + strings.Repeat("}}", 50000), none, "L502"},
		{"100,000 deep, MaxDepth raised", strings.Repeat("[", 100000) + strings.Repeat("]", 100000), schema2gbnf.Options{Limits: subsetcheck.Limits{MaxDepth: 1 << 20}}, "L502"},
		{"600 deep over MaxDepth", strings.Repeat(`{"items":`, 600) + "true" + strings.Repeat("}", 600), none, "L502"},
		{"10,001-digit number", `{"maximum":1` + strings.Repeat("0", 10001) + `}`, none, "L503"},
		{"exponent 1e100000", `{"maximum":1e100000}`, none, "L503"},
		{"too many subschemas", `{"anyOf":[` + strings.TrimSuffix(strings.Repeat(`{},`, 100001), ",") + `]}`, none, "L504"},
		{"16 MiB array of numbers", `{"enum":[[` + strings.TrimSuffix(strings.Repeat("1,", 8<<20-8), ",") + `]]}`, none, "L505"},

		// References.
		{"ref to nowhere", `{"$ref":"#/$defs/x"}`, none, "S205"},
		{"ref past an array", `{"$defs":{"a":{"anyOf":[{}]}},"$ref":"#/$defs/a/anyOf/7"}`, none, "S205"},
		{"ref to an anchor nowhere", `{"$ref":"#no-slash"}`, none, "S205"},
		{"ref to itself", `{"$ref":"#"}`, none, "S207"},
		{"ref a to b to a", `{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`, none, "S207"},
		{"ref cycle through anyOf", `{"$defs":{"a":{"anyOf":[{"$ref":"#/$defs/a"},{"type":"null"}]}},"$ref":"#/$defs/a"}`, none, "S207"},
		{"remote ref", `{"$ref":"http://example.com/s.json"}`, none, "S206"},
		{"relative ref", `{"$ref":"other.json#/x"}`, none, "S206"},
		{"file ref", `{"$ref":"file:///etc/passwd"}`, none, "S206"},
		{"ref into enum", `{"enum":[{"type":"integer"}],"properties":{"x":{"$ref":"#/enum/0"}}}`, none, "S204"},
		{"ref into const", `{"const":{"type":"integer"},"properties":{"x":{"$ref":"#/const"}}}`, none, "S204"},
		{"ref with bad tilde", `{"$defs":{"a":{}},"$ref":"#/$defs/a~2"}`, none, "S205"},
		{"ref with bad percent", `{"$defs":{"a":{}},"$ref":"#/$defs/%zz"}`, none, "S203"},

		// Schemas that admit no value.
		{"false", `false`, none, "C401"},
		{"minLength over maxLength", `{"type":"string","minLength":5,"maxLength":3}`, none, "C401"},
		{"minimum over maximum", `{"type":"integer","minimum":5,"maximum":3}`, none, "C401"},
		{"exclusive bounds with no integer", `{"type":"integer","exclusiveMinimum":1,"exclusiveMaximum":2}`, none, "C401"},
		{"minItems over maxItems", `{"type":"array","minItems":3,"maxItems":1}`, none, "C401"},
		{"enum outside type", `{"enum":[1],"type":"string"}`, none, "C401"},
		{"const outside bounds", `{"const":"abcdef","maxLength":3}`, none, "C401"},
		{"required but closed", `{"type":"object","required":["a"],"additionalProperties":false}`, none, "C401"},
		{"required property false", `{"type":"object","properties":{"a":false},"required":["a"]}`, none, "C401"},
		{"required item false", `{"type":"array","prefixItems":[false],"minItems":1}`, none, "C401"},
		{"every anyOf branch empty", `{"anyOf":[false,{"type":"string","maxLength":-0}],"type":"integer"}`, none, "C401"},
		{"ref to an empty schema", `{"$defs":{"no":{"enum":[]}},"$ref":"#/$defs/no"}`, none, "C401"},
		{"empty enum", `{"enum":[]}`, none, "C401"},
		{"empty type list", `{"type":[]}`, none, "S203"},

		// Patterns made to explode, or not ECMA-262.
		{"pattern: exponential DFA", `{"type":"string","pattern":"(a|b)*a(a|b){40}"}`, none, "L506"},
		{"pattern: nested counted groups", `{"type":"string","pattern":"((a{1,100}){1,100}){1,100}"}`, none, "L506"},
		{"pattern: counted dot in a union", `{"type":"string","pattern":"^(?:x|.{1,5000}|[ab]{1,5000})$"}`, none, "L506"},
		{"pattern: 10,001 bytes", `{"type":"string","pattern":"` + strings.Repeat("a", 10001) + `"}`, none, "L506"},
		{"pattern: nested 201 deep", `{"type":"string","pattern":"` + strings.Repeat("(", 201) + "a" + strings.Repeat(")", 201) + `"}`, none, "L506"},
		{"pattern: maxLength product", `{"type":"string","pattern":"^(?:\\S+\\s+){0,99}\\S+$","maxLength":5000}`, none, "L506"},
		{"pattern: intersection", `{"type":"string","$ref":"#/$defs/p","pattern":"a.{8}$","$defs":{"p":{"pattern":"b.{9}$"}}}`, none, "L506"},
		{"pattern: lookahead", `{"type":"string","pattern":"^(?=a)"}`, none, "S211"},
		{"pattern: not u-mode", `{"type":"string","pattern":"\\-"}`, none, "S203"},
		{"pattern: no string", `{"type":"string","pattern":"^a$","minLength":2}`, none, "C401"},
		{"patternProperties: 2^7 regions", `{"type":"object","patternProperties":{"a":{},"b":{},"c":{},"d":{},"e":{},"f":{},"g":{}}}`, none, "L506"},
		{"patternProperties: names automaton", `{"type":"object","patternProperties":{"a.{8}$":{"type":"null"},"b.{9}$":{"type":"integer"}}}`, none, "L506"},
		{"propertyNames rejects a required name", `{"type":"object","required":["A"],"propertyNames":{"pattern":"^[a-z]+$"}}`, none, "C401"},

		// Grammars that would be too big.
		{"MaxRules lowered", `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"}}}`, schema2gbnf.Options{MaxRules: 2}, "C403"},
		{"anyOf chain beside siblings", anyOfChain(30), none, "C402"},
		{"MaxAlternatives lowered", anyOfChain(3), schema2gbnf.Options{MaxAlternatives: 2}, "C402"},

		// Combinators (combinator_test.go).
		{"oneOf of 1,000 branches", oneOfConsts(1000), none, "C402"},
		{"MaxOneOfPairs lowered", oneOfConsts(5), schema2gbnf.Options{MaxOneOfPairs: 9}, "C402"},
		{"oneOf branches overlap, no complement", `{"oneOf":[{"type":"object","minProperties":1},{"type":"object","properties":{"a":{}},"additionalProperties":false}]}`, none, "C404"},
		{"oneOf of 1,000 overlapping branches", oneOfOverlapping(1000), none, "C402"},
		{"overlapping oneOf nested 100 deep", oneOfNest(100), none, "C402"},
		{"oneOf of 10 overlapping objects", oneOfObjects(10), none, "C402"},
		{"not nested 1,000 deep", notNest(1000), none, "L502"},
		{"else-if chain of 1,000", ifChain(1000), schema2gbnf.Options{Limits: subsetcheck.Limits{MaxDepth: 1 << 14}}, "C402"},
		{"MaxMeets lowered", ifChain(10), schema2gbnf.Options{MaxMeets: 20}, "C402"},
		{"not of everything", `{"not":{}}`, none, "C401"},
		{"not through a cycle", `{"$defs":{"a":{"not":{"$ref":"#/$defs/a"}}},"$ref":"#/$defs/a"}`, none, "S207"},
		{"allOf through a cycle", `{"$defs":{"a":{"type":"object","allOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"}`, none, "S207"},
		{"allOf that admits nothing", `{"allOf":[{"type":"string"},{"type":"integer"}]}`, none, "C401"},
		{"not of a format", `{"not":{"type":"string","format":"date-time"}}`, schema2gbnf.Options{AssertFormat: true}, "C402"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, g := codeOf(t, tc.schema, tc.opts)
			if code != tc.code {
				gbnfText := ""
				if g != nil {
					gbnfText = g.GBNF[:min(len(g.GBNF), 300)]
				}
				t.Fatalf("code %q, want %q %s", code, tc.code, gbnfText)
			}
		})
	}
}

// TestCountingRefused: the counting keywords' hostile shapes end in their
// named error (counting_test.go).
func TestCountingRefused(t *testing.T) {
	for _, tc := range countingRefused {
		t.Run(tc.name, func(t *testing.T) {
			if code, _ := codeOf(t, tc.schema, none); code != tc.code {
				t.Fatalf("code %q, want %q", code, tc.code)
			}
		})
	}
}

var none = schema2gbnf.Options{}

// anyOfChain is k $defs, each an anyOf of two branches beside a $ref to the
// next and a sibling keyword: 2^k combinations if expanded blindly.
func anyOfChain(k int) string {
	var defs []string
	for i := 0; i < k; i++ {
		defs = append(defs, fmt.Sprintf(`"d%d":{"type":"object","$ref":"#/$defs/d%d","anyOf":[{"required":["a%d"]},{"required":["b%d"]}]}`, i, i+1, i, i))
	}
	defs = append(defs, fmt.Sprintf(`"d%d":{"type":"object"}`, k))
	return `{"$defs":{` + strings.Join(defs, ",") + `},"$ref":"#/$defs/d0"}`
}

// anyOfNest is k $defs, each an anyOf of two refs to the one before: a
// naive inlining writes 2^k copies of the innermost schema.
func anyOfNest(k int) string {
	defs := []string{`"d0":{"type":"integer","minimum":0,"maximum":9}`}
	for i := 1; i <= k; i++ {
		defs = append(defs, fmt.Sprintf(`"d%d":{"anyOf":[{"$ref":"#/$defs/d%d"},{"type":"array","items":{"$ref":"#/$defs/d%d"},"maxItems":1}]}`, i, i-1, i-1))
	}
	return fmt.Sprintf(`{"$defs":{%s},"$ref":"#/$defs/d%d"}`, strings.Join(defs, ","), k)
}

// numberEnum is {"enum":[0,1,...,n-1]}.
func numberEnum(n int) string {
	var b strings.Builder
	b.WriteString(`{"enum":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%d", i)
	}
	b.WriteString("]}")
	return b.String()
}

// wideObject has n integer properties p0..p(n-1), all optional.
func wideObject(n int, closed bool) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"type":"integer"}`, i)
	}
	b.WriteString("}")
	if closed {
		b.WriteString(`,"additionalProperties":false`)
	}
	b.WriteString("}")
	return b.String()
}

var (
	tenPow400  = "1" + strings.Repeat("0", 400)
	nineRun400 = strings.Repeat("9", 400)
)

// explodingBounds are schemas whose bounds would explode a naive encoding;
// each compiles to a grammar of at most maxBytes that decides the texts.
var explodingBounds = []struct {
	name, schema string
	maxBytes     int
	accept       []string
	reject       []string
}{
	{"maxLength 10^9", `{"type":"string","maxLength":1000000000}`, 20000,
		[]string{`""`, `"abc"`, `"` + strings.Repeat("x", 5000) + `"`}, []string{`1`, `"a`}},
	{"minLength 10^9", `{"type":"string","minLength":1000000000}`, 20000,
		nil, []string{`""`, `"` + strings.Repeat("x", 5000) + `"`}},
	{"minLength 3 maxLength 10^9", `{"type":"string","minLength":3,"maxLength":1000000000}`, 20000,
		[]string{`"abc"`, `"` + strings.Repeat("é", 3000) + `"`}, []string{`"ab"`}},
	{"maxItems 10^9", `{"type":"array","items":{"type":"integer"},"maxItems":1000000000}`, 20000,
		[]string{`[]`, `[1,2,3]`, "[" + strings.TrimSuffix(strings.Repeat("7,", 3000), ",") + "]"}, []string{`[1,]`, `["a"]`}},
	{"minItems 10^9", `{"type":"array","minItems":1000000000}`, 20000,
		nil, []string{`[]`, `[1]`}},
	{"integer -1e400..1e400", `{"type":"integer","minimum":-1e400,"maximum":1e400}`, 20000,
		[]string{`0`, `-` + nineRun400, nineRun400, tenPow400, `-` + tenPow400}, []string{`1` + tenPow400, `-2` + strings.Repeat("0", 400), `1.5`}},
	{"integer 400 digits spelled out", `{"type":"integer","minimum":-` + tenPow400 + `,"maximum":` + tenPow400 + `}`, 20000,
		[]string{`0`, nineRun400}, []string{`1` + tenPow400}},
	{"enum of a million", numberEnum(1000000), 16 << 20,
		[]string{`0`, `999999`, `123456`}, []string{`1000000`, `-1`, `1.5`}},
	{"ten thousand properties", wideObject(10000, false), 4 << 20,
		[]string{`{}`, `{"p0":1}`, `{"p9999":1}`, `{"p17":1,"p9000":2}`, `{"x":"y"}`}, []string{`{"p5":"a"}`}},
	{"ten thousand properties closed", wideObject(10000, true), 4 << 20,
		[]string{`{}`, `{"p17":1,"p9000":2}`}, []string{`{"x":1}`, `{"p5":"a"}`}},
	{"64 optional members closed", wideObject(64, true), 40000,
		[]string{`{}`, `{"p63":1}`, `{"p0":0,"p31":1,"p63":2}`}, []string{`{"q":1}`, `{"p0":"x"}`}},
	{"anyOf nested 40 deep", anyOfNest(40), 40000,
		[]string{`5`, `[5]`, `[[[5]]]`, `[]`}, []string{`10`, `[5,5]`}},
	{"oneOf of 44 tagged objects", oneOfTagged(44), 100000,
		[]string{`{"kind":"k0"}`, `{"kind":"k43","a43":1,"b":"x"}`}, []string{`{"kind":"k44"}`, `{"kind":"k1","a1":"x"}`, `{"kind":"k0","b":"xy"}`}},
	{"oneOf of 45 consts", oneOfConsts(45), 4000,
		[]string{`0`, `44`}, []string{`45`, `1.5`}},
	{"oneOf of 45 overlapping ranges", oneOfOverlapping(45), 4000,
		[]string{`0`}, []string{`-1`, `1`, `2`, `44`, `1000`}},
	{"overlapping oneOf nested 10 deep", oneOfNest(10), 4000,
		[]string{`-1`, `1`, `3`, `15`, `2000`}, []string{`0`, `2`, `10`, `12`, `14`, `1.5`}},
	{"oneOf of 6 overlapping objects", oneOfObjects(6), 1 << 20,
		[]string{`{"r0":0}`, `{"r5":"x"}`}, []string{`{}`, `{"r0":0,"r1":0}`, `{"m0":"x","r0":1}`, `{"r0":1,"m0":"x"}`}},
	{"allOf nested 100 deep", allOfNest(100), 4000,
		[]string{`-5`, `100`}, []string{`-6`, `101`, `1.5`}},
	{"not nested 250 deep", notNest(250), 4000,
		[]string{`""`, `"x"`}, []string{`1`, `null`}},
	{"else-if chain of 100", ifChain(100), 20000,
		[]string{`0`, `99`, `100`, `1000`}, []string{`-1`, `1.5`}},
	{"not of an enum of 1,000", notEnum(1000), 1 << 20,
		[]string{`-1`, `1000`, `0.5`, `999.5`, `"a"`}, []string{`0`, `999`, `5`}},
}

// TestExplodingBounds: bounds that would blow up a naive encoding compile to
// a small grammar that still decides exactly.
func TestExplodingBounds(t *testing.T) {
	for _, tc := range append(explodingBounds, countingBounds...) {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && len(tc.schema) > 1<<20 {
				t.Skip("big schema")
			}
			code, g := codeOf(t, tc.schema, none)
			if code != "" {
				t.Fatalf("refused with %s", code)
			}
			if n := len(g.GBNF); n > tc.maxBytes {
				t.Errorf("grammar of %d bytes, want at most %d", n, tc.maxBytes)
			}
			// The matcher's own limits are sized for compiled grammars of
			// real schemas; these are a hundred times bigger.
			m, err := gbnf.NewMatcherLimits(g.Rules, gbnf.MatcherLimits{MaxStates: 1 << 26, MaxClosure: 1 << 26})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range tc.accept {
				if !m.Accepts(s) {
					t.Errorf("rejects %.60s", s)
				}
			}
			for _, s := range tc.reject {
				if m.Accepts(s) {
					t.Errorf("accepts %.60s", s)
				}
			}
		})
	}
}

// TestGBNFParse: hostile grammar text ends in an error that names the
// problem or the limit (gbnf errors carry a message and a position, no code).
func TestGBNFParse(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"unknown escape", `root ::= "\q"`, "unknown escape"},
		{"unknown escape in class", `root ::= [\q]`, "unknown escape"},
		{"unterminated literal", `root ::= "abc`, "unterminated"},
		{"unterminated class", `root ::= [abc`, "unterminated"},
		{"repetition in the millions", `root ::= "a"{1000000}`, "MaxRepeat"},
		{"repetition max in the millions", `root ::= "a"{0,5000000}`, "MaxRepeat"},
		{"repetition past int", `root ::= "a"{99999999999999999999999}`, "MaxRepeat"},
		{"10,000-deep parentheses", "root ::= " + strings.Repeat("(", 10000) + `"a"` + strings.Repeat(")", 10000), "MaxDepth"},
		{"10,000 stacked operators", `root ::= "a"` + strings.Repeat("?", 10000), "MaxDepth"},
		{"left recursion", "root ::= a\na ::= a \"x\" | \"y\"", "left recursion"},
		{"indirect left recursion", "root ::= a\na ::= b \"x\"\nb ::= \"\" a | \"y\"", "left recursion"},
		{"undefined rule", `root ::= b`, "undefined rule"},
		{"no root", `a ::= "x"`, "root"},
		{"over MaxBytes", "root ::= \"" + strings.Repeat("a", 2<<20) + "\"", "MaxBytes"},
		{"NUL byte", "root ::= \"a\x00\"", ""},
		{"invalid UTF-8", "root ::= \"\xff\"", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := gbnf.Parse(tc.text)
			if err == nil {
				t.Fatal("parsed")
			}
			var l gbnf.ErrorList
			if !errors.As(err, &l) || len(l) == 0 {
				t.Fatalf("error is not a gbnf.ErrorList: %T %v", err, err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not name %q", firstLine(err.Error()), tc.want)
			}
		})
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s[:min(len(s), 200)]
}

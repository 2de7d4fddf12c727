package gbnf

import (
	"fmt"
	"strings"
	"testing"
)

// dump writes a grammar compactly and without positions, so that two
// grammars are equal ignoring Pos exactly when their dumps are equal.
func astDump(g *Grammar) string {
	var b strings.Builder
	for i, r := range g.Rules {
		if i > 0 {
			b.WriteString("; ")
		}
		if r == nil {
			b.WriteString("<nil rule>")
			continue
		}
		b.WriteString(r.Name + "=")
		astDumpExpr(&b, r.Expr)
	}
	return b.String()
}

func astDumpExpr(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case *Alt:
		b.WriteString("alt{")
		for i, a := range e.Alts {
			if i > 0 {
				b.WriteString(" | ")
			}
			astDumpExpr(b, a)
		}
		b.WriteString("}")
	case *Seq:
		b.WriteString("seq{")
		for i, it := range e.Items {
			if i > 0 {
				b.WriteString(" ")
			}
			astDumpExpr(b, it)
		}
		b.WriteString("}")
	case *Lit:
		fmt.Fprintf(b, "%+q", e.Text)
	case *Class:
		b.WriteString("[")
		if e.Negated {
			b.WriteString("^")
		}
		for i, r := range e.Ranges {
			if i > 0 {
				b.WriteString(" ")
			}
			if r.Lo == r.Hi {
				fmt.Fprintf(b, "%X", r.Lo)
			} else {
				fmt.Fprintf(b, "%X-%X", r.Lo, r.Hi)
			}
		}
		b.WriteString("]")
	case *Any:
		b.WriteString(".")
	case *Ref:
		b.WriteString(e.Name)
	case *Repeat:
		b.WriteString("rep{")
		astDumpExpr(b, e.Expr)
		fmt.Fprintf(b, ",%d,%d}", e.Min, e.Max)
	default:
		fmt.Fprintf(b, "?%T", e)
	}
}

// parseCases are grammar texts with the dump Parse must give, or, when the
// dump starts with "ERR ", a substring of its error. llama.cpp's parser
// (llama-grammar.cpp) decides every verdict.
var parseCases = []struct{ text, want string }{
	// rules, names, spacing, newlines, comments
	{`root ::= "a"`, `root="a"`},
	{`root::="a"`, `root="a"`},
	{"root ::= \"a\"\t\"b\"", `root=seq{"a" "b"}`},
	{`root ::= "a""b"`, `root=seq{"a" "b"}`},
	{"root ::= x\nx ::= \"a\"", `root=x; x="a"`},
	{"root ::= a-1 9\na-1 ::= \"x\"\n9 ::= \"y\"", `root=seq{a-1 9}; a-1="x"; 9="y"`},
	{"root ::= -\n- ::= \"x\"", `root=-; -="x"`},
	{"root ::= \"a\"\nroot ::= \"b\"", `root="a"; root="b"`},
	{"\n\n  # comment\nroot ::= \"a\"  # trailing\n\n# end", `root="a"`},
	{`root ::= "a"#c`, `root="a"`},
	{"root ::= \"a\"\r\nx ::= \"b\"\r\n", `root="a"; x="b"`},
	{"root ::= \"a\"\rx ::= \"b\"", `root="a"; x="b"`},
	{"root ::=\n  \"a\"", `root="a"`},
	{"root ::= # c\n \"a\"", `root="a"`},
	{"root ::= \"a\" |\n  \"b\"", `root=alt{"a" | "b"}`},
	{"root ::= (\"a\"\n |\n \"b\"\n \"c\" # c\n )", `root=alt{"a" | seq{"b" "c"}}`},
	{`root ::=`, `root=seq{}`},
	{"root ::=\n", `root=seq{}`},
	{"root ::= \"a\"   \n\n\n", `root="a"`},
	{"root ::= \"a\"\n| \"b\"", `ERR 2:1: unexpected token "|"`},
	{"root ::= \"a\"\n| \"b\"", `ERR outside parentheses a newline ends the rule`},
	{"root ::= x\nx ::=\ny ::= \"a\"", `ERR an empty or unfinished body takes in the next rule's name`},
	{"root ::= \"a\"\n  \"b\"", `ERR 2:3: unexpected token`},
	{"root\n::= \"a\"", `ERR 1:5: unexpected token`},
	{"root ::= x\nx ::=\ny ::= \"a\"", `ERR 3:3: unexpected token "::="`},
	{`root := "a"`, `ERR 1:6: expecting ::=`},
	{`root ::= "a" ::= "b"`, `ERR unexpected token "::="`},
	{`root_x ::= "a"`, `ERR 1:5: unexpected character '_'`},
	{`root ::= 'a'`, `ERR unexpected character '\''`},
	{"root ::= \"a\" \v", `ERR unexpected character '\v'`},
	{"root ::= \"a\"\x00", `ERR 1:13: NUL byte`},
	{"root ::= \"a\x00\"", `ERR NUL byte`},
	{"root ::= \"\xff\"", `ERR 1:11: grammar text is not valid UTF-8`},
	{``, `ERR no rule named root`},
	{"# only a comment", `ERR no rule named root`},
	{`x ::= "a"`, `ERR no rule named root`},
	{`root ::= x`, `ERR 1:10: rule root: undefined rule x`},
	{"root ::= \"a\"\nroot ::= x", `ERR undefined rule x`},
	{"root ::= x\nroot ::= \"a\"", `ERR undefined rule x`},

	// alternatives and groups
	{`root ::= "a"|"b"`, `root=alt{"a" | "b"}`},
	{`root ::= | "a"`, `root=alt{seq{} | "a"}`},
	{`root ::= "a" |`, `root=alt{"a" | seq{}}`},
	{`root ::= "a" | | "b"`, `root=alt{"a" | seq{} | "b"}`},
	{`root ::= "a" ("b" "c")`, `root=seq{"a" "b" "c"}`},
	{`root ::= "a" | ("b" | "c")`, `root=alt{"a" | "b" | "c"}`},
	{`root ::= "a" ("b" | "c")`, `root=seq{"a" alt{"b" | "c"}}`},
	{`root ::= (((("a"))))`, `root="a"`},
	{`root ::= ()`, `root=seq{}`},
	{`root ::= "a" () "b"`, `root=seq{"a" "b"}`},
	{`root ::= "a" "" "b"`, `root=seq{"a" "b"}`},
	{`root ::= ("a"`, `ERR unexpected token`},
	{`root ::= "a")`, `ERR 1:13: unexpected token ")"`},
	{`root ::= (`, `ERR unexpected token`},

	// literals and escapes
	{`root ::= ""`, `root=seq{}`},
	{`root ::= "é😀"`, `root="\u00e9\U0001f600"`},
	{`root ::= "\x41\u00e9\U0001F600"`, `root="A\u00e9\U0001f600"`},
	{`root ::= "\t\r\n\\\"\[\]"`, `root="\t\r\n\\\"[]"`},
	{`root ::= "\x00"`, `root="\x00"`},
	{`root ::= "#(|)*"`, `root="#(|)*"`},
	{"root ::= \"a\nb\"", `root="a\nb"`},
	{`root ::= "\uD800"`, `root=[D800]`},
	{`root ::= "a\U00110000b"`, `root=seq{"a" [110000] "b"}`},
	{`root ::= "a\UFFFFFFFFb"*`, `root=rep{seq{"a" [7FFFFFFF] "b"},0,-1}`},
	{`root ::= "\d"`, `ERR 1:11: unknown escape \d`},
	{`root ::= "\/"`, `ERR unknown escape \/`},
	{`root ::= "\'"`, `ERR unknown escape \'`},
	{`root ::= "\-"`, `ERR unknown escape \-`},
	{`root ::= "\^"`, `ERR unknown escape \^`},
	{`root ::= "\x4"`, `ERR expecting 2 hex digits after \x`},
	{`root ::= "\x4g"`, `ERR expecting 2 hex digits after \x`},
	{`root ::= "\u12"`, `ERR expecting 4 hex digits after \u`},
	{`root ::= "\U0001F60"`, `ERR expecting 8 hex digits after \U`},
	{`root ::= "a`, `ERR 1:10: unterminated literal`},
	{`root ::= "a\"`, `ERR unterminated literal`},

	// classes
	{`root ::= [a-z]`, `root=[61-7A]`},
	{`root ::= [^a-z_]`, `root=[^61-7A 5F]`},
	{`root ::= [a-]`, `root=[61 2D]`},
	{`root ::= [-a]`, `root=[2D 61]`},
	{`root ::= [--a]`, `root=[2D-61]`},
	{`root ::= [a--]`, `root=[61-2D]`},
	{`root ::= [a-c-]`, `root=[61-63 2D]`},
	{`root ::= [a^]`, `root=[61 5E]`},
	{`root ::= [^^]`, `root=[^5E]`},
	{`root ::= [z-a]`, `root=[7A-61]`},
	{`root ::= [\]\[\\"]`, `root=[5D 5B 5C 22]`},
	{`root ::= [a-\]]`, `root=[61-5D]`},
	{`root ::= [\x5E\t]`, `root=[5E 9]`},
	{`root ::= [ #(]`, `root=[20 23 28]`},
	{`root ::= [\uD800-\uDFFF]`, `root=[D800-DFFF]`},
	{`root ::= [\U0010FFFF-\UFFFFFFFF]`, `root=[10FFFF-7FFFFFFF]`},
	{`root ::= []`, `root=seq{}`},
	{`root ::= [^]`, `root=seq{}`},
	{`root ::= "a" [] "b"`, `root=seq{"a" "b"}`},
	{`root ::= []]`, `ERR 1:12: unexpected character ']'`},
	{`root ::= [a`, `ERR 1:10: unterminated character class`},
	{`root ::= [\d]`, `ERR unknown escape \d`},
	{`root ::= [\-]`, `ERR unknown escape \-`},
	{`root ::= [\^]`, `ERR unknown escape \^`},
	{`root ::= .`, `root=.`},

	// repetition
	{`root ::= "a"*`, `root=rep{"a",0,-1}`},
	{`root ::= "a"+`, `root=rep{"a",1,-1}`},
	{`root ::= "a"?`, `root=rep{"a",0,1}`},
	{`root ::= "a"{2}`, `root=rep{"a",2,2}`},
	{`root ::= "a"{2,}`, `root=rep{"a",2,-1}`},
	{`root ::= "a"{2,5}`, `root=rep{"a",2,5}`},
	{`root ::= "a"{ 2 , 5 }`, `root=rep{"a",2,5}`},
	{`root ::= "a"{5,2}`, `ERR 1:13: repetition {5,2} has its maximum below its minimum`},
	{`root ::= "a"{0}`, `root=rep{"a",0,0}`},
	{`root ::= "a"{0,0} "b"`, `root=seq{rep{"a",0,0} "b"}`},
	{`root ::= "a"{1}*`, `root=rep{rep{"a",1,1},0,-1}`},
	{`root ::= "ab"*`, `root=rep{"ab",0,-1}`},
	{`root ::= "a"*?`, `root=rep{rep{"a",0,-1},0,1}`},
	{`root ::= "a" * "b"`, `root=seq{rep{"a",0,-1} "b"}`},
	{`root ::= ()*`, `ERR rule root: *, + or {m,} over an item that can match the empty string`},
	{`root ::= ()?`, `root=rep{seq{},0,1}`},
	{`root ::= "b"?*`, `ERR over an item that can match the empty string`},
	{"root ::= x+\nx ::= y\ny ::= \"a\" | \"\"", `ERR over an item that can match the empty string`},
	{`root ::= ("a"? "b"?){2,}`, `ERR over an item that can match the empty string`},
	{`root ::= ("a"? "b"?){0,3}`, `root=rep{seq{rep{"a",0,1} rep{"b",0,1}},0,3}`},
	{`root ::= ("a"{0})*`, `ERR over an item that can match the empty string`},
	{`root ::= ("a"{0}){2}`, `root=rep{rep{"a",0,0},2,2}`},
	{`root ::= [a-z]+ . * x?` + "\nx ::= \"x\"", `root=seq{rep{[61-7A],1,-1} rep{.,0,-1} rep{x,0,1}}; x="x"`},
	{`root ::= ("a" | "b"){2,3}`, `root=rep{alt{"a" | "b"},2,3}`},
	{`root ::= "a"{1999}`, `root=rep{"a",1999,1999}`},
	{`root ::= "a"{2,1999}`, `root=rep{"a",2,1999}`},
	{`root ::= "a"{2000}`, `ERR repetition count 2000 is over the MaxRepeat limit of 1999`},
	{`root ::= "a"{0,3000}`, `ERR over the MaxRepeat limit`},
	{`root ::= "a"{2001,}`, `ERR over the MaxRepeat limit`},
	{`root ::= *`, `ERR unexpected token "*"`},
	{`root ::= "a" | *`, `ERR unexpected token "*"`},
	{`root ::= ""*`, `ERR 1:12: expecting an item before the repetition operator`},
	{`root ::= []*`, `ERR expecting an item before`},
	{`root ::= [^]+`, `ERR expecting an item before`},
	{`root ::= "a"{0}*`, `ERR expecting an item before`},
	{`root ::= "a"{0,0}?`, `ERR expecting an item before`},
	{`root ::= "a"{,3}`, `ERR 1:14: unexpected token ","`},
	{`root ::= "a"{}`, `ERR unexpected token "}"`},
	{`root ::= "a"{a}`, `ERR expecting a decimal count`},
	{`root ::= "a"{-1}`, `ERR expecting a decimal count`},
	{`root ::= "a"{2`, `ERR unexpected token`},
	{"root ::= \"a\"{2\n}", `ERR unexpected token`},
	{"root ::= (\"a\"{2\n})", `root=rep{"a",2,2}`},
	{`root ::= "a"{1,99999999999999999999999}`, `ERR over the MaxRepeat limit`},

	// token references need a vocabulary
	{`root ::= <[123]>`, `ERR 1:10: token references`},
	{`root ::= <think>`, `ERR token references`},
	{`root ::= !<[1]>`, `ERR token references`},

	// left recursion
	{`root ::= root "a"`, `ERR 1:1: left recursion: root -> root`},
	{`root ::= "a" | root "a"`, `ERR left recursion: root -> root`},
	{"root ::= x\nx ::= root", `ERR left recursion: root -> x -> root`},
	{"root ::= x \"a\"\nx ::= \"\" root", `ERR left recursion: root -> x -> root`},
	{`root ::= "a"* root`, `ERR left recursion: root -> root`},
	{`root ::= "a"? ("b" | "") root`, `ERR left recursion: root -> root`},
	{`root ::= ("a" | root)+`, `ERR left recursion: root -> root`},
	{"root ::= x root\nx ::= y\ny ::= \"\" | \"b\"", `ERR left recursion: root -> root`},
	{`root ::= "a" root | ""`, `root=alt{seq{"a" root} | seq{}}`},
	{`root ::= root{0} "a"`, `root=seq{rep{root,0,0} "a"}`},
	{"root ::= x \"a\"\nx ::= \"b\" root | \"c\"", `root=seq{x "a"}; x=alt{seq{"b" root} | "c"}`},
}

// checkErr reports whether err is an error containing want, and complains if not.
func checkErr(t *testing.T, text string, err error, want string) {
	t.Helper()
	if err == nil {
		t.Errorf("text %q: no error, want one containing %q", text, want)
	} else if !strings.Contains(err.Error(), want) {
		t.Errorf("text %q: error %q, want one containing %q", text, err, want)
	}
}

func TestParse(t *testing.T) {
	for _, c := range parseCases {
		g, err := Parse(c.text)
		if want, ok := strings.CutPrefix(c.want, "ERR "); ok {
			checkErr(t, c.text, err, want)
			continue
		}
		if err != nil {
			t.Errorf("text %q: %v", c.text, err)
		} else if got := astDump(g); got != c.want {
			t.Errorf("text %q:\n got %s\nwant %s", c.text, got, c.want)
		}
	}
}

// TestRoundTrip: printing a parsed grammar and parsing it again gives the
// same grammar, and printing is then stable.
func TestRoundTrip(t *testing.T) {
	for _, c := range parseCases {
		g, err := Parse(c.text)
		if err != nil {
			continue
		}
		text := g.String()
		g2, err := Parse(text)
		if err != nil {
			t.Errorf("text %q printed as %q: %v", c.text, text, err)
			continue
		}
		if astDump(g) != astDump(g2) {
			t.Errorf("text %q printed as %q:\n parsed %s\nreparsed %s", c.text, text, astDump(g), astDump(g2))
		}
		if text2 := g2.String(); text2 != text {
			t.Errorf("text %q: printed %q, then %q", c.text, text, text2)
		}
	}
}

func TestParsePositions(t *testing.T) {
	g, err := Parse("# c\nroot ::= \"a\" x\n  x ::= ( y )\ny ::= \"b\"")
	if err != nil {
		t.Fatal(err)
	}
	got := []Pos{g.Rules[0].Pos, g.Rules[0].Expr.(*Seq).Items[1].(*Ref).Pos, g.Rules[1].Pos, g.Rules[1].Expr.(*Ref).Pos}
	want := []Pos{{2, 1}, {2, 14}, {3, 3}, {3, 11}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("positions %v, want %v", got, want)
	}
}

func TestParseErrorType(t *testing.T) {
	_, err := Parse("root ::= x")
	list, ok := err.(ErrorList)
	if !ok || len(list) != 1 {
		t.Fatalf("error %#v, want an ErrorList of one", err)
	}
	if list[0].Pos != (Pos{1, 10}) || list[0].Error() != "1:10: rule root: undefined rule x" {
		t.Errorf("error %+v", list[0])
	}
}

func TestLimits(t *testing.T) {
	small := Limits{MaxBytes: 40, MaxDepth: 2, MaxRepeat: 5, MaxRules: 2}
	cases := []struct{ text, want string }{
		{`root ::= "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"`, "over the MaxBytes limit of 40"},
		{"root ::= x\nx ::= y\ny ::= \"a\"", "over the MaxRules limit"},
		{`root ::= ((("a")))`, "1:12: parentheses nested more than 2 deep, over the MaxDepth limit"},
		{`root ::= (("a")*)`, "groups and repetitions nested more than 2 deep, over the MaxDepth limit"},
		{`root ::= "a"???`, "over the MaxDepth limit"},
		{`root ::= "a"{6}`, "repetition count 6 is over the MaxRepeat limit of 5"},
		{`root ::= "a"{1,6}`, "over the MaxRepeat limit"},
	}
	for _, c := range cases {
		_, err := ParseWithLimits(c.text, small)
		checkErr(t, c.text, err, c.want)
	}
	if _, err := ParseWithLimits(`root ::= (("a")) ("a")?`, small); err != nil {
		t.Error(err)
	}
	if _, err := ParseWithLimits(`root ::= "a"{1999}`, Limits{}); err != nil {
		t.Errorf("zero Limits should mean the defaults: %v", err)
	}
}

// TestHostileNesting: deep nesting ends in a named error, not a stack overflow.
func TestHostileNesting(t *testing.T) {
	for _, text := range []string{
		"root ::= " + strings.Repeat("(", 10000) + `"a"` + strings.Repeat(")", 10000),
		"root ::= " + strings.Repeat("(", 100000),
		`root ::= "a"` + strings.Repeat("*", 100000),
		`root ::= "a"` + strings.Repeat("{1}", 100000),
	} {
		_, err := Parse(text)
		checkErr(t, text[:20], err, "MaxDepth")
	}
	deep := "root ::= " + strings.Repeat("(", 1000) + `"a"` + strings.Repeat(")", 1000)
	if _, err := Parse(deep); err != nil {
		t.Error(err)
	}
}

// benchGrammar is a JSON-like grammar of about 100 KB, the size of a large
// compiled schema.
func benchGrammar() string {
	var b strings.Builder
	b.WriteString("root ::= r0\n")
	for i := 0; i < 1000; i++ {
		fmt.Fprintf(&b, "r%d ::= \"{\" space \"\\\"name%d\\\"\" space \":\" space ( string | [0-9]{1,16} ( \".\" [0-9]+ )? | \"null\" ) ( \",\" space r%d )? \"}\" space\n", i, i, i+1)
	}
	b.WriteString("r1000 ::= \"[]\"\nstring ::= \"\\\"\" ( [^\"\\\\\\x7F\\x00-\\x1F] | \"\\\\\" ( [\"\\\\bfnrt] | \"u\" [0-9a-fA-F]{4} ) )* \"\\\"\"\nspace ::= | \" \" | \"\\n\" [ \\t]{0,20}\n")
	return b.String()
}

func BenchmarkParse(b *testing.B) {
	text := benchGrammar()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, err := Parse(text); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPrint(b *testing.B) {
	g, err := Parse(benchGrammar())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(g.String())))
	for b.Loop() {
		_ = g.String()
	}
}

package regex

import "testing"

// benchGrammar is shaped like a compiled object schema: bounded
// whitespace, strings, numbers and an integer range, shared rules.
const benchGrammar = `root ::= "{" ws "\"name\"" ws ":" ws string ws "," ws "\"age\"" ws ":" ws age ws ("," ws "\"tags\"" ws ":" ws tags ws)? "}"
ws ::= (" " | "\n" [ \t]{0,20})?
string ::= "\"" char{0,200} "\""
char ::= [^"\\\x00-\x1f] | "\\" (["\\/bfnrt] | "u" [0-9a-fA-F]{4})
age ::= [0-9] | [1-9] [0-9] | "1" [01] [0-9] | "120"
number ::= "-"? ("0" | [1-9] [0-9]{0,15}) ("." [0-9]{1,16})? ([eE] [-+]? [0-9]{1,3})?
tags ::= "[" ws (item ("," ws item){0,49})? "]"
item ::= (string | number) ws`

func BenchmarkEmit(b *testing.B) {
	g := mustParse(b, benchGrammar)
	re, err := Emit(g, Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Emit(g, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(re)), "regex-bytes")
}

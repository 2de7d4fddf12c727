package schema2gbnf_test

import (
	"errors"
	"fmt"
	"regexp"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/regex"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// The README's Go snippet is this example's body (TestREADMEGoSnippet).
func ExampleCompile() {
	schema := []byte(`{
  "type": "object",
  "properties": {
    "name": {"type": "string", "maxLength": 20},
    "age": {"type": "integer", "minimum": 0, "maximum": 150}
  },
  "required": ["name"],
  "additionalProperties": false
}`)
	g, err := schema2gbnf.Compile(schema, schema2gbnf.Options{Whitespace: compile.Compact})
	if err != nil {
		var problems subsetcheck.ErrorList // every problem, each with Code, Pointer, Line, Col, Message
		if errors.As(err, &problems) {
			for _, p := range problems {
				fmt.Println(p.Code, p.Pointer, p.Message)
			}
		}
		return
	}
	fmt.Print(g.GBNF)
	// Output:
	// # schema2gbnf 0.1.0 profile=exact whitespace=compact draft=2020-12 format=annotation schema=sha256:76ee82f0a90d0375749aa5b34712b71cfc54b39f79f72915d5e7613b69a9f542
	// root ::= "{\"name\":" string-0-20 root-next2 "}"
	// char ::= [^\x00-\x1F"\\\uD800-\uDFFF\uFFFD\U00110000-\U003FFFFF] | "\\" (["/\\bfnrt] | "u" ([0-9A-CE-Fa-ce-f] hex hex hex | [Dd] [0-7] hex hex | [Dd] [8-9A-Ba-b] hex hex "\\u" [Dd] [C-Fc-f] hex hex))
	// hex ::= [0-9A-Fa-f]
	// string-0-20 ::= "\"" char{0,20} "\""
	// properties-age ::= "0" | [1-9] | [1-9] [0-9] | "1" ([0-4] [0-9] | "50")
	// root-next2 ::= ",\"age\":" properties-age | ""
}

// A schema the compiler cannot enforce exactly is refused with every
// problem, each located and coded; no grammar is returned.
func ExampleCompile_refused() {
	schema := []byte(`{"type": "string", "pattern": "^[a-z]+(?!-)", "minLength": -1}`)
	_, err := schema2gbnf.Compile(schema, schema2gbnf.Options{Name: "name.json"})
	var problems subsetcheck.ErrorList
	if errors.As(err, &problems) {
		for _, p := range problems {
			fmt.Printf("%s:%d:%d %s %s\n", p.File, p.Line, p.Col, p.Pointer, p.Code)
		}
	}
	// Output:
	// name.json:1:39 /pattern S211
	// name.json:1:60 /minLength S203
}

// The same grammar as one regular expression, for engines that take a
// regex: anchor it for a full match.
func ExampleGrammar_Regex() {
	g, err := schema2gbnf.Compile([]byte(`{"enum": ["red", "green"]}`), schema2gbnf.Options{})
	if err != nil {
		panic(err)
	}
	re, err := g.Regex(regex.Options{})
	if err != nil {
		panic(err)
	}
	m := regexp.MustCompile(regex.Anchored(re))
	fmt.Println(re)
	fmt.Println(m.MatchString(`"green"`), m.MatchString(`"blue"`))
	// Output:
	// "(?:green"|red")
	// true false
}

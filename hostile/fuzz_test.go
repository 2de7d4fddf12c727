package hostile

import (
	"errors"
	"testing"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// FuzzPipeline feeds raw bytes to the whole pipeline. Whatever the input,
// Compile returns a grammar or a non-empty subsetcheck.ErrorList whose
// problems all carry a code, never panics, and a grammar it returns is
// valid GBNF that parses back.
func FuzzPipeline(f *testing.F) {
	for _, s := range seedSchemas {
		f.Add([]byte(s))
	}
	f.Add(typicalSchema())
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := schema2gbnf.Compile(data, schema2gbnf.Options{})
		if err != nil {
			var l subsetcheck.ErrorList
			if !errors.As(err, &l) || len(l) == 0 {
				t.Fatalf("error is not a non-empty ErrorList: %T %v", err, err)
			}
			for _, p := range l {
				if p.Code == "" {
					t.Fatalf("problem without a code: %v", p)
				}
			}
			if g != nil {
				t.Fatal("both a grammar and an error")
			}
			return
		}
		if _, err := gbnf.Parse(g.Rules.String()); err != nil {
			t.Fatalf("grammar does not parse back: %v\n%s", err, g.GBNF)
		}
	})
}

// seedSchemas start the fuzzer near every hostile class.
var seedSchemas = []string{
	`{}`, `true`, `false`, `{"type":"string","maxLength":3}`,
	`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`,
	`{"$ref":"#"}`, `{"$defs":{"a/b~c":{"type":"integer"}},"$ref":"#/$defs/a~1b~0c"}`,
	`{"enum":[{"type":"integer"}],"properties":{"x":{"$ref":"#/enum/0"}}}`,
	`{"type":"array","items":{"anyOf":[{"type":"null"},{"$ref":"#"}]},"maxItems":1000000000}`,
	`{"type":"integer","minimum":-1e400,"maximum":1e400}`,
	`{"type":"object","properties":{"a":{"type":"integer"},"b":{"const":[1,{"x":null}]}},"required":["b"],"additionalProperties":false}`,
	`{"anyOf":[{"type":"string","minLength":2},{"enum":["a",1,1.0]}],"maxLength":4}`,
}

package verdict_test

import (
	"fmt"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/verdict"
)

// Judge a model's reply with the grammar it was held to: one typed verdict
// per reply, so a pipeline can tell a finished valid value from one cut off
// by a token limit or one that is not JSON at all.
func ExampleJudge_Judge() {
	g, err := schema2gbnf.Compile([]byte(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"],"additionalProperties":false}`), schema2gbnf.Options{})
	if err != nil {
		panic(err)
	}
	j, err := verdict.New(g, verdict.Limits{})
	if err != nil {
		panic(err)
	}
	for _, reply := range []string{`{"ok": true}`, `{"ok": tr`, `{"ok": 1}`, `ok`} {
		v := j.Judge([]byte(reply))
		fmt.Println(v.Class)
	}
	// Output:
	// COMPLETE_VALID
	// INCOMPLETE
	// OFF_GRAMMAR
	// PARSE_ERROR
}

package verdict_test

import (
	"fmt"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/verdict"
)

func Example() {
	schema := []byte(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`)
	g, err := schema2gbnf.Compile(schema, schema2gbnf.Options{})
	if err != nil {
		fmt.Println(verdict.Refused(err).Class)
		return
	}
	judge, err := verdict.New(g, verdict.Limits{}) // once per schema
	if err != nil {
		panic(err)
	}
	for _, reply := range []string{`{"name":"Ada"}`, `{"name":"Ad`, `{"name":1}`, `{"nam":"Ada"}`, `{"name":"Ada",}`} {
		v := judge.Judge([]byte(reply))
		fmt.Printf("%s at byte %d", v.Class, v.Offset)
		if v.Reason == verdict.ReasonSchema {
			fmt.Printf(": %s at #%s, instance %q", v.Keyword, v.SchemaPointer, v.InstancePointer)
		}
		fmt.Println()
	}
	// Output:
	// COMPLETE_VALID at byte 14
	// INCOMPLETE at byte 11
	// OFF_GRAMMAR at byte 8: type at #/properties/name/type, instance "/name"
	// OFF_GRAMMAR at byte 5: required at #/required, instance ""
	// PARSE_ERROR at byte 14
}

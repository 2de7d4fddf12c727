package regex_test

import (
	"errors"
	"runtime"
	"testing"

	schema2gbnf "github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/regex"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// TestHugeCountsTooLarge: a count far past what a regex of MaxBytes can
// spell ends in R602 before the regex is built, alone and under other
// counts (which leave a budget of one copy per chunk: each chunk then
// added its body's items one by one, and maxLength 10^12 ran out of
// memory). Memory is checked loosely, the bytes allocated in all; time is
// not.
func TestHugeCountsTooLarge(t *testing.T) {
	for _, schema := range []string{
		`{"type":"string","maxLength":1000000000000}`,
		`{"type":"string","minLength":1000000000000}`,
		`{"type":"array","items":{"type":"string","maxLength":1000},"maxItems":1000000000000}`,
		`{"type":"array","items":{"type":"array","items":{"type":"string","maxLength":1000000000},"maxItems":1000},"maxItems":1000}`,
	} {
		g, err := schema2gbnf.Compile([]byte(schema), schema2gbnf.Options{})
		if err != nil {
			t.Fatalf("%s: %v", schema, err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err = g.Regex(regex.Options{})
		runtime.ReadMemStats(&after)
		var list subsetcheck.ErrorList
		if !errors.As(err, &list) || len(list) != 1 || list[0].Code != subsetcheck.CodeRegexTooLarge {
			t.Errorf("%s: %v, want one problem %s", schema, err, subsetcheck.CodeRegexTooLarge)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 1<<30 {
			t.Errorf("%s: the regex emitter allocated %d MB before refusing", schema, n>>20)
		}
	}
}

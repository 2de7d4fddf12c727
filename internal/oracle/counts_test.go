package oracle

import (
	"testing"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// countQuirks are the validator's verdicts on counts past 2^63-1 that
// depart from JSON Schema (counts.go): it keeps their low 64 bits.
var countQuirks = []struct {
	schema, text  string
	library, spec bool // the validator's own verdict, and the spec's
}{
	{`{"maxLength":9223372036854775808}`, `"a"`, false, true},          // -2^63
	{`{"minLength":18446744073709551615}`, `""`, true, false},          // -1
	{`{"maxItems":9223372036854775808}`, `[1,2,3]`, false, true},       // -2^63
	{`{"minItems":18446744073709551615}`, `[]`, true, false},           // -1
	{`{"maxItems":18446744073709551619}`, `[1,2,3,4]`, false, true},    // 3
	{`{"maxProperties":18446744073709551616}`, `{"a":1}`, false, true}, // 0
	{`{"minProperties":18446744073709551616}`, `{}`, true, false},      // 0
	{`{"contains":{},"maxContains":18446744073709551616}`, `[1]`, false, true},
	{`{"contains":{},"minContains":18446744073709551616}`, `[]`, true, false},
	{`{"maxItems":1.8446744073709551616e19}`, `[1]`, false, true}, // 2^64 spelled with an exponent: 0
	// Where a schema sits deeper, behind a name that needs escaping.
	{`{"$defs":{"a/b":{"maxItems":9223372036854775808}},"properties":{"maxItems":{"$ref":"#/$defs/a~1b"}}}`, `{"maxItems":[1]}`, false, true},
}

// TestCountQuirks pins where the validator reads a count otherwise than
// JSON Schema says: its own reading (LibraryCounts) must still depart, or
// this list and counts.go are to go; New must judge by the spec.
func TestCountQuirks(t *testing.T) {
	for _, q := range countQuirks {
		lib, err := New([]byte(q.schema), subsetcheck.Draft2020, LibraryCounts())
		if err != nil {
			t.Fatalf("%s: %v", q.schema, err)
		}
		if got, _ := lib.Valid(q.text); got != q.library {
			t.Errorf("%s on %s: the validator now says %v (was %v, the spec says %v): drop the case, and counts.go once none is left",
				q.schema, q.text, got, q.library, q.spec)
		}
		o, err := New([]byte(q.schema), subsetcheck.Draft2020)
		if err != nil {
			t.Fatalf("%s: %v", q.schema, err)
		}
		if got, _ := o.Valid(q.text); got != q.spec {
			t.Errorf("%s on %s: the oracle says %v, the spec %v", q.schema, q.text, got, q.spec)
		}
	}
}

// TestCountsAsWritten: New rewrites counts only where the validator reads
// a keyword, and only past 2^63-1: values that look like counts in enum
// and const stay as written, and so do counts that fit.
func TestCountsAsWritten(t *testing.T) {
	for _, c := range []struct {
		schema, text string
		valid        bool
	}{
		{`{"enum":[{"maxItems":18446744073709551616}]}`, `{"maxItems":18446744073709551616}`, true},
		{`{"const":{"minLength":9223372036854775808}}`, `{"minLength":9223372036854775807}`, false},
		{`{"maxItems":9223372036854775807}`, `[1]`, true},
		{`{"minItems":3}`, `[1,2]`, false},
	} {
		o, err := New([]byte(c.schema), subsetcheck.Draft2020)
		if err != nil {
			t.Fatalf("%s: %v", c.schema, err)
		}
		if got, _ := o.Valid(c.text); got != c.valid {
			t.Errorf("%s on %s: %v, want %v", c.schema, c.text, got, c.valid)
		}
	}
}

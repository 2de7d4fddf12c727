package compile

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// checkAsserted checks schema with format assertion on.
func checkAsserted(t testing.TB, schema string) *subsetcheck.Checked {
	t.Helper()
	doc, err := subsetcheck.Read("schema.json", []byte(schema), subsetcheck.Limits{})
	if err != nil {
		t.Fatalf("read schema: %v\n%s", err, schema)
	}
	c, err := subsetcheck.Check(doc, subsetcheck.Options{AssertFormat: true})
	if err != nil {
		t.Fatalf("check schema: %v\n%s", err, schema)
	}
	return c
}

// assertingOracle is the validator with its own format checks asserted.
func assertingOracle(t testing.TB, schema string) func(text string) bool {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("file:///schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("file:///schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return func(text string) bool {
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(text)))
		return err == nil && sch.Validate(v) == nil
	}
}

// TestAssertedFormatInSchemas: a format where it meets the rest of a schema
// (no type, other types, enum, length bounds, anyOf, $ref beside it, inside
// objects), judged by what the grammar accepts, each verdict also the
// oracle's.
func TestAssertedFormatInSchemas(t *testing.T) {
	for _, tt := range []struct {
		name, schema   string
		accept, reject []string
	}{
		{"date", `{"type":"string","format":"date"}`,
			[]string{`"2024-02-29"`, `"2000-02-29"`, `"1999-12-31"`},
			[]string{`"2023-02-29"`, `"1900-02-29"`, `"2024-2-29"`, `"2024-02-29 "`, `"\u0032024-02-29"`, `5`}},
		{"no type: other values pass", `{"format":"uuid"}`,
			[]string{`5`, `null`, `{"a":1}`, `["x"]`, `"123e4567-E89B-12d3-a456-426614174000"`},
			[]string{`"x"`, `"123e4567-e89b-12d3-a456-42661417400"`}},
		{"bounds that cover the format are dropped", `{"type":"string","format":"date","minLength":10,"maxLength":10}`,
			[]string{`"2024-01-01"`}, []string{`"x"`}},
		{"bounds no date meets leave no string", `{"type":["string","null"],"format":"date","maxLength":5}`,
			[]string{`null`}, []string{`"2024-01-01"`, `""`}},
		{"enum members outside the format are dropped", `{"enum":["2024-01-01","nope",3,"2024-13-01"],"format":"date"}`,
			[]string{`"2024-01-01"`, `3`}, []string{`"nope"`, `"2024-13-01"`}},
		{"anyOf of formats", `{"type":"string","anyOf":[{"format":"ipv4"},{"format":"ipv6"}]}`,
			[]string{`"10.0.0.1"`, `"::1"`, `"::ffff:10.0.0.1"`}, []string{`"10.0.0.256"`, `"10.0.0.01"`, `"x"`}},
		{"two formats meet: no string has both", `{"format":"date","$ref":"#/$defs/u","$defs":{"u":{"format":"uuid"}}}`,
			[]string{`1`, `true`}, []string{`"2024-01-01"`, `"123e4567-e89b-12d3-a456-426614174000"`}},
		{"the same format on both sides", `{"format":"time","$ref":"#/$defs/t","$defs":{"t":{"type":"string","format":"time"}}}`,
			[]string{`"12:00:00Z"`}, []string{`"12:00:00"`, `1`}},
		{"leap second inside an object", `{"type":"object","properties":{"at":{"type":"string","format":"date-time"}},"required":["at"],"additionalProperties":false}`,
			[]string{`{"at":"2016-12-31T23:59:60Z"}`, `{"at":"2016-12-31t15:59:60.5-08:00"}`},
			[]string{`{"at":"2016-12-31T23:59:60+01:00"}`, `{"at":"2016-12-31T23:59:61Z"}`, `{}`}},
		{"duration items", `{"type":"array","items":{"type":"string","format":"duration"}}`,
			[]string{`["P1W","P1Y2M3DT4H5M6S","PT0S","P1D"]`}, []string{`["P"]`, `["PT"]`, `["P1H"]`, `["P1M1Y"]`, `["P1DT"]`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, m := mustGrammar(t, checkAsserted(t, tt.schema), Options{Whitespace: Compact})
			valid := assertingOracle(t, tt.schema)
			for _, text := range tt.accept {
				if !m.Accepts(text) {
					t.Errorf("grammar rejects %s", text)
				}
				if !valid(text) {
					t.Errorf("test expects %s accepted, but the oracle rejects it", text)
				}
			}
			for _, text := range tt.reject {
				if m.Accepts(text) {
					t.Errorf("grammar accepts %s (oracle valid: %v)", text, valid(text))
				}
			}
		})
	}
}

// TestAssertedFormatRefusals: length bounds that cut through a format's
// lengths are refused (C402); a format no string of the schema can have
// leaves no value (C401).
func TestAssertedFormatRefusals(t *testing.T) {
	for _, tt := range []struct{ schema, code string }{
		{`{"type":"string","format":"date-time","maxLength":30}`, "C402"},
		{`{"type":"string","format":"ipv4","minLength":9}`, "C402"},
		{`{"type":"string","format":"date","maxLength":9}`, "C401"},
		{`{"type":"string","format":"uuid","minLength":37}`, "C401"},
	} {
		_, err := Compile(checkAsserted(t, tt.schema), Options{})
		var list subsetcheck.ErrorList
		if !errors.As(err, &list) || string(list[0].Code) != tt.code {
			t.Errorf("%s: want %s, got %v", tt.schema, tt.code, err)
		}
	}
}

// TestExplainFormat: the verdict pipeline names format as the failing
// keyword.
func TestExplainFormat(t *testing.T) {
	c := checkAsserted(t, `{"type":"object","properties":{"d":{"type":"string","format":"date"}}}`)
	f := Explain(c, mustValue(t, `{"d":"2023-02-29"}`))
	if f == nil || f.Keyword != "format" || f.InstancePointer != "/d" {
		t.Fatalf("Explain = %+v, want format at /d", f)
	}
	if f := Explain(c, mustValue(t, `{"d":"2024-02-29"}`)); f != nil {
		t.Errorf("Explain of a valid value = %v", f)
	}
}

func mustValue(t testing.TB, text string) *subsetcheck.Value {
	t.Helper()
	doc, err := subsetcheck.Read("value", []byte(text), subsetcheck.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return doc.Root
}

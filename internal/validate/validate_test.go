package validate

import (
	"strings"
	"testing"
	"time"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

func lenientChecked(t *testing.T, schema string, opts subsetcheck.Options) *subsetcheck.Checked {
	t.Helper()
	doc, err := subsetcheck.Read("schema.json", []byte(schema), subsetcheck.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	opts.Profile = subsetcheck.Lenient
	c, err := subsetcheck.Check(doc, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestExplain: a rejection is located in the schema document, and matched
// against the relaxations: a schema's failure is explained when each of
// its failing keywords is, anyOf's when one branch's is.
func TestExplain(t *testing.T) {
	schema := `{"$defs":{"id":{"type":"string","pattern":"^(?=[a-z])[a-z]*$"}},"type":"object","properties":{"id":{"$ref":"#/$defs/id"},"n":{"type":"integer","maximum":3},` +
		`"e":{"anyOf":[{"type":"string","pattern":"^(?=x)"},{"type":"integer"}]},"o":{"oneOf":[{"type":"string","pattern":"(?=a)"},{"type":"string","maxLength":3}]}},"required":["id"]}`
	c := lenientChecked(t, schema, subsetcheck.Options{})
	v, err := New(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		text      string
		valid     bool
		explained bool
		keyword   string
		schemaPtr string
		instPtr   string
	}{
		{`{"id":"abc","n":1}`, true, false, "", "", ""},
		{`{"id":"ABC"}`, false, true, "pattern", "/$defs/id/pattern", "/id"},
		{`{"id":"ABC","n":9}`, false, false, "", "", ""},
		{`{"id":"a","n":9}`, false, false, "maximum", "/properties/n/maximum", "/n"},
		{`{"id":"a","e":"y"}`, false, true, "pattern", "/properties/e/anyOf/0/pattern", "/e"},
		{`{"id":"a","e":true}`, false, false, "", "", ""},
		{`{"id":"a","o":"ab"}`, false, true, "oneOf", "/properties/o/oneOf", "/o"},
		{`{"id":"a","o":"b"}`, true, false, "", "", ""},
	}
	for _, tt := range cases {
		res, err := v.Validate([]byte(tt.text))
		if err != nil {
			t.Fatal(err)
		}
		if res.Valid() != tt.valid {
			t.Errorf("%s: valid %v, want %v", tt.text, res.Valid(), tt.valid)
			continue
		}
		if tt.valid {
			continue
		}
		f, ok := res.Explain(c.Relaxed)
		if ok != tt.explained {
			t.Errorf("%s: explained %v, want %v (%v)", tt.text, ok, tt.explained, f)
			continue
		}
		if tt.keyword != "" && (f.Keyword != tt.keyword || f.SchemaPointer != tt.schemaPtr || f.InstancePointer != tt.instPtr) {
			t.Errorf("%s: failure %q %s %s, want %q %s %s", tt.text, f.Keyword, f.SchemaPointer, f.InstancePointer, tt.keyword, tt.schemaPtr, tt.instPtr)
		}
	}
}

// TestPatternsAreECMA: a pattern means what ECMA-262 says with the u flag
// (\d is ASCII digits only, . takes an astral character as one), not RE2.
func TestPatternsAreECMA(t *testing.T) {
	c := lenientChecked(t, `{"type":"string","pattern":"^\\d.$"}`, subsetcheck.Options{})
	v, err := New(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]bool{`"1x"`: true, `"1😀"`: true, `"١x"`: false, `"12x"`: false} {
		res, err := v.Validate([]byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if res.Valid() != want {
			t.Errorf("%s: valid %v, want %v", text, res.Valid(), want)
		}
	}
}

// TestNothingIsLoaded: a $ref to a document not handed in fails New; the
// validator fetches nothing.
func TestNothingIsLoaded(t *testing.T) {
	for _, ref := range []string{"http://example.com/s.json", "other.json", "file:///etc/passwd"} {
		c := lenientChecked(t, `{"properties":{"a":{"$ref":"`+ref+`"}}}`, subsetcheck.Options{})
		if _, err := New(c, Options{}); err == nil || !strings.Contains(err.Error(), "not handed in") {
			t.Errorf("%s: New gave %v, want a refusal to load", ref, err)
		}
	}
}

// TestHostilePattern: a pattern that backtracks exponentially is stopped by
// Options.PatternTimeout, and the value fails.
func TestHostilePattern(t *testing.T) {
	c := lenientChecked(t, `{"type":"string","pattern":"^(a+)+$"}`, subsetcheck.Options{})
	v, err := New(c, Options{PatternTimeout: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, err := v.Validate([]byte(`"` + strings.Repeat("a", 40) + `!"`))
	if err != nil {
		t.Fatal(err)
	}
	if res.Valid() {
		t.Errorf("a match that timed out passed the value")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Logf("took %v", d) // measured, not asserted
	}
}

// TestFormats: format is an annotation, unless asserted: then every format
// the validator knows is checked, those a lenient grammar relaxed too.
func TestFormats(t *testing.T) {
	schema := `{"type":"string","format":"email"}`
	for _, assert := range []bool{false, true} {
		c := lenientChecked(t, schema, subsetcheck.Options{AssertFormat: assert})
		v, err := New(c, Options{})
		if err != nil {
			t.Fatal(err)
		}
		res, _ := v.Validate([]byte(`"not an email"`))
		if res.Valid() == assert {
			t.Errorf("assert %v: valid %v", assert, res.Valid())
		}
	}
}

// TestValidatorNeverPanics: a number big.Rat cannot hold (past the
// reader's limits, which verdict applies first) is an error, not a crash.
func TestValidatorNeverPanics(t *testing.T) {
	c := lenientChecked(t, `{"items":{"minimum":5}}`, subsetcheck.Options{})
	v, err := New(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Validate([]byte(`[1e999999999]`)); err == nil {
		t.Errorf("no error")
	}
}

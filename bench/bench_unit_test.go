package bench

import (
	"reflect"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

func TestSummarize(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want Summary
	}{
		{nil, Summary{}},
		{[]float64{5}, Summary{N: 1, Median: 5, P90: 5, P99: 5, Max: 5}},
		{[]float64{4, 1, 3, 2}, Summary{N: 4, Median: 2, P90: 4, P99: 4, Max: 4}},
		{[]float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, Summary{N: 10, Median: 5, P90: 9, P99: 10, Max: 10}},
	} {
		if got := Summarize(tc.in); got != tc.want {
			t.Errorf("Summarize(%v) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestLastSegment(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"/oneOf", "oneOf"},
		{"/properties/a~1b/not", "not"},
		{"/properties/x~1y", "x/y"},
		{"/properties/t~0", "t~"},
	} {
		if got := lastSegment(tc.in); got != tc.want {
			t.Errorf("lastSegment(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRank(t *testing.T) {
	got := rank([]blocker{{"b", true}, {"a", false}, {"b", false}, {"c", true}, {"a", true}})
	if want := []ranked{{"a", 2, 1}, {"b", 2, 1}, {"c", 1, 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("rank = %v, want %v", got, want)
	}
}

func TestGuardCrashIsRecorded(t *testing.T) {
	// Whatever Compile does with these, the guard returns a record and never panics.
	for _, in := range []string{``, `{`, `true`, `{"type":"string"}`, `{"$ref":"#"}`} {
		o := DefaultGuard.Compile([]byte(in))
		if o.Status == "" {
			t.Errorf("%q: no status", in)
		}
		if o.Status == Crash || o.Status == Failed || o.Status == Hang {
			t.Logf("%q: %s (a bug elsewhere): %.120s", in, o.Status, o.Detail)
		}
	}
}

// Every code in subsetcheck's table has a short gloss for the coverage table.
func TestEveryCodeHasAGloss(t *testing.T) {
	for _, c := range subsetcheck.CodeTable {
		if codeMeaning(c.Code) == "" {
			t.Errorf("code %s has no gloss in codeGlosses", c.Code)
		}
	}
}

// TestRefusedFormatsAreRecorded: under format assertion, a refusal records
// the format names that blocked the schema, for the S210 ranking.
func TestRefusedFormatsAreRecorded(t *testing.T) {
	g := DefaultGuard
	g.Options.AssertFormat = true
	out := g.Compile([]byte(`{"properties":{"a":{"format":"uri"},"b":{"format":"email"},"c":{"format":"uri"},"d":{"format":"date"}}}`))
	if out.Status != Refused || !reflect.DeepEqual(out.Formats, []string{"email", "uri"}) ||
		!reflect.DeepEqual(out.Codes, []subsetcheck.Code{subsetcheck.CodeFormatNotExact}) {
		t.Fatalf("outcome %+v", out)
	}
	def := []Record{{Subset: "s", Status: Compiled}, {Subset: "s", Status: Compiled}}
	asserted := []Record{{Subset: "s", Status: Compiled}, NewRecord(Schema{Subset: "s"}, out)}
	table := AssertedCoverage(def, asserted)
	for _, want := range []string{"| s | 2 | 2 (100.0%) | 1 (50.0%) | 1 |", "| `email` | 1 | 100.0% | 0 |"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}

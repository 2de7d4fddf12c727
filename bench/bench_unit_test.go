package bench

import (
	"math"
	"reflect"
	"sort"
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

// TestCost: work is a check less its parses, per code point, from the
// fastest of the timings field by field.
func TestCost(t *testing.T) {
	for _, tc := range []struct {
		name string
		rec  PeerRecord
		want DecodeCost
		ok   bool
	}{
		{"no timings", PeerRecord{Common: 2, CommonRunes: 100}, DecodeCost{}, false},
		{"no common text", PeerRecord{Timings: []Timing{{1, 1, 1, 1}}}, DecodeCost{}, false},
		{"one timing", PeerRecord{Common: 2, CommonRunes: 100, Timings: []Timing{{OursCheckUs: 120, PeerCheckUs: 60, OursParseUs: 10, PeerParseUs: 5}}},
			DecodeCost{OursParseUs: 10, PeerParseUs: 5, OursCheckUs: 120, PeerCheckUs: 60, OursWorkNs: 1000, PeerWorkNs: 500}, true},
		{"fastest of two, per field", PeerRecord{Common: 1, CommonRunes: 10, Timings: []Timing{
			{OursCheckUs: 30, PeerCheckUs: 40, OursParseUs: 10, PeerParseUs: 20},
			{OursCheckUs: 40, PeerCheckUs: 30, OursParseUs: 20, PeerParseUs: 10}}},
			DecodeCost{OursParseUs: 10, PeerParseUs: 10, OursCheckUs: 30, PeerCheckUs: 30, OursWorkNs: 2000, PeerWorkNs: 2000}, true},
		{"parse above check: lost in the noise", PeerRecord{Common: 4, CommonRunes: 40, Timings: []Timing{{OursCheckUs: 39, PeerCheckUs: 80, OursParseUs: 10, PeerParseUs: 10}}},
			DecodeCost{OursParseUs: 10, PeerParseUs: 10, OursCheckUs: 39, PeerCheckUs: 80, OursWorkNs: -25, PeerWorkNs: 1000}, true},
	} {
		got, ok := tc.rec.Cost()
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: Cost() = %+v, %v; want %+v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
		if ok && got.Measurable() != (got.OursWorkNs > 0 && got.PeerWorkNs > 0) {
			t.Errorf("%s: Measurable() = %v", tc.name, got.Measurable())
		}
	}
}

// TestDecodingTables: the work, load and whole-check ratios come out per
// schema, and a schema whose work is lost in the noise is counted, not rated.
func TestDecodingTables(t *testing.T) {
	both := func(r PeerRecord) PeerRecord {
		r.Ours.Status, r.Peer.Status = "compiled", "compiled"
		return r
	}
	recs := []PeerRecord{
		both(PeerRecord{Common: 1, CommonRunes: 100, Timings: []Timing{
			{OursCheckUs: 300, PeerCheckUs: 150, OursParseUs: 100, PeerParseUs: 50},
			{OursCheckUs: 300, PeerCheckUs: 150, OursParseUs: 100, PeerParseUs: 50}}}),
		both(PeerRecord{Common: 1, CommonRunes: 100, Timings: []Timing{{OursCheckUs: 10, PeerCheckUs: 150, OursParseUs: 20, PeerParseUs: 50}}}),
	}
	got := decodingTables(recs)
	for _, want := range []string{
		"2 schemas with texts both grammars accept",
		"| engine work, ns per code point (check less its parse) | 2000 / 2000 / 2000 / 2000 | 1000 / 1000 / 1000 / 1000 | 2.00 / 2.00 / 2.00 | 1 of 1 (100.0%) |",
		"| load: one parse of the grammar, µs (`isTextCompatible(\"\")`) | 20 / 100 / 100 / 100 | 50 / 50 / 50 / 50 | 0.40 / 2.00 / 2.00 | 1 of 2 (50.0%) |",
		"Work lost in the noise (a check not above its parses, left out): 1 schemas.",
		"engine work 0.0% / 0.0% (1 schemas;",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("tables lack %q:\n%s", want, got)
		}
	}
}

func TestCorrelation(t *testing.T) {
	for _, tc := range []struct {
		x, y []float64
		want float64 // NaN: undefined
	}{
		{[]float64{1, 2, 3}, []float64{2, 4, 6}, 1},
		{[]float64{1, 2, 3}, []float64{3, 2, 1}, -1},
		{[]float64{1, 2, 3, 4}, []float64{1, -1, -1, 1}, 0},
		{[]float64{1, 1}, []float64{1, 2}, math.NaN()},
		{[]float64{1}, []float64{1}, math.NaN()},
		{[]float64{1, 2}, []float64{1}, math.NaN()},
	} {
		got := Correlation(tc.x, tc.y)
		if math.IsNaN(tc.want) != math.IsNaN(got) || !math.IsNaN(got) && math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Correlation(%v, %v) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
}

// TestPeerRunsApart: the same schema in two runs, its work ratio 2 then 3.
func TestPeerRunsApart(t *testing.T) {
	rec := func(oursCheck float64) PeerRecord {
		return PeerRecord{File: "a.json", Common: 1, CommonRunes: 1000,
			Timings: []Timing{{OursCheckUs: oursCheck, PeerCheckUs: 2, OursParseUs: 1, PeerParseUs: 1}}}
	}
	got := PeerRunsApart([]PeerRecord{rec(3), {File: "b.json"}}, []PeerRecord{rec(4)})
	if want := "engine work 50.0% / 50.0% (1 schemas; ours slower in one run and not in the other on 0, 0.0%), load 0.0% / 0.0%, whole check 33.3% / 33.3%."; !strings.Contains(got, want) {
		t.Errorf("PeerRunsApart = %s\nwant it to hold %s", got, want)
	}
}

// TestCompileRuns: the compile rows name the run count; a record from
// before it was written counts as two runs.
func TestCompileRuns(t *testing.T) {
	for _, tc := range []struct {
		runs []int
		want string
	}{{[]int{5, 5}, "5"}, {[]int{0}, "2"}, {[]int{0, 5, 3}, "2-5"}} {
		var recs []PeerRecord
		for _, n := range tc.runs {
			recs = append(recs, PeerRecord{CompileRuns: n})
		}
		if got := compileRuns(recs); got != tc.want {
			t.Errorf("compileRuns(%v) = %q, want %q", tc.runs, got, tc.want)
		}
	}
}

func TestStripPeerSuffix(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"root ::= \"{\" \"}\" \"\\n\\n\\n\\n\" [\\n]*\nx ::= \"a\"", "root ::= \"{\" \"}\"\nx ::= \"a\"", true},
		{"x ::= \"a\"\nroot ::= x \"\\n\\n\\n\\n\" [\\n]*", "x ::= \"a\"\nroot ::= x", true},
		{"root ::= \"a\"", "root ::= \"a\"", false},
		{"x ::= \"b\" \"\\n\\n\\n\\n\" [\\n]*\nroot ::= x", "x ::= \"b\" \"\\n\\n\\n\\n\" [\\n]*\nroot ::= x", false},
	} {
		got, ok := StripPeerSuffix(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("StripPeerSuffix(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// SampleTexts returns distinct texts the grammar accepts.
func TestSamplePeer(t *testing.T) {
	for _, tc := range []struct {
		grammar string
		n       int
		want    string
	}{
		{`root ::= "a" | "b"`, 8, "a,b"},
		{`root ::= "a" | "a"`, 4, "a"}, // distinct texts only
		{`root ::= "{" ( "\"x\":" [0-1] )? "}"`, 8, `{"x":0},{"x":1},{}`},
	} {
		got, err := SampleTexts(tc.grammar, tc.n, 100)
		if err != nil {
			t.Fatalf("%s: %v", tc.grammar, err)
		}
		sort.Strings(got)
		if strings.Join(got, ",") != tc.want {
			t.Errorf("SampleTexts(%s, %d) = %q, want %s", tc.grammar, tc.n, got, tc.want)
		}
	}
	if _, err := SampleTexts(`root ::= undefined`, 4, 100); err == nil {
		t.Errorf("SampleTexts of a broken grammar: no error")
	}
}

func TestMembersOf(t *testing.T) {
	for _, tc := range []struct{ schema, want string }{
		{`{"type":"string"}`, NoMembers},
		{`{"type":"object"}`, NoMembers},
		{`{"properties":{"a":{}},"required":["a"],"additionalProperties":false}`, RequiredClosed},
		{`{"type":"object","properties":{"a":{}},"required":["a"]}`, RequiredOpen},
		{`{"type":"object","properties":{"a":{},"b":{}},"required":["a"],"additionalProperties":false}`, OptionalClosed},
		{`{"type":"object","properties":{"a":{}}}`, OptionalOpen},
		// properties declared where objects are not allowed declare nothing
		{`{"type":"string","properties":{"a":{}}}`, NoMembers},
		// a nested object, reached through items, $ref and anyOf, counts
		{`{"type":"array","items":{"$ref":"#/$defs/o"},"$defs":{"o":{"anyOf":[{"type":"object","properties":{"a":{}}},{"type":"null"}]}}}`, OptionalOpen},
		{`{"type":"object","properties":{"a":{"type":"object","properties":{"b":{}},"required":["b"]}},"required":["a"],"additionalProperties":false}`, RequiredOpen},
		// recursion ends
		{`{"$ref":"#/$defs/n","$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}},"additionalProperties":false}}}`, OptionalClosed},
	} {
		doc, err := subsetcheck.Read("s", []byte(tc.schema), subsetcheck.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		c, err := subsetcheck.Check(doc, subsetcheck.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.schema, err)
		}
		if got := MembersOf(c); got != tc.want {
			t.Errorf("MembersOf(%s) = %s, want %s", tc.schema, got, tc.want)
		}
	}
}

func TestMembersTable(t *testing.T) {
	rec := func(members string, oursCheck float64) PeerRecord {
		r := PeerRecord{Members: members, Common: 1, CommonRunes: 100, Timings: []Timing{{OursCheckUs: oursCheck, PeerCheckUs: 150, OursParseUs: 50, PeerParseUs: 50}}}
		r.Ours.Status, r.Peer.Status = "compiled", "compiled"
		return r
	}
	got := membersTable([]PeerRecord{rec(RequiredClosed, 100), rec(OptionalOpen, 250), rec(OptionalOpen, 350), rec("", 1000)})
	for _, want := range []string{
		"| every declared member required, no extra ones: the peer's reading | 1 | 0.50 / 0.50 / 0.50 | 0.50× | 0 (0.0%) |",
		"| some declared member optional, extra ones allowed (JSON Schema's default) | 2 | 2.00 / 3.00 / 3.00 | 2.50× | 2 (100.0%) |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "extra ones allowed |") || strings.Contains(got, "no declared members") {
		t.Errorf("table lists a class without schemas:\n%s", got)
	}
}

// TestPublicCommand: published commands name the corpus, not the machine.
func TestPublicCommand(t *testing.T) {
	got := PublicCommand("go run ./bench/peer -json bench/results/p.json /home/me/data/jsonschemabench/Kubernetes /tmp/x/out.json")
	want := "go run ./bench/peer -json bench/results/p.json $JSONSCHEMABENCH/Kubernetes out.json"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

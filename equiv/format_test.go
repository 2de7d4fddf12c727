package equiv

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/internal/oracle"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// assertFormat are the checker options of every format test.
var assertFormat = subsetcheck.Options{DefaultDraft: subsetcheck.Draft2020, AssertFormat: true}

// formatOracle judges one string by the validator asserting format name.
func formatOracle(t *testing.T, name string) *oracle.Oracle {
	t.Helper()
	o, err := oracle.New([]byte(`{"format":"`+name+`"}`), subsetcheck.Draft2020, oracle.AssertFormats())
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestFormatStrings checks the generator's format strings and its reading
// of each format against the validator: members valid, near misses not,
// and formatHolds agreeing on both. None of them holds a sign where the
// validator's strconv.Atoi would take one.
func TestFormatStrings(t *testing.T) {
	for _, name := range subsetcheck.AssertedFormats {
		o := formatOracle(t, name)
		if len(formatMembers[name]) == 0 || len(formatNearMisses[name]) == 0 {
			t.Errorf("%s: no strings", name)
		}
		for _, valid := range []bool{true, false} {
			list := formatMembers[name]
			if !valid {
				list = formatNearMisses[name]
			}
			for _, s := range list {
				text := Compact(vStr(s))
				if got := o.ValidValue(s); got != valid {
					t.Errorf("%s %s: validator says %v, listed as %v", name, text, got, valid)
				}
				if got := formatHolds(name, s); got != valid {
					t.Errorf("%s %s: formatHolds says %v, listed as %v", name, text, got, valid)
				}
			}
		}
	}
}

// TestFormatQuirk pins the one place we knowingly differ from the
// validator: it reads time fields and ipv4 octets with strconv.Atoi, so a
// sign gets in; RFC 3339 and dotted decimal allow digits only.
func TestFormatQuirk(t *testing.T) {
	for _, c := range []struct{ format, text string }{
		{"time", "+1:00:00Z"},
		{"time", "12:00:00+05:+3"},
		{"date-time", "2024-02-29T-0:00:00Z"},
		{"ipv4", "+1.2.3.4"},
		{"ipv4", "1.2.3.+4"},
	} {
		if !formatOracle(t, c.format).ValidValue(c.text) {
			t.Errorf("%s %q: the validator no longer accepts it; drop the quirk", c.format, c.text)
		}
		if formatHolds(c.format, c.text) {
			t.Errorf("%s %q: formatHolds accepts a sign", c.format, c.text)
		}
	}
}

// TestFormatSchemas runs the equivalence check, with formats asserted, on
// the hand-written schemas of testdata/equiv/formats; those in its refused
// folder must be refused with the code their name starts with.
func TestFormatSchemas(t *testing.T) {
	tl := &tally{}
	files, _ := filepath.Glob("../testdata/equiv/formats/*.json")
	if len(files) < 20 {
		t.Fatalf("only %d schemas in testdata/equiv/formats", len(files))
	}
	t.Run("group", func(t *testing.T) {
		for _, f := range files {
			name := filepath.Base(f)
			t.Run(strings.TrimSuffix(name, ".json"), func(t *testing.T) {
				t.Parallel()
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				out := checkSchemaWith(t, tl, "formats/"+name, data, assertFormat, *flagSeed)
				if !out.compiled && len(out.codes) > 0 {
					t.Errorf("%s: %s, want compiled: %v", name, out, out.err)
				}
			})
		}
	})
	t.Log(tl)
	refused, _ := filepath.Glob("../testdata/equiv/formats/refused/*.json")
	if len(refused) == 0 {
		t.Fatal("no refused format schemas")
	}
	for _, f := range refused {
		name := filepath.Base(f)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		code, _, _ := strings.Cut(name, "-")
		out, ok := buildWith(t, name, data, assertFormat)
		if !ok {
			continue
		}
		if out.compiled {
			t.Errorf("%s: compiled, want refused with %s", name, code)
		} else if !strings.Contains(out.String(), code) {
			t.Errorf("%s: %s, want %s among the codes", name, out, code)
		}
	}
}

const formatLedger = "../testdata/jsts/format-ledger.txt"

// formatSuiteKnown are the suite's verdicts our grammars knowingly do not
// give, each with the reason. A listed case that agrees again fails the
// test, so the list cannot go stale.
var formatSuiteKnown = map[string]string{
	// The suite reads RFC 3339's duration ABNF strictly: a unit may be
	// left out only at the end of the date or time part (dur-year =
	// 1*DIGIT "Y" [dur-month], dur-hour = 1*DIGIT "H" [dur-minute]). The
	// validator, and so our grammar, takes any units in order.
	`draft2020-12 "P1Y2D"`:  "the validator accepts years and days without months",
	`draft2020-12 "PT1H2S"`: "the validator accepts hours and seconds without minutes",
}

// TestFormatSuite runs the official suite's optional format tests for the
// asserted formats (testdata/jsts/*/optional/format) with formats
// asserted: each case is compiled or refused as the ledger says, and for
// each test our verdict (the grammar accepts Canonical(S, data), or the data
// cannot be written at all) must equal the suite's "valid", but for the
// cases listed in formatSuiteKnown. Where the validator differs from the
// suite is counted and logged: there the suite, not the validator, is the
// judge. Each case's schema also goes through the generated check.
func TestFormatSuite(t *testing.T) {
	tl := &tally{}
	var ledger []string
	var tests, agree, known, oracleDiffers int
	seenKnown := map[string]bool{}
	for _, dir := range []struct {
		name  string
		draft subsetcheck.Draft
	}{{"draft7", subsetcheck.Draft7}, {"draft2020-12", subsetcheck.Draft2020}} {
		files, _ := filepath.Glob(filepath.Join("../testdata/jsts", dir.name, "optional/format/*.json"))
		if len(files) == 0 {
			t.Fatalf("no optional format files for %s", dir.name)
		}
		opts := subsetcheck.Options{DefaultDraft: dir.draft, AssertFormat: true}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var cases []suiteCase
			if err := json.Unmarshal(data, &cases); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for i, c := range cases {
				name := fmt.Sprintf("%s/optional/format/%s#%d", dir.name, filepath.Base(f), i)
				out := checkSchemaWith(t, tl, name, c.Schema, opts, *flagSeed)
				ledger = append(ledger, fmt.Sprintf("%s %q: %s", name, c.Description, out))
				if !out.compiled {
					continue
				}
				o, err := newOracle(c.Schema, out.checked)
				if err != nil {
					t.Errorf("%s: the oracle cannot compile the schema: %v", name, err)
					continue
				}
				for j, test := range c.Tests {
					where := fmt.Sprintf("%s test %d %q", name, j, test.Description)
					doc, err := subsetcheck.Read("data", test.Data, subsetcheck.Limits{})
					if err != nil {
						t.Errorf("%s: data not strict JSON: %v", where, err)
						continue
					}
					tests++
					text := Compact(doc.Root)
					ours := suiteVerdict(t, where, out, doc.Root, test.Valid)
					if ok, err := o.Valid(text); ok != test.Valid || err != nil {
						oracleDiffers++
						t.Logf("%s: the validator says %v (%v), the suite %v, we %v, for %s", where, ok, err, test.Valid, ours, text)
					}
					key := dir.name + " " + text
					switch why, isKnown := formatSuiteKnown[key]; {
					case ours == test.Valid && isKnown:
						t.Errorf("%s: listed in formatSuiteKnown (%s) but now agrees with the suite: drop it", where, why)
					case ours == test.Valid:
						agree++
					case isKnown:
						known++
						seenKnown[key] = true
					default:
						t.Errorf("%s: DISAGREES with the suite: %s is %v, our grammar says %v\n  schema: %s", where, text, test.Valid, ours, c.Schema)
					}
				}
			}
		}
	}
	for key := range formatSuiteKnown {
		if !seenKnown[key] {
			t.Errorf("formatSuiteKnown %q: no such disagreeing test any more", key)
		}
	}
	t.Logf("suite tests %d: agree %d, known differences %d, the validator differs from the suite on %d", tests, agree, known, oracleDiffers)
	t.Log(tl)
	got := strings.Join(ledger, "\n") + "\n"
	if *flagUpdate {
		if err := os.WriteFile(formatLedger, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(formatLedger)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	diffLedgers(t, string(want), got)
}

// suiteVerdict is our verdict on a suite test's data: whether the grammar
// accepts its canonical text. Canonical and the grammar must agree, and
// when the verdict is "invalid", no spelling of the data may be accepted.
func suiteVerdict(t *testing.T, where string, out outcome, v *subsetcheck.Value, suiteValid bool) bool {
	canon, cerr := compile.Canonical(out.checked, v)
	ours := cerr == nil && out.matcher.Accepts(canon)
	if cerr == nil && !ours {
		t.Errorf("%s: Canonical writes %q, which the grammar rejects", where, canon)
	}
	if !ours {
		for _, sp := range Spellings {
			if s := Text(v, sp); out.matcher.Accepts(s) {
				t.Errorf("%s: the grammar rejects the canonical text but accepts %q", where, s)
			}
		}
	}
	return ours
}

// The harness must catch a format grammar that accepts too much or too
// little: run it on a format schema with a wrong grammar swapped in.
func TestHarnessCatchesWrongFormatGrammars(t *testing.T) {
	const (
		d2   = `[0-9] [0-9]`
		year = d2 + ` ` + d2
	)
	for _, c := range []struct {
		format, grammar, want string
	}{
		// No leap second at all: 23:59:60Z is valid.
		{"time", `root ::= "\"" ([01] [0-9] | "2" [0-3]) ":" [0-5] [0-9] ":" [0-5] [0-9] ("." [0-9]+)? ([Zz] | [+-] ([01] [0-9] | "2" [0-3]) ":" [0-5] [0-9]) "\""`, "INCOMPLETE"},
		// A leap second in any minute: 22:59:60Z is not valid.
		{"time", `root ::= "\"" ([01] [0-9] | "2" [0-3]) ":" [0-5] [0-9] ":" ([0-5] [0-9] | "60") ("." [0-9]+)? ([Zz] | [+-] ([01] [0-9] | "2" [0-3]) ":" [0-5] [0-9]) "\""`, "UNSOUND"},
		// Every month has 31 days.
		{"date", `root ::= "\"" ` + year + ` "-" ("0" [1-9] | "1" [0-2]) "-" ("0" [1-9] | [12] [0-9] | "3" [01]) "\""`, "UNSOUND"},
		// Lower-case hex only.
		{"uuid", `root ::= "\"" h h h h h h h h "-" h h h h "-" h h h h "-" h h h h "-" h h h h h h h h h h h h "\""` + "\nh ::= [0-9a-f]", "INCOMPLETE"},
		// Octets up to 299.
		{"ipv4", `root ::= "\"" o "." o "." o "." o "\""` + "\no ::= [0-9] | [1-9] [0-9] | [12] [0-9] [0-9]", "UNSOUND"},
	} {
		schema := []byte(`{"type":"string","format":"` + c.format + `"}`)
		rec := &recorder{TB: t}
		out, ok := buildWith(t, "selftest", schema, assertFormat)
		if !ok || !out.compiled {
			t.Fatalf("selftest schema %s: %s", schema, out)
		}
		g, err := gbnf.Parse(c.grammar)
		if err != nil {
			t.Fatalf("%s: %v", c.grammar, err)
		}
		m, err := gbnf.NewMatcher(g)
		if err != nil {
			t.Fatal(err)
		}
		out.grammar, out.matcher = g, m
		o, err := newOracle(schema, out.checked)
		if err != nil {
			t.Fatal(err)
		}
		r := &run{t: rec, name: "selftest", schema: schema, seed: 1, out: out, oracle: o, tally: &tally{}}
		r.check()
		found := false
		for _, e := range rec.errors {
			found = found || strings.Contains(e, c.want)
		}
		if !found {
			t.Errorf("%s grammar %s: harness reported %d errors, none %q", c.format, c.grammar, len(rec.errors), c.want)
		}
	}
}

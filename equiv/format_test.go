package equiv

import (
	"strings"
	"testing"

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
	checkDir(t, "formats", 20, assertFormat)
	checkRefusedDir(t, "formats/refused", assertFormat)
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

package equiv

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

var flagUpdate = flag.Bool("update", false, "rewrite ledgers (testdata/jsts/ledger.txt) from this run")

const (
	suiteLedger        = "../testdata/jsts/ledger.txt"
	suiteLedgerLenient = "../testdata/jsts/ledger-lenient.txt"
)

type suiteCase struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

// TestSuite runs the official JSON-Schema-Test-Suite (the required files,
// and the optional ones on regular expressions): every case whose
// schema the checker admits must give the suite's verdict on each test's
// data (valid: the grammar accepts Canonical(S, data); invalid: Canonical
// fails and the grammar rejects the data's compact text), then goes through
// the generated equivalence check too. Which cases compile and which are
// refused (with which codes) is kept in a ledger; any change either way
// fails until the ledger is rewritten with -update.
func TestSuite(t *testing.T) { runSuite(t, subsetcheck.Exact, suiteLedger) }

// TestSuiteLenient runs the suite under the lenient profile: the suite's
// valid data is accepted (its canonical text, by the relaxed schema), its
// invalid data is rejected or breaks a constraint reported as relaxed, and
// the generated check runs as on any lenient grammar. Its ledger says which
// cases compile and which stay refused (the schema's own errors).
func TestSuiteLenient(t *testing.T) { runSuite(t, subsetcheck.Lenient, suiteLedgerLenient) }

func runSuite(t *testing.T, profile subsetcheck.Profile, ledgerFile string) {
	refLoader = remotes
	defer func() { refLoader = nil }()
	tl := &tally{}
	var ledger []string
	for _, dir := range []struct {
		name  string
		draft subsetcheck.Draft
	}{{"draft7", subsetcheck.Draft7}, {"draft2020-12", subsetcheck.Draft2020}} {
		files, _ := filepath.Glob(filepath.Join("../testdata/jsts", dir.name, "*.json"))
		optional, _ := filepath.Glob(filepath.Join("../testdata/jsts", dir.name, "optional", "*.json"))
		files = append(files, optional...)
		if len(files) == 0 {
			t.Fatalf("no suite files for %s", dir.name)
		}
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
				file := filepath.Base(f)
				if filepath.Base(filepath.Dir(f)) == "optional" {
					file = "optional/" + file
				}
				name := fmt.Sprintf("%s/%s#%d", dir.name, file, i)
				out := checkSchemaWith(t, tl, name, c.Schema, subsetcheck.Options{DefaultDraft: dir.draft, Profile: profile}, *flagSeed)
				ledger = append(ledger, fmt.Sprintf("%s %q: %s", name, c.Description, out))
				if out.compiled {
					runSuiteTests(t, tl, name, c, out)
				}
			}
		}
	}
	t.Log(tl)
	if profile == subsetcheck.Lenient {
		tl.noValid = slices.DeleteFunc(tl.noValid, func(name string) bool {
			reason, ok := lenientGeneratorGaps[name]
			if ok {
				t.Logf("%s: no valid value generated, known: %s", name, reason)
			}
			return ok
		})
	}
	tl.require(t, 200)
	got := strings.Join(ledger, "\n") + "\n"
	if *flagUpdate {
		if err := os.WriteFile(ledgerFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(ledgerFile)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	diffLedgers(t, string(want), got)
}

// lenientGeneratorGaps are the suite's cases, compiled by the lenient
// profile only, for which the generator makes no valid value, with why;
// the suite's own data still checks them (runSuiteTests).
var lenientGeneratorGaps = map[string]string{
	"draft2020-12/unevaluatedItems.json#12": "the value must meet the root's prefixItems and a oneOf branch's, and the generator takes the branch's alone",
}

// remotesPrefix is where the suite serves testdata/jsts/remotes; nothing is
// fetched: the harness reads the folder.
const remotesPrefix = "http://localhost:1234/"

// remotes reads the suite's remote documents from testdata/jsts/remotes.
func remotes(uri string) (string, []byte, error) {
	rest, ok := strings.CutPrefix(uri, remotesPrefix)
	if !ok || strings.Contains(rest, "..") {
		return "", nil, subsetcheck.ErrNotHandedIn
	}
	data, err := os.ReadFile(filepath.Join("../testdata/jsts/remotes", filepath.FromSlash(rest)))
	if err != nil {
		return "", nil, subsetcheck.ErrNotHandedIn
	}
	return uri, data, nil
}

// diffLedgers fails once per line that changed, naming both sides.
func diffLedgers(t *testing.T, want, got string) {
	w := strings.Split(strings.TrimSpace(want), "\n")
	g := strings.Split(strings.TrimSpace(got), "\n")
	key := func(line string) string { k, _, _ := strings.Cut(line, " "); return k }
	wm := map[string]string{}
	for _, l := range w {
		wm[key(l)] = l
	}
	gm := map[string]bool{}
	for _, l := range g {
		gm[key(l)] = true
		if old, ok := wm[key(l)]; !ok {
			t.Errorf("ledger: new case %s (run with -update if intended)", l)
		} else if old != l {
			t.Errorf("ledger changed (run with -update if intended):\n  was: %s\n  now: %s", old, l)
		}
	}
	for _, l := range w {
		if !gm[key(l)] {
			t.Errorf("ledger: case gone: %s", l)
		}
	}
}

func runSuiteTests(t *testing.T, tl *tally, name string, c suiteCase, out outcome) {
	o, err := newOracle(c.Schema, out.checked)
	if err != nil && out.checked.Profile == subsetcheck.Lenient && len(out.checked.Relaxed) > 0 {
		t.Logf("%s: the oracle cannot compile the schema (%v); skipped", name, err)
		return
	}
	if err != nil {
		t.Errorf("%s: the oracle cannot compile the schema: %v", name, err)
		return
	}
	for j, test := range c.Tests {
		where := fmt.Sprintf("%s test %d %q", name, j, test.Description)
		doc, err := subsetcheck.Read("data", test.Data, subsetcheck.Limits{})
		if err != nil {
			t.Logf("%s: data not strict JSON (%v); skipped", where, err)
			continue
		}
		text := Compact(doc.Root)
		if ok, err := o.Valid(text); ok != test.Valid || err != nil {
			t.Errorf("%s: the oracle says %v (%v), the suite %v", where, ok, err, test.Valid)
			continue
		}
		tl.add(func(t *tally) { t.texts++ })
		canon, cerr := compile.Canonical(out.checked, doc.Root)
		if !test.Valid && cerr == nil && out.checked.Profile == subsetcheck.Lenient {
			// Valid by the relaxed schema: it must break a relaxed
			// constraint, and the grammar takes it.
			if f, ok := relaxedFailure(out.checked, text); !ok {
				t.Errorf("%s: the relaxed schema accepts invalid data %s, and no relaxed constraint explains it: %v\n  schema: %s\n  relaxed: %v", where, text, f, c.Schema, out.checked.Relaxed)
			} else if !out.matcher.Accepts(canon) {
				t.Errorf("%s: INCOMPLETE: the lenient grammar rejects the canonical text %q of data its relaxed schema accepts\n  schema: %s", where, canon, c.Schema)
			}
			continue
		}
		if test.Valid {
			if cerr != nil {
				t.Errorf("%s: INCOMPLETE: Canonical refuses valid data %s: %v\n  schema: %s", where, text, cerr, c.Schema)
			} else if !out.matcher.Accepts(canon) {
				t.Errorf("%s: INCOMPLETE: the grammar rejects the canonical text %q of valid data\n  schema: %s", where, canon, c.Schema)
			}
			continue
		}
		if cerr == nil {
			t.Errorf("%s: Canonical accepts invalid data %s (gives %q)\n  schema: %s", where, text, canon, c.Schema)
		}
		for _, sp := range Spellings {
			if s := Text(doc.Root, sp); out.matcher.Accepts(s) {
				t.Errorf("%s: UNSOUND: the grammar accepts invalid data %q\n  schema: %s", where, s, c.Schema)
			}
		}
		if raw := string(test.Data); out.matcher.Accepts(raw) {
			t.Errorf("%s: UNSOUND: the grammar accepts invalid data as written %q\n  schema: %s", where, raw, c.Schema)
		}
	}
}

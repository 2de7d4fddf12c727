package equiv

import (
	"fmt"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/internal/oracle"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// recorder is a testing.TB that keeps errors instead of failing, so that a
// test can check that the harness does fail where it must.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Logf(string, ...any) {}

// The harness must catch a grammar that is unsound (accepts too much) and
// one that is incomplete (accepts too little): run it on the right schema
// with a wrong grammar swapped in. A grammar that follows the validator
// where it departs from the spec is wrong too: the harness judges counts
// past 2^63-1 by the spec (internal/oracle's TestCountQuirks), so minItems
// 2^64-1 read as the validator reads it (-1: any array) is unsound.
func TestHarnessCatchesWrongGrammars(t *testing.T) {
	digits := `{"type":"integer","minimum":0,"maximum":9}`
	for _, c := range []struct {
		schema, grammar, want string
	}{
		{digits, `root ::= "-"? [0-9]+`, "UNSOUND"},
		{digits, `root ::= [1-9]`, "INCOMPLETE"},
		{digits, `root ::= [^"]+`, "not strict JSON"},
		{`{"type":"array","items":{"type":"null"},"minItems":18446744073709551615}`, `root ::= "[" ("null" ("," "null")*)? "]"`, "UNSOUND"},
	} {
		schema := []byte(c.schema)
		tl := &tally{}
		rec := &recorder{TB: t}
		out, ok := build(t, "selftest", schema, subsetcheck.Draft2020)
		if !ok || !out.compiled {
			t.Fatalf("selftest schema: %s", out)
		}
		g, err := gbnf.Parse(c.grammar)
		if err != nil {
			t.Fatal(err)
		}
		m, err := gbnf.NewMatcher(g)
		if err != nil {
			t.Fatal(err)
		}
		out.grammar, out.matcher = g, m
		o, err := oracle.New(schema, out.checked.Draft)
		if err != nil {
			t.Fatal(err)
		}
		r := &run{t: rec, name: "selftest", schema: schema, seed: 1, out: out, oracle: o, tally: tl}
		r.check()
		found := false
		for _, e := range rec.errors {
			if strings.Contains(e, c.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("grammar %s: harness reported %d errors, none %q", c.grammar, len(rec.errors), c.want)
		}
	}
}

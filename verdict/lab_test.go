package verdict

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/schema2gbnf/schema2gbnf"
)

// The lab of the structured-outputs lesson: a ticket classifier's contract,
// in two versions, eight replies, and eight outputs per reply. v2 adds an
// optional nullable due_at and narrows priority.
const (
	labV1 = `{"type":"object","properties":{
		"category":{"enum":["billing","technical","account","other"]},
		"priority":{"enum":["low","medium","high"]},
		"requires_human":{"type":"boolean"},
		"evidence_ids":{"type":"array","items":{"type":"string"}}},
	  "required":["category","priority","requires_human","evidence_ids"],"additionalProperties":false}`
	labV2 = `{"type":"object","properties":{
		"category":{"enum":["billing","technical","account","other"]},
		"priority":{"enum":["medium","high"]},
		"requires_human":{"type":"boolean"},
		"evidence_ids":{"type":"array","items":{"type":"string"}},
		"due_at":{"type":["string","null"]}},
	  "required":["category","priority","requires_human","evidence_ids"],"additionalProperties":false}`
)

// labDomain is the application's own rules: every evidence ID is one the
// ticket holds, and high priority needs a human.
func labDomain(text []byte) error {
	var t struct {
		Priority      string   `json:"priority"`
		RequiresHuman bool     `json:"requires_human"`
		EvidenceIDs   []string `json:"evidence_ids"`
	}
	if err := json.Unmarshal(text, &t); err != nil {
		return err
	}
	for i, id := range t.EvidenceIDs {
		if !slices.Contains([]string{"E1", "E2", "E3"}, id) {
			return &DomainError{Rule: "evidence-known", InstancePointer: fmt.Sprintf("/evidence_ids/%d", i), Message: "evidence " + id + " is not in the ticket"}
		}
	}
	if t.Priority == "high" && !t.RequiresHuman {
		return &DomainError{Rule: "high-needs-human", InstancePointer: "/requires_human", Message: "priority high needs requires_human true"}
	}
	return nil
}

func labJudge(t *testing.T, schema string) *Judge {
	t.Helper()
	g, err := schema2gbnf.Compile([]byte(schema), schema2gbnf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	j, err := New(g, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	return j.WithDomain(labDomain)
}

// gateResult is what a verdict says of one gate: "pass", "fail", or "not
// run" when an earlier gate failed.
func gateResult(v Verdict, g Gate) string {
	order := []Gate{GateTerminal, GateParse, GateSchema, GateDomain}
	at, of := slices.Index(order, v.Gate), slices.Index(order, g)
	switch {
	case of < at:
		return "pass"
	case of > at:
		return "not run"
	case v.Class == CompleteValid:
		return "pass"
	}
	return "fail"
}

// compatibility compares an output's verdicts under the two versions.
func compatibility(v1, v2 Verdict) string {
	switch ok1, ok2 := v1.Class == CompleteValid, v2.Class == CompleteValid; {
	case ok1 && ok2:
		return "valid under both"
	case ok1:
		return "valid under v1 only: " + string(v2.Class) + " under v2"
	case ok2:
		return "valid under v2 only"
	case v1.Class == v2.Class:
		return "the same failure under both"
	}
	return string(v1.Class) + " under v1, " + string(v2.Class) + " under v2"
}

// TestLab: eight fixtures by eight outputs, 64 assertions, with the gates
// run in order and later gates not run once one fails.
func TestLab(t *testing.T) {
	v1, v2 := labJudge(t, labV1), labJudge(t, labV2)
	type outputs struct {
		terminal, parse, schema, domain string
		promote                         bool
		class                           Class
		retry                           bool
		compat                          string
	}
	for _, c := range []struct {
		name, reply string
		want        outputs
	}{
		{"valid baseline", completion(`{"category":"billing","priority":"medium","requires_human":false,"evidence_ids":["E1"]}`, "eos"),
			outputs{"pass", "pass", "pass", "pass", true, CompleteValid, false, "valid under both"}},
		{"malformed JSON", completion(`{"category": "billing", "priority": "medium" "requires_human": false}`, "eos"),
			outputs{"pass", "fail", "not run", "not run", false, ParseError, false, "the same failure under both"}},
		{"missing required field", completion(`{"category":"billing","priority":"medium","requires_human":false}`, "eos"),
			outputs{"pass", "pass", "fail", "not run", false, OffGrammar, false, "the same failure under both"}},
		{"several violations", completion(`{"category":"shipping","priority":"urgent","requires_human":"no","evidence_ids":"E1","confidence":0.9}`, "eos"),
			outputs{"pass", "pass", "fail", "not run", false, OffGrammar, false, "the same failure under both"}},
		{"refusal", chat(`null`, js("I can't classify this ticket."), "stop"),
			outputs{"fail", "not run", "not run", "not run", false, Refusal, false, "the same failure under both"}},
		{"incomplete", completion(`{"category":"billing","priority":"med`, "limit"),
			outputs{"fail", "not run", "not run", "not run", false, Incomplete, true, "the same failure under both"}},
		{"unknown evidence", completion(`{"category":"technical","priority":"high","requires_human":true,"evidence_ids":["E1","E9"]}`, "eos"),
			outputs{"pass", "pass", "pass", "fail", false, DomainInvalid, false, "the same failure under both"}},
		{"v2 narrows priority", completion(`{"category":"account","priority":"low","requires_human":false,"evidence_ids":["E2"]}`, "eos"),
			outputs{"pass", "pass", "pass", "pass", true, CompleteValid, false, "valid under v1 only: OFF_GRAMMAR under v2"}},
	} {
		a, b := v1.JudgeReply([]byte(c.reply)), v2.JudgeReply([]byte(c.reply))
		got := outputs{gateResult(a, GateTerminal), gateResult(a, GateParse), gateResult(a, GateSchema), gateResult(a, GateDomain),
			a.Class == CompleteValid, a.Class, a.Retry, compatibility(a, b)}
		if got != c.want {
			t.Errorf("%s:\n got %+v (%s)\nwant %+v", c.name, got, a.Message, c.want)
		}
		if a.Provenance == nil || b.Provenance == nil || a.Provenance.Schema == b.Provenance.Schema {
			t.Errorf("%s: the verdicts do not say which version judged them: %+v %+v", c.name, a.Provenance, b.Provenance)
		}
	}
	// v2's own additions: due_at absent, null or a string are all valid, and
	// stay as written (nothing is filled in or dropped).
	for _, text := range []string{
		`{"category":"other","priority":"medium","requires_human":false,"evidence_ids":[]}`,
		`{"category":"other","priority":"medium","requires_human":false,"evidence_ids":[],"due_at":null}`,
		`{"category":"other","priority":"medium","requires_human":false,"evidence_ids":[],"due_at":"2026-12-01"}`,
	} {
		if v := v2.Judge([]byte(text)); v.Class != CompleteValid || v.Note != "" {
			t.Errorf("v2: %s: %s %s", text, v.Class, v.Message)
		}
	}
	// the domain rule on priority, and where it points
	v := v1.Judge([]byte(`{"category":"billing","priority":"high","requires_human":false,"evidence_ids":[]}`))
	if v.Class != DomainInvalid || v.Keyword != "high-needs-human" || v.InstancePointer != "/requires_human" || v.Gate != GateDomain || v.Retry {
		t.Errorf("high priority without a human: %+v", v)
	}
}

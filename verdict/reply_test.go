package verdict

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf"
)

// completion is a llama-server /completion reply.
func completion(content, stopType string) string {
	b, _ := json.Marshal(map[string]any{"content": content, "stop": true, "stop_type": stopType, "tokens_predicted": 7})
	return string(b)
}

// chat is an OpenAI-compatible chat completion reply; content and refusal
// are JSON values (null, or a string).
func chat(content, refusal, finish string) string {
	return `{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":` +
		content + `,"refusal":` + refusal + `},"finish_reason":"` + finish + `"}]}`
}

func js(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestJudgeReply: every terminal state of a reply, in both forms, and that
// later gates do not run once one fails.
func TestJudgeReply(t *testing.T) {
	j := mustJudge(t, person, Limits{})
	for _, c := range []struct {
		name, reply string
		class       Class
		gate        Gate
		retry       bool
		stop        string
	}{
		// terminal state: errors are never judged as text
		{"http 400", `{"error":{"code":400,"message":"\"json_schema\": unsupported","type":"invalid_request_error"}}`, ProviderError, GateTerminal, false, ""},
		{"http 503", `{"error":{"code":503,"message":"Loading model","type":"unavailable_error"}}`, ProviderError, GateTerminal, true, ""},
		{"http 500", `{"error":{"code":500,"message":"got exception: Unexpected empty grammar stack after accepting piece: \u001c (30)","type":"server_error"}}`, ProviderError, GateTerminal, false, ""},
		{"http 502", `{"error":{"code":502,"message":"bad gateway"}}`, ProviderError, GateTerminal, true, ""},
		{"openai error", `{"error":{"message":"Rate limit","type":"requests","code":"rate_limit_exceeded"}}`, ProviderError, GateTerminal, true, ""},
		{"string error", `{"error":"bad"}`, ProviderError, GateTerminal, false, ""},
		{"empty body", ``, ProviderError, GateTerminal, true, ""},
		{"html body", `<html>502 Bad Gateway</html>`, ProviderError, GateTerminal, true, ""},
		{"null text", `null`, ProviderError, GateTerminal, false, ""},
		{"no text", `{"model":"x"}`, ProviderError, GateTerminal, false, ""},
		{"no choices", `{"choices":[]}`, ProviderError, GateTerminal, false, ""},
		{"tool call", chat(`null`, `null`, "tool_calls"), ProviderError, GateTerminal, false, "tool_calls"},
		{"refusal", chat(`null`, js("I can't help with that."), "stop"), Refusal, GateTerminal, false, "stop"},
		{"content filter", chat(`null`, `null`, "content_filter"), Refusal, GateTerminal, false, "content_filter"},
		{"limit", completion(`{"name":"Ad`, "limit"), Incomplete, GateTerminal, true, "limit"},
		{"length", chat(js(`{"name":"Ad`), `null`, "length"), Incomplete, GateTerminal, true, "length"},
		{"limit, off the grammar", completion(`{"name":"Ad", "x`, "limit"), Incomplete, GateTerminal, true, "limit"},
		{"limit, value complete", completion(`{"name":"Ada"}`, "limit"), CompleteValid, GateSchema, false, "limit"},
		{"old flags", `{"content":"{\"name\":\"Ad","stopped_limit":true}`, Incomplete, GateTerminal, true, "limit"},
		// parse: a stop by the model goes on as it is
		{"eos, cut short", completion(`{"name":"Ad`, "eos"), ParseError, GateParse, false, "eos"},
		{"eos, empty", completion(``, "eos"), ParseError, GateParse, false, "eos"},
		{"word", completion(`{"name":"Ada"`, "word"), ParseError, GateParse, false, "word"},
		{"stop, not JSON", chat(js(`Sure! {"name":"Ada"}`), `null`, "stop"), ParseError, GateParse, false, "stop"},
		// schema
		{"eos, schema", completion(`{"name":1}`, "eos"), OffGrammar, GateSchema, false, "eos"},
		{"eos, valid", completion(`{"name":"Ada"}`, "eos"), CompleteValid, GateSchema, false, "eos"},
		{"stop, valid", chat(js(`{"name":"Ada","age":36}`), `null`, "stop"), CompleteValid, GateSchema, false, "stop"},
		{"completions text", `{"choices":[{"text":"{\"name\":\"Ada\"}","finish_reason":"stop"}]}`, CompleteValid, GateSchema, false, "stop"},
		{"trailing whitespace", completion("{\"name\":\"Ada\"}\n \n", "eos"), CompleteValid, GateSchema, false, "eos"},
		// no terminal state given: the text says it
		{"stop_type none", completion(`{"name":"Ad`, "none"), Incomplete, GateTerminal, true, "none"},
		{"no finish_reason", `{"choices":[{"message":{"content":"{\"name\":\"Ada\"}"}}]}`, CompleteValid, GateSchema, false, ""},
	} {
		v := j.JudgeReply([]byte(c.reply))
		if v.Class != c.class || v.Gate != c.gate || v.Retry != c.retry || v.Stop != c.stop || v.Message == "" {
			t.Errorf("%s: %s: got %s gate=%s retry=%v stop=%q (%s), want %s gate=%s retry=%v stop=%q",
				c.name, c.reply, v.Class, v.Gate, v.Retry, v.Stop, v.Message, c.class, c.gate, c.retry, c.stop)
		}
		if v.Provenance == nil || !strings.HasPrefix(v.Provenance.Schema, "sha256:") || v.Provenance.Version != schema2gbnf.Version {
			t.Errorf("%s: provenance %+v", c.name, v.Provenance)
		}
		if (c.class == ProviderError) != (v.Error != nil) {
			t.Errorf("%s: error %+v", c.name, v.Error)
		}
		if c.class == ProviderError || c.class == Refusal {
			if v.Offset != -1 || v.Next != nil {
				t.Errorf("%s: a reply with no output was judged as text: %+v", c.name, v)
			}
		}
	}
}

// TestJudgeReplyIncompleteNext: a stop at the token limit says what the
// grammar allows next, in the words of Judge.
func TestJudgeReplyIncompleteNext(t *testing.T) {
	j := mustJudge(t, person, Limits{})
	v := j.JudgeReply([]byte(completion(`{"na`, "limit")))
	check(t, `{"na`, v, want{class: Incomplete, offset: 4, next: "m", literal: `me"`, gate: GateTerminal})
	// a number the grammar could extend is not complete at the limit
	n := mustJudge(t, `{"type":"integer"}`, Limits{})
	check(t, `12`, n.JudgeReply([]byte(completion(`12`, "limit"))), want{class: Incomplete, offset: 2, next: "0-9", gate: GateTerminal})
	check(t, `12`, n.JudgeReply([]byte(completion(`12`, "eos"))), want{class: CompleteValid, offset: 2, gate: GateSchema})
}

func TestJudgeReplyTooLarge(t *testing.T) {
	j := mustJudge(t, person, Limits{MaxTextBytes: 10})
	if v := j.JudgeReply([]byte(completion(`{"name":"a"}`, "eos"))); v.Class != LimitExceeded || v.Retry {
		t.Errorf("got %+v", v)
	}
}

// TestRetry: only INCOMPLETE and a busy or unreachable server may be
// retried.
func TestRetry(t *testing.T) {
	j := mustJudge(t, person, Limits{})
	for _, text := range []string{`{"name":"a"}`, `{"na`, `{"name":1}`, `nope`, `{"age":1,"name":"a"}`} {
		v := j.Judge([]byte(text))
		if v.Retry != (v.Class == Incomplete) {
			t.Errorf("%q: %s retry=%v", text, v.Class, v.Retry)
		}
	}
}

// FuzzReadReply: any body ends in a verdict of the closed set; one without
// an output is never judged as text.
func FuzzReadReply(f *testing.F) {
	for _, s := range []string{``, `{}`, `null`, `[]`, `{"error":{}}`, `{"error":{"code":"x"}}`, completion(`{"name":"a"}`, "eos"),
		chat(`null`, `"no"`, "stop"), chat(`"{"`, `null`, "length"), `{"choices":[null]}`, `{"choices":[{"message":null}]}`} {
		f.Add(s)
	}
	j := mustJudge(f, person, Limits{})
	f.Fuzz(func(t *testing.T, body string) {
		v := j.JudgeReply([]byte(body))
		known := false
		for _, c := range Classes {
			known = known || c == v.Class
		}
		if !known || v.Message == "" || v.Gate == "" {
			t.Fatalf("%q: %+v", body, v)
		}
		if (v.Class == ProviderError || v.Class == Refusal) && v.Offset != -1 {
			t.Fatalf("%q: judged as text: %+v", body, v)
		}
	})
}

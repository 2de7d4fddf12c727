package verdict_test

import (
	"fmt"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/verdict"
)

// Judge the server's whole reply: its terminal state first, so an error is
// never judged as text and a reply cut at the token limit is never parsed;
// Retry says which failures a bounded retry may cure.
func ExampleJudge_JudgeReply() {
	g, err := schema2gbnf.Compile([]byte(`{"type":"object","properties":{"ok":{"type":"boolean"}},"required":["ok"],"additionalProperties":false}`), schema2gbnf.Options{})
	if err != nil {
		panic(err)
	}
	j, err := verdict.New(g, verdict.Limits{})
	if err != nil {
		panic(err)
	}
	for _, reply := range []string{
		`{"content": "{\"ok\":true}", "stop_type": "eos"}`,
		`{"content": "{\"ok\":tr", "stop_type": "limit"}`,
		`{"error": {"code": 400, "message": "failed to parse grammar", "type": "invalid_request_error"}}`,
		`{"choices": [{"message": {"content": null, "refusal": "I can't help with that."}, "finish_reason": "stop"}]}`,
		`{"choices": [{"message": {"content": "{\"ok\":1}"}, "finish_reason": "stop"}]}`,
	} {
		v := j.JudgeReply([]byte(reply))
		fmt.Printf("%s (gate %s, retry %v)\n", v.Class, v.Gate, v.Retry)
	}
	// Output:
	// COMPLETE_VALID (gate schema, retry false)
	// INCOMPLETE (gate terminal, retry true)
	// PROVIDER_ERROR (gate terminal, retry false)
	// REFUSAL (gate terminal, retry false)
	// OFF_GRAMMAR (gate schema, retry false)
}

package verdict

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// ReplyError is a reply's error body: llama-server's
// {"error": {"code": 400, "message": ..., "type": "invalid_request_error"}},
// or an OpenAI-compatible one, whose code may be a string.
type ReplyError struct {
	Status  int    `json:"status,omitempty"` // the HTTP status the body gives, when it gives one
	Code    string `json:"code,omitempty"`   // a code that is not a status
	Type    string `json:"type,omitempty"`
	Message string `json:"message"`
}

// Types of ReplyError that ReadReply gives a body that holds no reply.
const (
	noReply = "no_reply" // an empty body
	notJSON = "not_json" // a body that is not a JSON object (a proxy's HTML page)
)

// retryable says whether the error is one a retry may cure: the server was
// busy, overloaded or unreachable. Not a 4xx (the request is refused) nor a
// 500: llama-server answers 500 when the request itself made it fail (the
// grammar met a literal the vocabulary cannot spell), which a retry repeats.
func (e *ReplyError) retryable() bool {
	switch e.Status {
	case 408, 429, 502, 503, 504:
		return true
	}
	switch e.Type {
	case "unavailable_error", noReply, notJSON: // busy, or no answer from the server at all
		return true
	}
	return e.Code == "rate_limit_exceeded"
}

// JudgeReply judges a server's reply body, as the server sent it: a
// llama-server /completion response ({"content", "stop_type", ...}), an
// OpenAI-compatible chat completion ({"choices": [{"message": {"content",
// "refusal"}, "finish_reason"}]}) or completion (choices[0].text), or an
// error body ({"error": ...}). The reply's terminal state is the first gate:
//
//   - an error body, a body that is not JSON (curl -s leaves an empty one
//     when the connection fails) or holds no text: PROVIDER_ERROR, never
//     judged as text; Retry when the server was busy or unreachable;
//   - a refusal (message.refusal, or finish_reason "content_filter"):
//     REFUSAL;
//   - a stop at the token limit (stop_type "limit", finish_reason
//     "length"): INCOMPLETE with what the grammar allows next, unless the
//     grammar took the whole text and allows nothing after it;
//   - a stop by the model (stop_type "eos" or "word", finish_reason
//     "stop"): the text goes on to the parse gate as it is, so a value cut
//     short is a PARSE_ERROR there, never completed by guessing.
//
// Only choices[0] is judged.
func (j *Judge) JudgeReply(body []byte) Verdict {
	if len(body) > j.lim.MaxTextBytes {
		return Verdict{Class: LimitExceeded, Gate: GateTerminal, Offset: -1, Provenance: j.prov, Limit: "MaxTextBytes",
			Message: fmt.Sprintf("the reply is %d bytes, more than Limits.MaxTextBytes (%d)", len(body), j.lim.MaxTextBytes)}
	}
	r := ReadReply(body)
	if r.Error != nil {
		return Verdict{Class: ProviderError, Gate: GateTerminal, Retry: r.Error.retryable(), Offset: -1, Provenance: j.prov,
			Stop: r.Stop, Error: r.Error, Message: "the reply is an error, not an output: " + r.Error.Message}
	}
	if r.Refusal != "" {
		return Verdict{Class: Refusal, Gate: GateTerminal, Offset: -1, Provenance: j.prov, Stop: r.Stop,
			Message: "the model refused: " + r.Refusal}
	}
	st := stopUnknown
	switch r.Stop {
	case "eos", "word", "stop":
		st = stopComplete
	case "limit", "length":
		st = stopLimit
	}
	return j.judge([]byte(r.Text), st, r.Stop)
}

// Reply is what ReadReply found in a reply body.
type Reply struct {
	Text    string      // the output
	Stop    string      // stop_type or finish_reason, as written
	Refusal string      // why the model refused, when it did
	Error   *ReplyError // the error, for a reply that holds no output
}

// ReadReply reads a reply body (see JudgeReply). A body that is not a reply
// it knows comes back with Error set.
func ReadReply(body []byte) Reply {
	var raw struct {
		Error    json.RawMessage `json:"error"`
		Content  *string         `json:"content"`
		StopType string          `json:"stop_type"`
		// llama-server releases before stop_type said it with flags.
		StoppedEOS   bool `json:"stopped_eos"`
		StoppedWord  bool `json:"stopped_word"`
		StoppedLimit bool `json:"stopped_limit"`
		Choices      *[]struct {
			Message *struct {
				Content *string `json:"content"`
				Refusal *string `json:"refusal"`
			} `json:"message"`
			Text         *string `json:"text"`
			FinishReason *string `json:"finish_reason"`
		} `json:"choices"`
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return Reply{Error: &ReplyError{Type: noReply, Message: "the reply is empty (curl -s writes nothing when the connection fails)"}}
	}
	if err := json.Unmarshal(trimmed, &raw); err != nil {
		return Reply{Error: &ReplyError{Type: notJSON, Message: "the reply is not a JSON object: " + err.Error()}}
	}
	if len(raw.Error) > 0 && string(raw.Error) != "null" {
		return Reply{Error: readError(raw.Error)}
	}
	if raw.Choices != nil {
		if len(*raw.Choices) == 0 {
			return Reply{Error: &ReplyError{Type: "no_choice", Message: "the reply has no choices"}}
		}
		c := (*raw.Choices)[0]
		r := Reply{}
		if c.FinishReason != nil {
			r.Stop = *c.FinishReason
		}
		if c.Message != nil && c.Message.Refusal != nil && *c.Message.Refusal != "" {
			r.Refusal = *c.Message.Refusal
			return r
		}
		if r.Stop == "content_filter" {
			r.Refusal = "finish_reason content_filter: the provider's filter withheld the output"
			return r
		}
		switch {
		case c.Message != nil && c.Message.Content != nil:
			r.Text = *c.Message.Content
		case c.Text != nil:
			r.Text = *c.Text
		default:
			r.Error = &ReplyError{Type: "no_text", Message: "choices[0] holds no text (finish_reason " + strconv.Quote(r.Stop) + ")"}
			return r
		}
		switch r.Stop {
		case "stop", "length", "":
		default: // tool_calls, function_call, or a reason we do not know
			r.Error = &ReplyError{Type: "unknown_finish", Message: "finish_reason " + strconv.Quote(r.Stop) + " says the reply is not a finished output"}
		}
		return r
	}
	if raw.Content == nil {
		return Reply{Error: &ReplyError{Type: "no_text", Message: `the reply is neither an error, a llama-server /completion response ("content") nor a chat completion ("choices")`}}
	}
	r := Reply{Text: *raw.Content, Stop: raw.StopType}
	if r.Stop == "" {
		switch {
		case raw.StoppedLimit:
			r.Stop = "limit"
		case raw.StoppedEOS:
			r.Stop = "eos"
		case raw.StoppedWord:
			r.Stop = "word"
		}
	}
	return r
}

// readError reads an error member: an object, or a bare string.
func readError(raw json.RawMessage) *ReplyError {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return &ReplyError{Message: s}
	}
	var e struct {
		Code    json.RawMessage `json:"code"`
		Type    string          `json:"type"`
		Message string          `json:"message"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return &ReplyError{Message: "an error of unknown form: " + string(raw)}
	}
	out := &ReplyError{Type: e.Type, Message: e.Message}
	var n int
	if json.Unmarshal(e.Code, &n) == nil {
		out.Status = n
	} else if json.Unmarshal(e.Code, &s) == nil {
		out.Code = s
	}
	if out.Message == "" {
		out.Message = "an error without a message: " + string(raw)
	}
	return out
}

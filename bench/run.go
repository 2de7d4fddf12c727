package bench

import (
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Status is what became of one schema.
type Status string

const (
	Compiled Status = "compiled" // a grammar came out
	Refused  Status = "refused"  // an ErrorList came out: the schema is outside the profile
	Crash    Status = "crash"    // Compile panicked: a bug
	Failed   Status = "error"    // an error that is not an ErrorList: a bug
	Hang     Status = "hang"     // still running after Guard.AbandonAfter: a bug
)

// Guard bounds one compile. A compile slower than SlowAfter is flagged but
// left to finish (measure, don't kill); one still running after AbandonAfter
// is left behind in its goroutine and reported as a hang, so that one bad
// schema cannot stop a corpus run.
type Guard struct {
	SlowAfter    time.Duration
	AbandonAfter time.Duration
	Options      schema2gbnf.Options
}

// DefaultGuard flags compiles over 2 s and gives up waiting after 60 s.
var DefaultGuard = Guard{SlowAfter: 2 * time.Second, AbandonAfter: 60 * time.Second}

// Outcome is the record of one compile.
type Outcome struct {
	Status       Status
	Codes        []subsetcheck.Code // distinct problem codes of a refusal, sorted
	Keywords     []string           // distinct keywords refused (S201), sorted
	Formats      []string           // distinct format names refused (S210), sorted
	Micros       int64              // wall time of Compile, in µs
	Slow         bool               // Micros passed Guard.SlowAfter
	GrammarBytes int                // len(GBNF)
	Rules        int                // number of rules
	Detail       string             // first problem, panic message with stack, or error text
	Relaxed      []string           // lenient profile: "CODE keyword" per relaxation
	Grammar      *schema2gbnf.Grammar
}

// Compile runs schema2gbnf.Compile on data under the guard.
func (g Guard) Compile(data []byte) Outcome {
	done := make(chan Outcome, 1) // buffered: an abandoned compile must not block forever on send
	go func() {
		var out Outcome
		start := time.Now()
		defer func() {
			if r := recover(); r != nil {
				out = Outcome{Status: Crash, Detail: fmt.Sprintf("panic: %v\n%s", r, shortStack())}
			}
			out.Micros = time.Since(start).Microseconds()
			done <- out
		}()
		out = classify(schema2gbnf.Compile(data, g.Options))
	}()
	abandon := g.AbandonAfter
	if abandon <= 0 {
		abandon = DefaultGuard.AbandonAfter
	}
	timer := time.NewTimer(abandon)
	defer timer.Stop()
	select {
	case out := <-done:
		out.Slow = g.SlowAfter > 0 && time.Duration(out.Micros)*time.Microsecond > g.SlowAfter
		return out
	case <-timer.C:
		return Outcome{Status: Hang, Slow: true, Micros: abandon.Microseconds(),
			Detail: fmt.Sprintf("still compiling after %v; abandoned", abandon)}
	}
}

func classify(gr *schema2gbnf.Grammar, err error) Outcome {
	if err == nil {
		if gr == nil || gr.Rules == nil {
			return Outcome{Status: Failed, Detail: "Compile returned neither a grammar nor an error"}
		}
		var relaxed []string
		for _, p := range gr.Relaxed {
			relaxed = append(relaxed, string(p.Code)+" "+lastSegment(p.Pointer))
		}
		return Outcome{Status: Compiled, Grammar: gr, GrammarBytes: len(gr.GBNF), Rules: len(gr.Rules.Rules), Relaxed: relaxed}
	}
	var list subsetcheck.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		return Outcome{Status: Failed, Detail: err.Error()}
	}
	seen := map[subsetcheck.Code]bool{}
	seenKeyword := map[string]bool{}
	var codes []subsetcheck.Code
	var keywords, formats []string
	for _, p := range list {
		if !seen[p.Code] {
			seen[p.Code] = true
			codes = append(codes, p.Code)
		}
		if k := lastSegment(p.Pointer); p.Code == subsetcheck.CodeRefusedKeyword && !seenKeyword[k] {
			seenKeyword[k] = true
			keywords = append(keywords, k)
		}
		if f, ok := refusedFormat(p); ok && !slices.Contains(formats, f) {
			formats = append(formats, f)
		}
	}
	sort.Slice(codes, func(i, j int) bool { return codes[i] < codes[j] })
	sort.Strings(keywords)
	sort.Strings(formats)
	return Outcome{Status: Refused, Codes: codes, Keywords: keywords, Formats: formats, Detail: truncate(list[0].Error(), 300)}
}

// refusedFormat is the format name an S210 problem names: its message
// starts with format "NAME".
func refusedFormat(p *subsetcheck.Problem) (string, bool) {
	rest, ok := strings.CutPrefix(p.Message, "format ")
	if p.Code != subsetcheck.CodeFormatNotExact || !ok {
		return "", false
	}
	q, err := strconv.QuotedPrefix(rest)
	if err != nil {
		return "", false
	}
	name, err := strconv.Unquote(q)
	return name, err == nil
}

// lastSegment is the last reference token of a JSON Pointer, unescaped: the
// keyword a refusal points at.
func lastSegment(ptr string) string {
	seg := ptr[strings.LastIndexByte(ptr, '/')+1:]
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(seg)
}

// shortStack keeps the frames nearest the panic, enough to find the bug.
func shortStack() string {
	lines := strings.Split(string(debug.Stack()), "\n")
	// Skip the goroutine header and the frames of debug.Stack, shortStack and the deferred func.
	if len(lines) > 7 {
		lines = lines[7:]
	}
	if len(lines) > 24 {
		lines = lines[:24]
	}
	return strings.Join(lines, "\n")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

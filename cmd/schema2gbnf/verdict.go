package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
	"github.com/schema2gbnf/schema2gbnf/verdict"
)

// Exit codes of the verdict verb, one per class; 0, 1 and 2 mean what they
// mean for every verb.
var verdictExit = map[verdict.Class]int{
	verdict.CompleteValid:   0,
	verdict.RefusedSchema:   1,
	verdict.Incomplete:      3,
	verdict.ParseError:      4,
	verdict.OffGrammar:      5,
	verdict.GrammarMismatch: 6,
	verdict.LimitExceeded:   7,
	verdict.ProviderError:   8,
	verdict.Refusal:         9,
	verdict.DomainInvalid:   10, // the library's domain gate; the CLI has none
	verdict.SchemaInvalid:   11,
}

// maxJSONLLineBytes bounds one line of --jsonl input; a longer line stops
// the batch with exit 2.
const maxJSONLLineBytes = 64 << 20

const verdictUsage = `usage: schema2gbnf verdict [flags] SCHEMA [TEXT|-]

Judges a model's output (TEXT, default stdin) against SCHEMA, with the
grammar compiled from it (or the one given by -grammar). With -reply, TEXT is
the server's whole reply: a llama-server /completion response or an
OpenAI-compatible chat completion, error bodies included. The gates run in
order, and the first that fails decides; later gates do not run:

  terminal  PROVIDER_ERROR    the reply is an error (or empty: the         exit 8
                              connection failed); never judged as text
            REFUSAL           the model refused (message.refusal)          exit 9
            INCOMPLETE        stopped at the token limit (-reply), or a    exit 3
                              prefix the grammar could still complete:
                              where, and what may come next
  parse     PARSE_ERROR       not strict JSON: where, the reader's code    exit 4
  schema    OFF_GRAMMAR       the schema rejects the value: keyword,       exit 5
                              schema_pointer, instance_pointer
            SCHEMA_INVALID    a lenient grammar took the text, and the     exit 11
                              whole schema, validated after decoding,
                              rejects it for a constraint the grammar
                              relaxed: keyword, schema_pointer,
                              instance_pointer (-profile lenient, or a
                              -grammar whose provenance says so)
            COMPLETE_VALID    the schema accepts the value                 exit 0
                              (a note says when it is not written the
                              grammar's way: member order, 1.0, escapes,
                              whitespace)

  REFUSED_SCHEMA    the schema does not compile (problems listed)          exit 1
  (usage or I/O error)                                                     exit 2
  GRAMMAR_MISMATCH  -grammar disagrees with SCHEMA: not compiled from it   exit 6
  LIMIT_EXCEEDED    too large to judge: the limit and its flag are named   exit 7

Every verdict says whether a bounded retry may help ("retry": INCOMPLETE,
and a server that was busy or unreachable) and carries the grammar's
provenance (the schema's hash, the compiler's version).

` + finalNewlineRule + ` A reply (-reply) is JSON: its text
is judged as it is.

-jsonl judges a batch: each line of TEXT is a JSON string holding one output,
or an object {"id": ANY, "text": STRING}; with -reply, a reply, or an object
{"id": ANY, "reply": REPLY}. Blank lines are skipped. Each verdict is printed
as one JSON line (with "input_line" and "id"); a summary
{"total":N,"counts":{CLASS:N,...},"bad_lines":N} is the last line on stderr.
A line that is neither prints {"input_line":N,"error":"..."}. The exit status
is 2 when some line was neither, else 0 when every text is COMPLETE_VALID,
else the highest status of its verdicts.

flags:
`

type verdictFlags struct {
	compileFlags
	asJSON  bool
	jsonl   bool
	reply   bool
	grammar string
	exact   bool
	judge   judgeLimitFlags
}

// runVerdict is "schema2gbnf verdict".
func runVerdict(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	f := verdictFlags{compileFlags: compileFlags{whitespace: "bounded"}}
	fs := flag.NewFlagSet("schema2gbnf verdict", flag.ContinueOnError)
	help := func(w io.Writer) {
		fmt.Fprint(w, verdictUsage)
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
	fs.BoolVar(&f.asJSON, "json", false, "print the verdict as one JSON object")
	fs.BoolVar(&f.jsonl, "jsonl", false, "batch: TEXT holds JSON Lines, one output per line (see above)")
	fs.BoolVar(&f.reply, "reply", false, "TEXT is a server's reply (llama-server /completion, or a chat completion), judged from its terminal state on")
	fs.StringVar(&f.grammar, "grammar", "", "judge with the grammar in `FILE` instead of compiling SCHEMA; warns when its provenance comment names another schema or options, or is missing")
	fs.BoolVar(&f.exact, "exact", false, "judge TEXT byte for byte, keeping a final newline")
	fs.StringVar(&f.profile, "profile", "exact", profileUsage)
	fs.StringVar(&f.refs.dir, "refs", "", refsUsage)
	fs.Var(&f.refs.pairs, "ref", refUsage)
	fs.StringVar(&f.draft, "draft", "2020-12", "`DRAFT` assumed when the schema has no $schema: 4, 6, 7, 2019-09 or 2020-12")
	fs.StringVar(&f.whitespace, "whitespace", "bounded", "`MODE` the grammar was compiled with: bounded or compact")
	fs.BoolVar(&f.assert, "assert-format", false, assertFormatUsage)
	fs.StringVar(&f.objects, "objects", "open", objectsUsage)
	f.limits.register(fs)
	f.judge.register(fs, true)
	pos, code, done := parseFlags(fs, args, help, stdout, stderr)
	if done {
		return code
	}
	whitespaceSet := false
	fs.Visit(func(fl *flag.Flag) { whitespaceSet = whitespaceSet || fl.Name == "whitespace" })
	opts, err := f.options()
	if err == nil && (len(pos) < 1 || len(pos) > 2) {
		err = fmt.Errorf("want SCHEMA [TEXT|-], got %d arguments", len(pos))
	}
	if err == nil && len(pos) == 2 && pos[0] == "-" && pos[1] == "-" {
		err = errors.New("SCHEMA and TEXT cannot both be stdin")
	}
	if err == nil && f.exact && (f.reply || f.jsonl) {
		err = errors.New("-exact is for a bare TEXT: a reply and a -jsonl line are JSON, their text is judged as it is")
	}
	if err != nil {
		fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
		help(stderr)
		return exitUsage
	}
	schema, name, err := readInput(pos[0], stdin, schemaLimit(opts))
	if err != nil {
		fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
		return exitUsage
	}
	opts.Name = name
	opts.YAML = isYAMLName(pos[0])
	opts.BaseURI = f.refs.baseURI(pos[0])

	lim := verdict.Limits{MaxTextBytes: f.judge.maxTextBytes, Matcher: f.judge.matcher(), Reader: opts.Limits}
	judge, warnings, early, err := buildJudge(schema, opts, f.grammar, whitespaceSet, lim, f.judge)
	if err != nil {
		fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
		return exitUsage
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "schema2gbnf: warning: %s\n", w)
	}

	textPath := "-"
	if len(pos) == 2 {
		textPath = pos[1]
	}
	if f.jsonl {
		if early != nil {
			writeVerdictJSON(stdout, verdictLine{Verdict: *early, Warnings: warnings})
			return verdictExit[early.Class]
		}
		return runBatch(judge, f.reply, warnings, textPath, stdin, stdout, stderr)
	}

	var v verdict.Verdict
	textName := ""
	if early != nil {
		v = *early
	} else {
		text, tname, err := readInput(textPath, stdin, judgeTextLimit(f.judge.maxTextBytes))
		if err != nil {
			fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
			return exitUsage
		}
		textName = tname
		switch {
		case f.reply:
			v = judge.JudgeReply(text)
		case f.exact:
			v = judge.Judge(text)
		default:
			v = judge.Judge(dropFinalNewline(text))
		}
	}
	nameLimit(&v)
	if f.asJSON {
		writeVerdictJSON(stdout, verdictLine{Verdict: v, Warnings: warnings})
	} else {
		writeVerdictText(stdout, textName, v)
	}
	return verdictExit[v.Class]
}

// schemaLimit is how much of a schema file is read: one byte past the
// limit, so the reader names it.
func schemaLimit(opts schema2gbnf.Options) int {
	if opts.Limits.MaxInputBytes > 0 {
		return opts.Limits.MaxInputBytes
	}
	return subsetcheck.DefaultLimits.MaxInputBytes
}

// judgeTextLimit is how much of a text is read: one byte past the verdict's
// limit, so the judge names it.
func judgeTextLimit(maxTextBytes int) int {
	if maxTextBytes <= 0 {
		return verdict.DefaultLimits.MaxTextBytes
	}
	return maxTextBytes
}

// nameLimit adds the flag that raises a LIMIT_EXCEEDED verdict's limit.
func nameLimit(v *verdict.Verdict) {
	if fl, ok := limitFlag[v.Limit]; ok && v.Class == verdict.LimitExceeded {
		v.Message += "; raise it with " + fl
	}
}

// buildJudge compiles the schema, or checks it and reads the -grammar file.
// A schema that does not compile, or a grammar beyond the matcher's limits,
// comes back as a verdict (early), not an error; err is for I/O and
// unreadable grammars.
func buildJudge(schema []byte, opts schema2gbnf.Options, grammarPath string, whitespaceSet bool, lim verdict.Limits, jl judgeLimitFlags) (j *verdict.Judge, warnings []string, early *verdict.Verdict, err error) {
	limited := func(err error) (*verdict.Judge, []string, *verdict.Verdict, error) {
		if v, ok := verdict.LimitVerdict(err); ok {
			return nil, warnings, &v, nil
		}
		return nil, nil, nil, err
	}
	if grammarPath == "" {
		g, err := schema2gbnf.Compile(schema, opts)
		if err != nil {
			v := verdict.Refused(err)
			return nil, nil, &v, nil
		}
		j, err := verdict.New(g, lim)
		if err != nil {
			return limited(err)
		}
		return j, nil, nil, nil
	}
	rules, src, err := readGrammar(grammarPath, nil, jl)
	if err != nil {
		var one *gbnf.Error
		if list := (gbnf.ErrorList{}); errors.As(err, &list) && len(list) > 0 {
			one = list[0]
		} else if !errors.As(err, &one) {
			return nil, nil, nil, fmt.Errorf("%s: %v", grammarPath, err)
		}
		return nil, nil, nil, errors.New(grammarErrorText(grammarPath, one))
	}
	// A lenient grammar (its provenance says so, or -profile lenient) is
	// judged with the whole schema validated after decoding: the checked
	// schema must list every relaxation, the compiler's too.
	if p, ok := schema2gbnf.ReadProvenance(src); ok && p.Profile == string(subsetcheck.Lenient) {
		opts.Profile = subsetcheck.Lenient
	}
	var checked *subsetcheck.Checked
	if opts.Profile == subsetcheck.Lenient {
		g, err := schema2gbnf.Compile(schema, opts)
		if err != nil {
			v := verdict.Refused(err)
			return nil, nil, &v, nil
		}
		checked = g.Schema
	} else if checked, err = schema2gbnf.Check(schema, opts); err != nil {
		v := verdict.Refused(err)
		return nil, nil, &v, nil
	}
	want := schema2gbnf.Provenance{
		Version:    schema2gbnf.Version,
		Profile:    string(checked.Profile),
		Relaxed:    len(checked.Relaxed),
		Whitespace: string(opts.Whitespace),
		Draft:      checked.Draft.String(),
		Format:     "annotation",
		Schema:     schema2gbnf.SchemaHash(schema),
	}
	if checked.AssertFormat {
		want.Format = "asserted"
	}
	if checked.ClosedObjects {
		want.Objects = "closed"
	}
	warnings = provenanceWarnings(grammarPath, src, want, whitespaceSet)
	j, err = verdict.NewWithRules(rules, checked, lim)
	if err != nil {
		if _, ok := verdict.LimitVerdict(err); ok {
			return limited(err)
		}
		return nil, nil, nil, fmt.Errorf("%s: %v", grammarPath, err)
	}
	if p, ok := schema2gbnf.ReadProvenance(src); ok {
		j = j.WithProvenance(p)
	}
	return j, warnings, nil, nil
}

// provenanceWarnings compares a grammar's provenance comment with what
// compiling the schema would write. Whitespace is compared only when the
// user named it: it changes spellings, not what the schema means.
func provenanceWarnings(path, grammar string, want schema2gbnf.Provenance, whitespaceSet bool) []string {
	got, ok := schema2gbnf.ReadProvenance(grammar)
	if !ok {
		return []string{path + " has no provenance comment: nothing shows it was compiled from this schema"}
	}
	var out []string
	field := func(name, g, w string) {
		if g != w {
			out = append(out, fmt.Sprintf("%s was compiled with %s %s, not %s", path, name, g, w))
		}
	}
	if got.Schema != want.Schema {
		out = append(out, fmt.Sprintf("%s was compiled from another schema (%s, this one is %s)", path, got.Schema, want.Schema))
	}
	field("profile", got.Profile, want.Profile)
	field("draft", got.Draft, want.Draft)
	if got.Format != "" { // grammars from before format assertion do not say
		field("format", got.Format, want.Format)
	}
	if got.Objects != want.Objects {
		out = append(out, fmt.Sprintf("%s was compiled with objects %s, not %s", path, objectsWord(got.Objects), objectsWord(want.Objects)))
	}
	if whitespaceSet {
		field("whitespace", got.Whitespace, want.Whitespace)
	}
	field("schema2gbnf version", got.Version, want.Version)
	return out
}

// objectsWord is a Provenance.Objects value as -objects spells it.
func objectsWord(v string) string {
	if v == "" {
		return "open"
	}
	return v
}

// verdictLine is a verdict as printed by --json and --jsonl.
type verdictLine struct {
	InputLine int             `json:"input_line,omitempty"` // --jsonl: the line of the input
	ID        json.RawMessage `json:"id,omitempty"`
	verdict.Verdict
	Warnings []string `json:"warnings,omitempty"`
}

func writeVerdictJSON(w io.Writer, v verdictLine) {
	w.Write(marshalJSON(v, false))
}

// writeVerdictText prints a verdict for people, in the words of its JSON:
// a headline, then one "key: value" line per field that is set.
func writeVerdictText(w io.Writer, name string, v verdict.Verdict) {
	where := ""
	if v.Offset >= 0 && v.Line > 0 {
		where = fmt.Sprintf(" %s:%d:%d (byte %d)", name, v.Line, v.Col, v.Offset)
	}
	fmt.Fprintf(w, "%s%s: %s\n", v.Class, where, v.Message)
	field := func(key, value string) {
		if value != "" {
			fmt.Fprintf(w, "  %s: %s\n", key, value)
		}
	}
	field("gate", string(v.Gate))
	field("retry", strconv.FormatBool(v.Retry))
	field("note", v.Note)
	field("stop", v.Stop)
	if e := v.Error; e != nil {
		status := ""
		if e.Status != 0 {
			status = strconv.Itoa(e.Status) + " "
		}
		field("error", strings.TrimSpace(fmt.Sprintf("%s%s %s", status, e.Type, e.Code))+": "+e.Message)
	}
	field("next", strings.Join(v.Next, " "))
	if v.NextLiteral != "" {
		field("next_literal", strconv.Quote(v.NextLiteral))
	}
	field("reason", v.Reason)
	field("keyword", v.Keyword)
	if v.Keyword != "" || v.SchemaPointer != "" {
		field("schema_pointer", "#"+v.SchemaPointer)
		inst := v.InstancePointer
		if inst == "" {
			inst = "/ (the root)"
		}
		field("instance_pointer", inst)
	}
	field("limit", v.Limit)
	for _, p := range v.Problems {
		loc := ""
		if p.Line > 0 {
			loc = fmt.Sprintf("%d:%d: ", p.Line, p.Col)
		}
		field("problem", fmt.Sprintf("%s%s [%s]", loc, p.Message, p.Code))
	}
	if p := v.Provenance; p != nil {
		field("provenance", strings.TrimPrefix(p.String(), "# "))
	}
}

// runBatch is --jsonl.
func runBatch(j *verdict.Judge, replies bool, warnings []string, path string, stdin io.Reader, stdout, stderr io.Writer) int {
	in := stdin
	if path != "-" {
		file, err := os.Open(path)
		if err != nil {
			fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
			return exitUsage
		}
		defer file.Close()
		in = file
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), maxJSONLLineBytes)
	counts := map[verdict.Class]int{}
	total, badLines, code := 0, 0, exitOK
	for lineNo := 1; sc.Scan(); lineNo++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		out := verdictLine{InputLine: lineNo, Warnings: warnings}
		var err error
		if replies {
			var reply []byte
			out.ID, reply, err = replyEntry(line)
			if err == nil {
				out.Verdict = j.JudgeReply(reply)
			}
		} else {
			var text []byte
			out.ID, text, err = batchEntry(line)
			if err == nil {
				out.Verdict = j.Judge(text)
			}
		}
		if err != nil {
			stdout.Write(marshalJSON(map[string]any{"input_line": lineNo, "error": err.Error()}, false))
			badLines++
			continue
		}
		nameLimit(&out.Verdict)
		writeVerdictJSON(stdout, out)
		total++
		counts[out.Class]++
		code = max(code, verdictExit[out.Class])
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintf(stderr, "schema2gbnf: %s: %v (a line may hold at most %d bytes)\n", path, err, maxJSONLLineBytes)
		return exitUsage
	}
	summary := struct {
		Total    int            `json:"total"`
		Counts   map[string]int `json:"counts"`
		BadLines int            `json:"bad_lines"`
	}{total, map[string]int{}, badLines}
	for _, c := range verdict.Classes {
		summary.Counts[string(c)] = counts[c]
	}
	stderr.Write(marshalJSON(summary, false))
	if badLines > 0 {
		return exitUsage
	}
	return code
}

// batchEntry reads one --jsonl line: a JSON string, or {"id":..,"text":".."}.
func batchEntry(line []byte) (json.RawMessage, []byte, error) {
	switch line[0] {
	case '"':
		var s string
		if err := json.Unmarshal(line, &s); err != nil {
			return nil, nil, fmt.Errorf("not a JSON string: %v", err)
		}
		return nil, []byte(s), nil
	case '{':
		var e struct {
			ID   json.RawMessage `json:"id"`
			Text *string         `json:"text"`
		}
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, nil, fmt.Errorf("not a JSON object: %v", err)
		}
		if e.Text == nil {
			return nil, nil, errors.New(`the object has no "text" string`)
		}
		return e.ID, []byte(*e.Text), nil
	}
	return nil, nil, errors.New(`want a JSON string or an object {"id": ..., "text": "..."}`)
}

// replyEntry reads one --jsonl --reply line: {"id": .., "reply": REPLY},
// REPLY an object or the raw body in a JSON string (what curl wrote, even
// an empty or HTML body); or a reply itself, whose own "id" is kept (a chat
// completion has one). A line that is not a JSON object is a reply too, one
// that holds no output (PROVIDER_ERROR), so a batch never loses a request.
func replyEntry(line []byte) (json.RawMessage, []byte, error) {
	var e struct {
		ID    json.RawMessage `json:"id"`
		Reply json.RawMessage `json:"reply"`
	}
	if line[0] != '{' || json.Unmarshal(line, &e) != nil {
		return nil, line, nil
	}
	if e.Reply == nil {
		return e.ID, line, nil
	}
	var body string
	if json.Unmarshal(e.Reply, &body) == nil {
		return e.ID, []byte(body), nil
	}
	return e.ID, e.Reply, nil
}

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
	verdict.SchemaInvalid:   11, // after 8-10 of the llama-server verbs
}

// maxJSONLLineBytes bounds one line of --jsonl input; a longer line stops
// the batch with exit 2.
const maxJSONLLineBytes = 64 << 20

const verdictUsage = `usage: schema2gbnf verdict [flags] SCHEMA [TEXT|-]

Judges a model's output (TEXT, default stdin) against the grammar compiled
from SCHEMA (or the grammar given by -grammar), and prints one verdict:

  COMPLETE_VALID    the grammar, hence the schema, accepts the whole text     exit 0
  REFUSED_SCHEMA    the schema is outside the profile (problems listed)       exit 1
  (usage or I/O error)                                                        exit 2
  INCOMPLETE        a prefix the grammar could still complete: where it       exit 3
                    stopped and what may come next (empty output: byte 0)
  PARSE_ERROR       not strict JSON: where                                    exit 4
  OFF_GRAMMAR       JSON the grammar does not take; reason "schema": the      exit 5
                    schema rejects it (keyword, schema and instance pointers);
                    reason "spelling": the schema accepts the value but the
                    grammar only takes its canonical spelling (member order,
                    1.0, escapes, whitespace)
  GRAMMAR_MISMATCH  the -grammar accepts a text the schema rejects: it was    exit 6
                    not compiled from SCHEMA
  LIMIT_EXCEEDED    the text is too large to judge                            exit 7
  SCHEMA_INVALID    -profile lenient (or a -grammar whose provenance says     exit 11
                    profile=lenient): the grammar accepts the text, and the
                    whole schema, validated after decoding, rejects its value
                    for a constraint the grammar relaxed (keyword, schema and
                    instance pointers)

One final newline of TEXT is dropped (echo and jq -r add one; a grammar never
ends with one) unless -exact is given.

-jsonl judges a batch: each line of TEXT is a JSON string holding one output,
or an object {"id": ANY, "text": STRING}; blank lines are skipped. Each verdict
is printed as one JSON line (with "input_line" and "id"); a summary
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
	grammar string
	exact   bool
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
	fs.StringVar(&f.grammar, "grammar", "", "judge with the grammar in `FILE` instead of compiling SCHEMA; warns when its provenance comment names another schema or options, or is missing")
	fs.BoolVar(&f.exact, "exact", false, "judge TEXT byte for byte, keeping a final newline")
	fs.StringVar(&f.profile, "profile", "exact", profileUsage)
	fs.StringVar(&f.refs.dir, "refs", "", refsUsage)
	fs.Var(&f.refs.pairs, "ref", refUsage)
	fs.StringVar(&f.draft, "draft", "2020-12", "`DRAFT` assumed when the schema has no $schema: 4, 6, 7, 2019-09 or 2020-12")
	fs.StringVar(&f.whitespace, "whitespace", "bounded", "`MODE` the grammar was compiled with: bounded or compact")
	fs.BoolVar(&f.assert, "assert-format", false, assertFormatUsage)
	fs.StringVar(&f.objects, "objects", "open", objectsUsage)
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
	if err != nil {
		fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
		help(stderr)
		return exitUsage
	}
	schema, name, err := readInput(pos[0], stdin, maxTextBytes)
	if err != nil {
		fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
		return exitUsage
	}
	opts.Name = name
	opts.YAML = isYAMLName(pos[0])
	opts.BaseURI = f.refs.baseURI(pos[0])

	judge, warnings, refused, err := buildJudge(schema, opts, f.grammar, whitespaceSet)
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
		if refused != nil {
			writeVerdictJSON(stdout, verdictLine{Verdict: *refused, Warnings: warnings})
			return exitRefused
		}
		return runBatch(judge, warnings, textPath, stdin, stdout, stderr)
	}

	var v verdict.Verdict
	textName := ""
	if refused != nil {
		v = *refused
	} else {
		text, tname, err := readInput(textPath, stdin, maxTextBytes)
		if err != nil {
			fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
			return exitUsage
		}
		textName = tname
		if !f.exact {
			text = dropFinalNewline(text)
		}
		v = judge.Judge(text)
	}
	if f.asJSON {
		writeVerdictJSON(stdout, verdictLine{Verdict: v, Warnings: warnings})
	} else {
		writeVerdictText(stdout, textName, v)
	}
	return verdictExit[v.Class]
}

// buildJudge compiles the schema, or checks it and reads the -grammar file.
// A refused schema comes back as a verdict, not an error; err is for I/O
// and unreadable grammars.
func buildJudge(schema []byte, opts schema2gbnf.Options, grammarPath string, whitespaceSet bool) (*verdict.Judge, []string, *verdict.Verdict, error) {
	if grammarPath == "" {
		g, err := schema2gbnf.Compile(schema, opts)
		if err != nil {
			v := verdict.Refused(err)
			return nil, nil, &v, nil
		}
		j, err := verdict.New(g, verdict.Limits{})
		return j, nil, nil, err
	}
	src, err := os.ReadFile(grammarPath)
	if err != nil {
		return nil, nil, nil, err
	}
	// A lenient grammar (its provenance says so, or -profile lenient) is
	// judged with the whole schema validated after decoding: the checked
	// schema must list every relaxation, the compiler's too.
	if p, ok := schema2gbnf.ReadProvenance(string(src)); ok && p.Profile == string(subsetcheck.Lenient) {
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
	rules, err := gbnf.Parse(string(src))
	if err != nil {
		var one *gbnf.Error
		if list := (gbnf.ErrorList{}); errors.As(err, &list) && len(list) > 0 {
			one = list[0]
		} else if !errors.As(err, &one) {
			return nil, nil, nil, fmt.Errorf("%s: %v", grammarPath, err)
		}
		return nil, nil, nil, errors.New(grammarErrorText(grammarPath, one))
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
	warnings := provenanceWarnings(grammarPath, string(src), want, whitespaceSet)
	j, err := verdict.NewWithRules(rules, checked, verdict.Limits{})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %v", grammarPath, err)
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

func dropFinalNewline(text []byte) []byte {
	if bytes.HasSuffix(text, []byte("\r\n")) {
		return text[:len(text)-2]
	}
	return bytes.TrimSuffix(text, []byte("\n"))
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

func writeVerdictText(w io.Writer, name string, v verdict.Verdict) {
	where := ""
	if v.Offset >= 0 && v.Line > 0 {
		where = fmt.Sprintf(" %s:%d:%d (byte %d)", name, v.Line, v.Col, v.Offset)
	}
	reason := ""
	if v.Reason != "" {
		reason = " [" + v.Reason + "]"
	}
	fmt.Fprintf(w, "%s%s%s: %s\n", v.Class, where, reason, v.Message)
	if len(v.Next) > 0 {
		fmt.Fprintf(w, "  next: %s\n", strings.Join(v.Next, " "))
	}
	if v.NextLiteral != "" {
		fmt.Fprintf(w, "  forced: %q\n", v.NextLiteral)
	}
	if v.Keyword != "" || v.SchemaPointer != "" {
		inst := v.InstancePointer
		if inst == "" {
			inst = "/"
		}
		fmt.Fprintf(w, "  keyword %q at #%s, instance %s\n", v.Keyword, v.SchemaPointer, inst)
	}
	for _, p := range v.Problems {
		loc := ""
		if p.Line > 0 {
			loc = fmt.Sprintf("%d:%d: ", p.Line, p.Col)
		}
		fmt.Fprintf(w, "  %s%s [%s]\n", loc, p.Message, p.Code)
	}
}

// runBatch is --jsonl.
func runBatch(j *verdict.Judge, warnings []string, path string, stdin io.Reader, stdout, stderr io.Writer) int {
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
		id, text, err := batchEntry(line)
		if err != nil {
			b, _ := json.Marshal(map[string]any{"input_line": lineNo, "error": err.Error()})
			fmt.Fprintf(stdout, "%s\n", b)
			badLines++
			continue
		}
		out.ID = id
		out.Verdict = j.Judge(text)
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
	b, _ := json.Marshal(summary)
	fmt.Fprintf(stderr, "%s\n", b)
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

package main

import (
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/regex"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Exit codes, the same for every verb.
const (
	exitOK      = 0 // compiled, checked, accepted
	exitRefused = 1 // the schema is refused, or the text rejected
	exitUsage   = 2 // bad flags, unreadable input, unwritable output
)

//go:embed example.json
var exampleSchema []byte

const usage = `usage:
  schema2gbnf [flags] [SCHEMA|-]        compile SCHEMA (default: stdin) to a grammar
  schema2gbnf check [flags] [SCHEMA|-]  check SCHEMA against the profile, write nothing
  schema2gbnf match GRAMMAR [TEXT|-]    does GRAMMAR accept the whole TEXT (default: stdin)?
  schema2gbnf verdict SCHEMA [TEXT|-]   typed verdict on a model's output (see verdict -h)
  schema2gbnf -example                  compile the embedded example schema

exit status: 0 ok, 1 refused or rejected, 2 usage or I/O error (verdict: see verdict -h)

flags:
`

// run is the whole CLI, with its streams passed in so tests can drive it.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "check":
			return runCompile(args[1:], true, stdin, stdout, stderr)
		case "match":
			return runMatch(args[1:], stdin, stdout, stderr)
		case "verdict":
			return runVerdict(args[1:], stdin, stdout, stderr)
		}
	}
	return runCompile(args, false, stdin, stdout, stderr)
}

// compileFlags are the flags of the compile and check verbs.
type compileFlags struct {
	output      string
	profile     string
	draft       string
	whitespace  string
	format      string
	maxDepth    int
	errorFormat string
	example     bool
	version     bool
	assert      bool       // -assert-format
	limits      limitFlags // limits.go
}

const assertFormatUsage = "enforce format: date, time, date-time, uuid, ipv4, ipv6 and duration exactly, any other format refused (S210); without it format is an annotation (W302)"

func newCompileFlagSet(checkOnly bool, f *compileFlags, stderr io.Writer) *flag.FlagSet {
	name := "schema2gbnf"
	if checkOnly {
		name += " check"
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usage)
		fs.PrintDefaults()
	}
	if !checkOnly {
		fs.StringVar(&f.output, "o", "", "write the grammar to `FILE` (atomically: nothing is written on failure)")
		fs.StringVar(&f.whitespace, "whitespace", "bounded", "`MODE`: bounded (nothing, or a space or newline and up to 20 spaces or tabs, between tokens) or compact (none)")
		fs.StringVar(&f.format, "format", "gbnf", "`OUTPUT`: gbnf (grammar text), llama-server (the JSON request fragment {\"grammar\": ...}) or regex (one regular expression for a full match, no newline after it)")
		fs.IntVar(&f.maxDepth, "max-depth", 0, "with -format regex: unroll recursion `N` levels deep; valid values nested deeper are rejected (0: refuse recursive schemas)")
		fs.BoolVar(&f.example, "example", false, "compile the embedded example schema instead of reading one")
	}
	fs.StringVar(&f.profile, "profile", "exact", "`NAME` of the keyword subset: exact or portable")
	fs.StringVar(&f.draft, "draft", "2020-12", "`DRAFT` assumed when the schema has no $schema: 4, 6, 7, 2019-09 or 2020-12")
	fs.BoolVar(&f.assert, "assert-format", false, assertFormatUsage)
	fs.StringVar(&f.errorFormat, "error-format", "text", "`FORMAT` of problems on stderr: text or json")
	fs.BoolVar(&f.version, "version", false, "print the version and exit")
	f.limits.register(fs)
	return fs
}

func runCompile(args []string, checkOnly bool, stdin io.Reader, stdout, stderr io.Writer) int {
	f := compileFlags{format: "gbnf", whitespace: "bounded"}
	fs := newCompileFlagSet(checkOnly, &f, stderr)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	if f.version {
		fmt.Fprintf(stdout, "schema2gbnf %s\n", schema2gbnf.Version)
		return exitOK
	}
	opts, err := f.options()
	if err == nil && f.format != "gbnf" && f.format != "llama-server" && f.format != "regex" {
		err = fmt.Errorf("unknown -format %q: want gbnf, llama-server or regex", f.format)
	}
	if err == nil && f.maxDepth != 0 && (f.format != "regex" || f.maxDepth < 0) {
		err = errors.New("-max-depth takes a positive depth, and only with -format regex")
	}
	if err == nil && f.errorFormat != "text" && f.errorFormat != "json" {
		err = fmt.Errorf("unknown -error-format %q: want text or json", f.errorFormat)
	}
	if err == nil && len(pos) > 1 {
		err = fmt.Errorf("want at most one schema, got %d arguments", len(pos))
	}
	if err == nil && f.example && len(pos) > 0 {
		err = errors.New("-example takes no schema argument")
	}
	if err != nil {
		fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
		return exitUsage
	}

	var schema []byte
	switch {
	case f.example:
		schema, opts.Name = exampleSchema, "example.json"
	default:
		path := "-"
		if len(pos) == 1 {
			path = pos[0]
		}
		limit := opts.Limits.MaxInputBytes
		if limit <= 0 {
			limit = subsetcheck.DefaultLimits.MaxInputBytes
		}
		schema, opts.Name, err = readInput(path, stdin, limit)
		if err != nil {
			fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
			return exitUsage
		}
	}

	if checkOnly {
		checked, err := schema2gbnf.Check(schema, opts)
		if err != nil {
			return reportProblems(stderr, f.errorFormat, err, nil)
		}
		reportProblems(stderr, f.errorFormat, nil, checked.Warnings)
		if f.errorFormat == "text" {
			fmt.Fprintf(stdout, "%s: ok (profile %s)\n", opts.Name, checked.Profile)
		}
		return exitOK
	}

	g, err := schema2gbnf.Compile(schema, opts)
	if err != nil {
		return reportProblems(stderr, f.errorFormat, err, nil)
	}
	reportProblems(stderr, f.errorFormat, nil, g.Warnings)
	out := []byte(g.GBNF)
	switch f.format {
	case "llama-server":
		out, err = json.Marshal(map[string]string{"grammar": g.GBNF})
		if err != nil {
			fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
			return exitUsage
		}
		out = append(out, '\n')
	case "regex":
		re, err := g.Regex(regex.Options{MaxDepth: f.maxDepth})
		if err != nil {
			return reportProblems(stderr, f.errorFormat, err, nil)
		}
		out = []byte(re) // no newline: the file is the pattern, byte for byte
	}
	if f.output == "" || f.output == "-" {
		if _, err := stdout.Write(out); err != nil {
			fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
			return exitUsage
		}
		return exitOK
	}
	if err := writeFileAtomic(f.output, out); err != nil {
		fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
		return exitUsage
	}
	return exitOK
}

// options turns the flags into library options.
func (f *compileFlags) options() (schema2gbnf.Options, error) {
	var opts schema2gbnf.Options
	switch f.profile {
	case "exact":
		opts.Profile = subsetcheck.Exact
	case "portable":
		opts.Profile = subsetcheck.Portable
	default:
		return opts, fmt.Errorf("unknown -profile %q: want exact or portable", f.profile)
	}
	switch f.whitespace {
	case "", "bounded":
		opts.Whitespace = compile.Bounded
	case "compact":
		opts.Whitespace = compile.Compact
	default:
		return opts, fmt.Errorf("unknown -whitespace %q: want bounded or compact", f.whitespace)
	}
	drafts := map[string]subsetcheck.Draft{
		"4": subsetcheck.Draft4, "draft-04": subsetcheck.Draft4,
		"6": subsetcheck.Draft6, "draft-06": subsetcheck.Draft6,
		"7": subsetcheck.Draft7, "draft-07": subsetcheck.Draft7,
		"2019-09": subsetcheck.Draft2019, "2020-12": subsetcheck.Draft2020,
	}
	d, ok := drafts[f.draft]
	if !ok {
		return opts, fmt.Errorf("unknown -draft %q: want 4, 6, 7, 2019-09 or 2020-12", f.draft)
	}
	opts.DefaultDraft = d
	opts.AssertFormat = f.assert
	f.limits.apply(&opts)
	return opts, nil
}

// reportProblems writes errors and warnings to stderr and returns the exit
// code for them: exitRefused when err holds problems, exitUsage for any
// other error, exitOK otherwise.
func reportProblems(stderr io.Writer, format string, err error, warnings subsetcheck.ErrorList) int {
	var problems subsetcheck.ErrorList
	code := exitOK
	if err != nil {
		if !errors.As(err, &problems) {
			fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
			return exitUsage
		}
		code = exitRefused
	}
	if format == "json" {
		type entry struct {
			Severity string `json:"severity"`
			Code     string `json:"code"`
			File     string `json:"file,omitempty"`
			Line     int    `json:"line,omitempty"`
			Col      int    `json:"col,omitempty"`
			Pointer  string `json:"pointer"`
			Message  string `json:"message"`
		}
		list := []entry{}
		add := func(sev string, l subsetcheck.ErrorList) {
			for _, p := range l {
				list = append(list, entry{sev, string(p.Code), p.File, p.Line, p.Col, p.Pointer, p.Message})
			}
		}
		add("error", problems)
		add("warning", warnings)
		if len(list) > 0 || err != nil {
			b, _ := json.MarshalIndent(map[string]any{"problems": list}, "", "  ")
			fmt.Fprintf(stderr, "%s\n", b)
		}
		return code
	}
	for _, p := range problems {
		fmt.Fprintf(stderr, "%s\n", p.Error())
	}
	for _, p := range warnings {
		fmt.Fprintf(stderr, "warning: %s\n", p.Error())
	}
	if len(problems) > 1 {
		fmt.Fprintf(stderr, "%d problems\n", len(problems))
	}
	return code
}

// readInput reads a file, or standard input for "-", and returns its
// contents and the name to use in messages. It reads at most limit+1 bytes,
// so that an endless input (< /dev/zero) costs limit bytes of memory and the
// reader's size limit then names the problem.
func readInput(path string, stdin io.Reader, limit int) ([]byte, string, error) {
	name := path
	r := stdin
	if path == "-" {
		name = "<stdin>"
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, path, err
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	return b, name, err
}

// maxTextBytes bounds what match and verdict read of a text or grammar file:
// beyond their own limits, the rest is never needed.
const maxTextBytes = 64 << 20

// writeFileAtomic writes data to a temporary file beside path and renames it
// into place, so a reader of path sees the old file or the whole new one,
// never half a grammar.
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly after the rename
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// parseInterleaved parses flags that may stand before or after positional
// arguments ("schema2gbnf s.json -o g.gbnf" works), until a "--".
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

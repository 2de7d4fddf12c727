package main

import (
	"bytes"
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
  schema2gbnf [flags] [SCHEMA|-]           compile SCHEMA (default: stdin) to a grammar
  schema2gbnf [flags] -o DIR SCHEMA|DIR... compile many schemas (files, or every .json,
                                           .yaml and .yml under each DIR) into DIR
  schema2gbnf check [flags] [SCHEMA|DIR...] check against the profile, write nothing
  schema2gbnf match GRAMMAR [TEXT|-]       does GRAMMAR accept the whole TEXT (default: stdin)?
  schema2gbnf verdict SCHEMA [TEXT|-]      typed verdict on a model's output (see verdict -h)
  schema2gbnf -example                     compile the embedded example schema

A SCHEMA ending in .yaml or .yml is read as YAML (its JSON-compatible part);
any other, and stdin, as JSON (-yaml reads every input as YAML).

exit status: 0 ok, 1 refused or rejected (in a batch: any refused), 2 usage or
I/O error (verdict: see verdict -h)

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

// isTerminal reports whether f is a terminal (a character device): there,
// reading stdin unasked would wait silently, and a progress line can be
// redrawn. A variable so that tests can pretend.
var isTerminal = func(f any) bool {
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	st, err := file.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// parseFlags parses args into fs, flags and positional arguments mixed.
// Help (-h, -help, --help) is printed to stdout, and done is set with exit
// 0; a bad flag is reported on stderr, with exit 2.
func parseFlags(fs *flag.FlagSet, args []string, help func(io.Writer), stdout, stderr io.Writer) (pos []string, code int, done bool) {
	fs.SetOutput(stderr)
	fs.Usage = func() {} // errors are printed by fs; help below, to stdout
	pos, err := parseInterleaved(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		help(stdout)
		return nil, exitOK, true
	case err != nil:
		fmt.Fprintf(stderr, "run '%s -h' for help\n", fs.Name())
		return nil, exitUsage, true
	}
	return pos, 0, false
}

// compileFlags are the flags of the compile and check verbs.
type compileFlags struct {
	output      string
	profile     string
	draft       string
	whitespace  string
	format      string
	objects     string
	maxDepth    int
	errorFormat string
	example     bool
	version     bool
	quiet       bool
	yaml        bool
	assert      bool       // -assert-format
	limits      limitFlags // limits.go
	refs        refFlags   // refs.go
}

const profileUsage = "`NAME` of the keyword subset: exact (what the grammar enforces exactly; the rest refused), lenient (every schema compiles: what exact refuses is relaxed, each relaxation a warning W305-W309 and counted in the provenance line, so the grammar accepts every valid text and some invalid ones; validate replies after decoding, as verdict does) or portable (what every engine accepts)"

const assertFormatUsage = "enforce format: date, time, date-time, uuid, ipv4, ipv6 and duration exactly, any other format refused (S210); without it format is an annotation (W302)"

const objectsUsage = "`MODE` of object schemas that list properties and have no additionalProperties: open (JSON Schema: other members allowed) or closed (other members refused, as llama.cpp's own converter does; every text is still valid, values with other members are not accepted)"

func newCompileFlagSet(checkOnly bool, f *compileFlags) *flag.FlagSet {
	name := "schema2gbnf"
	if checkOnly {
		name += " check"
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	if !checkOnly {
		fs.StringVar(&f.output, "o", "", "write the grammar to `FILE`, atomically (nothing is written on failure); with several schemas, or an existing directory, a DIR that gets one grammar per schema")
		fs.StringVar(&f.whitespace, "whitespace", "bounded", "`MODE`: bounded (nothing, or a space or newline and up to 20 spaces or tabs, between tokens) or compact (none)")
		fs.StringVar(&f.format, "format", "gbnf", "`OUTPUT`: gbnf (grammar text), llama-server (the JSON request fragment {\"grammar\": ...}) or regex (one regular expression for a full match, no newline after it)")
		fs.IntVar(&f.maxDepth, "max-depth", 0, "with -format regex: unroll recursion `N` levels deep; valid values nested deeper are rejected (0: refuse recursive schemas)")
		fs.BoolVar(&f.example, "example", false, "compile the embedded example schema instead of reading one")
	}
	fs.StringVar(&f.profile, "profile", "exact", profileUsage)
	fs.StringVar(&f.draft, "draft", "2020-12", "`DRAFT` assumed when the schema has no $schema: 4, 6, 7, 2019-09 or 2020-12")
	fs.StringVar(&f.objects, "objects", "open", objectsUsage)
	fs.BoolVar(&f.assert, "assert-format", false, assertFormatUsage)
	fs.StringVar(&f.refs.dir, "refs", "", refsUsage)
	fs.Var(&f.refs.pairs, "ref", refUsage)
	fs.BoolVar(&f.yaml, "yaml", false, "read every schema as YAML, stdin too (files ending in .yaml or .yml always are)")
	fs.StringVar(&f.errorFormat, "error-format", "text", "`FORMAT` of problems and errors on stderr: text or json")
	fs.BoolVar(&f.quiet, "quiet", false, "print no warnings, only refusals and errors")
	fs.BoolVar(&f.version, "version", false, "print the version and exit")
	f.limits.register(fs)
	return fs
}

func runCompile(args []string, checkOnly bool, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 && isTerminal(stdin) {
		// Nothing to read but a terminal: say how to use the command
		// rather than wait silently.
		fmt.Fprint(stderr, usage)
		fmt.Fprint(stderr, "  (schema2gbnf -h lists them; to type a schema on the terminal, give - as SCHEMA)\n")
		return exitUsage
	}
	f := compileFlags{format: "gbnf", whitespace: "bounded"}
	fs := newCompileFlagSet(checkOnly, &f)
	pos, code, done := parseFlags(fs, args, func(w io.Writer) {
		fmt.Fprint(w, usage)
		fs.SetOutput(w)
		fs.PrintDefaults()
	}, stdout, stderr)
	if done {
		return code
	}
	if f.version {
		fmt.Fprintf(stdout, "schema2gbnf %s\n", schema2gbnf.Version)
		return exitOK
	}
	rep := reporter{stderr: stderr, json: f.errorFormat == "json", quiet: f.quiet, okStatus: "compiled"}
	if checkOnly {
		rep.okStatus = "ok"
	}
	opts, err := f.options()
	if err == nil && f.format != "gbnf" && f.format != "llama-server" && f.format != "regex" {
		err = fmt.Errorf("unknown -format %q: want gbnf, llama-server or regex", f.format)
	}
	if err == nil && f.maxDepth != 0 && (f.format != "regex" || f.maxDepth < 0) {
		err = errors.New("-max-depth takes a positive depth, and only with -format regex")
	}
	if err == nil && f.errorFormat != "text" && f.errorFormat != "json" {
		rep.json = false
		err = fmt.Errorf("unknown -error-format %q: want text or json", f.errorFormat)
	}
	if err == nil && f.example && len(pos) > 0 {
		err = errors.New("-example takes no schema argument")
	}
	if err != nil {
		rep.fail("", err)
		return exitUsage
	}
	job := compileJob{f: &f, opts: opts, checkOnly: checkOnly, rep: &rep, stdout: stdout}
	if f.example {
		opts.Name = "example.json"
		job.opts = opts
		return job.one(exampleSchema, "", false)
	}
	inputs, batch, err := listInputs(pos, f.output, checkOnly, outputExt(f.format))
	if err != nil {
		rep.fail("", err)
		return exitUsage
	}
	if !batch {
		in := inputs[0]
		data, name, err := readSchema(in.path, stdin, opts.Limits.MaxInputBytes)
		if err != nil {
			return rep.problems(name, err, nil) // L501, or an I/O error
		}
		job.opts.Name = name
		job.opts.BaseURI = f.refs.baseURI(in.path)
		return job.one(data, in.out, f.yaml || isYAMLName(in.path))
	}
	return job.batch(inputs, isTerminal(stderr))
}

// compileJob compiles or checks one schema or a batch of them.
type compileJob struct {
	f         *compileFlags
	opts      schema2gbnf.Options
	checkOnly bool
	rep       *reporter
	stdout    io.Writer
	batching  bool
	// lastProblems are the problems of the last refusal, for a batch's
	// summary.
	lastProblems subsetcheck.ErrorList
}

// one compiles (or checks) one schema read as data, and writes the output
// to out ("" or "-": stdout). It returns the exit status.
func (j *compileJob) one(data []byte, out string, yaml bool) int {
	code := j.compileOne(data, out, yaml)
	return code
}

// refused reports a refusal and keeps its problems.
func (j *compileJob) refused(name string, err error, warnings subsetcheck.ErrorList) int {
	errors.As(err, &j.lastProblems)
	return j.rep.problems(name, err, warnings)
}

func (j *compileJob) compileOne(data []byte, out string, yaml bool) int {
	opts := j.opts
	opts.YAML = yaml
	if j.checkOnly && opts.Profile == subsetcheck.Lenient {
		// What the compiler refuses is relaxed too: known by compiling.
		g, err := schema2gbnf.Compile(data, opts)
		if err != nil {
			return j.refused(opts.Name, err, nil)
		}
		j.rep.problems(opts.Name, nil, g.Warnings)
		if !j.rep.json && !j.batching {
			fmt.Fprintf(j.stdout, "%s: ok (profile lenient, %d relaxed)\n", opts.Name, len(g.Relaxed))
		}
		return exitOK
	}
	if j.checkOnly {
		checked, err := schema2gbnf.Check(data, opts)
		if err != nil {
			return j.refused(opts.Name, err, nil)
		}
		j.rep.problems(opts.Name, nil, checked.Warnings)
		if !j.rep.json && !j.batching {
			fmt.Fprintf(j.stdout, "%s: ok (profile %s)\n", opts.Name, checked.Profile)
		}
		return exitOK
	}
	g, err := schema2gbnf.Compile(data, opts)
	if err != nil {
		return j.refused(opts.Name, err, nil)
	}
	text := []byte(g.GBNF)
	switch j.f.format {
	case "llama-server":
		text = marshalJSON(map[string]string{"grammar": g.GBNF}, false)
	case "regex":
		re, err := g.Regex(j.f.limits.regexOptions(j.f.maxDepth))
		if err != nil {
			return j.refused(opts.Name, err, g.Warnings)
		}
		text = []byte(re) // no newline: the file is the pattern, byte for byte
	}
	j.rep.problems(opts.Name, nil, g.Warnings)
	if out == "" || out == "-" {
		if _, err := j.stdout.Write(text); err != nil {
			j.rep.fail("", err)
			return exitUsage
		}
		return exitOK
	}
	if err := writeFileAtomic(out, text); err != nil {
		j.rep.fail(opts.Name, err)
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
	case "lenient":
		opts.Profile = subsetcheck.Lenient
	default:
		return opts, fmt.Errorf("unknown -profile %q: want exact, lenient or portable", f.profile)
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
	switch f.objects {
	case "", "open":
	case "closed":
		opts.ClosedObjects = true
	default:
		return opts, fmt.Errorf("unknown -objects %q: want open or closed", f.objects)
	}
	f.limits.apply(&opts)
	if err := f.refs.apply(&opts); err != nil {
		return opts, err
	}
	return opts, nil
}

// reporter writes problems, warnings and errors to stderr, as text or as
// JSON (-error-format json); in a batch, each schema's JSON is one line.
type reporter struct {
	stderr   io.Writer
	json     bool
	quiet    bool // -quiet: no warnings
	batch    bool
	okStatus string    // a batch's status word for a schema that passed: compiled, or ok (check)
	progress *progress // clears its line before anything else is written
}

// jsonProblem is one problem or warning in -error-format json.
type jsonProblem struct {
	Severity string `json:"severity"`
	Code     string `json:"code"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Col      int    `json:"col,omitempty"`
	Pointer  string `json:"pointer"`
	Message  string `json:"message"`
}

// problems reports err's problems and the warnings for the schema called
// name, and returns the exit status for them: exitRefused when err holds
// problems, exitUsage for any other error, exitOK otherwise.
func (r *reporter) problems(name string, err error, warnings subsetcheck.ErrorList) int {
	var problems subsetcheck.ErrorList
	code := exitOK
	if err != nil {
		if !errors.As(err, &problems) {
			r.fail(name, err)
			return exitUsage
		}
		code = exitRefused
	}
	if r.quiet {
		warnings = nil
	}
	r.progress.clear()
	if r.json {
		list := []jsonProblem{}
		add := func(sev string, l subsetcheck.ErrorList) {
			for _, p := range l {
				file := p.File
				if file == "" {
					file = name // problems of the regex stage have no place in the file
				}
				list = append(list, jsonProblem{sev, string(p.Code), file, p.Line, p.Col, p.Pointer, p.Message})
			}
		}
		add("error", problems)
		add("warning", warnings)
		switch {
		case r.batch:
			status := r.okStatus
			if err != nil {
				status = "refused"
			}
			r.stderr.Write(marshalJSON(map[string]any{"file": name, "status": status, "problems": list}, false))
		case len(list) > 0 || err != nil:
			r.stderr.Write(marshalJSON(map[string]any{"problems": list}, true))
		}
		return code
	}
	for _, p := range problems {
		fmt.Fprintf(r.stderr, "%s\n", placed(p, name).Error())
	}
	for _, p := range warnings {
		fmt.Fprintf(r.stderr, "warning: %s\n", placed(p, name).Error())
	}
	if len(problems) > 1 && !r.batch {
		fmt.Fprintf(r.stderr, "%d problems\n", len(problems))
	}
	return code
}

// placed gives a problem without a file (one of the regex stage) the
// schema's name, so every line says which file it is about.
func placed(p *subsetcheck.Problem, name string) *subsetcheck.Problem {
	if p.File != "" || name == "" {
		return p
	}
	q := *p
	q.File = name
	return &q
}

// fail reports a usage or I/O error (not a problem of the schema).
func (r *reporter) fail(name string, err error) {
	r.progress.clear()
	if !r.json {
		fmt.Fprintf(r.stderr, "schema2gbnf: %v\n", err)
		return
	}
	e := map[string]any{"error": err.Error()}
	if name != "" {
		e["file"] = name
	}
	if r.batch {
		e["status"] = "error"
	}
	r.stderr.Write(marshalJSON(e, !r.batch))
}

// marshalJSON writes v as JSON and a newline, indented or on one line, and
// without escaping <, > and & (\u003e is valid JSON, but not what a reader
// of a grammar wants to see).
func marshalJSON(v any, indent bool) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	enc.Encode(v) // maps of strings and numbers: cannot fail
	return b.Bytes()
}

// readSchema reads a schema file, or standard input for "-", and returns
// its contents and the name to use in messages. A file larger than limit is
// not read: its true size makes the L501 problem; from a stream it reads at
// most limit+1 bytes, so that an endless input (< /dev/zero) costs limit
// bytes of memory and the reader's size limit then names the problem.
func readSchema(path string, stdin io.Reader, limit int) ([]byte, string, error) {
	if limit <= 0 {
		limit = subsetcheck.DefaultLimits.MaxInputBytes
	}
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
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() > int64(limit) {
			return nil, name, subsetcheck.ErrorList{subsetcheck.InputTooLarge(name, st.Size(), limit)}
		}
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, int64(limit)+1))
	if err == nil && len(b) > limit {
		return nil, name, subsetcheck.ErrorList{subsetcheck.InputTooLarge(name, -1, limit)}
	}
	return b, name, err
}

// readInput reads a file, or standard input for "-", for match and
// verdict: at most limit+1 bytes, so their own limits name a longer one.
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
// never half a grammar. A symbolic link is followed (the file it names is
// replaced, the link kept), and what is not a regular file (/dev/null,
// /dev/stdout, a named pipe) is written to as it is: a rename would put a
// file in its place. A file replaced keeps its permissions.
func writeFileAtomic(path string, data []byte) error {
	path = followLinks(path)
	perm := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		if !fi.Mode().IsRegular() {
			return os.WriteFile(path, data, 0o644)
		}
		perm = fi.Mode().Perm()
	}
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
	if err := os.Chmod(tmp.Name(), perm); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// followLinks is path with its symbolic links followed, a last one that
// names no file yet too (the file is made where it points, the link kept);
// path itself when it is no link or the links go round.
func followLinks(path string) string {
	for range 40 { // as many links as Linux follows
		if real, err := filepath.EvalSymlinks(path); err == nil {
			return real
		}
		dest, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(path), dest)
		}
		path = dest
	}
	return path
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

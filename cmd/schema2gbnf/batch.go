package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// input is one schema to compile: where to read it, and where its output
// goes ("" for stdout, or none with check).
type input struct {
	path string
	out  string
}

// schemaExts are the file endings a directory is searched for.
var schemaExts = []string{".json", ".yaml", ".yml"}

func isYAMLName(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".yaml" || ext == ".yml"
}

// outputExt is the ending of a grammar file in a batch.
func outputExt(format string) string {
	switch format {
	case "regex":
		return ".regex"
	case "llama-server":
		return ".json"
	}
	return ".gbnf"
}

// listInputs turns the positional arguments into schemas. One file (or
// stdin) is a single compile; several, or a directory, are a batch, whose
// outputs go into the directory -o names, one per schema, at the schema's
// path under its argument with the output's ending. Two schemas that would
// write the same output are an error before anything is compiled.
func listInputs(args []string, output string, checkOnly bool, ext string) ([]input, bool, error) {
	if len(args) == 0 {
		args = []string{"-"}
	}
	var list []input
	batch := len(args) > 1
	for _, a := range args {
		if a == "-" {
			if len(args) > 1 {
				return nil, false, errors.New("stdin (-) cannot be one of several schemas")
			}
			list = append(list, input{path: "-"})
			continue
		}
		st, err := os.Stat(a)
		if err != nil || !st.IsDir() {
			list = append(list, input{path: a, out: filepath.Base(a)})
			continue
		}
		batch = true
		var found []input
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !slices.Contains(schemaExts, strings.ToLower(filepath.Ext(p))) {
				return nil
			}
			rel, _ := filepath.Rel(a, p)
			found = append(found, input{path: p, out: rel})
			return nil
		})
		if err != nil {
			return nil, false, err
		}
		if len(found) == 0 {
			return nil, false, fmt.Errorf("%s holds no .json, .yaml or .yml file", a)
		}
		list = append(list, found...)
	}
	if !batch {
		in := list[0]
		in.out = output
		if st, err := os.Stat(output); output != "" && output != "-" && err == nil && st.IsDir() && !checkOnly {
			if in.path == "-" {
				return nil, false, errors.New("-o names a directory: a schema from stdin needs a file name")
			}
			in.out = filepath.Join(output, outName(filepath.Base(in.path), ext))
		}
		return []input{in}, false, nil
	}
	if checkOnly {
		for i := range list {
			list[i].out = ""
		}
		return list, true, nil
	}
	if output == "" || output == "-" {
		return nil, false, fmt.Errorf("%d schemas: name a directory for their grammars with -o DIR", len(list))
	}
	seen := map[string]string{}
	for i := range list {
		list[i].out = filepath.Join(output, outName(list[i].out, ext))
		if other, dup := seen[list[i].out]; dup {
			return nil, false, fmt.Errorf("%s and %s would both write %s", other, list[i].path, list[i].out)
		}
		seen[list[i].out] = list[i].path
	}
	return list, true, nil
}

// outName replaces a schema's ending with the output's.
func outName(rel, ext string) string {
	return strings.TrimSuffix(rel, filepath.Ext(rel)) + ext
}

// batch compiles (or checks) every input, with a progress line when stderr
// is a terminal, and ends with a summary: compiled, refused by code,
// unreadable. Exit 2 when a file could not be read or written, else 1 when
// any schema was refused, else 0.
func (j *compileJob) batch(inputs []input, terminal bool) int {
	j.batching = true
	j.rep.batch = true
	if terminal && !j.rep.json {
		j.rep.progress = &progress{w: j.rep.stderr}
	}
	compiled, refused, failed := 0, 0, 0
	byCode := map[subsetcheck.Code]int{}
	for i, in := range inputs {
		j.rep.progress.show(i, len(inputs), in.path)
		data, name, err := readSchema(in.path, nil, j.opts.Limits.MaxInputBytes)
		code := exitOK
		var problems subsetcheck.ErrorList
		switch {
		case errors.As(err, &problems):
			code = j.rep.problems(name, err, nil)
		case err != nil:
			j.rep.fail(name, err)
			code = exitUsage
		default:
			if !j.checkOnly {
				if err := os.MkdirAll(filepath.Dir(in.out), 0o755); err != nil {
					j.rep.fail(name, err)
					failed++
					continue
				}
			}
			j.opts.Name = name
			j.opts.BaseURI = j.f.refs.baseURI(in.path)
			code = j.oneCollect(data, in.out, j.f.yaml || isYAMLName(in.path), &problems)
		}
		switch code {
		case exitOK:
			compiled++
		case exitRefused:
			refused++
			seen := map[subsetcheck.Code]bool{}
			for _, p := range problems {
				if !seen[p.Code] {
					byCode[p.Code]++
					seen[p.Code] = true
				}
			}
		default:
			failed++
		}
	}
	j.rep.progress.clear()
	j.summary(len(inputs), compiled, refused, failed, byCode)
	switch {
	case failed > 0:
		return exitUsage
	case refused > 0:
		return exitRefused
	}
	return exitOK
}

// oneCollect is one, keeping the refusal's problems for the summary.
func (j *compileJob) oneCollect(data []byte, out string, yaml bool, problems *subsetcheck.ErrorList) int {
	j.lastProblems = nil
	code := j.one(data, out, yaml)
	*problems = j.lastProblems
	return code
}

// summary prints the batch's counts on stderr: a line of text, or one JSON
// object with -error-format json.
func (j *compileJob) summary(total, compiled, refused, failed int, byCode map[subsetcheck.Code]int) {
	codes := make([]string, 0, len(byCode))
	for c := range byCode {
		codes = append(codes, string(c))
	}
	sort.Strings(codes)
	verb := "compiled"
	if j.checkOnly {
		verb = "ok"
	}
	if j.rep.json {
		counts := map[string]int{}
		for c, n := range byCode {
			counts[string(c)] = n
		}
		j.rep.stderr.Write(marshalJSON(map[string]any{"summary": map[string]any{
			"schemas": total, verb: compiled, "refused": refused, "unreadable": failed, "refused_by": counts}}, false))
		return
	}
	line := fmt.Sprintf("%d schemas: %d %s, %d refused", total, compiled, verb, refused)
	if len(codes) > 0 {
		parts := make([]string, len(codes))
		for i, c := range codes {
			parts[i] = fmt.Sprintf("%s %d", c, byCode[subsetcheck.Code(c)])
		}
		line += " (" + strings.Join(parts, ", ") + ")"
	}
	if failed > 0 {
		line += fmt.Sprintf(", %d unreadable or unwritable", failed)
	}
	fmt.Fprintln(j.rep.stderr, line)
}

// progress is the batch's progress line on a terminal, redrawn in place.
// Its methods do nothing on a nil progress (not a terminal).
type progress struct {
	w     io.Writer
	shown bool
}

func (p *progress) show(i, n int, name string) {
	if p == nil {
		return
	}
	if len(name) > 60 {
		name = "…" + name[len(name)-59:]
	}
	fmt.Fprintf(p.w, "\r\x1b[K[%d/%d] %s", i+1, n, name)
	p.shown = true
}

func (p *progress) clear() {
	if p == nil || !p.shown {
		return
	}
	fmt.Fprint(p.w, "\r\x1b[K")
	p.shown = false
}

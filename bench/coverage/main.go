// Command coverage compiles every *.json schema under the given directories
// and reports, per schema, whether it compiled, was refused (with which
// codes) or crashed, how long it took and how big the grammar is.
//
//	go run ./bench/coverage [-json out.json] DIR...
//
// The subset of a schema is the name of the directory holding it. The text
// tables (Markdown) go to stdout; progress goes to stderr only on a terminal.
// A compile slower than -slow is flagged, not killed; one still running after
// -abandon is left behind and reported as a hang, and the run goes on.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/bench"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

func main() {
	jsonOut := flag.String("json", "", "write per-schema records to this file")
	slow := flag.Duration("slow", bench.DefaultGuard.SlowAfter, "flag a compile slower than this as slow")
	abandon := flag.Duration("abandon", bench.DefaultGuard.AbandonAfter, "stop waiting for a compile after this, and report a hang")
	assertFormat := flag.Bool("assert-format", false, "compile with format asserted (schema2gbnf.Options.AssertFormat)")
	lenient := flag.Bool("lenient", false, "compile each schema under the lenient profile too, and compare (exact / more lenient / refused / unreadable per subset, relaxations ranked)")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: coverage [-json out.json] [-slow 2s] [-abandon 60s] [-assert-format] [-lenient] DIR...\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	schemas, err := bench.FindSchemas(flag.Args()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "coverage:", err)
		os.Exit(1)
	}
	guard := bench.Guard{SlowAfter: *slow, AbandonAfter: *abandon}
	guard.Options.AssertFormat = *assertFormat
	progress := bench.StderrIsTerminal()
	records := make([]bench.Record, 0, len(schemas))
	for i, s := range schemas {
		if progress {
			fmt.Fprintf(os.Stderr, "\r%d/%d %-60.60s", i+1, len(schemas), s.Path)
		}
		data, err := bench.ReadSchema(s)
		var out bench.Outcome
		if err != nil {
			out = bench.Outcome{Status: bench.Failed, Detail: err.Error()}
		} else {
			out = guard.Compile(data)
		}
		rec := bench.NewRecord(s, out)
		if *lenient && err == nil {
			lg := guard
			lg.Options.Profile = subsetcheck.Lenient
			rec.Lenient = bench.NewLenientRecord(lg.Compile(data))
		}
		records = append(records, rec)
	}
	if progress {
		fmt.Fprintln(os.Stderr)
	}
	if *jsonOut != "" {
		run := bench.Coverage{Command: bench.PublicCommand("go run ./bench/coverage " + strings.Join(os.Args[1:], " ")), Env: bench.Env(), Records: records}
		if err := writeJSON(*jsonOut, run); err != nil {
			fmt.Fprintln(os.Stderr, "coverage:", err)
			os.Exit(1)
		}
	}
	fmt.Print(bench.CoverageTables(records))
	if *lenient {
		fmt.Print("\n" + bench.LenientTables(records))
	}
	bugs := 0
	for _, r := range records {
		if r.Status == bench.Crash || r.Status == bench.Failed || r.Status == bench.Hang {
			if bugs < 20 {
				fmt.Fprintf(os.Stderr, "%s: %s: %s\n", r.File, r.Status, firstLine(r.Detail))
			}
			bugs++
		}
	}
	if bugs > 0 {
		fmt.Fprintf(os.Stderr, "%d schemas crashed, errored or hung (bugs); see the records\n", bugs)
	}
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

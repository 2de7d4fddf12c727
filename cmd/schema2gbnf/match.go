package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

const matchUsage = `usage: schema2gbnf match GRAMMAR [TEXT|-]

Does GRAMMAR (a GBNF file) accept the whole TEXT (a file, or stdin)? Prints
"accepted", or where the text left the grammar. Exit status: 0 accepted,
1 rejected, 2 the grammar does not parse or a file cannot be read.
`

// printGrammarError writes a GBNF parse error with the grammar's file name:
// "file:line:col: message" for each problem, "file: message" for one with
// no position.
func printGrammarError(w io.Writer, path string, err error) {
	var list gbnf.ErrorList
	var one *gbnf.Error
	switch {
	case errors.As(err, &list):
	case errors.As(err, &one):
		list = gbnf.ErrorList{one}
	default:
		fmt.Fprintf(w, "%s: %v\n", path, err)
		return
	}
	for _, e := range list {
		fmt.Fprintf(w, "%s\n", grammarErrorText(path, e))
	}
}

// grammarErrorText is one GBNF problem, placed in its file.
func grammarErrorText(path string, e *gbnf.Error) string {
	if e.Pos.Line == 0 {
		return path + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", path, e.Pos.Line, e.Pos.Col, e.Msg)
}

// runMatch is "schema2gbnf match GRAMMAR [TEXT|-]": exit 0 when the grammar
// accepts the whole text, 1 when it does not (saying where the text left the
// grammar), 2 when the grammar does not parse or a file cannot be read.
func runMatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("schema2gbnf match", flag.ContinueOnError)
	pos, code, done := parseFlags(fs, args, func(w io.Writer) {
		fmt.Fprint(w, matchUsage)
		fs.SetOutput(w)
		fs.PrintDefaults()
	}, stdout, stderr)
	if done {
		return code
	}
	if len(pos) < 1 || len(pos) > 2 || len(pos) == 1 && isTerminal(stdin) {
		fmt.Fprint(stderr, matchUsage)
		return exitUsage
	}
	args = pos
	src, _, err := readInput(args[0], stdin, maxTextBytes)
	if err != nil {
		fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
		return exitUsage
	}
	g, err := gbnf.Parse(string(src))
	if err != nil {
		printGrammarError(stderr, args[0], err)
		return exitUsage
	}
	m, err := gbnf.NewMatcher(g)
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", args[0], err)
		return exitUsage
	}
	path := "-"
	if len(args) == 2 {
		path = args[1]
	}
	text, name, err := readInput(path, stdin, maxTextBytes)
	if err != nil {
		fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
		return exitUsage
	}
	r := m.Match(string(text))
	if r.Accepted {
		fmt.Fprintln(stdout, "accepted")
		return exitOK
	}
	line, col := gbnf.Position(string(text), r.Offset)
	if r.Offset >= len(text) {
		fmt.Fprintf(stdout, "rejected: %s:%d:%d: the text ends before the grammar is complete\n", name, line, col)
		return exitRefused
	}
	c, _ := utf8.DecodeRune(text[r.Offset:])
	fmt.Fprintf(stdout, "rejected: %s:%d:%d: the grammar cannot take %q here (byte %d)\n", name, line, col, c, r.Offset)
	return exitRefused
}

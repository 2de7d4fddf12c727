package main

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// runMatch is "schema2gbnf match GRAMMAR [TEXT|-]": exit 0 when the grammar
// accepts the whole text, 1 when it does not (saying where the text left the
// grammar), 2 when the grammar does not parse or a file cannot be read.
func runMatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) < 1 || len(args) > 2 {
		fmt.Fprint(stderr, "usage: schema2gbnf match GRAMMAR [TEXT|-]\n")
		return exitUsage
	}
	src, _, err := readInput(args[0], stdin, maxTextBytes)
	if err != nil {
		fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
		return exitUsage
	}
	g, err := gbnf.Parse(string(src))
	if err != nil {
		fmt.Fprintf(stderr, "%s:%v\n", args[0], err)
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

package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

const matchUsage = `usage: schema2gbnf match [flags] GRAMMAR [TEXT|-]

Says whether GRAMMAR accepts the whole TEXT (default stdin): exit 0 when it
does, 1 when it does not (saying where the text left the grammar), 2 when
the grammar does not parse, is over a limit, or a file cannot be read.

` + finalNewlineRule + `
flags:
`

// finalNewlineRule is the one rule match and verdict follow for a final
// newline, said in both verbs' usage.
const finalNewlineRule = `One final newline of TEXT ("\n" or "\r\n") is dropped: echo, jq -r and
editors add one, and a grammar never ends with one. -exact keeps every byte.`

// runMatch is "schema2gbnf match GRAMMAR [TEXT|-]".
func runMatch(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var lim judgeLimitFlags
	var exact bool
	fs := flag.NewFlagSet("schema2gbnf match", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, matchUsage)
		fs.PrintDefaults()
	}
	fs.BoolVar(&exact, "exact", false, "match TEXT byte for byte, keeping a final newline")
	lim.register(fs, false)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(pos) < 1 || len(pos) > 2 {
		fmt.Fprintf(stderr, "schema2gbnf: want GRAMMAR [TEXT|-], got %d arguments\n", len(pos))
		fs.Usage()
		return exitUsage
	}
	g, _, err := readGrammar(pos[0], stdin, lim)
	if err != nil {
		fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
		return exitUsage
	}
	m, err := gbnf.NewMatcherLimits(g, lim.matcher())
	if err != nil {
		fmt.Fprintf(stderr, "schema2gbnf: %s: %v\n", pos[0], matcherLimitFlag(err))
		return exitUsage
	}
	path := "-"
	if len(pos) == 2 {
		path = pos[1]
	}
	text, name, err := readInput(path, stdin, maxTextBytes)
	if err != nil {
		fmt.Fprintf(stderr, "schema2gbnf: %v\n", err)
		return exitUsage
	}
	if !exact {
		text = dropFinalNewline(text)
	}
	r, err := m.Check(string(text))
	if err != nil {
		fmt.Fprintf(stderr, "schema2gbnf: %s: %v\n", name, matcherLimitFlag(err))
		return exitUsage
	}
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

// readGrammar reads and parses a grammar file within the flags' limits,
// naming the flag when one is passed; src is the file's text.
func readGrammar(path string, stdin io.Reader, lim judgeLimitFlags) (g *gbnf.Grammar, src string, err error) {
	b, name, err := readInput(path, stdin, lim.maxGrammarBytes)
	if err != nil {
		return nil, "", err
	}
	if len(b) > lim.maxGrammarBytes {
		return nil, "", fmt.Errorf("%s: the grammar is more than %d bytes; raise -max-grammar-bytes", name, lim.maxGrammarBytes)
	}
	g, err = gbnf.ParseWithLimits(string(b), lim.grammar())
	if err != nil {
		if strings.Contains(err.Error(), "MaxRules") {
			return nil, "", fmt.Errorf("%s: %v; raise -max-grammar-rules", name, err)
		}
		return nil, "", fmt.Errorf("%s: %v", name, err)
	}
	return g, string(b), nil
}

func dropFinalNewline(text []byte) []byte {
	if bytes.HasSuffix(text, []byte("\r\n")) {
		return text[:len(text)-2]
	}
	return bytes.TrimSuffix(text, []byte("\n"))
}

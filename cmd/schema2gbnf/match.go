package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

const matchUsage = `usage: schema2gbnf match [flags] GRAMMAR [TEXT|-]

Does GRAMMAR (a GBNF file) accept the whole TEXT (a file, or stdin)? Prints
"accepted", or where the text left the grammar. Exit status: 0 accepted,
1 rejected, 2 the grammar does not parse, is over a limit, or a file cannot
be read.

` + finalNewlineRule + `

flags:
`

// finalNewlineRule is the one rule match and verdict follow for a final
// newline, said in both verbs' usage.
const finalNewlineRule = `One final newline of TEXT ("\n" or "\r\n") is dropped: echo, jq -r and
editors add one, and a grammar never ends with one. -exact keeps every byte.`

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
	var lim judgeLimitFlags
	var exact bool
	fs := flag.NewFlagSet("schema2gbnf match", flag.ContinueOnError)
	fs.BoolVar(&exact, "exact", false, "match TEXT byte for byte, keeping a final newline")
	lim.register(fs, false)
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
	g, _, err := readGrammar(pos[0], stdin, lim)
	if err != nil {
		printGrammarError(stderr, pos[0], err)
		return exitUsage
	}
	m, err := gbnf.NewMatcherLimits(g, lim.matcher())
	if err != nil {
		fmt.Fprintf(stderr, "%s: %v\n", pos[0], matcherLimitFlag(err))
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
		fmt.Fprintf(stderr, "%s: %v\n", name, matcherLimitFlag(err))
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

// readGrammar reads and parses a grammar file within the flags' limits; a
// limit passed names its flag. src is the file's text. A parse error is
// gbnf's, for printGrammarError.
func readGrammar(path string, stdin io.Reader, lim judgeLimitFlags) (g *gbnf.Grammar, src string, err error) {
	b, _, err := readInput(path, stdin, lim.maxGrammarBytes)
	if err != nil {
		return nil, "", err
	}
	if len(b) > lim.maxGrammarBytes {
		size := fmt.Sprintf("more than %d", lim.maxGrammarBytes)
		if st, err := os.Stat(path); err == nil && path != "-" {
			size = strconv.FormatInt(st.Size(), 10)
		}
		return nil, "", fmt.Errorf("grammar text is %s bytes, over the limit of %d; raise -max-grammar-bytes", size, lim.maxGrammarBytes)
	}
	g, err = gbnf.ParseWithLimits(string(b), lim.grammar())
	if err != nil {
		if strings.Contains(err.Error(), "MaxRules") {
			return nil, "", fmt.Errorf("%v; raise -max-grammar-rules", err)
		}
		return nil, "", err
	}
	return g, string(b), nil
}

func dropFinalNewline(text []byte) []byte {
	if bytes.HasSuffix(text, []byte("\r\n")) {
		return text[:len(text)-2]
	}
	return bytes.TrimSuffix(text, []byte("\n"))
}

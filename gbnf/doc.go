// Package gbnf holds llama.cpp's grammar format (GBNF) as a Go value: the
// grammar AST that the compiler builds and everything that reads, writes and
// runs it.
//
// # Parsing and printing
//
// Print (and Grammar.String) writes a grammar as llama.cpp-compatible text,
// one "name ::= body" line per rule, in order, escaping only with the escapes
// llama.cpp knows. Parse reads GBNF text the way llama.cpp's parser does and
// accepts exactly what it accepts, with a few documented refusals: invalid
// UTF-8, NUL bytes, token references, the escape \- (only recent releases
// know it), {m,n} with n < m, and the limits in Limits. Validate
// checks what llama.cpp checks when it loads a grammar: a root rule, every
// referenced rule defined, no left recursion; Parse calls it.
//
// The AST is normalized by Parse so that Parse(Print(Parse(x))) equals
// Parse(x): groups dissolve into their content, nested sequences and
// alternatives are flattened, and every way of writing the empty string
// ("", [], [^], (), an empty alternative) becomes an empty Seq.
package gbnf

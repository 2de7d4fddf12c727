// Command schema2gbnf compiles a JSON Schema into a llama.cpp grammar that
// accepts exactly what a JSON Schema validator accepts, or refuses the schema
// with every problem, located and coded.
//
// Usage:
//
//	schema2gbnf [flags] [SCHEMA|-]            compile; the grammar goes to stdout or -o FILE
//	schema2gbnf [flags] -o DIR SCHEMA|DIR...  compile many schemas, one grammar each in DIR
//	schema2gbnf check [flags] [SCHEMA|DIR...] check only
//	schema2gbnf match GRAMMAR [TEXT|-]        does the grammar accept the whole text?
//	schema2gbnf verdict SCHEMA [TEXT|-]       a typed verdict on a model's output
//	schema2gbnf -example                      compile the embedded example schema
//
// Schemas ending in .yaml or .yml are read as YAML (its JSON-compatible
// part), any other as JSON. Help (-h) goes to stdout; with no argument on a
// terminal the command prints its usage instead of waiting for stdin.
//
// Exit status: 0 ok (accepted), 1 refused (rejected; in a batch, any
// refused), 2 usage or I/O error; verdict has one status per verdict class
// (see its -h).
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

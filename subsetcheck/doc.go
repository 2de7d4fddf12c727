// Package subsetcheck reads JSON strictly and holds a JSON Schema to a
// profile: the first two stages of schema2gbnf.
//
// Read turns bytes into a Value tree (members in document order, byte
// offsets, numbers as written), refusing what lenient readers let through.
// Check walks the schema with the keyword table (Keywords): enforced keywords
// become fields of the Schema graph, annotations are accepted, refused
// keywords and broken rules become Problems with a code, a JSON Pointer, a
// line:column and a message that says what to write instead. Names of no
// vocabulary of the schema's draft constrain nothing in a validator and are
// accepted with warning W301. docs/keywords.md and docs/codes.md are
// generated from the tables (go run ./subsetcheck/internal/gendocs).
package subsetcheck

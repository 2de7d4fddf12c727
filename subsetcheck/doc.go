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
//
// The files follow the stages: read.go reads; check.go holds Check and the
// walk; pattern.go compiles the patterns of pattern and patternProperties
// (once per Check, package strlang); ref.go resolves $refs, cycles.go refuses recursion that consumes no
// input, meta.go checks what the walk did not reach, portable.go holds the
// portable profile's rules; positions.go lists where schemas stand and
// location.go spells JSON Pointers and line:column; resources.go and
// gather.go find what a $ref names, in the document and in those handed in;
// lenient.go and polarity.go hold the lenient profile's relaxations. Each keyword is one row
// of the table in keywords.go naming its handler, which lives in the file
// of its family: keywords_core.go ($schema, $id, $ref, $anchor,
// annotations), keywords_value.go (type, enum, const), keywords_object.go,
// keywords_array.go, keywords_string.go, keywords_number.go and
// keywords_combinator.go. To add a keyword, write its handler there (see
// checkFunc: check the value, build the subschemas it holds, record what it
// enforces in the Schema), add its row, and regenerate the docs.
package subsetcheck

// Package equiv is the equivalence harness: it proves, by testing, the
// project's central claim (DESIGN.md §2) that a compiled grammar accepts
// exactly what a JSON Schema validator accepts.
//
// The package itself is test support: Generator makes valid values that
// walk every branch and bound of a checked schema and near-miss invalid
// values one step outside a constraint; Text spells values in several ways;
// RawNearMisses makes texts that are almost JSON; StrictJSON checks RFC 8259
// without trusting the project's reader; Holds is the generator's own
// reading of a checked schema.
//
// Its tests run the check, with santhosh-tekuri/jsonschema/v6 as the
// oracle: the canonical text of every valid value is accepted, every
// invalid value is rejected in every spelling, every text the matcher
// accepts is strict JSON the oracle accepts, strings sampled from the
// grammar are valid, and llama.cpp (through interop) loads the grammars and
// agrees with our matcher. The oracle reads patterns as ECMA-262 with the u
// flag (internal/regexp2ecma); the generator makes pattern strings and
// member names by random walks of their automata, with near misses at
// every position (pattern.go, names.go). Corpora: testdata/equiv
// (hand-written; patterns/ and names/ for pattern, patternProperties and
// propertyNames), testdata/jsts (the official test suite, with a ledger),
// testdata/corpus (a JSONSchemaBench slice), the corpus's 764 distinct
// patterns (TestCorpusPatterns); with formats asserted (AssertFormat),
// testdata/equiv/formats and the suite's optional format tests
// (TestFormatSchemas, TestFormatSuite). Flags:
//
//	go test ./equiv -corpus=path/to/jsonschemabench  # a whole corpus, with counts
//	go test ./equiv -run TestSuite -update                       # rewrite the suite's ledger
//	go test ./equiv -run TestCorpus -assert-format               # the corpus with formats asserted
//	go test ./equiv -seed=N -maxfails=N -engine=false
//	go test ./equiv -run XXX -fuzz FuzzEquiv                     # findings go to testdata/fuzz
//	go test ./equiv -run XXX -fuzz FuzzPattern                   # random patterns and strings
package equiv

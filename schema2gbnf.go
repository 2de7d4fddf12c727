// Package schema2gbnf compiles a JSON Schema into a grammar that a language
// model cannot leave while it writes: GBNF for llama.cpp. The grammar accepts
// exactly what a JSON Schema validator accepts, or the schema is refused with
// typed, located problems.
//
// The pipeline, one package per stage:
//
//	schema bytes --subsetcheck.Read--> Document --subsetcheck.Check--> Checked
//	             --compile.Compile--> gbnf.Grammar --String--> GBNF text
//
// Compile runs all of it:
//
//	g, err := schema2gbnf.Compile(schemaJSON, schema2gbnf.Options{})
//	if err != nil { ... } // a subsetcheck.ErrorList: errors.As it for codes and positions
//	fmt.Print(g.GBNF)
//
// Compile reads nothing but its argument: no file or network access, no
// global state; it is safe for concurrent use.
package schema2gbnf

import (
	"slices"

	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/regex"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Options steer Compile. The zero value is the default: the exact profile,
// draft 2020-12 unless the schema's "$schema" says otherwise, bounded
// whitespace, default limits.
type Options struct {
	Name         string              // the schema's file name in messages; "schema" when empty
	Profile      subsetcheck.Profile // subsetcheck.Exact (default), subsetcheck.Lenient or subsetcheck.Portable
	DefaultDraft subsetcheck.Draft   // the draft when "$schema" is absent; 0 means 2020-12
	Whitespace   compile.Whitespace  // compile.Bounded (default) or compile.Compact
	Limits       subsetcheck.Limits  // reading and checking limits (L501-L504); zero fields take their defaults
	// MaxRules bounds the rules of the grammar (C403 beyond it); 0 means
	// compile.DefaultMaxRules.
	MaxRules int
	// MaxAlternatives and MaxMeets bound how far $ref and the combinators
	// (anyOf, allOf, oneOf, not, if/then/else) beside other keywords
	// multiply (C402 beyond them); MaxOneOfPairs bounds the pairs of oneOf
	// branches compared (C402 beyond it). 0 means compile's defaults.
	MaxAlternatives int
	MaxMeets        int
	MaxOneOfPairs   int
	// MaxCountStates, MaxMultipleOfStates and MaxUniqueItems bound the
	// grammars of the counting keywords (minProperties, contains counts;
	// multipleOf; uniqueItems), C403 or C402 beyond them; 0 means
	// compile's defaults.
	MaxCountStates      int
	MaxMultipleOfStates int
	MaxUniqueItems      int
	// MaxRelaxRounds bounds the compiles of the lenient profile, which
	// compiles again after relaxing each place the compiler refused (C405
	// beyond it); 0 means compile.DefaultMaxRelaxRounds.
	MaxRelaxRounds int
	// AssertFormat enforces "format": date, time, date-time, uuid, ipv4,
	// ipv6 and duration become part of the grammar, exactly as the
	// validator judges them, and any other format is refused (S210).
	// Without it, format is an annotation (W302), as JSON Schema 2020-12
	// says by default.
	AssertFormat bool
	// ClosedObjects closes every object schema that lists properties and
	// has no additionalProperties, as if it said "additionalProperties":
	// false: the model can no longer write members the schema does not
	// list. A narrowing, named in the provenance line (objects=closed):
	// every text the grammar accepts is still valid, but values with other
	// members, which JSON Schema allows, are not accepted.
	ClosedObjects bool
	// BaseURI is the schema's retrieval URI: its base when it has no $id,
	// against which its relative $refs resolve; "" means
	// subsetcheck.DefaultBaseURI (file:///schema.json).
	BaseURI string
	// Refs and Documents hand in the other documents a $ref may name,
	// read from local files only: each $ref to another document is
	// resolved to an absolute URI, looked up in Documents (URI -> bytes),
	// then in the RefSource with the longest prefix the URI starts with,
	// and so for the $refs of the documents read, within
	// Limits.MaxRefDocuments (L507) and MaxRefBytes (L508). Without them a
	// $ref to another document is refused (S206). Nothing else is read:
	// Compile opens no file of its own, and fetches nothing.
	Refs      []RefSource
	Documents map[string][]byte
	// YAML reads the schema as YAML instead of JSON: strictly, only the
	// part of YAML that JSON can say (subsetcheck.ReadYAML). Everything
	// after reading is the same; messages point into the YAML text.
	YAML bool
}

// Grammar is a compiled schema.
type Grammar struct {
	GBNF       string                // the grammar text for llama.cpp, its provenance comment first
	Provenance Provenance            // how it was made
	Rules      *gbnf.Grammar         // the same grammar as a value: match it, sample it, print it; read-only (its nodes are shared with other grammars)
	Schema     *subsetcheck.Checked  // the checked schema it was compiled from
	Warnings   subsetcheck.ErrorList // what was accepted but not enforced (annotations, unknown members, relaxations), or enforced but perhaps not meant (overlapping oneOf branches)
	// Relaxed (lenient profile) are the constraints the grammar does not
	// enforce, one warning each (W305-W309); they are in Warnings too. A
	// text the grammar accepts may break them: validate it after decoding
	// (package verdict does).
	Relaxed subsetcheck.ErrorList
}

// Compile reads, checks and compiles a schema. On failure the error is a
// subsetcheck.ErrorList holding every problem found, and no grammar is
// returned.
func Compile(schema []byte, opts Options) (*Grammar, error) {
	copts := compile.Options{
		Whitespace:          opts.Whitespace,
		MaxRules:            opts.MaxRules,
		MaxAlternatives:     opts.MaxAlternatives,
		MaxMeets:            opts.MaxMeets,
		MaxOneOfPairs:       opts.MaxOneOfPairs,
		MaxCountStates:      opts.MaxCountStates,
		MaxMultipleOfStates: opts.MaxMultipleOfStates,
		MaxUniqueItems:      opts.MaxUniqueItems,
		MaxRelaxRounds:      opts.MaxRelaxRounds,
	}
	var checked *subsetcheck.Checked
	var rules *gbnf.Grammar
	var warns subsetcheck.ErrorList
	if opts.Profile == subsetcheck.Lenient {
		doc, err := read(schema, opts)
		if err != nil {
			return nil, err
		}
		cop, err := checkOptionsFor(doc, opts)
		if err != nil {
			return nil, err
		}
		if checked, rules, warns, err = compile.Lenient(doc, cop, copts); err != nil {
			return nil, err
		}
	} else {
		var err error
		if checked, err = Check(schema, opts); err != nil {
			return nil, err
		}
		if rules, warns, err = compile.CompileWithWarnings(checked, copts); err != nil {
			return nil, err
		}
	}
	ws := opts.Whitespace
	if ws == "" {
		ws = compile.Bounded
	}
	prov := Provenance{
		Version:    Version,
		Profile:    string(checked.Profile),
		Whitespace: string(ws),
		Draft:      checked.Draft.String(),
		Format:     formatMode(checked.AssertFormat),
		Objects:    objectsMode(checked.ClosedObjects),
		Relaxed:    len(checked.Relaxed),
		Schema:     SchemaHash(schema),
	}
	return &Grammar{
		GBNF:       rules.StringAfter(prov.String()), // one buffer: no copy of the whole grammar
		Provenance: prov,
		Rules:      rules,
		Schema:     checked,
		Warnings:   append(slices.Clip(checked.Warnings), warns...),
		Relaxed:    checked.Relaxed,
	}, nil
}

// Regex returns the same grammar as one regular expression, for engines that
// take a regex instead of a grammar; use it for a full match (see package
// regex). A recursive schema is refused (R601) unless opts.MaxDepth bounds the
// nesting, which rejects valid values nested deeper than that.
func (g *Grammar) Regex(opts regex.Options) (string, error) {
	return regex.Emit(g.Rules, opts)
}

// Check reads a schema and checks it against the profile, without
// compiling. Under the lenient profile it relaxes what the checker refuses
// only: what the compiler would refuse and relax is known by compiling.
func Check(schema []byte, opts Options) (*subsetcheck.Checked, error) {
	doc, err := read(schema, opts)
	if err != nil {
		return nil, err
	}
	cop, err := checkOptionsFor(doc, opts)
	if err != nil {
		return nil, err
	}
	return subsetcheck.Check(doc, cop)
}

// checkOptionsFor are the checker's options for doc: checkOptions, and the
// documents its $refs name, gathered from opts.Refs and opts.Documents.
func checkOptionsFor(doc *subsetcheck.Document, opts Options) (subsetcheck.Options, error) {
	cop := checkOptions(opts)
	if len(opts.Refs) == 0 && len(opts.Documents) == 0 {
		return cop, nil
	}
	docs, err := subsetcheck.Gather(doc, cop, refsLoader(opts))
	if err != nil {
		return cop, err
	}
	cop.Documents = docs
	return cop, nil
}

// read reads the schema as JSON, or as YAML under opts.YAML.
func read(schema []byte, opts Options) (*subsetcheck.Document, error) {
	name := opts.Name
	if name == "" {
		name = "schema"
	}
	if opts.YAML {
		return subsetcheck.ReadYAML(name, schema, opts.Limits)
	}
	return subsetcheck.Read(name, schema, opts.Limits)
}

// checkOptions are the checker's options among opts.
func checkOptions(opts Options) subsetcheck.Options {
	return subsetcheck.Options{
		Profile:       opts.Profile,
		DefaultDraft:  opts.DefaultDraft,
		Limits:        opts.Limits,
		AssertFormat:  opts.AssertFormat,
		ClosedObjects: opts.ClosedObjects,
		BaseURI:       opts.BaseURI,
	}
}

// objectsMode is the Provenance.Objects word: "" for JSON Schema's open
// objects, which the line leaves out, so that grammars compiled without the
// option keep their bytes.
func objectsMode(closed bool) string {
	if closed {
		return "closed"
	}
	return ""
}

// formatMode is the Provenance.Format word.
func formatMode(asserted bool) string {
	if asserted {
		return "asserted"
	}
	return "annotation"
}

// Version is the tool's version, printed by the CLI's --version.
const Version = "0.1.0"

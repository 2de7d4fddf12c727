package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/regex"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
	"github.com/schema2gbnf/schema2gbnf/verdict"
)

// limitFlags are the named limits a hostile schema runs into, one flag
// each, so an operator can raise one without touching code. Zero keeps the
// library's default, which the flag's help shows.
type limitFlags struct {
	maxInputBytes   int
	maxDepth        int
	maxNumberDigits int
	maxSubschemas   int
	maxNestedBytes  int
	maxValues       int
	maxRefDocs      int
	maxRefBytes     int
	maxPattern      struct{ bytes, nesting, repeat, states, lengthStates, regions int }
	maxRules        int
	maxAlts         int
	maxMeets        int
	maxCountStates  int
	maxMultipleOf   int
	maxUniqueItems  int
	maxPairs        int
	maxRelaxRounds  int
	maxRegexBytes   int
	maxRegexNesting int
}

// register adds the limit flags to fs.
func (l *limitFlags) register(fs *flag.FlagSet) {
	d := subsetcheck.DefaultLimits
	fs.IntVar(&l.maxInputBytes, "max-input-bytes", d.MaxInputBytes, "refuse a schema longer than `N` bytes (L501)")
	fs.IntVar(&l.maxDepth, "max-nesting", d.MaxDepth, "refuse JSON nested deeper than `N` (L502)")
	fs.IntVar(&l.maxNumberDigits, "max-number-digits", d.MaxNumberDigits, "refuse a number with more than `N` digits or exponent magnitude (L503)")
	fs.IntVar(&l.maxSubschemas, "max-subschemas", d.MaxSubschemas, "refuse a schema with more than `N` subschemas (L504)")
	fs.IntVar(&l.maxNestedBytes, "max-nested-bytes", d.MaxNestedBytes, "refuse a text whose bytes times their nesting depth pass `N` (L502)")
	fs.IntVar(&l.maxValues, "max-values", d.MaxValues, "refuse a text holding more than `N` JSON values (L505)")
	fs.IntVar(&l.maxRefDocs, "max-ref-documents", d.MaxRefDocuments, "with -refs or -ref: refuse a schema whose $refs name more than `N` other documents (L507)")
	fs.IntVar(&l.maxRefBytes, "max-ref-bytes", d.MaxRefBytes, "with -refs or -ref: refuse a schema whose $refs name documents of more than `N` bytes in all (L508)")
	fs.IntVar(&l.maxPattern.bytes, "max-pattern-bytes", d.MaxPatternBytes, "refuse a pattern longer than `N` bytes (L506)")
	fs.IntVar(&l.maxPattern.nesting, "max-pattern-nesting", d.MaxPatternNesting, "refuse a pattern whose groups nest deeper than `N` (L506)")
	fs.IntVar(&l.maxPattern.repeat, "max-pattern-repeat", d.MaxPatternRepeat, "refuse a pattern that is more than `N` automaton positions with its counted repetitions written out (L506)")
	fs.IntVar(&l.maxPattern.states, "max-pattern-states", d.MaxPatternStates, "refuse a pattern, or an intersection of patterns, whose automaton needs more than `N` states (L506)")
	fs.IntVar(&l.maxPattern.lengthStates, "max-length-states", d.MaxLengthStates, "refuse a string language cut to minLength/maxLength that needs more than `N` states (L506)")
	fs.IntVar(&l.maxPattern.regions, "max-name-regions", d.MaxNameRegions, "refuse an object whose patternProperties split its member names into more than `N` regions (L506)")
	fs.IntVar(&l.maxRules, "max-rules", compile.DefaultMaxRules, "refuse a grammar of more than `N` rules (C403)")
	fs.IntVar(&l.maxAlts, "max-alternatives", compile.MaxAlternatives, "refuse a schema whose $ref and combinators (anyOf, allOf, oneOf, not, if) beside other keywords expand into more than `N` alternatives (C402)")
	fs.IntVar(&l.maxMeets, "max-meets", compile.MaxMeets, "refuse a schema that needs more than `N` merged schemas to combine keywords with $ref and combinators (C402)")
	fs.IntVar(&l.maxPairs, "max-oneof-pairs", compile.MaxOneOfPairs, "refuse a schema whose oneOf branches need more than `N` pairs compared (C402)")
	fs.IntVar(&l.maxCountStates, "max-count-states", compile.DefaultMaxCountStates, "refuse a count (minProperties/maxProperties over an object's members, contains counts, uniqueItems' sets of values) that needs more than `N` grammar states (C403)")
	fs.IntVar(&l.maxMultipleOf, "max-multipleof-states", compile.DefaultMaxMultipleOfStates, "refuse a multipleOf whose digit automaton needs more than `N` states (C403)")
	fs.IntVar(&l.maxUniqueItems, "max-unique-items", compile.DefaultMaxUniqueItems, "refuse uniqueItems on items that take more than `N` values (C402; at most 63)")
	fs.IntVar(&l.maxRelaxRounds, "max-relax-rounds", compile.DefaultMaxRelaxRounds, "with -profile lenient: refuse a schema the compiler still refuses after `N` compiles, each relaxing one more keyword where it refused (C405)")
	fs.IntVar(&l.maxRegexBytes, "max-regex-bytes", regex.DefaultMaxBytes, "with -format regex: refuse a regex longer than `N` bytes (R602)")
	fs.IntVar(&l.maxRegexNesting, "max-regex-nesting", regex.DefaultMaxNesting, "with -format regex: refuse a regex whose groups nest deeper than `N` (R603)")
}

// apply copies the limits into opts.
func (l *limitFlags) apply(opts *schema2gbnf.Options) {
	opts.Limits = subsetcheck.Limits{
		MaxInputBytes:   l.maxInputBytes,
		MaxDepth:        l.maxDepth,
		MaxNumberDigits: l.maxNumberDigits,
		MaxSubschemas:   l.maxSubschemas,
		MaxNestedBytes:  l.maxNestedBytes,
		MaxValues:       l.maxValues,
		MaxRefDocuments: l.maxRefDocs,
		MaxRefBytes:     l.maxRefBytes,

		MaxPatternBytes:   l.maxPattern.bytes,
		MaxPatternNesting: l.maxPattern.nesting,
		MaxPatternRepeat:  l.maxPattern.repeat,
		MaxPatternStates:  l.maxPattern.states,
		MaxLengthStates:   l.maxPattern.lengthStates,
		MaxNameRegions:    l.maxPattern.regions,
	}
	opts.MaxRules = l.maxRules
	opts.MaxAlternatives = l.maxAlts
	opts.MaxMeets = l.maxMeets
	opts.MaxCountStates = l.maxCountStates
	opts.MaxMultipleOfStates = l.maxMultipleOf
	opts.MaxUniqueItems = l.maxUniqueItems
	opts.MaxOneOfPairs = l.maxPairs
	opts.MaxRelaxRounds = l.maxRelaxRounds
}

// regexOptions are the regex limits, with the -max-depth unrolling.
func (l *limitFlags) regexOptions(maxDepth int) regex.Options {
	return regex.Options{MaxDepth: maxDepth, MaxBytes: l.maxRegexBytes, MaxNesting: l.maxRegexNesting}
}

// judgeLimitFlags are the limits of match and verdict: the grammar file
// read back (-grammar, match's GRAMMAR), the matcher built from it, and the
// text judged. Their defaults fit grammars of typical schemas; a grammar
// Compile made from a huge schema (10,000 properties, a million-member enum)
// is judged once they are raised.
type judgeLimitFlags struct {
	maxGrammarBytes int
	maxGrammarRules int
	maxStates       int
	maxClosure      int
	maxItems        int
	maxTextBytes    int
}

func (l *judgeLimitFlags) register(fs *flag.FlagSet, withText bool) {
	fs.IntVar(&l.maxGrammarBytes, "max-grammar-bytes", gbnf.DefaultLimits.MaxBytes, "refuse a grammar file longer than `N` bytes (reading costs about 1 KB of memory per byte)")
	fs.IntVar(&l.maxGrammarRules, "max-grammar-rules", gbnf.DefaultLimits.MaxRules, "refuse a grammar file of more than `N` rules")
	fs.IntVar(&l.maxStates, "max-states", gbnf.DefaultMaxStates, "refuse a grammar whose matcher needs more than `N` states (about one per character of its literals)")
	fs.IntVar(&l.maxClosure, "max-closure", gbnf.DefaultMaxClosure, "refuse a grammar whose matcher's precomputed closures pass `N` entries")
	fs.IntVar(&l.maxItems, "max-items", gbnf.DefaultMaxItems, "stop matching a text after `N` Earley items (12 bytes each)")
	if withText {
		fs.IntVar(&l.maxTextBytes, "max-text-bytes", verdict.DefaultLimits.MaxTextBytes, "judge no text (or reply) longer than `N` bytes (LIMIT_EXCEEDED)")
	}
}

func (l *judgeLimitFlags) grammar() gbnf.Limits {
	return gbnf.Limits{MaxBytes: l.maxGrammarBytes, MaxRules: l.maxGrammarRules}
}

func (l *judgeLimitFlags) matcher() gbnf.MatcherLimits {
	return gbnf.MatcherLimits{MaxStates: l.maxStates, MaxClosure: l.maxClosure, MaxItems: l.maxItems}
}

// limitFlag is the flag that raises a verdict.Verdict's Limit.
var limitFlag = map[string]string{
	"MaxTextBytes":           "-max-text-bytes",
	"Matcher.MaxStates":      "-max-states",
	"Matcher.MaxClosure":     "-max-closure",
	"Matcher.MaxItems":       "-max-items",
	"Reader.MaxDepth":        "-max-nesting",
	"Reader.MaxNestedBytes":  "-max-nested-bytes",
	"Reader.MaxNumberDigits": "-max-number-digits",
	"Reader.MaxValues":       "-max-values",
}

// matcherLimitFlag names the flag for a matcher limit error, in words.
func matcherLimitFlag(err error) error {
	var le *gbnf.MatcherLimitError
	if !errors.As(err, &le) {
		return err
	}
	return fmt.Errorf("the grammar needs more than %d for the matcher's %s; raise it with %s", le.Value, le.Limit, limitFlag["Matcher."+le.Limit])
}

package subsetcheck

// The problem codes. Each code is stable: once published it keeps its
// meaning. J: reading JSON; S: the schema against the profile; W: warnings;
// C: compiling; L: a named limit was reached; R: regex output. CodeTable documents them all,
// and the README's table is generated from it.
const (
	// Reading.
	CodeInvalidJSON   Code = "J101" // not strict JSON (syntax)
	CodeDuplicateKey  Code = "J102" // a member name appears twice in one object
	CodeInvalidUTF8   Code = "J103" // bytes that are not UTF-8
	CodeLoneSurrogate Code = "J104" // a \uD800-\uDFFF escape without its pair
	CodeByteOrderMark Code = "J105" // input starts with a UTF-8 byte order mark
	CodeTrailingData  Code = "J106" // something after the JSON value
	CodeYAMLNotJSON   Code = "J107" // YAML that JSON cannot say: an anchor, alias, tag, non-string key, ...

	// Checking against the profile.
	CodeRefusedKeyword    Code = "S201" // a keyword outside the profile
	CodeUnknownKeyword    Code = "S202" // reserved for keywords of a vocabulary we do not know (see CodeTable)
	CodeBadKeywordValue   Code = "S203" // a keyword's value has the wrong type or range
	CodeNotASchema        Code = "S204" // a schema that is neither an object nor a boolean
	CodeUnresolvedRef     Code = "S205" // $ref to a place that does not exist
	CodeRemoteRef         Code = "S206" // $ref to another document that was not handed in (no network or file access)
	CodeRefCycle          Code = "S207" // $ref chain that never reaches a constraint ({"$ref":"#"})
	CodeUnknownDraft      Code = "S208" // $schema names a dialect we do not know
	CodePortableRule      Code = "S209" // an authoring rule of the portable profile is broken
	CodeFormatNotExact    Code = "S210" // under AssertFormat, a format the compiler cannot enforce exactly
	CodePatternNotRegular Code = "S211" // a pattern uses lookaround, a backreference, or another construct no grammar holds
	CodeRefPath           Code = "S212" // a $ref's document is at a path outside the folder handed in, or cannot be read

	// Warnings: accepted, but worth knowing.
	CodeIgnoredKeyword       Code = "W301" // a member of no JSON Schema vocabulary (x-..., example, _format): constrains nothing
	CodeFormatNotEnforced    Code = "W302" // "format" is an annotation and is not enforced
	CodeRefSiblingsIgnored   Code = "W303" // before 2019-09, keywords beside $ref are ignored by validators
	CodeOneOfOverlapExcluded Code = "W304" // oneOf branches overlap: the grammar keeps out the values they share

	// Warnings of the lenient profile: a constraint the exact profile
	// refuses, relaxed; the grammar no longer enforces it.
	CodeRelaxedKeyword  Code = "W305" // a refused keyword (S201, S210, S211, L506) is dropped
	CodeRelaxedOneOf    Code = "W306" // oneOf is enforced as anyOf
	CodeRelaxedNegation Code = "W307" // not, if/then/else or maxContains relaxed as a whole
	CodeRelaxedCompile  Code = "W308" // a keyword or schema the compiler refused (C402, ...) is dropped
	CodeRelaxedRef      Code = "W309" // a $ref that is not followed (S206)

	// Compiling.
	CodeNoValidValue         Code = "C401" // the schema (or a required part) admits no value
	CodeNotExactlyCompilable Code = "C402" // a combination the compiler cannot enforce exactly
	CodeGrammarTooLarge      Code = "C403" // the grammar would pass a size limit
	CodeOneOfOverlap         Code = "C404" // two oneOf branches accept a common value
	CodeRelaxRounds          Code = "C405" // lenient: the compiler still refuses after Options.MaxRelaxRounds compiles

	// Limits.
	CodeInputTooLarge   Code = "L501" // Limits.MaxInputBytes
	CodeTooDeep         Code = "L502" // Limits.MaxDepth, or Limits.MaxNestedBytes
	CodeNumberTooLarge  Code = "L503" // a number's exponent or digits pass Limits.MaxNumberDigits
	CodeTooManySchemas  Code = "L504" // more subschemas than Limits.MaxSubschemas
	CodeTooManyValues   Code = "L505" // more JSON values than Limits.MaxValues
	CodePatternTooLarge Code = "L506" // a pattern, or a string language built from patterns, passes a Limits.MaxPattern* limit
	CodeTooManyRefDocs  Code = "L507" // $refs name more other documents than Limits.MaxRefDocuments
	CodeRefBytes        Code = "L508" // the documents $refs name pass Limits.MaxRefBytes in all

	// Regex output (package regex).
	CodeRegexInvalidGrammar Code = "R600" // no root, an undefined rule, a nil or unknown expression
	CodeRegexRecursive      Code = "R601" // a recursive rule and no depth bound
	CodeRegexTooLarge       Code = "R602" // the regex would pass its size limit or Go's regexp limits
	CodeRegexTooDeep        Code = "R603" // the regex would nest deeper than its nesting limit
	CodeRegexNoText         Code = "R604" // the grammar (or its unrolling) matches no text at all
)

// CodeInfo documents one code: what it means and what to do about it.
type CodeInfo struct {
	Code    Code
	Meaning string
	Fix     string
}

// CodeTable lists every code, in order; docs/codes.md is generated from it.
var CodeTable = []CodeInfo{
	{CodeInvalidJSON, "The text is not strict JSON (RFC 8259): a syntax error such as a trailing comma, a leading zero, a single quote, NaN, a raw control character in a string.", "Fix the syntax at the line and column given."},
	{CodeDuplicateKey, "A member name appears twice in one object. Readers disagree on which value wins.", "Keep one of the two members; the message gives both positions."},
	{CodeInvalidUTF8, "Bytes that are not UTF-8 (including overlong forms and encoded surrogates).", "Re-encode the file as UTF-8, or write the character as a \\u escape."},
	{CodeLoneSurrogate, "A \\uD800-\\uDFFF escape without its other half. Readers replace it with U+FFFD or refuse it.", "Write the whole surrogate pair, or the character itself."},
	{CodeByteOrderMark, "The text starts with a UTF-8 byte order mark, which RFC 8259 forbids.", "Save the file without the mark."},
	{CodeTrailingData, "Something follows the JSON value.", "Remove it: a JSON text holds exactly one value."},
	{CodeYAMLNotJSON, "A YAML schema uses a part of YAML that JSON has no equivalent for: an anchor or alias, a tag, a merge key (<<), a key that is not a string (1:, true:, a mapping), a number JSON cannot spell (0x1F, .inf, 1_000), or a second document.", "Write the schema in the JSON-compatible part of YAML: string keys, plain values; share schemas with $ref to $defs instead of anchors."},
	{CodeRefusedKeyword, "A keyword outside the profile: one the grammar cannot enforce exactly (oneOf, pattern, ...), or (portable) one some engine does not accept.", "The message says what to write instead; see docs/keywords.md."},
	{CodeUnknownKeyword, "Reserved for keywords of a vocabulary the checker does not know. Not produced today: names of no vocabulary get W301.", "-"},
	{CodeBadKeywordValue, "A keyword's value has the wrong type or range, as the draft's meta-schema says (a type name that does not exist, a negative count, a duplicate in required, an empty anyOf, ...).", "Write the value the message asks for."},
	{CodeNotASchema, "A subschema is neither an object nor a boolean (draft-04: not an object), or a $ref points at something that is not a schema (an enum value, a properties map).", "Point at, or write, a schema."},
	{CodeUnresolvedRef, "A local $ref points at nothing, or is not a valid JSON Pointer.", "Check the path; names are case-sensitive, ~0 is ~ and ~1 is /."},
	{CodeRemoteRef, "A $ref to another document that was not handed in. Check makes no file or network access: the documents a $ref may name are handed in by the caller (-refs DIR, -ref URI=FILE; Options.Refs), read from local files only. A $ref resolves against the base URI where it stands (the document's $id or retrieval URI, a subschema's $id), to a schema resource of the document or of one handed in, then a JSON Pointer or an anchor in it.", "Hand in the document (-refs DIR, or -ref URI=FILE), or copy the schema into $defs (or definitions) of the root and refer to it as #/$defs/name."},
	{CodeRefCycle, "Recursion through $ref and the combinators (anyOf, allOf, oneOf, not, if/then/else) alone, which never consumes input ({\"$ref\": \"#\"}, {\"not\": {\"$ref\": \"#\"}}).", "Make the recursion go through properties or items."},
	{CodeUnknownDraft, "$schema names a dialect the checker does not know, or a subschema switches dialects.", "Use draft-04, -06, -07, 2019-09 or 2020-12."},
	{CodePortableRule, "An authoring rule of the portable profile is broken: a $schema other than draft-07, an object schema without additionalProperties, something beside a $ref, a description without a type, a description on an anyOf, \"or nothing\" as an anyOf branch rather than a type list, minimum or maximum on numbers that are not integers, an any-value schema that does not list the six types, a $ref to another document (engines read one).", "Follow the rule the message names."},
	{CodeFormatNotExact, "Under AssertFormat, a format name the compiler cannot enforce exactly (anything but date, time, date-time, uuid, ipv4, ipv6, duration) on a schema that admits strings; beside a type that admits none (int32 on an integer) a format has no effect and is only warned about (W302).", "Drop the format, use enum for a small set of strings, or compile without AssertFormat so format stays an annotation (W302)."},
	{CodePatternNotRegular, "A pattern (or a patternProperties name) is valid ECMA-262 but uses a construct the compiler does not turn into a string language: lookahead or lookbehind ((?=…), (?!…), (?<=…), (?<!…)) and backreferences (\\1, \\k<name>), which are not regular languages a grammar can hold; ECMAScript 2025's modifiers groups ((?i:…)); a Unicode property that Go's tables lack (\\p{Emoji}, \\p{scx=…}). The message names the construct and where it stands.", "Rewrite that part without it (a class that leaves out what a negative lookahead excluded, the alternatives a backreference stood for, [Aa] for (?i:a), the ranges of the property), or drop the pattern and check it after decoding."},
	{CodeRefPath, "A $ref to another document, with documents handed in (-refs DIR, -ref URI=FILE; Options.Refs): the URI maps to a path outside the folder (.., an absolute path, a symlink that leads out), or the file cannot be read. Nothing outside the folder is opened.", "Put the document in the folder, or map its URI with -ref URI=FILE."},
	{CodeIgnoredKeyword, "Warning: a member that is not a keyword of the schema's draft (x-..., example, a keyword of a later or earlier draft), or a keyword that has no effect where it stands (additionalItems without an items array, then or else without if, if without then and else). Validators ignore it, so it constrains nothing.", "Nothing, if that is what you meant; otherwise fix the name or the $schema."},
	{CodeFormatNotEnforced, "Warning: format is an annotation; the grammar lets any string through.", "For date, time, date-time, uuid, ipv4, ipv6 and duration, -assert-format (AssertFormat) enforces it exactly; for any other format use enum for a small set of strings, or check the format after decoding."},
	{CodeRefSiblingsIgnored, "Warning: before 2019-09, validators ignore every keyword beside $ref.", "Move the keywords into the referenced schema, or use 2019-09 or later."},
	{CodeOneOfOverlapExcluded, "Warning: two branches of a oneOf accept a common value, shown in the message. oneOf rejects such a value, and so does the grammar: each branch is compiled without the values of the branches it overlaps (their complements). Often anyOf was meant, or the branches lack a member that tells them apart.", "If a value may match several branches, write anyOf; if the branches were meant to be exclusive, give each a member with a const of its own (a discriminator), or forbid in one branch a member the other requires."},
	{CodeRelaxedKeyword, "Lenient profile: a keyword the exact profile refuses (S201, a format S210 refuses, a pattern with a lookaround or a backreference S211, a pattern past a size limit L506) is dropped; the grammar accepts values that break it. A problem inside a keyword's value (one name of patternProperties) drops the whole keyword. Dropping a keyword that another depends on drops that one too (additionalProperties beside properties or patternProperties, items after prefixItems), as its meaning would narrow.", "Validate replies after decoding (schema2gbnf verdict does, with the whole schema), or rewrite the keyword as the exact profile's refusal says."},
	{CodeRelaxedOneOf, "Lenient profile: oneOf is enforced as anyOf: a value that matches two branches is accepted. Because the exact profile refuses it (S201), or its branches overlap (C404), or a constraint inside a branch is relaxed (widening a branch of exactly-one would reject values).", "Validate replies after decoding; or make the branches exclusive and use the exact profile."},
	{CodeRelaxedNegation, "Lenient profile: a keyword that negates its subschema, in part or whole, is relaxed as a whole: not is dropped, if/then/else becomes anyOf of then and else (dropped when one is missing), maxContains is dropped. Because it is refused, or a constraint inside it is relaxed: dropping a constraint inside a negation would narrow the schema, and the grammar must accept every valid value.", "Validate replies after decoding."},
	{CodeRelaxedCompile, "Lenient profile: a keyword (or, when no one keyword suffices, a whole subschema) that the compiler cannot enforce exactly at one place (C402, C404, a limit met there such as -max-alternatives or L506's; not the whole grammar's -max-rules) is dropped.", "Validate replies after decoding, or simplify the schema as the compiler's message, quoted in the warning, says."},
	{CodeRelaxedRef, "Lenient profile: a $ref to another document that was not handed in (S206) is not followed: the schema it names is not enforced, and a validator needs that document to check it after decoding.", "Hand in the document (-refs DIR, -ref URI=FILE), or copy the schema into $defs."},
	{CodeNoValidValue, "The schema, or a part that must be present, admits no value.", "Loosen the constraints that contradict each other."},
	{CodeNotExactlyCompilable, "A combination of admitted keywords that the compiler cannot enforce exactly, or one that would expand past Options.MaxAlternatives, Options.MaxMeets or Options.MaxOneOfPairs (flags -max-alternatives, -max-meets, -max-oneof-pairs; dependencies split into cases count as alternatives), or uniqueItems on items that take more values than Options.MaxUniqueItems (flag -max-unique-items, default 8).", "The message says which; simplify the schema."},
	{CodeGrammarTooLarge, "The grammar would have more rules than Options.MaxRules (flag -max-rules, default 50,000), or a count or multipleOf would need more states than Options.MaxCountStates or Options.MaxMultipleOfStates (flags -max-count-states, -max-multipleof-states, default 5,000 each).", "Lower large bounds (maxLength, maxItems, minProperties over many optional members, a multipleOf with many digits) or raise the limit the message names."},
	{CodeOneOfOverlap, "Two branches of a oneOf accept a common value, shown in the message, and keeping such values out needs the values one branch rejects (its complement), which the message says cannot be written exactly (a number that is no multiple of multipleOf, an array with a repeated item, a string outside a format, an object that needs a member breaking additionalProperties beside member counts). Where the complements can be built, an overlap is only a warning (W304).", "Make the branches exclusive (a const member that differs, a required member that the other branch forbids), or write anyOf if a value may match both."},
	{CodeRelaxRounds, "Lenient profile: the compiler still refuses the schema after Options.MaxRelaxRounds compiles (flag -max-relax-rounds, default 100); each compile relaxes, at every place the compiler refused, one more keyword.", "Raise the limit, or simplify the schema where the message says."},
	{CodeInputTooLarge, "The input is larger than Limits.MaxInputBytes (flag -max-input-bytes, default 16 MiB).", "Split the schema or raise the limit."},
	{CodeTooDeep, "Values are nested deeper than Limits.MaxDepth (flag -max-nesting, default 512), or the text's bytes times their nesting depth pass Limits.MaxNestedBytes (flag -max-nested-bytes, default 256 MiB), which bounds the reader's work.", "Flatten the document, for example with $ref to $defs."},
	{CodeNumberTooLarge, "A number has more digits, or an exponent of larger magnitude, than Limits.MaxNumberDigits (flag -max-number-digits, default 10,000).", "Write a smaller number or raise the limit."},
	{CodeTooManySchemas, "The schema holds more subschemas than Limits.MaxSubschemas (flag -max-subschemas, default 100,000).", "Share subschemas through $ref, or raise the limit."},
	{CodeTooManyValues, "The text holds more JSON values than Limits.MaxValues (flag -max-values, default 2,000,000); each costs memory once read.", "Split the text, or raise the limit."},
	{CodePatternTooLarge, "A pattern, or the string language built from a string's patterns, lengths and format, or the regions an object's patternProperties split its member names into, passes a limit: Limits.MaxPatternBytes (flag -max-pattern-bytes, default 10,000 bytes), MaxPatternNesting (-max-pattern-nesting, 200 groups), MaxPatternRepeat (-max-pattern-repeat, 20,000: the pattern with its counted repetitions written out), MaxPatternStates (-max-pattern-states, 10,000 automaton states), MaxLengthStates (-max-length-states, 20,000 states of a language cut to minLength/maxLength), MaxNameRegions (-max-name-regions, 64 regions of member names). The message names the limit.", "Simplify the pattern (smaller counts, fewer nested repetitions, an anchor where the pattern may start anywhere), lower maxLength, or raise the limit the message names."},
	{CodeTooManyRefDocs, "The $refs name more other documents than Limits.MaxRefDocuments (flag -max-ref-documents, default 1,000).", "Merge documents, or raise the limit."},
	{CodeRefBytes, "The documents the $refs name are more than Limits.MaxRefBytes in all (flag -max-ref-bytes, default 64 MiB).", "Raise the limit."},
	{CodeRegexInvalidGrammar, "Regex output: the grammar is not well formed (no root, an undefined rule). A bug when the grammar came from the compiler.", "Report it, with the schema."},
	{CodeRegexRecursive, "Regex output: the schema is recursive ($ref cycles, or the any-value rule an absent additionalProperties brings in), and a regular expression cannot nest without bound.", "Use GBNF output; or state \"additionalProperties\": false (or a non-recursive schema) where members are free; or ask for -max-depth N, which rejects valid values nested deeper than N."},
	{CodeRegexTooLarge, "Regex output: the regex would pass regex.Options.MaxBytes (flag -max-regex-bytes, default 1 MB) or Go's regexp size limits.", "Use GBNF output, compact whitespace, smaller bounds, or raise the limit."},
	{CodeRegexTooDeep, "Regex output: the regex would nest deeper than regex.Options.MaxNesting (flag -max-regex-nesting, default 250, Rust regex's default limit).", "Use GBNF output, or flatten the schema."},
	{CodeRegexNoText, "Regex output: the grammar, or its unrolling to -max-depth, matches no text.", "Raise -max-depth, or use GBNF output."},
}

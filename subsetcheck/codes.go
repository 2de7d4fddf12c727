package subsetcheck

// The problem codes. Each code is stable: once published it keeps its
// meaning. J: reading JSON; S: the schema against the profile; W: warnings;
// C: compiling; L: a named limit was reached. CodeTable documents them all,
// and the README's table is generated from it.
const (
	// Reading.
	CodeInvalidJSON   Code = "J101" // not strict JSON (syntax)
	CodeDuplicateKey  Code = "J102" // a member name appears twice in one object
	CodeInvalidUTF8   Code = "J103" // bytes that are not UTF-8
	CodeLoneSurrogate Code = "J104" // a \uD800-\uDFFF escape without its pair
	CodeByteOrderMark Code = "J105" // input starts with a UTF-8 byte order mark
	CodeTrailingData  Code = "J106" // something after the JSON value

	// Checking against the profile.
	CodeRefusedKeyword  Code = "S201" // a keyword outside the profile
	CodeUnknownKeyword  Code = "S202" // reserved for keywords of a vocabulary we do not know (see CodeTable)
	CodeBadKeywordValue Code = "S203" // a keyword's value has the wrong type or range
	CodeNotASchema      Code = "S204" // a schema that is neither an object nor a boolean
	CodeUnresolvedRef   Code = "S205" // $ref to a place that does not exist
	CodeRemoteRef       Code = "S206" // $ref to another document (no network or file access)
	CodeRefCycle        Code = "S207" // $ref chain that never reaches a constraint ({"$ref":"#"})
	CodeUnknownDraft    Code = "S208" // $schema names a dialect we do not know
	CodePortableRule    Code = "S209" // an authoring rule of the portable profile is broken

	// Warnings: accepted, but worth knowing.
	CodeIgnoredKeyword     Code = "W301" // a member of no JSON Schema vocabulary (x-..., example, _format): constrains nothing
	CodeFormatNotEnforced  Code = "W302" // "format" is an annotation and is not enforced
	CodeRefSiblingsIgnored Code = "W303" // before 2019-09, keywords beside $ref are ignored by validators

	// Compiling.
	CodeNoValidValue         Code = "C401" // the schema (or a required part) admits no value
	CodeNotExactlyCompilable Code = "C402" // a combination the compiler cannot enforce exactly
	CodeGrammarTooLarge      Code = "C403" // the grammar would pass a size limit

	// Limits.
	CodeInputTooLarge  Code = "L501" // Limits.MaxInputBytes
	CodeTooDeep        Code = "L502" // Limits.MaxDepth
	CodeNumberTooLarge Code = "L503" // a number's exponent or digits pass Limits.MaxNumberDigits
	CodeTooManySchemas Code = "L504" // more subschemas than Limits.MaxSubschemas
)

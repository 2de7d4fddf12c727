package subsetcheck

import (
	"math/big"

	"github.com/schema2gbnf/schema2gbnf/strlang"
)

// Draft is a JSON Schema dialect, from "$schema" or Options.DefaultDraft.
type Draft int

const (
	Draft4 Draft = iota + 1
	Draft6
	Draft7
	Draft2019
	Draft2020
)

// Profile names a keyword table: which keywords are enforced, which are
// annotations, and which are refused.
type Profile string

const (
	// Exact admits everything the compiler enforces exactly. The default.
	Exact Profile = "exact"
	// Portable admits only what llama.cpp, XGrammar, Outlines and llguidance
	// all accept, under the authoring rules that make a schema mean the same
	// in each of them.
	Portable Profile = "portable"
	// Lenient compiles every schema the exact profile refuses a part of,
	// by relaxing that part: each constraint the exact profile would refuse
	// is dropped (oneOf is read as anyOf), never anything added, so that
	// the grammar accepts every valid text and some invalid ones; each
	// relaxation is a warning (W305-W309), and a validator must check the
	// rest after decoding. What the exact profile admits, it checks alike.
	Lenient Profile = "lenient"
)

// Options steer Check. The zero value means: exact profile, draft 2020-12
// unless "$schema" says otherwise, default limits.
type Options struct {
	Profile      Profile // "" means Exact
	DefaultDraft Draft   // 0 means Draft2020
	Limits       Limits  // zero fields take their defaults

	// AssertFormat enforces "format" instead of treating it as an
	// annotation: the formats in AssertedFormats become part of the
	// grammar, and any other format name is refused (S210).
	AssertFormat bool

	// ClosedObjects closes every object schema that lists properties and
	// has no additionalProperties: members it does not list are refused, as
	// if it said "additionalProperties": false. A narrowing on request:
	// every text is still valid, but values with other members are no
	// longer accepted. JSON Schema itself allows them.
	ClosedObjects bool

	// BaseURI is the document's retrieval URI: its base when it has no
	// $id, against which its relative $refs resolve. "" means
	// DefaultBaseURI.
	BaseURI string
	// Documents are the other documents a $ref may name, by their
	// retrieval URI (absolute, without fragment), handed in by the caller
	// (schema2gbnf.Options.Refs reads them from local files); Check reads
	// nothing else. A $ref to a document not among them is refused
	// (S206).
	Documents map[string]*Document

	// Relax (lenient profile only) lists more constraints to relax: the
	// places the compiler refused (compile.Lenient finds them). Each is
	// relaxed as the checker's own refusals are, its polarity respected.
	Relax []Relaxation
}

// Relaxation names a constraint for the lenient profile to relax: the
// keyword Keyword of the schema at Pointer, or, when Keyword is "", every
// keyword of that schema that constrains values. Code and Reason say why
// (the exact profile's refusal), for the warning.
type Relaxation struct {
	File    string // the document's name: "" or the root's, or one of Options.Documents
	Pointer string
	Keyword string
	Code    Code
	Reason  string
}

// AssertedFormats are the formats enforced exactly when
// Options.AssertFormat is set, as the validator
// (santhosh-tekuri/jsonschema/v6) judges them: RFC 3339 date, time
// (leap second only at 23:59:60 UTC) and date-time, RFC 4122 uuid
// (either case), dotted-decimal ipv4 without leading zeros, RFC 4291 ipv6
// without a zone, and RFC 3339 appendix A duration.
var AssertedFormats = []string{"date", "time", "date-time", "uuid", "ipv4", "ipv6", "duration"}

// Limits bound the work a hostile schema can cause. Each has a name, a
// default (see DefaultLimits) and an error code.
type Limits struct {
	MaxInputBytes   int // bytes of schema text (L501)
	MaxDepth        int // nesting depth of JSON values (L502)
	MaxNumberDigits int // digits of a number, and magnitude of its exponent (L503)
	MaxSubschemas   int // subschemas one schema may hold (L504)
	MaxNestedBytes  int // bytes times their nesting depth, the reader's work (L502)
	MaxValues       int // JSON values in one text, the reader's memory (L505)
	MaxRefDocuments int // other documents $refs may name (Gather, L507)
	MaxRefBytes     int // their bytes, in all (Gather, L508)

	// Regular expressions (pattern, patternProperties) and the string
	// languages built from them (L506).
	MaxPatternBytes   int // bytes of one pattern
	MaxPatternNesting int // groups nested in one pattern
	MaxPatternRepeat  int // a pattern with its counted repetitions written out, in automaton positions
	MaxPatternStates  int // states of an automaton while it is built: a pattern's, an intersection's
	MaxLengthStates   int // states of a language intersected with minLength/maxLength
	MaxNameRegions    int // regions of member names an object's patternProperties split its extra members into
}

// Strlang is the part of the limits that bounds string languages, as the
// strlang package takes it.
func (l Limits) Strlang() strlang.Limits {
	return strlang.Limits{PatternBytes: l.MaxPatternBytes, Depth: l.MaxPatternNesting, Repeat: l.MaxPatternRepeat,
		States: l.MaxPatternStates, LengthStates: l.MaxLengthStates}
}

// Type is a set of JSON Schema types, as a bit set.
type Type uint8

const (
	TNull Type = 1 << iota
	TBoolean
	TObject
	TArray
	TNumber  // numbers with a non-zero fractional part; "number" sets TNumber|TInteger
	TInteger // numbers with a zero fractional part (1.0 and 1e2 included, as validators judge)
	TString

	AllTypes = TNull | TBoolean | TObject | TArray | TNumber | TInteger | TString
)

// SomeMember is a requirement of Schema.SomeMember: some member whose
// name is not in Names has a value Schema accepts.
type SomeMember struct {
	Schema *Schema
	Names  []string
}

// Bound is one end of a numeric range.
type Bound struct {
	Value     *big.Rat
	Exclusive bool
}

// Schema is one checked subschema: the constraints the compiler must
// enforce, already normalised across drafts. A Schema graph may be cyclic
// through Ref (recursive schemas).
type Schema struct {
	Pointer string // JSON Pointer of this subschema in its document
	Node    *Value // the subschema's JSON, for positions
	// Doc is the document the subschema stands in when a $ref reached it
	// in another one (Options.Documents); nil in the root's.
	Doc *Document

	// False is set for the boolean schema false (and anything that provably
	// admits no value, such as "not": {}); no other field matters then.
	False bool
	// Closed marks the false additionalProperties that Options.ClosedObjects
	// put where the schema wrote none; its Pointer names that place.
	Closed bool

	// Types is the set of types allowed: AllTypes when "type" is absent.
	Types Type

	// Enum, when non-nil, lists the only values allowed ("enum", or "const"
	// as a one-member enum). It may be empty: then nothing is allowed.
	Enum []*Value

	// Objects.
	Properties           []Property // declaration order
	Required             []string   // order as written, duplicates removed
	AdditionalProperties *Schema    // nil: absent, i.e. any extra member is allowed
	// PatternProperties apply to every member, declared or not, whose name
	// is in the pattern's language; AdditionalProperties applies only to
	// the names that are neither declared nor in any of these languages.
	PatternProperties []PatternProperty
	// PropertyNames, when not nil, is the schema every member name (a
	// string) must satisfy: only its string keywords constrain a name.
	PropertyNames *Schema

	// Arrays. PrefixItems are the positional schemas ("prefixItems", or
	// "items" as an array before 2020-12); Items governs every later item
	// ("items" in 2020-12 or as a single schema, "additionalItems" after an
	// items array). Items nil means any value. MaxItems < 0: no maximum.
	PrefixItems []*Schema
	Items       *Schema
	MinItems    int
	MaxItems    int

	// Strings, in code points. MaxLength < 0: no maximum.
	MinLength int
	MaxLength int

	// Patterns are the regular expressions a string must match somewhere
	// ("pattern"; several when the compiler meets schemas). Each is
	// compiled once per Check, however many schemas write it.
	Patterns []*Pattern

	// Format, when not "", is an asserted format (one of AssertedFormats)
	// that strings must have. Set only under Options.AssertFormat.
	Format string

	// Numbers: the effective bounds, combined from minimum/maximum and
	// both forms of exclusiveMinimum/exclusiveMaximum. nil: unbounded.
	Lower, Upper *Bound

	// AnyOf, when non-nil, lists branches of which at least one must hold,
	// in addition to every other constraint of this schema.
	AnyOf []*Schema

	// Ref is the resolved target of a local "$ref". When the draft makes a
	// $ref's siblings meaningful (2019-09 and later) they are enforced too.
	Ref *Schema

	// AllOf lists branches that must all hold; OneOf, branches of which
	// exactly one must hold.
	AllOf []*Schema
	OneOf []*Schema
	// Not, when non-nil, is a schema the value must not match.
	Not *Schema
	// If, Then and Else are "if"/"then"/"else": a value If accepts must
	// match Then, any other must match Else (nil: any value). If is nil
	// when neither Then nor Else is written: it constrains nothing then.
	If, Then, Else *Schema

	// Except lists values the schema rejects whatever else it says. Check
	// never sets it: it is how the compiler writes the complement of an
	// enum or const (see compile/not.go).
	Except []*Value
	// SomeMember lists requirements on objects, each that some member
	// whose name is not among its Names have a value its Schema accepts.
	// Check never sets it: it is how the compiler writes the complement of
	// additionalProperties and of an excluded object (compile/somemember.go).
	SomeMember []SomeMember

	// Counting and dependencies (issue 21). Every zero value constrains
	// nothing, so a Schema built by hand means what its other fields say.

	// MinProperties and MaxProperties count an object's members, declared
	// and extra. MaxProperties nil: no maximum.
	MinProperties int
	MaxProperties *int

	// MultipleOf, when not nil, is a positive number every number must be
	// an integer multiple of (exactly: 0.3 is a multiple of 0.1).
	MultipleOf *big.Rat

	// UniqueItems: no two items of an array are equal (1 and 1.0 are).
	UniqueItems bool

	// Contains, when not nil, is the schema that between MinContains and
	// MaxContains items of an array must match (MinContains is 1 unless
	// "minContains" says otherwise; MaxContains nil: no maximum).
	Contains    *Schema
	MinContains int
	MaxContains *int

	// Dependencies: when the member Name is present, the object must have
	// every member in Required ("dependentRequired", the array form of
	// "dependencies") and match Schema ("dependentSchemas", the schema
	// form). In document order.
	Dependencies []Dependency
}

// Dependency is what the presence of one member brings in.
type Dependency struct {
	Name     string
	Required []string // nil for a schema dependency
	Schema   *Schema  // nil for a list of names
}

// Pattern is an ECMA-262 regular expression with the u flag, as JSON Schema
// reads "pattern" and the names of "patternProperties" in every draft, and
// its language: the strings in which it matches somewhere (it is not
// anchored). The compiler intersects the languages; Source is for
// messages.
type Pattern struct {
	Source string
	Lang   *strlang.Lang
}

// PatternProperty is one member of "patternProperties": the members whose
// name is in Pattern's language must satisfy Schema.
type PatternProperty struct {
	Pattern *Pattern
	Schema  *Schema
}

// Property is one declared member of an object schema.
type Property struct {
	Name   string
	Schema *Schema
}

// Checked is the output of Check: a schema inside the profile, ready to be
// compiled, with the warnings the check produced.
type Checked struct {
	Root    *Schema
	Draft   Draft
	Profile Profile
	// AssertFormat is Options.AssertFormat: Schema.Format is enforced.
	AssertFormat bool
	// ClosedObjects is Options.ClosedObjects: objects that list properties
	// take no other members.
	ClosedObjects bool
	// Limits are the limits Check ran with, defaults filled in: the
	// compiler builds string languages within the same ones.
	Limits   Limits
	Doc      *Document
	Warnings ErrorList // annotations that constrain nothing, unenforced formats, ...
	// BaseURI is the root document's retrieval URI (Options.BaseURI), and
	// Documents the others handed in, by theirs: a validator loads them
	// all under these URIs.
	BaseURI   string
	Documents map[string]*Document
	// Relaxed (lenient profile) lists the constraints that were relaxed,
	// one warning each (W305-W309), sorted; they are in Warnings too. A
	// text the grammar accepts may break them: validate it after decoding.
	Relaxed ErrorList
}

// The keyword table: one row per keyword, with the drafts it belongs to,
// the shape of its value, what each profile does with it, a note for the
// docs, and its handler (in keywords_<family>.go).

package subsetcheck

import (
	"sort"
	"strings"
)

// Use says what a profile does with a keyword.
type Use uint8

const (
	// Enforced keywords constrain the value and the compiler enforces them exactly.
	Enforced Use = iota + 1
	// Annotation keywords are accepted and constrain nothing.
	Annotation
	// Refused keywords make Check fail with S201.
	Refused
)

func (u Use) String() string {
	switch u {
	case Enforced:
		return "enforced"
	case Annotation:
		return "annotation"
	case Refused:
		return "refused"
	}
	return "?"
}

// Shape says what a keyword's value holds, so that a $ref pointer can be
// followed through it and subschemas can be found.
type Shape uint8

const (
	ShapeValue      Shape = iota // plain JSON (enum, const, required, default, ...): not a schema
	ShapeSchema                  // one schema
	ShapeSchemaMap               // an object whose member values are schemas
	ShapeSchemaList              // an array of schemas
	ShapeItems                   // a schema, or (before 2020-12) an array of schemas
	ShapeDependency              // an object whose member values are schemas or arrays of names
)

// DraftSet is a set of drafts, one bit per Draft.
type DraftSet uint8

// draftRange is the set of drafts from first to last, both included.
func draftRange(first, last Draft) DraftSet {
	var s DraftSet
	for d := first; d <= last; d++ {
		s |= 1 << d
	}
	return s
}

// Has reports whether d is in the set.
func (s DraftSet) Has(d Draft) bool { return s&(1<<d) != 0 }

// AllDrafts lists the drafts the checker knows, oldest first.
var AllDrafts = []Draft{Draft4, Draft6, Draft7, Draft2019, Draft2020}

func (d Draft) String() string {
	switch d {
	case Draft4:
		return "draft-04"
	case Draft6:
		return "draft-06"
	case Draft7:
		return "draft-07"
	case Draft2019:
		return "2019-09"
	case Draft2020:
		return "2020-12"
	}
	return "unknown draft"
}

// Keyword is one row of the keyword table: the drafts in which the name is a
// JSON Schema keyword, and what each profile does with it. A name that is
// not a keyword of the schema's draft constrains nothing in a validator, so
// the checker accepts it with warning W301.
type Keyword struct {
	Name     string
	Drafts   DraftSet
	Shape    Shape
	Exact    Use
	Portable Use
	// Note says, for a refused keyword, what to write instead; for the
	// others, anything a user should know.
	Note string

	// check is the keyword's handler (see checkFunc), in the file of its
	// family (keywords_core.go, keywords_object.go, ...); nil when the
	// value needs no check and holds nothing the walk follows.
	check checkFunc
}

// Constrains reports whether the keyword limits values (it is not an
// annotation), format counting when formats are asserted.
func (k *Keyword) Constrains(assertFormat bool) bool {
	return k.Exact != Annotation || assertFormat && k.Name == "format"
}

// Use returns what profile p does with the keyword.
func (k *Keyword) Use(p Profile) Use {
	if p == Portable {
		return k.Portable
	}
	return k.Exact
}

var (
	all      = draftRange(Draft4, Draft2020)
	from6    = draftRange(Draft6, Draft2020)
	from7    = draftRange(Draft7, Draft2020)
	from2019 = draftRange(Draft2019, Draft2020)
	only4    = draftRange(Draft4, Draft4)
	only2020 = draftRange(Draft2020, Draft2020)
	to2019   = draftRange(Draft4, Draft2019)
)

const (
	idNote      = "sets the base URI $refs resolve against, and names a resource a $ref may point to; portable: at the root only, as the document's address: below the root it changes the base URI of the $refs under it, which engines resolve differently, and is refused (S201)"
	notPortable = "not in the portable profile (llama.cpp, XGrammar, Outlines and llguidance do not all accept it); drop it or use the exact profile"
	noExact     = "the grammar cannot enforce it exactly"
)

// Keywords is the keyword table, read by Check and by the docs generator.
// Deviations from the drafts' texts follow the oracle validator
// (santhosh-tekuri/jsonschema): it still enforces "dependencies" and
// "$recursiveRef" in 2020-12, so dependencies is enforced there too and
// $recursiveRef refused.
var Keywords = []Keyword{
	// Core.
	{"$schema", all, ShapeValue, Annotation, Annotation, "selects the draft; draft-04, -06, -07, 2019-09 and 2020-12 are known", checkSchemaURI},
	{"$ref", all, ShapeValue, Enforced, Enforced, `a JSON Pointer or an anchor, in the document or in one handed in from local files (-refs; S206 otherwise); before 2019-09 its siblings are ignored (W303)`, checkRef},
	{"id", only4, ShapeValue, Annotation, Annotation, "draft-04's $id; " + idNote, checkID},
	{"$id", from6, ShapeValue, Annotation, Annotation, idNote, checkID},
	{"$defs", from2019, ShapeSchemaMap, Annotation, Annotation, "a container for $ref targets", mustBeObject},
	{"definitions", all, ShapeSchemaMap, Annotation, Annotation, "a container for $ref targets, in every draft", mustBeObject},
	{"$comment", from7, ShapeValue, Annotation, Refused, "", mustBeString},
	{"$anchor", from2019, ShapeValue, Annotation, Refused, `names the schema for a $ref ("#name")`, checkAnchor},
	{"$dynamicAnchor", only2020, ShapeValue, Annotation, Refused, "names the schema for a $ref, as $anchor does; $dynamicRef is refused", checkAnchor},
	{"$recursiveAnchor", from2019, ShapeValue, Annotation, Refused, "accepted, but $recursiveRef is refused", mustBeBool},
	{"$vocabulary", from2019, ShapeValue, Annotation, Refused, "meaningful only in a meta-schema", mustBeObject},
	{"$dynamicRef", only2020, ShapeValue, Refused, Refused, `dynamic scope is not supported; use a plain "$ref": "#/$defs/name"`, mustBeString},
	{"$recursiveRef", from2019, ShapeValue, Refused, Refused, `dynamic scope is not supported; use a plain "$ref": "#/$defs/name"`, mustBeString},

	// Annotations.
	{"title", all, ShapeValue, Annotation, Annotation, "", mustBeString},
	{"description", all, ShapeValue, Annotation, Annotation, "", mustBeString},
	{"default", all, ShapeValue, Annotation, Refused, "", nil},
	{"examples", from6, ShapeValue, Annotation, Refused, "", mustBeArray},
	{"deprecated", from2019, ShapeValue, Annotation, Refused, "", mustBeBool},
	{"readOnly", from7, ShapeValue, Annotation, Refused, "", mustBeBool},
	{"writeOnly", from7, ShapeValue, Annotation, Refused, "", mustBeBool},
	{"contentMediaType", from7, ShapeValue, Annotation, Refused, "an annotation: the string's content is not checked", mustBeString},
	{"contentEncoding", from7, ShapeValue, Annotation, Refused, "an annotation: the string's content is not checked", mustBeString},
	{"contentSchema", from2019, ShapeSchema, Annotation, Refused, "an annotation: the string's content is not checked", nil},
	{"format", all, ShapeValue, Annotation, Refused, "an annotation: not enforced (W302), the model may write any string; with format assertion on, date, time, date-time, uuid, ipv4, ipv6 and duration are enforced exactly and any other name is refused (S210)", checkFormat},

	// Enforced.
	{"type", all, ShapeValue, Enforced, Enforced, "a name or a list of names", checkType},
	{"enum", all, ShapeValue, Enforced, Enforced, "", checkEnum},
	{"const", from6, ShapeValue, Enforced, Enforced, "", checkConst},
	{"properties", all, ShapeSchemaMap, Enforced, Enforced, "", checkProperties},
	{"required", all, ShapeValue, Enforced, Enforced, "", checkRequired},
	{"additionalProperties", all, ShapeSchema, Enforced, Enforced, "absent means any extra member is allowed", checkAdditionalProperties},
	{"items", all, ShapeItems, Enforced, Enforced, "portable: the single-schema form only", checkItems},
	{"prefixItems", only2020, ShapeSchemaList, Enforced, Refused, "", checkPrefixItems},
	{"additionalItems", to2019, ShapeSchema, Enforced, Refused, "has an effect only after an items array", checkAdditionalItems},
	{"minItems", all, ShapeValue, Enforced, Enforced, "", checkMinItems},
	{"maxItems", all, ShapeValue, Enforced, Refused, "", checkMaxItems},
	{"minLength", all, ShapeValue, Enforced, Enforced, "counted in code points", checkMinLength},
	{"maxLength", all, ShapeValue, Enforced, Refused, "counted in code points", checkMaxLength},
	{"pattern", all, ShapeValue, Enforced, Refused, "ECMA-262 with the u flag in every draft, not anchored (\"abc\" matches any string holding abc), intersected exactly with the string's lengths, format and other patterns; lookaround and backreferences are refused (S211)", checkPattern},
	{"minimum", all, ShapeValue, Enforced, Enforced, `exact: a bounded number accepts only plain decimals (no exponent, no trailing fraction zeros, no "-0")`, checkMinimum},
	{"maximum", all, ShapeValue, Enforced, Enforced, `exact: a bounded number accepts only plain decimals (no exponent, no trailing fraction zeros, no "-0")`, checkMaximum},
	{"exclusiveMinimum", all, ShapeValue, Enforced, Refused, `exact (plain decimals for numbers); a boolean in draft-04, a number later`, checkExclusiveMinimum},
	{"exclusiveMaximum", all, ShapeValue, Enforced, Refused, `exact (plain decimals for numbers); a boolean in draft-04, a number later`, checkExclusiveMaximum},
	{"anyOf", all, ShapeSchemaList, Enforced, Enforced, "", checkAnyOf},
	{"allOf", all, ShapeSchemaList, Enforced, Refused, "exact: the meet of the branches; refused (C402) only where two branches meet in a combination the compiler cannot enforce exactly, which the message names", checkAllOf},
	{"oneOf", all, ShapeSchemaList, Enforced, Refused, "exact: anyOf where the branches are proven pairwise disjoint; where two overlap, each branch without the values of the branches it overlaps (their complements), with a warning showing a value both accept (W304); refused (C404) only where such a complement cannot be built", checkOneOf},
	{"not", all, ShapeSchema, Enforced, Refused, "exact where the complement can be built: type, enum, const (arrays and objects too), number and integer ranges, string lengths, item counts and positional items, required, properties, additionalProperties (some other member breaks it); refused (C402) for format, multipleOf, uniqueItems, items past the positional ones, and where one object would need members breaking more than one additionalProperties beside member counts", checkNot},
	{"if", from7, ShapeSchema, Enforced, Refused, "exact: the values if accepts must match then, the others else; needs the complement of if (see not) unless then is absent; without then and else it constrains nothing (W301)", checkIf},
	{"then", from7, ShapeSchema, Enforced, Refused, "without if it constrains nothing (W301)", checkThen},
	{"else", from7, ShapeSchema, Enforced, Refused, "without if it constrains nothing (W301)", checkElse},

	// Refused.
	{"patternProperties", all, ShapeSchemaMap, Enforced, Refused, "names read as pattern's are; a member whose name matches a pattern, declared or not, must match its schema (every pattern that matches: a meet), and additionalProperties takes the names no pattern matches", checkPatternProperties},
	{"uniqueItems", all, ShapeValue, Enforced, Refused, "false constrains nothing; true is exact where an array holds at most one item or its items are few enough to list (Options.MaxUniqueItems), refused (C402) otherwise", checkUniqueItems},
	{"multipleOf", all, ShapeValue, Enforced, Refused, "exact, in rational arithmetic (0.3 is a multiple of 0.1); a number under multipleOf accepts only plain decimals (no exponent)", checkMultipleOf},
	{"minProperties", all, ShapeValue, Enforced, Refused, "counts declared and extra members", checkMinProperties},
	{"maxProperties", all, ShapeValue, Enforced, Refused, "counts declared and extra members", checkMaxProperties},
	{"contains", from6, ShapeSchema, Enforced, Refused, "exact where the items that do not match it can be described (its complement as not builds it, or the item values listed); refused (C402) otherwise", checkContains},
	{"minContains", from2019, ShapeValue, Enforced, Refused, "beside contains only", checkMinContains},
	{"maxContains", from2019, ShapeValue, Enforced, Refused, "beside contains only", checkMaxContains},
	{"propertyNames", from6, ShapeSchema, Enforced, Refused, "every member name, declared or extra, must be a string it accepts: its string keywords (pattern, lengths, enum, const, format) apply; a required name it rejects is C401", checkPropertyNames},
	{"dependencies", all, ShapeDependency, Enforced, Refused, "both forms (names, schema); enforced in every draft, as validators do", checkDependencies},
	{"dependentRequired", from2019, ShapeValue, Enforced, Refused, "", checkDependentRequired},
	{"dependentSchemas", from2019, ShapeSchemaMap, Enforced, Refused, "met with the object schema when the member is present", checkDependentSchemas},
	{"unevaluatedItems", from2019, ShapeSchema, Refused, Refused, "use items", checkUnevaluatedItems},
	{"unevaluatedProperties", from2019, ShapeSchema, Refused, Refused, "use additionalProperties", checkUnevaluatedProperties},
}

// keywordTable holds the rows by keywordHash of their names. Every member
// of every schema is looked up, twice: a hash of the length and two bytes
// costs less than hashing the whole name for a map, and most buckets hold
// one row.
var keywordTable [256][]*Keyword

// draftNames spells the sets of drafts of the keyword table ("draft-04,
// draft-06"), once rather than per warning.
var draftNames = map[DraftSet]string{}

// init indexes the table. It is not done by the variables' initializers:
// the handlers in the table reach the lookup, and Go would see a cycle.
func init() {
	for i := range Keywords {
		k := &Keywords[i]
		h := keywordHash(k.Name)
		keywordTable[h] = append(keywordTable[h], k)
		if _, ok := draftNames[k.Drafts]; ok {
			continue
		}
		var in []string
		for _, d := range AllDrafts {
			if k.Drafts.Has(d) {
				in = append(in, d.String())
			}
		}
		draftNames[k.Drafts] = strings.Join(in, ", ")
	}
}

func keywordHash(name string) uint8 {
	return uint8(len(name)*37 + int(name[0])*7 + int(name[len(name)-1]))
}

// findKeyword returns the row of the named keyword, in any draft, or nil.
func findKeyword(name string) *Keyword {
	if name == "" {
		return nil
	}
	for _, k := range keywordTable[keywordHash(name)] {
		if k.Name == name {
			return k
		}
	}
	return nil
}

// LookupKeyword returns the row of the named keyword if it is a keyword of
// draft d, and nil otherwise (then it constrains nothing: warning W301).
func LookupKeyword(name string, d Draft) *Keyword {
	k := findKeyword(name)
	if k == nil || !k.Drafts.Has(d) {
		return nil
	}
	return k
}

// IsKeyword reports whether name is a keyword of some draft.
func IsKeyword(name string) bool { return findKeyword(name) != nil }

// sortedKeywords returns the table ordered by name, for the docs.
func sortedKeywords() []Keyword {
	ks := append([]Keyword(nil), Keywords...)
	sort.Slice(ks, func(i, j int) bool { return ks[i].Name < ks[j].Name })
	return ks
}

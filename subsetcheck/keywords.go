package subsetcheck

import "sort"

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
	notPortable = "not in the portable profile (llama.cpp, XGrammar, Outlines and llguidance do not all accept it); drop it or use the exact profile"
	noExact     = "the grammar cannot enforce it exactly"
)

// Keywords is the keyword table, read by Check and by the docs generator.
// Deviations from the drafts' texts follow the oracle validator
// (santhosh-tekuri/jsonschema): it still enforces "dependencies" and
// "$recursiveRef" in 2020-12, so they are refused there too.
var Keywords = []Keyword{
	// Core.
	{"$schema", all, ShapeValue, Annotation, Annotation, "selects the draft; draft-04, -06, -07, 2019-09 and 2020-12 are known"},
	{"$ref", all, ShapeValue, Enforced, Enforced, `local JSON Pointers only ("#", "#/$defs/name"); before 2019-09 its siblings are ignored (W303)`},
	{"id", only4, ShapeValue, Annotation, Refused, "draft-04's $id; $ref inside an embedded resource is refused"},
	{"$id", from6, ShapeValue, Annotation, Refused, "$ref inside an embedded resource (a subschema with its own $id) is refused"},
	{"$defs", from2019, ShapeSchemaMap, Annotation, Annotation, "a container for $ref targets"},
	{"definitions", all, ShapeSchemaMap, Annotation, Annotation, "a container for $ref targets, in every draft"},
	{"$comment", from7, ShapeValue, Annotation, Refused, ""},
	{"$anchor", from2019, ShapeValue, Annotation, Refused, `accepted, but a $ref to an anchor is refused (S206): refer with a JSON Pointer such as "#/$defs/name"`},
	{"$dynamicAnchor", only2020, ShapeValue, Annotation, Refused, "accepted, but $dynamicRef is refused"},
	{"$recursiveAnchor", from2019, ShapeValue, Annotation, Refused, "accepted, but $recursiveRef is refused"},
	{"$vocabulary", from2019, ShapeValue, Annotation, Refused, "meaningful only in a meta-schema"},
	{"$dynamicRef", only2020, ShapeValue, Refused, Refused, `dynamic scope is not supported; use a plain "$ref": "#/$defs/name"`},
	{"$recursiveRef", from2019, ShapeValue, Refused, Refused, `dynamic scope is not supported; use a plain "$ref": "#/$defs/name"`},

	// Annotations.
	{"title", all, ShapeValue, Annotation, Annotation, ""},
	{"description", all, ShapeValue, Annotation, Annotation, ""},
	{"default", all, ShapeValue, Annotation, Refused, ""},
	{"examples", from6, ShapeValue, Annotation, Refused, ""},
	{"deprecated", from2019, ShapeValue, Annotation, Refused, ""},
	{"readOnly", from7, ShapeValue, Annotation, Refused, ""},
	{"writeOnly", from7, ShapeValue, Annotation, Refused, ""},
	{"contentMediaType", from7, ShapeValue, Annotation, Refused, "an annotation: the string's content is not checked"},
	{"contentEncoding", from7, ShapeValue, Annotation, Refused, "an annotation: the string's content is not checked"},
	{"contentSchema", from2019, ShapeSchema, Annotation, Refused, "an annotation: the string's content is not checked"},
	{"format", all, ShapeValue, Annotation, Refused, "an annotation: not enforced (W302), the model may write any string; with format assertion on, date, time, date-time, uuid, ipv4, ipv6 and duration are enforced exactly and any other name is refused (S210)"},

	// Enforced.
	{"type", all, ShapeValue, Enforced, Enforced, "a name or a list of names"},
	{"enum", all, ShapeValue, Enforced, Enforced, ""},
	{"const", from6, ShapeValue, Enforced, Enforced, ""},
	{"properties", all, ShapeSchemaMap, Enforced, Enforced, ""},
	{"required", all, ShapeValue, Enforced, Enforced, ""},
	{"additionalProperties", all, ShapeSchema, Enforced, Enforced, "absent means any extra member is allowed"},
	{"items", all, ShapeItems, Enforced, Enforced, "portable: the single-schema form only"},
	{"prefixItems", only2020, ShapeSchemaList, Enforced, Refused, ""},
	{"additionalItems", to2019, ShapeSchema, Enforced, Refused, "has an effect only after an items array"},
	{"minItems", all, ShapeValue, Enforced, Enforced, ""},
	{"maxItems", all, ShapeValue, Enforced, Refused, ""},
	{"minLength", all, ShapeValue, Enforced, Enforced, "counted in code points"},
	{"maxLength", all, ShapeValue, Enforced, Refused, "counted in code points"},
	{"minimum", all, ShapeValue, Enforced, Enforced, `exact: a bounded number accepts only plain decimals (no exponent, no trailing fraction zeros, no "-0")`},
	{"maximum", all, ShapeValue, Enforced, Enforced, `exact: a bounded number accepts only plain decimals (no exponent, no trailing fraction zeros, no "-0")`},
	{"exclusiveMinimum", all, ShapeValue, Enforced, Refused, `exact (plain decimals for numbers); a boolean in draft-04, a number later`},
	{"exclusiveMaximum", all, ShapeValue, Enforced, Refused, `exact (plain decimals for numbers); a boolean in draft-04, a number later`},
	{"anyOf", all, ShapeSchemaList, Enforced, Enforced, ""},

	// Refused.
	{"oneOf", all, ShapeSchemaList, Refused, Refused, "exactly-one cannot be enforced by a grammar; use anyOf with branches that cannot both match (for example each with a distinct const member)"},
	{"allOf", all, ShapeSchemaList, Refused, Refused, "merge the branches into one schema by hand"},
	{"not", all, ShapeSchema, Refused, Refused, "state what is allowed instead, for example with enum or type"},
	{"if", from7, ShapeSchema, Refused, Refused, "write the cases as anyOf branches"},
	{"then", from7, ShapeSchema, Refused, Refused, "write the cases as anyOf branches"},
	{"else", from7, ShapeSchema, Refused, Refused, "write the cases as anyOf branches"},
	{"pattern", all, ShapeValue, Refused, Refused, "regular expressions are not supported yet; use enum, or drop the pattern and check it after decoding"},
	{"patternProperties", all, ShapeSchemaMap, Refused, Refused, "list the members in properties, or use additionalProperties"},
	{"uniqueItems", all, ShapeValue, Enforced, Refused, "false constrains nothing; true is exact where an array holds at most one item or its items are few enough to list (Options.MaxUniqueItems), refused (C402) otherwise"},
	{"multipleOf", all, ShapeValue, Enforced, Refused, "exact, in rational arithmetic (0.3 is a multiple of 0.1); a number under multipleOf accepts only plain decimals (no exponent)"},
	{"minProperties", all, ShapeValue, Enforced, Refused, "counts declared and extra members"},
	{"maxProperties", all, ShapeValue, Enforced, Refused, "counts declared and extra members"},
	{"contains", from6, ShapeSchema, Enforced, Refused, "exact where the items that do not match it can be described (a type, const or enum, or a schema every item or no item matches); refused (C402) otherwise"},
	{"minContains", from2019, ShapeValue, Enforced, Refused, "beside contains only"},
	{"maxContains", from2019, ShapeValue, Enforced, Refused, "beside contains only"},
	{"propertyNames", from6, ShapeSchema, Refused, Refused, `list the members in properties with "additionalProperties": false`},
	{"dependencies", all, ShapeDependency, Enforced, Refused, "both forms (names, schema); enforced in every draft, as validators do"},
	{"dependentRequired", from2019, ShapeValue, Enforced, Refused, ""},
	{"dependentSchemas", from2019, ShapeSchemaMap, Enforced, Refused, "met with the object schema when the member is present"},
	{"unevaluatedItems", from2019, ShapeSchema, Refused, Refused, "use items"},
	{"unevaluatedProperties", from2019, ShapeSchema, Refused, Refused, "use additionalProperties"},
}

// keywordTable holds the rows by keywordHash of their names. Every member
// of every schema is looked up, twice: a hash of the length and two bytes
// costs less than hashing the whole name for a map, and most buckets hold
// one row.
var keywordTable = func() (t [256][]*Keyword) {
	for i := range Keywords {
		h := keywordHash(Keywords[i].Name)
		t[h] = append(t[h], &Keywords[i])
	}
	return t
}()

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

// sortedKeywords returns the table ordered by name, for the docs.
func sortedKeywords() []Keyword {
	ks := append([]Keyword(nil), Keywords...)
	sort.Slice(ks, func(i, j int) bool { return ks[i].Name < ks[j].Name })
	return ks
}

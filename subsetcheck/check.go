package subsetcheck

import (
	"fmt"
	"math"
	"math/big"
	"net/url"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Check holds a schema document to a profile and builds the Schema graph the
// compiler reads. Every problem is reported at once: the error is an
// ErrorList, sorted by position. Only subschemas reachable from the root
// (through enforced keywords and $ref) are checked: an unused definition
// constrains nothing.
func Check(doc *Document, opts Options) (*Checked, error) {
	if doc == nil || doc.Root == nil {
		return nil, ErrorList{{Code: CodeNotASchema, Message: "no schema was read"}}
	}
	c := &checker{
		doc:          doc,
		profile:      opts.Profile,
		assertFormat: opts.AssertFormat,
		draft:        opts.DefaultDraft,
		lim:          opts.Limits.withDefaults(),
	}
	if c.profile == "" {
		c.profile = Exact
	}
	if c.profile != Exact && c.profile != Portable {
		return nil, ErrorList{{Code: CodeBadKeywordValue, File: doc.Name, Message: fmt.Sprintf("unknown profile %q; use %q or %q", c.profile, Exact, Portable)}}
	}
	if c.draft == 0 {
		c.draft = Draft2020
	}
	c.readRootDialect()
	positions := c.schemaPositions()
	// Each subschema built stands at a position, and so does each
	// property and each schema of a list: their number bounds all three.
	if doc.values > 0 {
		c.built = make([]*Schema, doc.values+1)
		c.requiredLeft = doc.values
	}
	c.schemasLeft, c.propertiesLeft, c.listsLeft = len(positions.at), len(positions.at), len(positions.at)
	c.spell.size = len(positions.at) * spellPerPosition / 2 // the first chunk: twice that
	c.checkDuplicateIDs(&positions)
	root := c.build("", doc.Root, buildContext{root: true})
	c.resolveRefs()
	c.findRefCycles()
	c.metaPass(&positions)
	if len(c.errs) > 0 {
		return nil, c.errs.Err()
	}
	if opts.ClosedObjects {
		c.closeObjects()
	}
	c.warns.Sort()
	return &Checked{Root: root, Draft: c.draft, Profile: c.profile, AssertFormat: c.assertFormat, ClosedObjects: opts.ClosedObjects, Doc: doc, Warnings: c.warns}, nil
}

// formatRefusal says why a format is not asserted and what to write
// instead.
func formatRefusal(name string) string {
	why := "it is not one the compiler enforces exactly (" + strings.Join(AssertedFormats, ", ") + ")"
	switch name {
	case "hostname", "idn-hostname":
		why = "its 253-character total over labels of at most 63 needs two counters at once, which no grammar of reasonable size keeps"
	}
	return fmt.Sprintf("format %q cannot be asserted: %s; drop it, list the strings in enum, or compile without format assertion so that it stays an annotation", name, why)
}

type checker struct {
	doc          *Document
	profile      Profile
	assertFormat bool // Options.AssertFormat
	draft        Draft
	lim          Limits
	errs         ErrorList
	warns        ErrorList
	// The memo: each subschema is built once (a value has one pointer).
	// Values Read numbered are found by id in built, a slice: a map
	// insert per subschema was a tenth of the check. Values made by hand
	// go to the map.
	built       []*Schema
	schemas     map[*Value]*Schema
	nBuilt      int                          // schemas in built and schemas, against Limits.MaxSubschemas
	pending     []pendingRef                 // $refs to resolve once the walk is done
	rootBase    string                       // the root's $id without fragment: refs to it are local
	resolved    map[string]*Schema           // $ref strings already resolved (nil target: refused)
	index       map[*Value]map[string]*Value // member lookup for large objects on $ref paths
	tooMany     bool                         // Limits.MaxSubschemas was reached
	metaOnly    bool                         // the meta pass: report only bad keyword values
	schemaBlock []Schema                     // Schemas not yet handed out by newSchema
	schemasLeft int                          // positions not yet covered by a block
	// Schema.Properties, AnyOf and PrefixItems are cut from blocks too.
	propertyBlock  []Property
	propertiesLeft int
	listBlock      []*Schema
	listsLeft      int
	requiredBlock  []string // Schema.Required, bounded by the document's values
	requiredLeft   int
	problemBlock   []Problem // Problems not yet handed out by newProblem
	spell          spellArena
}

// pendingRef is a $ref met during the walk.
type pendingRef struct {
	from   *Schema
	member *Member // the "$ref" member
}

// pointer spells the pointer of the "$ref" member, for a report only.
func (p pendingRef) pointer() string { return join(p.from.Pointer, "$ref") }

// buildContext says where a subschema sits.
type buildContext struct {
	root      bool // the document's root
	boolOK    bool // a boolean is a schema here even in draft-04 (additionalProperties, additionalItems)
	embedded  bool // inside a subschema with its own base URI ($id): its $refs resolve elsewhere
	portableX bool // portable: exempt from the "type required" rules (additionalProperties: true/false)
}

func (c *checker) errorAt(code Code, ptr string, offset int, format string, args ...any) {
	if c.metaOnly && code != CodeBadKeywordValue && code != CodeNotASchema {
		return
	}
	p := c.newProblem()
	c.doc.place(p, code, ptr, offset, fmt.Sprintf(format, args...))
	c.errs = append(c.errs, p)
}

func (c *checker) warnAt(code Code, ptr string, offset int, format string, args ...any) {
	if c.metaOnly {
		return
	}
	c.warnText(code, ptr, offset, fmt.Sprintf(format, args...))
}

// warnText is warnAt with the message spelled.
func (c *checker) warnText(code Code, ptr string, offset int, message string) {
	if c.metaOnly {
		return
	}
	p := c.newProblem()
	c.doc.place(p, code, ptr, offset, message)
	c.warns = append(c.warns, p)
}

// maxProblemBlock bounds a block of Problems.
const maxProblemBlock = 64

// newProblem hands out a Problem from a block: a schema with one warning
// often has dozens (an unknown keyword on every definition). Blocks start
// small and double, so that a few problems cost little.
func (c *checker) newProblem() *Problem {
	if len(c.problemBlock) == 0 {
		c.problemBlock = make([]Problem, min(max(4, len(c.errs)+len(c.warns)), maxProblemBlock))
	}
	p := &c.problemBlock[0]
	c.problemBlock = c.problemBlock[1:]
	return p
}

// knownDialects maps "$schema" URIs, without scheme and trailing '#', to drafts.
var knownDialects = map[string]Draft{
	"json-schema.org/draft-04/schema":      Draft4,
	"json-schema.org/draft-06/schema":      Draft6,
	"json-schema.org/draft-07/schema":      Draft7,
	"json-schema.org/draft/2019-09/schema": Draft2019,
	"json-schema.org/draft/2020-12/schema": Draft2020,
}

// dialect returns the draft a "$schema" URI names.
func dialect(uri string) (Draft, bool) {
	u := strings.TrimSuffix(uri, "#")
	if rest, ok := strings.CutPrefix(u, "https://"); ok {
		u = rest
	} else if rest, ok := strings.CutPrefix(u, "http://"); ok {
		u = rest
	} else {
		return 0, false
	}
	d, ok := knownDialects[u]
	return d, ok
}

// readRootDialect sets the draft from the root's "$schema" and the base URI
// from its "$id".
func (c *checker) readRootDialect() {
	root := c.doc.Root
	if root.Kind != Object {
		return
	}
	for i := range root.Members {
		m := &root.Members[i]
		if m.Name != "$schema" || m.Value.Kind != String {
			continue
		}
		if d, ok := dialect(m.Value.Str); ok {
			c.draft = d
		} else {
			c.errorAt(CodeUnknownDraft, "/$schema", m.Value.Offset, "unknown dialect %q; use one of http://json-schema.org/draft-04/schema#, draft-06, draft-07, https://json-schema.org/draft/2019-09/schema or https://json-schema.org/draft/2020-12/schema (the check goes on as %s)", m.Value.Str, c.draft)
		}
	}
	idName := "$id"
	if c.draft == Draft4 {
		idName = "id"
	}
	if id := root.Get(idName); id != nil && id.Kind == String {
		c.rootBase, _, _ = strings.Cut(id.Str, "#")
	}
}

// idKeyword is the name of the base-URI keyword in the checker's draft.
func (c *checker) idKeyword() string {
	if c.draft == Draft4 {
		return "id"
	}
	return "$id"
}

// changesBase reports whether a schema object has its own base URI, so that
// the $refs inside it resolve against another resource.
func (c *checker) changesBase(v *Value) bool {
	if v.Kind != Object {
		return false
	}
	id := v.Get(c.idKeyword())
	return id != nil && id.Kind == String && id.Str != "" && !strings.HasPrefix(id.Str, "#")
}

// maxRequiredBlock bounds a block of Schema.Required names: their bound,
// the document's values, is loose.
const maxRequiredBlock = 16

// maxSchemaBlock bounds a block of Schemas (see newSchema).
const maxSchemaBlock = 256

// newSchema returns a Schema that constrains nothing yet. Schemas are
// handed out from blocks, one allocation for many, sized by schemasLeft:
// the schema positions of the document not yet built, which bound the
// schemas a check builds (one per position, plus a few for the meta pass).
func (c *checker) newSchema(ptr string, v *Value) *Schema {
	if len(c.schemaBlock) == 0 {
		n := min(max(c.schemasLeft, 4), maxSchemaBlock)
		c.schemaBlock = make([]Schema, n)
		c.schemasLeft -= n
	}
	s := &c.schemaBlock[0]
	c.schemaBlock = c.schemaBlock[1:]
	// The block is zeroed: set only what is not zero (a whole Schema
	// copied in was a third of the time of this function).
	s.Pointer, s.Node, s.Types, s.MaxItems, s.MaxLength = ptr, v, AllTypes, -1, -1
	return s
}

// build returns the Schema at ptr, building it (and the subschemas it
// reaches through enforced keywords) the first time.
func (c *checker) build(ptr string, v *Value, ctx buildContext) *Schema {
	if s := c.builtAt(v); s != nil {
		return s
	}
	if c.nBuilt >= c.lim.MaxSubschemas {
		if !c.tooMany {
			c.tooMany = true
			c.errorAt(CodeTooManySchemas, ptr, v.Offset, "the schema has more than %d subschemas (-max-subschemas, Limits.MaxSubschemas); share subschemas through $ref, split the schema, or raise the limit", c.lim.MaxSubschemas)
		}
		return c.newSchema(ptr, v)
	}
	s := c.newSchema(ptr, v)
	c.remember(v, s)
	if !ctx.root && c.changesBase(v) {
		ctx.embedded = true
	}
	switch v.Kind {
	case Bool:
		if c.draft == Draft4 && !ctx.boolOK {
			c.errorAt(CodeNotASchema, ptr, v.Offset, "draft-04 has no boolean schemas; write {} for true or {\"not\": {}} for false, or use a later draft")
			return s
		}
		s.False = !v.Bool
		if c.profile == Portable && !ctx.portableX {
			if v.Bool {
				c.errorAt(CodePortableRule, ptr, v.Offset, `"any value" must list the six types: write {"type": ["null", "boolean", "object", "array", "number", "string"]}`)
			} else {
				c.errorAt(CodePortableRule, ptr, v.Offset, "the portable profile has no boolean schema false; remove the part that can never be valid")
			}
		}
		return s
	case Object:
		c.buildObject(s, v, ctx)
	default:
		c.errorAt(CodeNotASchema, ptr, v.Offset, "a schema must be an object or a boolean, not %s", kindName(v.Kind))
	}
	return s
}

// builtAt returns the Schema built for v, or nil.
func (c *checker) builtAt(v *Value) *Schema {
	if id := int(v.id); id != 0 && id < len(c.built) {
		return c.built[id]
	}
	return c.schemas[v]
}

// remember records the Schema built for v.
func (c *checker) remember(v *Value, s *Schema) {
	c.nBuilt++
	if id := int(v.id); id != 0 && id < len(c.built) {
		c.built[id] = s
		return
	}
	if c.schemas == nil {
		c.schemas = map[*Value]*Schema{}
	}
	c.schemas[v] = s
}

func kindName(k Kind) string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

func join(ptr, token string) string { return ptr + "/" + escapePointerToken(token) }

// maxSpellChunk bounds a chunk of the pointer arena.
const maxSpellChunk = 8 << 10

// spellPerPosition is the size of the first chunk of the pointer arena
// per schema position.
const spellPerPosition = 32

// spellArena hands out the strings of spelled JSON Pointers cut from
// shared chunks, one allocation for many: a pointer per subschema and per
// reported keyword was most of the checker's allocations. A chunk is a
// strings.Builder written only past its end, so the bytes under a string
// handed out never change (a chunk that must grow is copied, and the
// strings already cut keep the old one). Chunks start small and double, so
// that a small schema costs little.
type spellArena struct {
	b    strings.Builder
	size int // capacity of the current chunk
}

// room returns the chunk, with room for n more bytes: the caller writes
// them and reads them back with since before the arena is asked again.
func (a *spellArena) room(n int) *strings.Builder {
	if a.b.Cap()-a.b.Len() >= n {
		return &a.b
	}
	a.size = min(max(2*a.size, 128), maxSpellChunk)
	a.b.Reset() // the strings cut from the old chunk keep it
	a.b.Grow(max(n, a.size))
	return &a.b
}

// since returns what was written to chunk b from start on.
func since(b *strings.Builder, start int) string { return b.String()[start:] }

// join is the package's join, spelled into the arena.
func (a *spellArena) join(ptr, token string) string {
	token = escapePointerToken(token)
	b := a.room(len(ptr) + 1 + len(token))
	start := b.Len()
	b.WriteString(ptr)
	b.WriteByte('/')
	b.WriteString(token)
	return since(b, start)
}

// buildObject fills s from the keywords of an object schema.
func (c *checker) buildObject(s *Schema, v *Value, ctx buildContext) {
	ptr := s.Pointer
	if c.draft <= Draft7 && !c.metaOnly && v.Get("$ref") != nil {
		c.buildRefOnly(s, v, ctx)
		return
	}
	var minimum, maximum *big.Rat
	var exclMin, exclMax *Value
	var itemsArray bool
	var additionalItems *Member
	var unassertable *Member // a format that cannot be asserted
	var minContains, maxContains *int
	for i := range v.Members {
		m := &v.Members[i]
		// The keyword's pointer, built on first use: most keywords are
		// valid and hold no schema, and need none (a string per keyword
		// was a twentieth of all compile allocations).
		kpath := ""
		kp := func() string {
			if kpath == "" {
				kpath = c.spell.join(ptr, m.Name)
			}
			return kpath
		}
		val := m.Value
		kw := LookupKeyword(m.Name, c.draft)
		if kw == nil {
			c.unknownKeyword(kp, m)
			continue
		}
		if kw.Use(c.profile) == Refused {
			if c.metaOnly {
				c.metaRefused(kp(), m, kw)
			} else {
				c.refuse(kp(), m, kw)
			}
			continue
		}
		bad := func(format string, args ...any) {
			c.errorAt(CodeBadKeywordValue, kp(), val.Offset, "%s: "+format, append([]any{m.Name}, args...)...)
		}
		switch m.Name {
		case "$schema":
			if val.Kind != String {
				bad("must be a string, the dialect's URI")
			} else if !ctx.root {
				if d, ok := dialect(val.Str); !ok || d != c.draft {
					c.errorAt(CodeUnknownDraft, kp(), val.Offset, "a subschema may not switch dialects (the root is %s); remove this $schema", c.draft)
				}
			}
		case "$comment", "title", "description", "contentMediaType", "contentEncoding":
			if val.Kind != String {
				bad("must be a string")
			}
		case "$id", "id":
			if val.Kind != String || !uriReference(val.Str) {
				bad("must be a URI reference")
			} else if _, frag, _ := strings.Cut(val.Str, "#"); c.draft >= Draft2019 && frag != "" {
				bad("may not have a fragment in %s; use $anchor for a name", c.draft)
			}
		case "$anchor", "$dynamicAnchor":
			re := anchor2020
			if c.draft == Draft2019 {
				re = anchor2019
			}
			if val.Kind != String || !re.MatchString(val.Str) {
				bad("must be a name matching %s", re)
			}
		case "format":
			if val.Kind != String {
				bad("must be a string")
			} else if !c.assertFormat && slices.Contains(AssertedFormats, val.Str) {
				c.warnAt(CodeFormatNotEnforced, kp(), m.NameOffset, "format %q is an annotation here: it is not enforced, and the model may write any string; -assert-format (AssertFormat) enforces it exactly", val.Str)
			} else if !c.assertFormat {
				c.warnAt(CodeFormatNotEnforced, kp(), m.NameOffset, "format %q is an annotation here: it is not enforced, and the model may write any string; use enum if the set of strings is small, or check it after decoding (-assert-format enforces only %s, and refuses %q)", val.Str, assertableList, val.Str)
			} else if slices.Contains(AssertedFormats, val.Str) {
				s.Format = val.Str
			} else if !c.metaOnly {
				unassertable = m // refused unless "type" admits no string: decided after the loop
			}
		case "deprecated", "readOnly", "writeOnly", "$recursiveAnchor":
			if val.Kind != Bool {
				bad("must be true or false")
			}
		case "examples":
			if val.Kind != Array {
				bad("must be an array")
			}
		case "$vocabulary", "$defs", "definitions":
			if val.Kind != Object {
				bad("must be an object")
			}
		case "default", "contentSchema":
			// Any value; contentSchema is an annotation and not walked.
		case "$ref":
			if val.Kind != String || !uriReference(val.Str) {
				bad("must be a URI reference (a string)")
				continue
			}
			if ctx.embedded {
				c.errorAt(CodeRemoteRef, kp(), val.Offset, "this $ref is inside a subschema with its own $id, so it resolves against that resource; move the subschema to $defs of the root and drop its $id")
				continue
			}
			c.pending = append(c.pending, pendingRef{from: s, member: m})
		case "type":
			s.Types = c.types(kp, val, bad)
		case "enum":
			if val.Kind != Array {
				bad("must be an array of values")
				continue
			}
			if c.draft <= Draft7 {
				if len(val.Items) == 0 {
					bad("must not be empty in %s", c.draft)
				} else if i, j, dup := firstDuplicate(val.Items); dup {
					bad("items %d and %d are equal; %s requires enum's values to be unique", i, j, c.draft)
				}
			}
			s.Enum = intersect(s.Enum, val.Items)
		case "const":
			s.Enum = intersect(s.Enum, []*Value{val})
		case "properties":
			if val.Kind != Object {
				bad("must be an object whose members are schemas")
				continue
			}
			if len(val.Members) == 0 {
				continue
			}
			name := func(j int) string { return escapePointerToken(val.Members[j].Name) }
			ptrs := c.spell.spellPointers(ptr, m.Name, len(val.Members), name)
			s.Properties = take(&c.propertyBlock, &c.propertiesLeft, len(val.Members), maxSliceBlock)
			for j := range val.Members {
				pm := &val.Members[j]
				s.Properties[j] = Property{Name: pm.Name, Schema: c.build(ptrs.next(len(name(j))), pm.Value, ctx.child())}
			}
		case "required":
			if val.Kind != Array {
				bad("must be an array of member names")
				continue
			}
			if c.draft == Draft4 && len(val.Items) == 0 {
				bad("must not be empty in draft-04; remove it")
			}
			// Names listed so far are s.Required: searched while short,
			// through a map past linearMembers.
			var seen map[string]bool
			for j, item := range val.Items {
				if item.Kind != String {
					c.errorAt(CodeBadKeywordValue, join(kp(), strconv.Itoa(j)), item.Offset, "required: each item must be a member name (a string), not %s", kindName(item.Kind))
					continue
				}
				if seen == nil && len(s.Required) > linearMembers {
					seen = make(map[string]bool, len(val.Items))
					for _, name := range s.Required {
						seen[name] = true
					}
				}
				if seen[item.Str] || seen == nil && slices.Contains(s.Required, item.Str) {
					c.errorAt(CodeBadKeywordValue, join(kp(), strconv.Itoa(j)), item.Offset, "required: %q is listed twice; the names must be unique", item.Str)
					continue
				}
				if seen != nil {
					seen[item.Str] = true
				}
				if s.Required == nil {
					s.Required = take(&c.requiredBlock, &c.requiredLeft, len(val.Items), maxRequiredBlock)[:0]
				}
				s.Required = append(s.Required, item.Str)
			}
		case "additionalProperties":
			sub := ctx.child()
			sub.boolOK, sub.portableX = true, true
			s.AdditionalProperties = c.build(kp(), val, sub)
		case "items":
			if val.Kind == Array {
				if c.draft >= Draft2020 {
					bad(`is a single schema in 2020-12; write the positional schemas as "prefixItems"`)
					continue
				}
				if c.profile == Portable {
					c.errorAt(CodeRefusedKeyword, kp(), m.NameOffset, "items as an array of schemas is %s; use a single schema", notPortable)
					continue
				}
				if len(val.Items) == 0 {
					bad("an items array must not be empty; write a single schema instead")
					continue
				}
				itemsArray = true
				s.PrefixItems = c.schemaList(kp(), val, ctx, bad)
				continue
			}
			s.Items = c.build(kp(), val, ctx.child())
		case "prefixItems":
			if val.Kind != Array || len(val.Items) == 0 {
				bad("must be a non-empty array of schemas")
				continue
			}
			s.PrefixItems = c.schemaList(kp(), val, ctx, bad)
		case "additionalItems":
			additionalItems = m
		case "minItems", "maxItems", "minLength", "maxLength":
			n, ok := count(val)
			if !ok {
				bad("must be a non-negative integer")
				continue
			}
			switch m.Name {
			case "minItems":
				s.MinItems = n
			case "maxItems":
				s.MaxItems = n
			case "minLength":
				s.MinLength = n
			case "maxLength":
				s.MaxLength = n
			}
		case "minimum", "maximum":
			r, ok := val.Rat()
			if !ok {
				bad("must be a number")
				continue
			}
			if m.Name == "minimum" {
				minimum = r
			} else {
				maximum = r
			}
		case "exclusiveMinimum", "exclusiveMaximum":
			if c.draft == Draft4 {
				if val.Kind != Bool {
					bad("must be true or false in draft-04 (it makes minimum or maximum exclusive)")
					continue
				}
				inclusive := "minimum"
				if m.Name == "exclusiveMaximum" {
					inclusive = "maximum"
				}
				if v.Get(inclusive) == nil {
					bad("needs %s beside it in draft-04", inclusive)
					continue
				}
			} else if val.Kind != Number {
				bad("must be a number")
				continue
			}
			if m.Name == "exclusiveMinimum" {
				exclMin = val
			} else {
				exclMax = val
			}
		case "anyOf":
			if val.Kind != Array || len(val.Items) == 0 {
				bad("must be a non-empty array of schemas")
				continue
			}
			s.AnyOf = c.schemaList(kp(), val, ctx, bad)
		// Counting and dependencies: counting.go.
		case "minProperties", "maxProperties":
			keywordCtx{c, s, m, kp, bad, ctx}.propertyCount()
		case "multipleOf":
			keywordCtx{c, s, m, kp, bad, ctx}.multipleOf()
		case "uniqueItems":
			keywordCtx{c, s, m, kp, bad, ctx}.uniqueItems()
		case "contains":
			keywordCtx{c, s, m, kp, bad, ctx}.contains()
		case "minContains":
			keywordCtx{c, s, m, kp, bad, ctx}.containsCount(&minContains)
		case "maxContains":
			keywordCtx{c, s, m, kp, bad, ctx}.containsCount(&maxContains)
		case "dependentRequired", "dependentSchemas", "dependencies":
			keywordCtx{c, s, m, kp, bad, ctx}.dependencies()
		}
	}
	containsCounts(s, minContains, maxContains)
	if additionalItems != nil {
		kp := c.spell.join(ptr, additionalItems.Name)
		if itemsArray {
			sub := ctx.child()
			sub.boolOK = true
			s.Items = c.build(kp, additionalItems.Value, sub)
		} else {
			c.warnAt(CodeIgnoredKeyword, kp, additionalItems.NameOffset, "additionalItems has an effect only after an items array, and validators ignore it here; remove it")
		}
	}
	if m := unassertable; m != nil {
		// A format constrains strings only: beside a type that admits no
		// string (OpenAPI's int32 on an integer) it has nothing to enforce.
		if s.Types&TString == 0 {
			c.warnAt(CodeFormatNotEnforced, join(ptr, m.Name), m.NameOffset, "format %q constrains strings only, and this schema's type admits none: it has no effect here", m.Value.Str)
		} else {
			c.errorAt(CodeFormatNotExact, join(ptr, m.Name), m.Value.Offset, "%s", formatRefusal(m.Value.Str))
		}
	}
	s.Lower = tighter(minimum, exclMin, true)
	s.Upper = tighter(maximum, exclMax, false)
	if c.profile == Portable {
		c.portableRules(s, v, ctx)
	}
}

func (ctx buildContext) child() buildContext {
	return buildContext{embedded: ctx.embedded}
}

// schemaList builds the schemas of an array-of-schemas keyword.
func (c *checker) schemaList(kp string, val *Value, ctx buildContext, bad func(string, ...any)) []*Schema {
	if val.Kind != Array {
		bad("must be an array of schemas")
		return nil
	}
	if len(val.Items) == 0 {
		return []*Schema{}
	}
	ptrs := c.spell.spellPointers(kp, "", len(val.Items), strconv.Itoa)
	list := take(&c.listBlock, &c.listsLeft, len(val.Items), maxSliceBlock)
	for j, item := range val.Items {
		list[j] = c.build(ptrs.next(len(strconv.Itoa(j))), item, ctx.child())
	}
	return list
}

// pointerSpeller hands out pointers that spellPointers wrote into one
// string.
type pointerSpeller struct {
	all    string
	at     int
	prefix int // length of the part before each token
}

// spellPointers writes ptr/keyword/token(i) (ptr/token(i) when keyword is
// "") for i < n one after another into the arena, so that the n subschemas
// of a keyword get their pointers from one string; next hands them out in
// order. token must return escaped tokens, the same each time.
func (a *spellArena) spellPointers(ptr, keyword string, n int, token func(int) string) pointerSpeller {
	prefix := len(ptr) + 1
	if keyword != "" {
		prefix += len(keyword) + 1
	}
	total := 0
	for i := range n {
		total += prefix + len(token(i))
	}
	b := a.room(total)
	start := b.Len()
	for i := range n {
		b.WriteString(ptr)
		b.WriteByte('/')
		if keyword != "" {
			b.WriteString(keyword)
			b.WriteByte('/')
		}
		b.WriteString(token(i))
	}
	return pointerSpeller{all: since(b, start), prefix: prefix}
}

// next returns the next pointer, whose last token is n bytes long.
func (p *pointerSpeller) next(n int) string {
	end := p.at + p.prefix + n
	s := p.all[p.at:end]
	p.at = end
	return s
}

// tighter combines an inclusive bound and an exclusive one (a number, or
// draft-04's boolean applying to the inclusive value) into one Bound.
func tighter(inclusive *big.Rat, exclusive *Value, lower bool) *Bound {
	var b *Bound
	if inclusive != nil {
		b = &Bound{Value: inclusive}
	}
	if exclusive == nil {
		return b
	}
	if exclusive.Kind == Bool {
		if exclusive.Bool && b != nil {
			b.Exclusive = true
		}
		return b
	}
	e, _ := exclusive.Rat()
	if b == nil {
		return &Bound{Value: e, Exclusive: true}
	}
	cmp := e.Cmp(b.Value)
	if cmp == 0 || (lower && cmp > 0) || (!lower && cmp < 0) {
		return &Bound{Value: e, Exclusive: true}
	}
	return b
}

// count reads a non-negative integer keyword value; 1.0 counts as 1, as
// validators judge. Values beyond int are clamped: no text is that long.
func count(v *Value) (int, bool) {
	if v.Kind == Number && len(v.Num) <= 18 && allDigits(v.Num) {
		// Plain digits, too few to pass int64: no big.Rat needed.
		if n, err := strconv.Atoi(v.Num); err == nil {
			return n, true
		}
	}
	r, ok := v.Rat()
	if !ok || !r.IsInt() || r.Sign() < 0 {
		return 0, false
	}
	n := r.Num()
	if !n.IsInt64() || n.Int64() > math.MaxInt {
		return math.MaxInt, true
	}
	return int(n.Int64()), true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// types reads "type": one name or a non-empty list of unique names.
func (c *checker) types(kp func() string, val *Value, bad func(string, ...any)) Type {
	// one reads a type name: its types, and a bit of its own that finds
	// a name listed twice ("number" and "integer" share types).
	one := func(v *Value) (Type, uint8, bool) {
		if v.Kind != String {
			return 0, 0, false
		}
		switch v.Str {
		case "null":
			return TNull, 1 << 0, true
		case "boolean":
			return TBoolean, 1 << 1, true
		case "object":
			return TObject, 1 << 2, true
		case "array":
			return TArray, 1 << 3, true
		case "number":
			return TNumber | TInteger, 1 << 4, true
		case "integer":
			return TInteger, 1 << 5, true
		case "string":
			return TString, 1 << 6, true
		}
		return 0, 0, false
	}
	const names = "null, boolean, object, array, number, integer or string"
	switch val.Kind {
	case String:
		t, _, ok := one(val)
		if !ok {
			bad("%q is not a type; use %s", val.Str, names)
			return AllTypes
		}
		return t
	case Array:
		if len(val.Items) == 0 {
			bad("must not be an empty list")
			return AllTypes
		}
		var all Type
		var seen uint8
		for j, item := range val.Items {
			t, bit, ok := one(item)
			if !ok {
				c.errorAt(CodeBadKeywordValue, join(kp(), strconv.Itoa(j)), item.Offset, "type: not a type name; use %s", names)
				continue
			}
			if seen&bit != 0 {
				c.errorAt(CodeBadKeywordValue, join(kp(), strconv.Itoa(j)), item.Offset, "type: %q is listed twice", item.Str)
			}
			seen |= bit
			all |= t
		}
		return all
	}
	bad("must be a type name or a list of them (%s)", names)
	return AllTypes
}

// intersect narrows an enum (nil: no enum yet) to the values also in more.
func intersect(have, more []*Value) []*Value {
	if have == nil {
		out := make([]*Value, len(more))
		copy(out, more)
		return out
	}
	out := []*Value{}
	for _, h := range have {
		for _, m := range more {
			if Equal(h, m) {
				out = append(out, h)
				break
			}
		}
	}
	return out
}

// firstDuplicate finds two equal values, comparing canonical keys so that a
// large enum is not compared pair by pair.
func firstDuplicate(items []*Value) (int, int, bool) {
	if len(items) <= linearMembers && allStrings(items) {
		// The usual enum: a few strings, compared pair by pair without
		// a key or a map. Equal strings are exactly equal keys.
		for i := 1; i < len(items); i++ {
			for j := range i {
				if items[j].Str == items[i].Str {
					return j, i, true
				}
			}
		}
		return 0, 0, false
	}
	seen := make(map[string]int, len(items))
	for i, v := range items {
		k := CanonicalKey(v)
		if j, ok := seen[k]; ok {
			return j, i, true
		}
		seen[k] = i
	}
	return 0, 0, false
}

func allStrings(items []*Value) bool {
	for _, v := range items {
		if v.Kind != String {
			return false
		}
	}
	return true
}

// CanonicalKey returns a string that is the same for two values exactly when
// Equal says they are equal: numbers as normalised decimals, members sorted
// by name. It is cheap enough to deduplicate a million-member enum: numbers
// are keyed from their text, never through a big.Rat of a huge exponent.
func CanonicalKey(v *Value) string {
	var b strings.Builder
	writeKey(&b, v)
	return b.String()
}

func writeKey(b *strings.Builder, v *Value) {
	switch v.Kind {
	case Null:
		b.WriteString("n")
	case Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case Number:
		b.WriteByte('#')
		writeDecimalKey(b, v.Num)
	case String:
		b.WriteString(strconv.Quote(v.Str))
	case Array:
		b.WriteByte('[')
		for _, item := range v.Items {
			writeKey(b, item)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case Object:
		ms := append([]Member(nil), v.Members...)
		sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
		b.WriteByte('{')
		for _, m := range ms {
			b.WriteString(strconv.Quote(m.Name))
			b.WriteByte(':')
			writeKey(b, m.Value)
			b.WriteByte(',')
		}
		b.WriteByte('}')
	}
}

// assertableList names the formats -assert-format enforces, for messages.
var assertableList = strings.Join(AssertedFormats[:len(AssertedFormats)-1], ", ") + " and " + AssertedFormats[len(AssertedFormats)-1]

// otherDefs is the other draft's name for $defs.
func otherDefs(name string) string {
	if name == "$defs" {
		return "definitions"
	}
	return "$defs"
}

// unknownKeyword warns about a member that constrains nothing in this draft.
func (c *checker) unknownKeyword(kp func() string, m *Member) {
	if c.metaOnly {
		return // no warnings in the meta pass
	}
	if k := findKeyword(m.Name); k != nil && (m.Name == "$defs" || m.Name == "definitions") {
		// A $ref may point into it all the same: a JSON Pointer reaches
		// any member, keyword or not.
		c.warnAt(CodeIgnoredKeyword, kp(), m.NameOffset, "%s is a keyword of %s, not of %s; validators do not read it as a keyword here, but a $ref still reaches the schemas in it by JSON Pointer; rename it %s, or set $schema to a draft that has it, to say what you mean", m.Name, draftNames()[k.Drafts], c.draft, otherDefs(m.Name))
		return
	} else if k != nil {
		c.warnAt(CodeIgnoredKeyword, kp(), m.NameOffset, "%s is a keyword of %s, not of %s, so validators ignore it here; remove it or set $schema to a draft that has it", m.Name, draftNames()[k.Drafts], c.draft)
		return
	}
	const notKeyword = " is not a JSON Schema keyword and constrains nothing; it is kept as an annotation"
	if quotesAsIs(m.Name) {
		// The usual x-... extension: the message in one concatenation
		// rather than through fmt, which boxed the name too.
		c.warnText(CodeIgnoredKeyword, kp(), m.NameOffset, `"`+m.Name+`"`+notKeyword)
		return
	}
	c.warnAt(CodeIgnoredKeyword, kp(), m.NameOffset, "%q"+notKeyword, m.Name)
}

// quotesAsIs reports whether strconv.Quote(s) (and so fmt's %q) is s
// between double quotes: printable ASCII without '"' and '\\'.
func quotesAsIs(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !plainStringByte[c] || c == 0x7f {
			return false
		}
	}
	return true
}

// draftNames spells the sets of drafts of the keyword table ("draft-04,
// draft-06"), once rather than per warning.
var draftNames = sync.OnceValue(func() map[DraftSet]string {
	names := map[DraftSet]string{}
	for _, k := range Keywords {
		if _, ok := names[k.Drafts]; ok {
			continue
		}
		var in []string
		for _, d := range AllDrafts {
			if k.Drafts.Has(d) {
				in = append(in, d.String())
			}
		}
		names[k.Drafts] = strings.Join(in, ", ")
	}
	return names
})

func (c *checker) refuse(kp string, m *Member, kw *Keyword) {
	if kw.Exact != Refused {
		c.errorAt(CodeRefusedKeyword, kp, m.NameOffset, "%s is %s", m.Name, notPortable)
		return
	}
	c.errorAt(CodeRefusedKeyword, kp, m.NameOffset, "%s is not supported: %s", m.Name, kw.Note)
}

// constrains reports whether a keyword of this draft limits values, so that
// ignoring it (beside a $ref before 2019-09) changes what is valid.
func (c *checker) constrains(name string) bool {
	kw := LookupKeyword(name, c.draft)
	return kw != nil && (kw.Exact == Enforced || kw.Exact == Refused) && name != "$ref"
}

// buildRefOnly handles a $ref before 2019-09: validators ignore its siblings.
func (c *checker) buildRefOnly(s *Schema, v *Value, ctx buildContext) {
	var ignored []string
	for i := range v.Members {
		m := &v.Members[i]
		kp := func() string { return join(s.Pointer, m.Name) } // for reports only
		switch {
		case m.Name == "$ref":
			if m.Value.Kind != String || !uriReference(m.Value.Str) {
				c.errorAt(CodeBadKeywordValue, kp(), m.Value.Offset, "$ref: must be a URI reference (a string)")
			} else if ctx.embedded {
				c.errorAt(CodeRemoteRef, kp(), m.Value.Offset, "this $ref is inside a subschema with its own $id, so it resolves against that resource; move the subschema to definitions of the root and drop its $id")
			} else {
				c.pending = append(c.pending, pendingRef{from: s, member: m})
			}
		case c.constrains(m.Name):
			ignored = append(ignored, m.Name)
		}
		if c.profile == Portable && m.Name != "$ref" && !besideRefOK(m.Name) {
			c.errorAt(CodePortableRule, kp(), m.NameOffset, "nothing may be written beside a $ref (some engines ignore it); move %s into the referenced schema", m.Name)
		}
	}
	if len(ignored) > 0 {
		c.warnAt(CodeRefSiblingsIgnored, join(s.Pointer, "$ref"), v.Get("$ref").Offset, "in %s, validators ignore every keyword beside $ref, so %s constrain nothing here; move them into the referenced schema, or wrap both in anyOf of one branch", c.draft, strings.Join(ignored, ", "))
	}
}

// besideRefOK lists the members the portable profile allows beside a $ref:
// containers and the dialect, which constrain nothing.
func besideRefOK(name string) bool {
	return name == "$schema" || name == "$defs" || name == "definitions"
}

// portableRules applies the authoring rules of the portable profile (seed
// 001 §2) to an object schema.
func (c *checker) portableRules(s *Schema, v *Value, ctx buildContext) {
	ptr := s.Pointer
	has := func(name string) bool { return v.Get(name) != nil }
	if has("$ref") {
		for i := range v.Members {
			m := &v.Members[i]
			if m.Name != "$ref" && !besideRefOK(m.Name) {
				c.errorAt(CodePortableRule, join(ptr, m.Name), m.NameOffset, "nothing may be written beside a $ref (some engines ignore it); move %s into the referenced schema", m.Name)
			}
		}
		return
	}
	if !has("type") {
		switch {
		case has("description"):
			c.errorAt(CodePortableRule, ptr, v.Offset, `a schema with a description must state its "type" (Outlines requires it)`)
		case !has("enum") && !has("const") && !has("anyOf"):
			c.errorAt(CodePortableRule, ptr, v.Offset, `state a "type"; for any value list the six types: ["null", "boolean", "object", "array", "number", "string"] (llama.cpp reads an empty schema as any object)`)
		}
	}
	mayBeObject := has("type") && s.Types&TObject != 0 || has("properties") || has("required")
	if mayBeObject && !has("additionalProperties") {
		c.errorAt(CodePortableRule, ptr, v.Offset, `a schema that may be an object must state "additionalProperties" (engines assume different things when it is absent); write "additionalProperties": false to allow only the listed members`)
	}
	if has("anyOf") && has("description") {
		c.errorAt(CodePortableRule, join(ptr, "description"), v.Get("description").Offset, "a schema with anyOf carries no description; put it on the member that holds this schema")
	}
}

// resolveRefs resolves the pending $refs; building their targets may add more.
func (c *checker) resolveRefs() {
	for len(c.pending) > 0 {
		p := c.pending[0]
		c.pending = c.pending[1:]
		target, done := c.resolved[p.member.Value.Str]
		if !done {
			target = c.resolve(p)
			if target != nil {
				if c.resolved == nil {
					c.resolved = map[string]*Schema{}
				}
				c.resolved[p.member.Value.Str] = target
			}
		}
		if target != nil {
			p.from.Ref = target
		}
	}
}

// refMode says what the pointer walk is inside.
type refMode uint8

const (
	inSchema    refMode = iota // a schema: tokens are keywords
	inSchemaMap                // the value of properties, $defs, ...: tokens are names of schemas
	inSchemaArr                // the value of anyOf, prefixItems, ...: tokens are indexes of schemas
	inDeps                     // the value of dependencies: schemas or arrays of names
	inValue                    // plain JSON that is not a schema
	inUnknown                  // the value of a non-keyword: validators resolve it anyway
)

// resolve follows one local $ref to its target schema.
func (c *checker) resolve(p pendingRef) *Schema {
	ref := p.member.Value.Str
	at := p.member.Value.Offset
	base, frag, hasFrag := strings.Cut(ref, "#")
	if base != "" && base != c.rootBase {
		c.errorAt(CodeRemoteRef, p.pointer(), at, "%q refers to another document; only local refs are supported (no file or network access): copy the schema into $defs and write \"#/$defs/name\"", ref)
		return nil
	}
	if hasFrag {
		dec, err := url.PathUnescape(frag)
		if err != nil {
			c.errorAt(CodeUnresolvedRef, p.pointer(), at, "%q has a bad percent-escape; write a JSON Pointer such as \"#/$defs/name\"", ref)
			return nil
		}
		frag = dec
	}
	if frag != "" && !strings.HasPrefix(frag, "/") {
		c.errorAt(CodeRemoteRef, p.pointer(), at, "%q refers to an anchor; refs to anchors are not supported: refer with a JSON Pointer such as \"#/$defs/name\"", ref)
		return nil
	}
	cur := c.doc.Root
	mode := inSchema
	// The target's pointer is frag spelled again, as long as frag: it is
	// written into the arena as the walk goes.
	spelt := c.spell.room(len(frag))
	ptrStart := spelt.Len()
	var via string // the keyword whose value the walk is in, for messages
	// The tokens are cut off frag one by one: a slice of them was a
	// sixteenth of the checker's allocations.
	rest, more := "", frag != ""
	if more {
		rest = frag[1:]
	}
	for i := 0; more; i++ {
		var raw string
		raw, rest, more = strings.Cut(rest, "/")
		tok, ok := unescapeToken(raw)
		if !ok {
			c.errorAt(CodeUnresolvedRef, p.pointer(), at, "%q: %q is not a valid JSON Pointer token (~ must be followed by 0 or 1; write ~0 for ~ and ~1 for /)", ref, raw)
			return nil
		}
		if mode == inSchema && i > 0 && c.changesBase(cur) {
			c.errorAt(CodeRemoteRef, p.pointer(), at, "%q points inside a subschema with its own $id, which validators treat as another resource; move it to $defs of the root and drop its $id", ref)
			return nil
		}
		var next *Value
		switch cur.Kind {
		case Object:
			next = c.member(cur, tok)
		case Array:
			if n, err := strconv.Atoi(tok); err == nil && n >= 0 && n < len(cur.Items) && strconv.Itoa(n) == tok {
				next = cur.Items[n]
			}
		}
		if next == nil {
			c.errorAt(CodeUnresolvedRef, p.pointer(), at, "%q does not resolve: nothing at %q; check the path (names are case-sensitive)", ref, since(spelt, ptrStart)+"/"+escapePointerToken(tok))
			return nil
		}
		spelt.WriteByte('/')
		spelt.WriteString(escapePointerToken(tok))
		switch mode {
		case inSchema:
			if cur.Kind != Object {
				mode = inValue
				break
			}
			kw := LookupKeyword(tok, c.draft)
			via = tok
			switch {
			case kw == nil:
				mode = inUnknown
			case kw.Shape == ShapeSchema:
				mode = inSchema
			case kw.Shape == ShapeSchemaMap:
				mode = inSchemaMap
			case kw.Shape == ShapeSchemaList:
				mode = inSchemaArr
			case kw.Shape == ShapeItems && next.Kind == Array:
				mode = inSchemaArr
			case kw.Shape == ShapeItems:
				mode = inSchema
			case kw.Shape == ShapeDependency:
				mode = inDeps
			default:
				mode = inValue
			}
		case inSchemaMap, inSchemaArr:
			if cur.Kind == Object && mode == inSchemaMap || cur.Kind == Array && mode == inSchemaArr {
				mode = inSchema
			} else {
				mode = inValue
			}
		case inDeps:
			mode = inSchema
			if next.Kind == Array {
				mode = inValue
			}
		}
		cur = next
	}
	if mode != inSchema && mode != inUnknown {
		c.errorAt(CodeNotASchema, p.pointer(), at, "%q points into the value of %s, which is not a schema; point at a schema, for example one in $defs", ref, via)
		return nil
	}
	if cur.Kind != Object && cur.Kind != Bool {
		c.errorAt(CodeNotASchema, p.pointer(), at, "%q points at %s, not a schema", ref, kindName(cur.Kind))
		return nil
	}
	ptr := since(spelt, ptrStart)
	return c.build(ptr, cur, buildContext{root: ptr == "", embedded: false})
}

// unescapeToken decodes ~1 and ~0 in one JSON Pointer token.
func unescapeToken(s string) (string, bool) {
	if !strings.Contains(s, "~") {
		return s, true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '~' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 >= len(s) || (s[i+1] != '0' && s[i+1] != '1') {
			return "", false
		}
		if s[i+1] == '0' {
			b.WriteByte('~')
		} else {
			b.WriteByte('/')
		}
		i++
	}
	return b.String(), true
}

// findRefCycles refuses recursion that never consumes input: a cycle through
// $ref and anyOf alone ({"$ref": "#"}, a -> b -> a), which validators loop on
// and a grammar cannot express. Recursion through properties or items is fine.
func (c *checker) findRefCycles() {
	const (
		unseen = iota
		onStack
		done
	)
	type frameT struct {
		s    *Schema
		next int // the next edge to follow (see cycleEdge)
	}
	// Visit in pointer order so that reports are deterministic. A schema
	// with no $ref and no anyOf starts no cycle: only the others are
	// visited from, and only the schemas a walk meets get a state.
	starts := make([]*Schema, 0, c.nBuilt)
	for _, s := range c.built {
		if s != nil && cycleEdges(s) > 0 {
			starts = append(starts, s)
		}
	}
	for _, s := range c.schemas {
		if cycleEdges(s) > 0 {
			starts = append(starts, s)
		}
	}
	// Pointers are unique (one per value): any sort gives one order.
	slices.SortFunc(starts, func(a, b *Schema) int { return strings.Compare(a.Pointer, b.Pointer) })
	if len(starts) == 0 {
		return
	}
	// A schema's state is kept by the id of its value when the memo holds
	// it under that id (a map insert per schema was most of this walk's
	// work), in a map otherwise.
	byID := make([]uint8, len(c.built))
	var others map[*Schema]uint8
	slot := func(s *Schema) (int, bool) {
		id := int(s.Node.id)
		return id, id != 0 && id < len(c.built) && c.built[id] == s
	}
	get := func(s *Schema) uint8 {
		if id, ok := slot(s); ok {
			return byID[id]
		}
		return others[s]
	}
	set := func(s *Schema, st uint8) {
		if id, ok := slot(s); ok {
			byID[id] = st
			return
		}
		if others == nil {
			others = map[*Schema]uint8{}
		}
		others[s] = st
	}
	var stack []frameT
	for _, start := range starts {
		if get(start) != unseen {
			continue
		}
		stack = append(stack[:0], frameT{s: start})
		set(start, onStack)
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next == cycleEdges(top.s) {
				set(top.s, done)
				stack = stack[:len(stack)-1]
				continue
			}
			to, anyOf := cycleEdge(top.s, top.next)
			top.next++
			switch get(to) {
			case onStack:
				// The edge's pointer is spelled only here, for the report.
				off := top.s.Node.Offset
				ptr := join(top.s.Pointer, "$ref")
				if anyOf >= 0 {
					ptr = join(join(top.s.Pointer, "anyOf"), strconv.Itoa(anyOf))
				} else if n := top.s.Node.Get("$ref"); n != nil {
					off = n.Offset
				}
				c.errorAt(CodeRefCycle, ptr, off, "this reference leads back to %q without passing through a property or an item, so it never ends; make the recursion go through properties or items", pointerOrRoot(to.Pointer))
			case unseen:
				set(to, onStack)
				stack = append(stack, frameT{s: to})
			}
		}
	}
}

// cycleEdges is the number of edges findRefCycles follows from s: its $ref
// and its anyOf branches.
func cycleEdges(s *Schema) int {
	n := len(s.AnyOf)
	if s.Ref != nil {
		n++
	}
	return n
}

// cycleEdge returns the target of edge k of s, $ref first, and the index
// of its anyOf branch (-1 for the $ref).
func cycleEdge(s *Schema, k int) (*Schema, int) {
	if s.Ref != nil {
		if k == 0 {
			return s.Ref, -1
		}
		k--
	}
	return s.AnyOf[k], k
}

func pointerOrRoot(p string) string {
	if p == "" {
		return "#"
	}
	return "#" + p
}

// position is one place in the document where a schema stands. Its
// pointer is spelled only when asked (positions.pointer): the meta pass and
// the $id check need few of them, and one string per position was nearly
// half of the pointers the checker built. It names its place by the
// parent's member rather than by copies of the names: positions are many,
// and their size was most of the walk's work.
type position struct {
	v      *Value
	key    *Member // the parent's member that holds this schema; nil for the root
	parent int     // index of the enclosing schema's position; -1 for the root
	index  int     // sub != subNone: the schema's index in key.Value's members or items
	sub    subToken
}

// boolOK reports whether a boolean is a schema at p even in draft-04.
func (p *position) boolOK() bool {
	return p.key != nil && (p.key.Name == "additionalProperties" || p.key.Name == "additionalItems")
}

// positions are the schema positions of a document, in walk order, root
// first.
type positions struct {
	at    []position
	ptrs  []string // spelled pointers, "" until asked; made on the first ask
	spell *spellArena
	ids   []idAt // the positions with a base-changing $id, in walk order
}

// idAt is a position whose schema has an $id not starting with '#', and
// the base URI in force there (without fragment).
type idAt struct {
	at   int
	base string
}

// subToken says which token follows the keyword in a position's pointer.
type subToken uint8

const (
	subNone  subToken = iota // the keyword's value is the schema
	subName                  // a member of the keyword's object
	subIndex                 // an item of the keyword's array
)

// pointer returns the JSON Pointer of position i, spelling it (and its
// parents') the first time. Only the root's pointer is "".
func (ps *positions) pointer(i int) string {
	p := &ps.at[i]
	if p.parent < 0 {
		return ""
	}
	if ps.ptrs == nil {
		ps.ptrs = make([]string, len(ps.at))
	}
	if ps.ptrs[i] != "" {
		return ps.ptrs[i]
	}
	ptr := ps.spell.join(ps.pointer(p.parent), p.key.Name)
	switch p.sub {
	case subName:
		ptr = ps.spell.join(ptr, p.key.Value.Members[p.index].Name)
	case subIndex:
		ptr = ps.spell.join(ptr, strconv.Itoa(p.index))
	}
	ps.ptrs[i] = ptr
	return ptr
}

// rootURL is the base URI of a document without "$id", as the validator
// names a schema it reads from memory.
var rootURL, _ = url.Parse("file:///schema.json")

// rootBase is rootURL spelled, without fragment.
var rootBase, _, _ = strings.Cut(rootURL.String(), "#")

// schemaPositions lists every schema position of the document, following
// every keyword of the draft that holds schemas (refused ones included), as a
// validator's meta-schema check does. Values of non-keywords are not visited.
func (c *checker) schemaPositions() positions {
	// Most schemas have a dozen positions or more: start there rather than
	// grow from one.
	out := make([]position, 0, 16)
	var ids []idAt
	// Each item carries its base both parsed and spelled: the spelling
	// (url.URL.String) changes only at an $id, and making it again for
	// every position was a third of this walk.
	type item struct {
		position
		base     *url.URL
		baseSpec string // base without fragment
	}
	stack := make([]item, 1, 16)
	stack[0] = item{position{v: c.doc.Root, parent: -1}, rootURL, rootBase}
	for len(stack) > 0 && len(out) <= 4*c.lim.MaxSubschemas {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		base, baseSpec := it.base, it.baseSpec
		v := it.v
		if v.Kind == Object {
			if id := v.Get(c.idKeyword()); id != nil && id.Kind == String && !strings.HasPrefix(id.Str, "#") {
				if u, err := url.Parse(id.Str); err == nil {
					if base.Opaque != "" && !u.IsAbs() {
						// A relative $id against an opaque base ("urn:x")
						// resolves to the base itself, as validators see it.
						u = base
					}
					base = base.ResolveReference(u)
					baseSpec, _, _ = strings.Cut(base.String(), "#")
				}
				ids = append(ids, idAt{len(out), baseSpec})
			}
		}
		out = append(out, it.position)
		if v.Kind != Object {
			continue
		}
		parent := len(out) - 1
		for i := len(v.Members) - 1; i >= 0; i-- {
			m := &v.Members[i]
			kw := LookupKeyword(m.Name, c.draft)
			if kw == nil || kw.Shape == ShapeValue {
				continue
			}
			push := func(v *Value, sub subToken, index int) {
				stack = append(stack, item{position{v: v, key: m, parent: parent, sub: sub, index: index}, base, baseSpec})
			}
			val := m.Value
			switch shape := kw.Shape; {
			case shape == ShapeSchema, shape == ShapeItems && val.Kind != Array:
				push(val, subNone, 0)
			case shape == ShapeSchemaMap, shape == ShapeDependency:
				for j := len(val.Members) - 1; j >= 0; j-- {
					if shape == ShapeDependency && val.Members[j].Value.Kind == Array {
						continue
					}
					push(val.Members[j].Value, subName, j)
				}
			case shape == ShapeSchemaList, shape == ShapeItems:
				for j := len(val.Items) - 1; j >= 0; j-- {
					push(val.Items[j], subIndex, j)
				}
			}
		}
	}
	return positions{at: out, ids: ids, spell: &c.spell}
}

// checkDuplicateIDs refuses two subschemas with the same base URI, which
// validators refuse too.
func (c *checker) checkDuplicateIDs(ps *positions) {
	if len(ps.ids) < 2 {
		return
	}
	seen := map[string]int{} // resolved URI -> position of its first schema
	for _, id := range ps.ids {
		if first, dup := seen[id.base]; dup {
			idv := ps.at[id.at].v.Get(c.idKeyword())
			c.errorAt(CodeBadKeywordValue, join(ps.pointer(id.at), c.idKeyword()), idv.Offset, "%q is also the $id of %q; each $id must be unique in a document", idv.Str, pointerOrRoot(ps.pointer(first)))
		} else {
			seen[id.base] = id.at
		}
	}
}

// metaPass checks the keyword values of the schemas the walk did not reach
// (unused definitions, annotation and refused subschemas): validators check
// the whole document against the draft's meta-schema, so a bad value there
// makes them refuse the schema. Only S203 and S204 are reported for them.
// The schemas it builds go into the memo too: nothing reads it afterwards.
func (c *checker) metaPass(ps *positions) {
	c.metaOnly = true
	for i := range ps.at {
		if c.tooMany {
			break
		}
		p := &ps.at[i]
		ctx := buildContext{root: i == 0, boolOK: p.boolOK()}
		if c.builtAt(p.v) == nil {
			c.build(ps.pointer(i), p.v, ctx)
		} else if c.draft <= Draft7 && p.v.Kind == Object && p.v.Get("$ref") != nil {
			// The walk ignored the siblings of this $ref; validators still
			// check their values against the meta-schema.
			c.buildObject(c.newSchema(ps.pointer(i), p.v), p.v, ctx)
		}
	}
	c.metaOnly = false
	c.pending = nil
}

// metaRefused checks the value of a refused keyword, in the meta pass only.
func (c *checker) metaRefused(kp string, m *Member, kw *Keyword) {
	val := m.Value
	bad := func(format string, args ...any) {
		c.errorAt(CodeBadKeywordValue, kp, val.Offset, "%s: "+format, append([]any{m.Name}, args...)...)
	}
	// syntax.Parse reports what regexp.Compile would (its compile step
	// cannot fail) without building a program that is thrown away.
	switch m.Name {
	case "pattern", "$dynamicRef", "$recursiveRef":
		if val.Kind != String {
			bad("must be a string")
		} else if m.Name == "pattern" {
			if _, err := syntax.Parse(val.Str, syntax.Perl); err != nil {
				bad("is not a valid regular expression: %v", err)
			}
		}
	case "uniqueItems":
		if val.Kind != Bool {
			bad("must be true or false")
		}
	case "multipleOf":
		if r, ok := val.Rat(); !ok || r.Sign() <= 0 {
			bad("must be a number greater than 0")
		}
	case "minProperties", "maxProperties", "minContains", "maxContains":
		if _, ok := count(val); !ok {
			bad("must be a non-negative integer")
		}
	case "oneOf", "allOf":
		if val.Kind != Array || len(val.Items) == 0 {
			bad("must be a non-empty array of schemas")
		}
	case "patternProperties":
		if val.Kind != Object {
			bad("must be an object")
			return
		}
		for _, pm := range val.Members {
			if _, err := syntax.Parse(pm.Name, syntax.Perl); err != nil {
				c.errorAt(CodeBadKeywordValue, join(kp, pm.Name), pm.NameOffset, "patternProperties: %q is not a valid regular expression: %v", pm.Name, err)
			}
		}
	case "dependentSchemas", "dependencies", "dependentRequired":
		if val.Kind != Object {
			bad("must be an object")
			return
		}
		for _, pm := range val.Members {
			if m.Name == "dependentSchemas" || pm.Value.Kind != Array {
				if m.Name == "dependentRequired" {
					c.errorAt(CodeBadKeywordValue, join(kp, pm.Name), pm.Value.Offset, "%s: each value must be an array of member names", m.Name)
				}
				continue
			}
			seen := map[string]bool{}
			for _, item := range pm.Value.Items {
				if item.Kind != String || seen[item.Str] {
					c.errorAt(CodeBadKeywordValue, join(kp, pm.Name), item.Offset, "%s: each value must be an array of unique member names", m.Name)
					break
				}
				seen[item.Str] = true
			}
		}
	}
}

// member looks a member up, through an index for large objects, so that
// many $refs into one big $defs stay linear.
func (c *checker) member(v *Value, name string) *Value {
	if len(v.Members) <= 32 {
		return v.Get(name)
	}
	idx := c.index[v]
	if idx == nil {
		if c.index == nil {
			c.index = map[*Value]map[string]*Value{}
		}
		idx = make(map[string]*Value, len(v.Members))
		for _, m := range v.Members {
			idx[m.Name] = m.Value
		}
		c.index[v] = idx
	}
	return idx[name]
}

// The names $anchor and $dynamicAnchor may take, per the meta-schemas.
var (
	anchor2019 = regexp.MustCompile(`^[A-Za-z][-A-Za-z0-9.:_]*$`)
	anchor2020 = regexp.MustCompile(`^[A-Za-z_][-A-Za-z0-9._]*$`)
)

// uriReference reports whether s is a URI reference as validators judge
// the meta-schema's "uri-reference" format.
func uriReference(s string) bool {
	if strings.Contains(s, `\`) {
		return false
	}
	if strings.HasPrefix(s, "#") && !strings.Contains(s, "%") {
		// A bare fragment fails url.Parse only by a bad percent-escape:
		// the usual "#/$defs/name" is judged without parsing.
		return true
	}
	_, err := url.Parse(s)
	return err == nil
}

// writeDecimalKey writes a JSON number's exact value as sign, significant
// digits and exponent ("-12e3" for -12000, "" digits for zero), one spelling
// per value: 1, 1.0, 10e-1 and 0.1e1 all give "1e0".
func writeDecimalKey(b *strings.Builder, num string) {
	neg := strings.HasPrefix(num, "-")
	mant, exp := strings.TrimPrefix(num, "-"), 0
	if i := strings.IndexAny(mant, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(mant[i+1:], "+"))
		if err != nil { // beyond int: the reader's limits refuse it; key by text
			b.WriteString(num)
			return
		}
		mant, exp = mant[:i], e
	}
	digits := mant
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		digits = mant[:i] + mant[i+1:]
		exp -= len(mant) - i - 1
	}
	digits = strings.TrimLeft(digits, "0")
	trimmed := strings.TrimRight(digits, "0")
	exp += len(digits) - len(trimmed)
	if trimmed == "" {
		b.WriteString("0")
		return
	}
	if neg {
		b.WriteByte('-')
	}
	b.WriteString(trimmed)
	b.WriteByte('e')
	b.WriteString(strconv.Itoa(exp))
}

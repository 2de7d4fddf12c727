// Check and the walk: each subschema reached from the root is built once,
// its keywords handed to their handlers (keywords_*.go) through the keyword
// table; then $refs are resolved (ref.go), cycles found (cycles.go) and the
// rest of the document checked as a meta-schema would (meta.go).

package subsetcheck

import (
	"fmt"
	"math"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Check holds a schema document to a profile and builds the Schema graph the
// compiler reads. Every problem is reported at once: the error is an
// ErrorList, sorted by position. Every subschema reachable from the root is
// checked: through any keyword that holds schemas, refused ones included
// (so that the problems inside a refused oneOf are listed beside its S201),
// and through $ref, from wherever it stands. A definition nothing reaches
// constrains nothing: only its keyword values are checked (the meta pass).
// Under the lenient profile, what the exact profile refuses is relaxed
// instead, each relaxation a warning (lenient.go).
func Check(doc *Document, opts Options) (*Checked, error) {
	if doc == nil || doc.Root == nil {
		return nil, ErrorList{{Code: CodeNotASchema, Message: "no schema was read"}}
	}
	switch opts.Profile {
	case "":
		opts.Profile = Exact
	case Exact, Portable:
	case Lenient:
		return checkLenient(doc, opts)
	default:
		return nil, ErrorList{{Code: CodeBadKeywordValue, File: doc.Name, Message: fmt.Sprintf("unknown profile %q; use %q, %q or %q", opts.Profile, Exact, Lenient, Portable)}}
	}
	c := newChecker(doc, opts)
	root := c.walk()
	if len(c.errs) > 0 {
		return nil, c.errs.Err()
	}
	return c.checked(root, opts), nil
}

// newChecker is the state of one walk of doc.
func newChecker(doc *Document, opts Options) *checker {
	c := &checker{
		doc:          doc,
		main:         doc,
		docs:         opts.Documents,
		profile:      opts.Profile,
		assertFormat: opts.AssertFormat,
		draft:        opts.DefaultDraft,
		lim:          opts.Limits.withDefaults(),
	}
	if c.draft == 0 {
		c.draft = Draft2020
	}
	c.baseURI, c.baseURL = DefaultBaseURI, defaultBaseURL
	if opts.BaseURI != "" {
		if u, err := url.Parse(opts.BaseURI); err == nil && u.IsAbs() {
			c.baseURI, _, _ = strings.Cut(opts.BaseURI, "#")
			c.baseURL = u
		}
	}
	c.rootBase = c.baseURI
	for uri := range c.docs {
		c.docOrder = append(c.docOrder, uri)
	}
	slices.Sort(c.docOrder)
	return c
}

// walk builds the Schema graph from the root, resolves the $refs, finds
// the cycles and checks the rest as a meta-schema would; the problems are
// in c.errs.
func (c *checker) walk() *Schema {
	c.readRootDialect()
	if c.profile == Portable {
		c.portableDraft()
	}
	positions := c.schemaPositions()
	// Each subschema built stands at a position, and so does each
	// property and each schema of a list: their number bounds all three.
	if c.doc.values > 0 {
		c.built = make([]*Schema, c.doc.values+1)
		c.requiredLeft = c.doc.values
	}
	c.schemasLeft, c.propertiesLeft, c.listsLeft = len(positions.at), len(positions.at), len(positions.at)
	c.spell.size = len(positions.at) * spellPerPosition / 2 // the first chunk: twice that
	c.checkDuplicateIDs(&positions)
	root := c.build("", c.doc.Root, buildContext{root: true, base: c.rootBase})
	c.resolveRefs()
	c.findRefCycles()
	c.metaPass(&positions)
	return root
}

// checked is the outcome of a walk without errors.
func (c *checker) checked(root *Schema, opts Options) *Checked {
	if opts.ClosedObjects {
		c.closeObjects()
	}
	c.warns.Sort()
	return &Checked{Root: root, Draft: c.draft, Profile: c.profile, AssertFormat: c.assertFormat, ClosedObjects: opts.ClosedObjects, Limits: c.lim, Doc: c.main, Warnings: c.warns,
		BaseURI: c.baseURI, Documents: c.docs}
}

// checker is the state of one Check.
type checker struct {
	doc          *Document            // the document being built: the root's, or one a $ref reached
	main         *Document            // the root's
	docs         map[string]*Document // Options.Documents
	docOrder     []string             // their URIs, sorted
	baseURL      *url.URL             // the root document's retrieval URI (Options.BaseURI)
	baseURI      string               // spelled, without fragment
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
	nBuilt      int                 // schemas in built and schemas, against Limits.MaxSubschemas
	pending     []pendingRef        // $refs to resolve once the walk is done
	rootBase    string              // the root's base URI: its $id resolved against baseURL, without fragment
	rootDialect bool                // the root names its dialect ($schema): else the draft is the default
	resolved    map[refKey]*Schema  // $refs already resolved (nil target: refused)
	resources   map[string]resource // schema resources by URI (resources.go), made on first use
	anchors     map[string]resource // anchors by URI#name
	// positionsTaken is set once firstPositions holds a walk's positions.
	positionsTaken bool
	patterns       map[string]patternResult     // each pattern text compiled once (pattern.go)
	index          map[*Value]map[string]*Value // member lookup for large objects on $ref paths
	tooMany        bool                         // Limits.MaxSubschemas was reached
	metaOnly       bool                         // the meta pass: report only bad keyword values
	schemaBlock    []Schema                     // Schemas not yet handed out by newSchema
	schemasLeft    int                          // positions not yet covered by a block
	// Schema.Properties, AnyOf and PrefixItems are cut from blocks too.
	propertyBlock  []Property
	propertiesLeft int
	listBlock      []*Schema
	listsLeft      int
	requiredBlock  []string // Schema.Required, bounded by the document's values
	requiredLeft   int
	problemBlock   []Problem // Problems not yet handed out by newProblem
	spell          spellArena
	// The keyword being checked, handed to its handler (see buildObject).
	at keywordAt
	// lenient is the lenient profile's relaxations (lenient.go); nil in
	// the other profiles.
	lenient *leniency
	// The first schema positions. A checker lives on the heap, as its
	// handlers are called through the keyword table; the positions walk
	// starts in it rather than in an allocation of its own.
	firstPositions [16]position
}

// buildContext says where a subschema sits.
type buildContext struct {
	root      bool   // the document's root
	boolOK    bool   // a boolean is a schema here even in draft-04 (additionalProperties, additionalItems)
	base      string // the base URI in force ($id), without fragment: $refs here resolve against it
	ownBase   bool   // base has the schema's own $id applied already (a $ref to a resource or an anchor)
	portableX bool   // portable: exempt from the "type required" rules (additionalProperties: true/false)
}

// errorAt reports a problem that makes Check fail; the meta pass keeps only
// bad keyword values (S203) and non-schemas (S204).
func (c *checker) errorAt(code Code, ptr string, offset int, format string, args ...any) {
	if c.metaOnly && code != CodeBadKeywordValue && code != CodeNotASchema {
		return
	}
	if c.lenient != nil && c.relaxedRefusal(code, ptr, fmt.Sprintf(format, args...)) {
		return
	}
	p := c.newProblem()
	c.doc.place(p, code, ptr, offset, fmt.Sprintf(format, args...))
	c.errs = append(c.errs, p)
}

// warnAt reports a warning, except in the meta pass.
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
	if !ctx.root && !ctx.ownBase && c.changesBase(v) {
		ctx.base = baseAt(ctx.base, v.Get(c.idKeyword()).Str)
	}
	switch v.Kind {
	case Bool:
		if c.draft == Draft4 && !ctx.boolOK {
			c.errorAt(CodeNotASchema, ptr, v.Offset, "draft-04 has no boolean schemas; write {} for true or {\"not\": {}} for false, or use a later draft")
			return s
		}
		s.False = !v.Bool
		if c.profile == Portable && !ctx.portableX {
			c.portableBoolean(ptr, v)
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
		// Ids are a document's: with other documents handed in, the slot
		// may hold another document's value of that id.
		if s := c.built[id]; c.docs == nil || s != nil && s.Node == v {
			return s
		}
	}
	return c.schemas[v]
}

// remember records the Schema built for v.
func (c *checker) remember(v *Value, s *Schema) {
	c.nBuilt++
	if id := int(v.id); id != 0 && id < len(c.built) && c.doc == c.main {
		c.built[id] = s
		return
	}
	if c.schemas == nil {
		c.schemas = map[*Value]*Schema{}
	}
	c.schemas[v] = s
}

// buildObject fills s from the keywords of an object schema: each member is
// looked up in the keyword table (Keywords) and checked by its row's
// handler; finishObject then settles what several keywords decide together.
func (c *checker) buildObject(s *Schema, v *Value, ctx buildContext) {
	if c.draft <= Draft7 && !c.metaOnly && v.Get("$ref") != nil {
		c.buildRefOnly(s, v, ctx)
		return
	}
	// The handlers are handed the checker's own keywordAt, so that nothing
	// escapes to the heap through the table's funcs. A handler that builds
	// a subschema comes back here: the outer object's keywordAt is kept on
	// the stack meanwhile and put back at the end.
	outer := c.at
	c.at = keywordAt{s: s, obj: v, ctx: ctx}
	k := &c.at
	for i := range v.Members {
		k.m, k.ptr = &v.Members[i], ""
		kw := LookupKeyword(k.m.Name, c.draft)
		if kw == nil {
			c.unknownKeyword(k)
			continue
		}
		if c.lenient != nil && !c.metaOnly && c.relaxedKeyword(k, kw) {
			continue
		}
		if kw.Use(c.profile) == Refused && !c.metaOnly {
			c.refuse(k, kw)
			if c.lenient != nil {
				c.scratch(k, kw) // relaxed by the next walk
				continue
			}
		}
		// A refused keyword is handled all the same: its value is
		// checked and its subschemas built, so that one run reports
		// every problem, those inside it too. What it records is never
		// compiled, as the check fails.
		if kw.check != nil {
			kw.check(c, k)
		}
	}
	c.finishObject(k)
	c.at = outer
}

// finishObject settles what an object's keywords decide together, once all
// are read: additionalItems after an items array, a format beside the type,
// the numeric bounds; then the portable profile's rules.
func (c *checker) finishObject(k *keywordAt) {
	finishRelaxed(k)
	finishAdditionalItems(c, k)
	finishFormat(c, k)
	finishBounds(k)
	finishContains(k)
	finishConditional(c, k)
	if c.profile == Portable {
		c.portableRules(k.s, k.obj, k.ctx)
	}
}

// checkFunc is a keyword's handler, one per row of the keyword table: it
// checks the value of keyword k.m of the object schema being built (k.s,
// whose JSON is k.obj), reports what is wrong (c.bad for a value of the
// wrong type or range), builds the subschemas it holds (c.build, with
// c.pointerOf(k) as their parent's pointer) and records in k.s what it
// enforces. A refused keyword's handler runs too, after S201, so that the
// problems inside the keyword are reported in the same run.
type checkFunc func(c *checker, k *keywordAt)

// keywordAt is a keyword met in an object schema, with the schema being
// built and what the object's keywords leave for finishObject.
type keywordAt struct {
	m   *Member // the keyword
	ptr string  // m's JSON Pointer once spelled (pointerOf)
	s   *Schema // the schema being built
	obj *Value  // its JSON object
	ctx buildContext

	// Left for finishObject.
	minimum, maximum  *big.Rat
	exclMin, exclMax  *Value
	itemsArray        bool    // items is an array of schemas: additionalItems applies
	additionalItems   *Member // the additionalItems keyword, if any
	unassertable      *Member // a format that cannot be asserted: refused unless the type admits no string
	ifm, thenm, elsem *Member // if, then, else: built together (finishConditional)
	minContains       *int    // minContains and maxContains, settled by finishContains beside contains
	maxContains       *int
	relaxedAnyOf      [][]*Schema // lenient: the anyOfs relaxed keywords became (finishRelaxed)
}

// pointerOf returns the JSON Pointer of keyword k, spelled on first use:
// most keywords are valid and hold no schema, and need none (a string per
// keyword was a twentieth of all compile allocations).
func (c *checker) pointerOf(k *keywordAt) string {
	if k.ptr == "" {
		k.ptr = c.spell.join(k.s.Pointer, k.m.Name)
	}
	return k.ptr
}

// bad reports that keyword k's value has the wrong type or range (S203):
// the message is the keyword's name, then what format says.
func (c *checker) bad(k *keywordAt, format string, args ...any) {
	c.errorAt(CodeBadKeywordValue, c.pointerOf(k), k.m.Value.Offset, "%s: "+format, append([]any{k.m.Name}, args...)...)
}

// countOf reads keyword k's value as a count (see count), reporting a value
// that is not one.
func (c *checker) countOf(k *keywordAt) (int, bool) {
	n, ok := count(k.m.Value)
	if !ok {
		c.bad(k, "must be a non-negative integer")
	}
	return n, ok
}

// child is the context of a subschema below one in ctx.
func (ctx buildContext) child() buildContext {
	return buildContext{base: ctx.base}
}

// schemaList builds the schemas of keyword k, an array of schemas.
func (c *checker) schemaList(k *keywordAt) []*Schema {
	val := k.m.Value
	if val.Kind != Array {
		c.bad(k, "must be an array of schemas")
		return nil
	}
	if len(val.Items) == 0 {
		return []*Schema{}
	}
	ptrs := c.spell.spellPointers(c.pointerOf(k), "", len(val.Items), strconv.Itoa)
	list := take(&c.listBlock, &c.listsLeft, len(val.Items), maxSliceBlock)
	ctx := k.ctx.child()
	for j, item := range val.Items {
		list[j] = c.build(ptrs.next(len(strconv.Itoa(j))), item, ctx)
	}
	return list
}

// count reads a non-negative integer keyword value; 1.0 counts as 1, as
// validators judge. Every count keyword (minLength, maxLength, minItems,
// maxItems, minProperties, maxProperties, minContains, maxContains) takes
// any non-negative integer, as JSON Schema says; one past int (2^63-1) is
// read as math.MaxInt, which means the same: no text holds that many
// characters, items or members. (Some validators wrap such a count
// instead: internal/oracle's TestCountQuirks.)
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

// subschema builds the value of keyword k as one subschema.
func (c *checker) subschema(k *keywordAt) *Schema {
	return c.build(c.pointerOf(k), k.m.Value, k.ctx.child())
}

// schemaMap builds the member values of keyword k, an object whose members
// are schemas (patternProperties, dependentSchemas) or, where isSchema says
// no, something else (the arrays of names in dependencies), which is left
// out.
func (c *checker) schemaMap(k *keywordAt, isSchema func(*Value) bool) []Property {
	val := k.m.Value
	if val.Kind != Object || len(val.Members) == 0 {
		return nil
	}
	name := func(j int) string { return escapePointerToken(val.Members[j].Name) }
	ptrs := c.spell.spellPointers(k.s.Pointer, k.m.Name, len(val.Members), name)
	out := take(&c.propertyBlock, &c.propertiesLeft, len(val.Members), maxSliceBlock)[:0]
	ctx := k.ctx.child()
	for j := range val.Members {
		pm := &val.Members[j]
		ptr := ptrs.next(len(name(j)))
		if isSchema == nil || isSchema(pm.Value) {
			out = append(out, Property{Name: pm.Name, Schema: c.build(ptr, pm.Value, ctx)})
		}
	}
	return out
}

// otherDefs is the other draft's name for $defs.
func otherDefs(name string) string {
	if name == "$defs" {
		return "definitions"
	}
	return "$defs"
}

// unknownKeyword warns about a member that constrains nothing in this draft.
func (c *checker) unknownKeyword(k *keywordAt) {
	if c.metaOnly {
		return // no warnings in the meta pass
	}
	m := k.m
	if kw := findKeyword(m.Name); kw != nil && (m.Name == "$defs" || m.Name == "definitions") {
		// A $ref may point into it all the same: a JSON Pointer reaches
		// any member, keyword or not.
		c.warnAt(CodeIgnoredKeyword, c.pointerOf(k), m.NameOffset, "%s is a keyword of %s, not of %s; validators do not read it as a keyword here, but a $ref still reaches the schemas in it by JSON Pointer; rename it %s, or set $schema to a draft that has it, to say what you mean", m.Name, draftNames[kw.Drafts], c.draft, otherDefs(m.Name))
		return
	} else if kw != nil {
		c.warnAt(CodeIgnoredKeyword, c.pointerOf(k), m.NameOffset, "%s is a keyword of %s, not of %s, so validators ignore it here; remove it or set $schema to a draft that has it", m.Name, draftNames[kw.Drafts], c.draft)
		return
	}
	const notKeyword = " is not a JSON Schema keyword and constrains nothing; it is kept as an annotation"
	if quotesAsIs(m.Name) {
		// The usual x-... extension: the message in one concatenation
		// rather than through fmt, which boxed the name too.
		c.warnText(CodeIgnoredKeyword, c.pointerOf(k), m.NameOffset, `"`+m.Name+`"`+notKeyword)
		return
	}
	c.warnAt(CodeIgnoredKeyword, c.pointerOf(k), m.NameOffset, "%q"+notKeyword, m.Name)
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

// refuse reports a keyword the profile refuses (S201), with the table's
// note on what to write instead.
func (c *checker) refuse(k *keywordAt, kw *Keyword) {
	if kw.Exact != Refused {
		c.errorAt(CodeRefusedKeyword, c.pointerOf(k), k.m.NameOffset, "%s is %s", k.m.Name, notPortable)
		return
	}
	c.errorAt(CodeRefusedKeyword, c.pointerOf(k), k.m.NameOffset, "%s is not supported: %s", k.m.Name, kw.Note)
}

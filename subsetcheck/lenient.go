// The lenient profile: what the exact profile refuses is relaxed instead of
// refused, so that every schema the reader can read is checked, and the
// grammar accepts a superset of the valid texts.
//
// A relaxation only ever drops a conjunct: a keyword is dropped, oneOf is
// read as anyOf, if/then/else as anyOf of then and else. Dropping widens the
// schema only where the keyword stands in a positive position: inside not,
// inside an if, inside a oneOf branch (the other branches must fail) or
// inside contains counted from above (maxContains), a wider subschema makes
// the whole narrower. So a relaxation at a place some path from the root
// reaches through such a keyword relaxes that keyword as a whole too (not
// dropped, oneOf as anyOf, if/then/else as anyOf, maxContains dropped),
// which leaves only monotone keywords between the root and every relaxed
// constraint. Dropping a keyword that another keyword's meaning depends on
// (additionalProperties reads properties and patternProperties, items after
// prefixItems, ...) drops that one too.
//
// The walk is run again until the relaxations are settled: each walk
// applies the relaxations decided so far, meets what the profile refuses
// (S201, S206, S210, S211: any S-code but the schema's own errors, and a
// pattern's size limit L506; relaxedRefusal) as wishes to relax the keyword
// refused, and then reads the live schema graph for polarity. A schema the
// exact profile admits meets no wish and is checked in one walk, into the
// very Schema graph the exact profile builds.

package subsetcheck

import (
	"fmt"
	"slices"
	"strings"
)

// relaxKind is how a keyword is relaxed.
type relaxKind uint8

const (
	relaxDrop      relaxKind = iota + 1 // the keyword constrains nothing
	relaxAsAnyOf                        // oneOf: at least one branch, not exactly one
	relaxCondition                      // if/then/else: anyOf of then and else, nothing when one is missing
)

// relaxation is one relaxation decided: a keyword (m) of the schema at, or
// the whole schema when m is nil.
type relaxation struct {
	at      *Value
	doc     *Document // the document at stands in
	m       *Member
	kind    relaxKind
	code    Code
	pointer string
	message string
}

// leniency is the lenient profile's state across the walks of one Check.
type leniency struct {
	decided map[*Member]*relaxation // keywords relaxed
	whole   map[*Value]*relaxation  // schemas none of whose constraints is enforced
	order   []*relaxation           // every decision, in the order made
	wishes  []relaxation            // what the current walk met that the profile refuses
	extern  []relaxation            // Options.Relax, found in the document
}

func (l *leniency) settled() int { return len(l.order) }

// checkLenient is Check under the lenient profile.
func checkLenient(doc *Document, opts Options) (*Checked, error) {
	l := &leniency{decided: map[*Member]*relaxation{}, whole: map[*Value]*relaxation{}}
	l.extern = externalWishes(doc, opts)
	for {
		c := newChecker(doc, opts)
		c.lenient = l
		l.wishes = append(l.wishes[:0], l.extern...)
		root := c.walk()
		if len(c.errs) > 0 {
			return nil, c.errs.Err()
		}
		if len(l.wishes) == 0 && len(l.order) == 0 {
			return c.checked(root, opts), nil // nothing refused: the exact profile's graph
		}
		g := c.liveGraph()
		if !l.decide(c, g) {
			out := c.checked(root, opts)
			out.Relaxed = c.relaxedWarnings(g)
			out.Warnings = append(out.Warnings, out.Relaxed...)
			out.Warnings.Sort()
			return out, nil
		}
	}
}

// externalWishes finds the places of Options.Relax in the document; a
// pointer that names no schema, or a keyword it lacks, is left out.
func externalWishes(doc *Document, opts Options) []relaxation {
	var out []relaxation
	for _, r := range opts.Relax {
		doc := doc
		if r.File != "" && r.File != doc.Name {
			doc = nil
			for _, d := range opts.Documents {
				if d.Name == r.File {
					doc = d
				}
			}
			if doc == nil {
				continue
			}
		}
		v := doc.At(r.Pointer)
		if v == nil || v.Kind != Object {
			continue
		}
		why := fmt.Sprintf("%s [%s]", r.Reason, r.Code)
		if r.Keyword == "" {
			out = append(out, relaxation{at: v, doc: doc, kind: relaxDrop, code: CodeRelaxedCompile, pointer: r.Pointer,
				message: "no keyword of this schema is enforced, as the compiler cannot build it exactly and dropping no single keyword made it build: " + why})
			continue
		}
		m := memberNamed(v, r.Keyword)
		if m == nil {
			continue
		}
		w := keywordWish(v, m, join(r.Pointer, r.Keyword), "the compiler cannot build it exactly: "+why)
		w.doc = doc
		if w.code == CodeRelaxedKeyword {
			w.code = CodeRelaxedCompile
		}
		out = append(out, w)
	}
	return out
}

// keywordWish is the relaxation of keyword m of the schema at, for the
// reason given, by what the keyword is.
func keywordWish(at *Value, m *Member, ptr, why string) relaxation {
	w := relaxation{at: at, m: m, kind: relaxDrop, code: CodeRelaxedKeyword, pointer: ptr}
	switch m.Name {
	case "oneOf":
		w.kind, w.code = relaxAsAnyOf, CodeRelaxedOneOf
		w.message = "oneOf is enforced as anyOf: a value that matches more than one branch is accepted; " + why
	case "if":
		w.kind, w.code = relaxCondition, CodeRelaxedNegation
		w.message = conditionWhat(at) + "; " + why
	case "not":
		w.code = CodeRelaxedNegation
		w.message = "not is not enforced: values its subschema accepts are accepted; " + why
	default:
		w.message = m.Name + " is not enforced: values that break it are accepted; " + why
	}
	return w
}

// conditionWhat says what a relaxed if/then/else still enforces.
func conditionWhat(at *Value) string {
	if at.Get("then") != nil && at.Get("else") != nil {
		return "if/then/else is enforced as anyOf of then and else: a value that matches then or else is accepted, whatever if says"
	}
	return "if/then/else is not enforced"
}

// schemaErrors are the checker's codes that say the schema itself is wrong,
// which no relaxation mends; every other S-code is a refusal of the exact
// profile, relaxed under the lenient one (S201, S206, S210, S211, and a
// code a keyword's handler adds later for what it cannot enforce).
var schemaErrors = map[Code]bool{CodeBadKeywordValue: true, CodeNotASchema: true, CodeUnresolvedRef: true,
	CodeRefCycle: true, CodeUnknownDraft: true, CodePortableRule: true, CodeRefPath: true}

// relaxedRefusal turns a refusal the checker reports at ptr into a wish to
// relax the keyword it stands in, and says whether it did. A problem inside
// a keyword's value (a name of patternProperties that is no regular
// language) relaxes the whole keyword: dropping one name alone would hand
// its members to additionalProperties, which may narrow. A pattern's size
// limit (L506) is relaxed too, as the compiler's limits at one place are:
// the warning quotes the message, which names the limit to raise instead.
func (c *checker) relaxedRefusal(code Code, ptr, message string) bool {
	relaxable := strings.HasPrefix(string(code), "S") && !schemaErrors[code] || code == CodePatternTooLarge
	if c.metaOnly || !relaxable {
		return false
	}
	v, name, ptr, ok := c.keywordOf(ptr)
	if !ok {
		return false
	}
	m := memberNamed(v, name)
	if m == nil {
		return false
	}
	why := message + " [" + string(code) + "]"
	w := keywordWish(v, m, ptr, "the exact profile refuses it: "+why)
	if code == CodeRemoteRef {
		w = relaxation{at: v, m: m, kind: relaxDrop, code: CodeRelaxedRef, pointer: ptr,
			message: "this $ref is not followed, and the schema it names is not enforced: " + why}
	}
	w.doc = c.doc
	c.lenient.wishes = append(c.lenient.wishes, w)
	return true
}

// keywordOf finds the keyword a problem at ptr stands in: the member of the
// innermost schema object on ptr's path, with its pointer.
func (c *checker) keywordOf(ptr string) (schema *Value, name, kwPtr string, ok bool) {
	for {
		i := strings.LastIndexByte(ptr, '/')
		if i < 0 {
			return nil, "", "", false
		}
		if v := c.doc.At(ptr[:i]); v != nil && v.Kind == Object && c.builtAt(v) != nil {
			name, ok := unescapeToken(ptr[i+1:])
			return v, name, ptr, ok
		}
		ptr = ptr[:i]
	}
}

// relaxedKeyword applies the relaxation decided for keyword k, if any, and
// reports whether it did (then the keyword's own handler is not run). A
// dropped keyword's value is still checked and its subschemas built, on a
// scratch schema: a validator reads them all the same.
func (c *checker) relaxedKeyword(k *keywordAt, kw *Keyword) bool {
	l := c.lenient
	if l.whole[k.obj] != nil && kw.Constrains(c.assertFormat) {
		c.scratch(k, kw)
		return true
	}
	r := l.decided[k.m]
	if r == nil {
		if (k.m.Name == "then" || k.m.Name == "else") && l.conditionAt(k.obj) != nil {
			c.scratch(k, kw) // built by the relaxed if, or dropped with it
			return true
		}
		return false
	}
	switch r.kind {
	case relaxAsAnyOf:
		if nonEmptyList(c, k) {
			k.relaxedAnyOf = append(k.relaxedAnyOf, c.schemaList(k))
		}
	case relaxCondition:
		c.scratch(k, kw)
		then, els := memberNamed(k.obj, "then"), memberNamed(k.obj, "else")
		if then != nil && els != nil {
			ctx := k.ctx.child()
			t := c.build(c.spell.join(k.s.Pointer, "then"), then.Value, ctx)
			e := c.build(c.spell.join(k.s.Pointer, "else"), els.Value, ctx)
			k.relaxedAnyOf = append(k.relaxedAnyOf, []*Schema{t, e})
		}
	default:
		c.scratch(k, kw)
	}
	return true
}

// dropsRef reports whether the $ref m of the schema v is not followed.
func (c *checker) dropsRef(v *Value, m *Member) bool {
	l := c.lenient
	return l != nil && !c.metaOnly && (l.whole[v] != nil || l.decided[m] != nil)
}

// conditionAt is the relaxation of the if of schema v, when it is read as
// anyOf of then and else.
func (l *leniency) conditionAt(v *Value) *relaxation {
	if m := memberNamed(v, "if"); m != nil {
		if r := l.decided[m]; r != nil && r.kind == relaxCondition {
			return r
		}
	}
	return nil
}

// scratch runs keyword k's handler on a schema thrown away: its value is
// checked and its subschemas built, and nothing it enforces is kept (nor
// any $ref it would resolve).
func (c *checker) scratch(k *keywordAt, kw *Keyword) {
	if kw.check == nil {
		return
	}
	tmp := *k
	tmp.s = &Schema{Pointer: k.s.Pointer, Node: k.s.Node, Types: AllTypes, MaxItems: -1, MaxLength: -1}
	pending := len(c.pending)
	kw.check(c, &tmp)
	c.pending = c.pending[:pending]
}

// finishRelaxed adds the anyOfs that relaxed keywords became to the
// schema's own: anyOf(A) and anyOf(B) as the one branch
// {"anyOf": A, "$ref": {"anyOf": B}}.
func finishRelaxed(k *keywordAt) {
	for _, list := range k.relaxedAnyOf {
		if k.s.AnyOf == nil {
			k.s.AnyOf = list
			continue
		}
		inner := &Schema{Pointer: k.s.Pointer, Node: k.s.Node, Types: AllTypes, MaxItems: -1, MaxLength: -1, AnyOf: list}
		outer := &Schema{Pointer: k.s.Pointer, Node: k.s.Node, Types: AllTypes, MaxItems: -1, MaxLength: -1, AnyOf: k.s.AnyOf, Ref: inner}
		k.s.AnyOf = []*Schema{outer}
	}
}

// relaxedWarnings are the warnings of the relaxations in force: the
// decided ones at the schemas a value is still held to.
func (c *checker) relaxedWarnings(g *liveGraph) ErrorList {
	l := c.lenient
	var out ErrorList
	for _, r := range l.order {
		if g.reach[r.at] == 0 || l.whole[r.at] != nil && r.m != nil {
			continue // nothing reaches it, or its whole schema is relaxed
		}
		if r.m != nil && (r.m.Name == "then" || r.m.Name == "else") && l.conditionAt(r.at) != nil {
			continue // said by the if's relaxation
		}
		offset := r.at.Offset
		if r.m != nil {
			offset = r.m.NameOffset
		}
		doc := r.doc
		if doc == nil {
			doc = c.main
		}
		out = append(out, doc.problem(r.code, r.pointer, offset, "%s", r.message))
	}
	out.Sort()
	return out
}

// memberNamed returns the member called name of object v, or nil.
func memberNamed(v *Value, name string) *Member {
	for i := range v.Members {
		if v.Members[i].Name == name {
			return &v.Members[i]
		}
	}
	return nil
}

// siblingPointer is the pointer of keyword name beside the keyword at ptr.
func siblingPointer(ptr, name string) string {
	return join(ptr[:strings.LastIndexByte(ptr, '/')], name)
}

// RelaxedUnder reports whether a relaxation lies strictly under the
// keyword at ptr in the document file.
func RelaxedUnder(relaxed ErrorList, file, ptr string) bool {
	for _, r := range relaxed {
		if r.File == file && strings.HasPrefix(r.Pointer, ptr+"/") {
			return true
		}
	}
	return false
}

// RelaxedAt reports whether the keyword at ptr in the schema document file
// (a pointer such as a validator's keyword location names, without the
// "#") is a relaxed constraint, or inside one: at or under the pointer of
// one of relaxed, or under then or else beside a relaxed if.
func RelaxedAt(relaxed ErrorList, file, ptr string) bool {
	under := func(p, root string) bool {
		return p == root || strings.HasPrefix(p, root+"/") || root == ""
	}
	for _, r := range relaxed {
		if r.File != file {
			continue
		}
		if under(ptr, r.Pointer) {
			return true
		}
		if parent, ok := strings.CutSuffix(r.Pointer, "/if"); ok && r.Code == CodeRelaxedNegation {
			if slices.ContainsFunc([]string{"then", "else"}, func(k string) bool { return under(ptr, parent+"/"+k) }) {
				return true
			}
		}
	}
	return false
}

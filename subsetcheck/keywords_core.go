// The core keywords: $schema, $id and id, $anchor, $ref (and the draft-07
// rule that its siblings are ignored), $dynamicRef and $recursiveRef; and
// the annotations, whose values only have a type to check.

package subsetcheck

import (
	"net/url"
	"regexp"
	"strings"
)

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
			c.rootDialect = true
		} else {
			c.errorAt(CodeUnknownDraft, "/$schema", m.Value.Offset, "unknown dialect %q; use one of http://json-schema.org/draft-04/schema#, draft-06, draft-07, https://json-schema.org/draft/2019-09/schema or https://json-schema.org/draft/2020-12/schema (the check goes on as %s)", m.Value.Str, c.draft)
		}
	}
	idName := "$id"
	if c.draft == Draft4 {
		idName = "id"
	}
	if id := root.Get(idName); id != nil && id.Kind == String && !strings.HasPrefix(id.Str, "#") && !c.refHidesID(root) {
		if b := baseAt(c.baseURI, id.Str); b != "" {
			c.rootBase = b
		}
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
	return id != nil && id.Kind == String && id.Str != "" && !strings.HasPrefix(id.Str, "#") && !c.refHidesID(v)
}

// refHidesID reports whether v's $id is one of the siblings a $ref makes
// validators ignore before 2019-09: it changes no base URI then.
func (c *checker) refHidesID(v *Value) bool {
	return c.draft <= Draft7 && v.Get("$ref") != nil
}

// $schema: the dialect's URI; only the root's selects the draft
// (readRootDialect), and a subschema may not switch.
func checkSchemaURI(c *checker, k *keywordAt) {
	val := k.m.Value
	if val.Kind != String {
		c.bad(k, "must be a string, the dialect's URI")
	} else if !k.ctx.root {
		if d, ok := dialect(val.Str); !ok || d != c.draft {
			if ok && c.lenient != nil && !c.changesBase(k.obj) && !namesResource(k.obj, d) {
				c.warnAt(CodeIgnoredDialect, c.pointerOf(k), val.Offset, "this $schema names %s, but a subschema that is not a resource's root cannot switch dialects; validators ignore it, and it is read as %s like the rest of the document (the exact profile refuses it, S208); if the whole document is written in %s, move this $schema to the root or pass -draft", d, c.draft, d)
			} else if c.rootDialect {
				c.errorAt(CodeUnknownDraft, c.pointerOf(k), val.Offset, "a subschema may not switch dialects (the root is %s); remove this $schema", c.draft)
			} else {
				c.errorAt(CodeUnknownDraft, c.pointerOf(k), val.Offset, "a subschema may not switch dialects, and the root names none, so the document is read as %s (-draft, Options.Draft); if the whole document is written in that dialect, move this $schema to the root or pass -draft; else remove it", c.draft)
			}
		}
	}
}

// namesResource says whether v is a resource's root in draft d: its own
// id there names a base. A subschema whose $schema switches dialects and
// which its dialect makes a resource (draft-04's id) is read in that dialect
// by validators, and stays refused (S208); one that is no resource in either
// has its $schema ignored by them, and by the lenient profile.
func namesResource(v *Value, d Draft) bool {
	name := "$id"
	if d == Draft4 {
		name = "id"
	}
	id := v.Get(name)
	return id != nil && id.Kind == String && id.Str != "" && !strings.HasPrefix(id.Str, "#")
}

// $id, and draft-04's id: a URI reference, without a fragment from 2019-09.
// The portable profile takes it at the root only (portableID).
func checkID(c *checker, k *keywordAt) {
	val := k.m.Value
	if val.Kind != String || !uriReference(val.Str) {
		c.bad(k, "must be a URI reference")
	} else if _, frag, _ := strings.Cut(val.Str, "#"); c.draft >= Draft2019 && frag != "" {
		c.bad(k, "may not have a fragment in %s; use $anchor for a name", c.draft)
	}
	if c.profile == Portable && !k.ctx.root {
		c.portableID(k)
	}
}

// $anchor, $dynamicAnchor: a name, as the draft's meta-schema spells it.
func checkAnchor(c *checker, k *keywordAt) {
	re := anchor2020
	if c.draft == Draft2019 {
		re = anchor2019
	}
	if val := k.m.Value; val.Kind != String || !re.MatchString(val.Str) {
		c.bad(k, "must be a name matching %s", re)
	}
}

// $ref: a URI reference, resolved once the walk is done (resolveRefs).
func checkRef(c *checker, k *keywordAt) {
	val := k.m.Value
	if val.Kind != String || !uriReference(val.Str) {
		c.bad(k, "must be a URI reference (a string)")
		return
	}
	c.pending = append(c.pending, pendingRef{from: k.s, member: k.m, base: k.ctx.base, doc: c.doc})
}

// The handlers of keywords whose value only has a type to check:
// annotations ($comment, title, description, deprecated, examples, ...),
// containers ($defs, definitions) and, in the meta pass, refused keywords
// such as $dynamicRef, uniqueItems or minProperties.

func mustBeString(c *checker, k *keywordAt) {
	if k.m.Value.Kind != String {
		c.bad(k, "must be a string")
	}
}

func mustBeBool(c *checker, k *keywordAt) {
	if k.m.Value.Kind != Bool {
		c.bad(k, "must be true or false")
	}
}

func mustBeArray(c *checker, k *keywordAt) {
	if k.m.Value.Kind != Array {
		c.bad(k, "must be an array")
	}
}

func mustBeObject(c *checker, k *keywordAt) {
	if k.m.Value.Kind != Object {
		c.bad(k, "must be an object")
	}
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
			} else if c.dropsRef(v, m) {
				// lenient: not followed, and its siblings constrain nothing
			} else {
				c.pending = append(c.pending, pendingRef{from: s, member: m, base: ctx.base, doc: c.doc})
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

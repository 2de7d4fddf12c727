// $ref resolution: the local $refs met during the walk are followed once it
// is done, JSON Pointer token by token, through the keywords that hold
// schemas.

package subsetcheck

import (
	"net/url"
	"strconv"
	"strings"
)

// pendingRef is a $ref met during the walk.
type pendingRef struct {
	from   *Schema
	member *Member   // the "$ref" member
	base   string    // the base URI in force where it stands
	doc    *Document // the document it stands in
}

// pointer spells the pointer of the "$ref" member, for a report only.
func (p pendingRef) pointer() string { return join(p.from.Pointer, "$ref") }

// refKey names a $ref by what it resolves against: the same string under
// two bases may name two schemas.
type refKey struct{ base, ref string }

// resolveRefs resolves the pending $refs; building their targets may add more.
func (c *checker) resolveRefs() {
	for len(c.pending) > 0 {
		p := c.pending[0]
		c.pending = c.pending[1:]
		key := refKey{p.base, p.member.Value.Str}
		target, done := c.resolved[key]
		if !done {
			target = c.resolve(p)
			if target != nil {
				if c.resolved == nil {
					c.resolved = map[refKey]*Schema{}
				}
				c.resolved[key] = target
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

// resolve follows one $ref to its target schema: the ref is resolved
// against the base URI where it stands, its URI names a resource (a
// document's root, or a subschema with an $id, in the document or in one
// handed in by Options.Documents), and its fragment a JSON Pointer from
// that resource's schema or an anchor in it.
func (c *checker) resolve(p pendingRef) *Schema {
	ref := p.member.Value.Str
	at := p.member.Value.Offset
	in := c.doc
	c.doc = p.doc // problems are placed in the document of the $ref
	defer func() { c.doc = in }()
	uri, frag, ok := resolveURI(p.base, ref)
	if !ok {
		c.errorAt(CodeUnresolvedRef, p.pointer(), at, "%q is not a URI reference that resolves against the base %q; write a JSON Pointer such as \"#/$defs/name\"", ref, p.base)
		return nil
	}
	dec, err := url.PathUnescape(frag)
	if err != nil {
		c.errorAt(CodeUnresolvedRef, p.pointer(), at, "%q has a bad percent-escape; write a JSON Pointer such as \"#/$defs/name\"", ref)
		return nil
	}
	frag = dec
	res, found := c.resource(uri)
	if found && res.doc != c.main && c.profile == Portable {
		c.errorAt(CodePortableRule, p.pointer(), at, "%q refers to another document; engines read one document, so a portable schema keeps its $refs inside it: copy the schema into definitions and write \"#/definitions/name\"", ref)
		return nil
	}
	if !found {
		c.errorAt(CodeRemoteRef, p.pointer(), at, "%q refers to another document (%s), which was not handed in; nothing is fetched: hand in its file (-refs DIR, or -ref URI=FILE; Options.Refs), or copy the schema into $defs and write \"#/$defs/name\"", ref, uri)
		return nil
	}
	if frag != "" && !strings.HasPrefix(frag, "/") {
		a, found := c.anchor(uri, frag)
		if !found {
			c.errorAt(CodeUnresolvedRef, p.pointer(), at, "%q names the anchor %q, which %s does not define; check the name ($anchor, or an $id of the form \"#name\" before 2019-09)", ref, frag, uri)
			return nil
		}
		return c.buildIn(a.doc, a.ptr, a.v, a.base, true)
	}
	cur := res.v
	base := res.base
	mode := inSchema
	// The target's pointer is the resource's, then frag spelled again: it
	// is written into the arena as the walk goes.
	spelt := c.spell.room(len(res.ptr) + len(frag))
	ptrStart := spelt.Len()
	spelt.WriteString(res.ptr)
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
			// Into a subschema with its own $id: its $refs resolve
			// against it.
			base = baseAt(base, cur.Get(c.idKeyword()).Str)
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
	return c.buildIn(res.doc, ptr, cur, base, frag == "")
}

// buildIn builds the schema v at ptr in doc, the base URI in force there
// being base, v's own $id applied already when own is set (a resource's
// schema, an anchor's).
func (c *checker) buildIn(doc *Document, ptr string, v *Value, base string, own bool) *Schema {
	in := c.doc
	c.doc = doc
	defer func() { c.doc = in }()
	if doc == c.main && ptr == "" {
		return c.build(ptr, v, buildContext{root: true, base: c.rootBase})
	}
	return c.build(ptr, v, buildContext{base: base, ownBase: own})
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

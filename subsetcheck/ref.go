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
	member *Member // the "$ref" member
}

// pointer spells the pointer of the "$ref" member, for a report only.
func (p pendingRef) pointer() string { return join(p.from.Pointer, "$ref") }

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

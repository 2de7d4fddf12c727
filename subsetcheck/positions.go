// Schema positions: every place in the document where a schema stands,
// through every keyword that holds schemas (refused ones included), with the
// base URI in force there. The meta pass and the $id check read them.

package subsetcheck

import (
	"net/url"
	"strconv"
	"strings"
)

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

// schemaPositions lists every schema position of the document, following
// every keyword of the draft that holds schemas (refused ones included), as a
// validator's meta-schema check does. Values of non-keywords are not visited.
func (c *checker) schemaPositions() positions {
	return c.positionsFrom(c.doc.Root, c.baseURL)
}

// positionsFrom lists the schema positions under root, a document's root
// retrieved from base.
func (c *checker) positionsFrom(root *Value, base *url.URL) positions {
	// Most schemas have a dozen positions or more: start with room for 16
	// rather than grow from one.
	out := c.firstPositions[:0]
	if c.positionsTaken {
		out = make([]position, 0, 16) // the first are the walk's, still in use
	}
	c.positionsTaken = true
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
	baseSpec, _, _ := strings.Cut(base.String(), "#")
	stack[0] = item{position{v: root, parent: -1}, base, baseSpec}
	for len(stack) > 0 && len(out) <= 4*c.lim.MaxSubschemas {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		base, baseSpec := it.base, it.baseSpec
		v := it.v
		if v.Kind == Object {
			if id := v.Get(c.idKeyword()); id != nil && id.Kind == String && !strings.HasPrefix(id.Str, "#") && !c.refHidesID(v) {
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

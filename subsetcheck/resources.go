// Schema resources, as a $ref names them: each document's root under its
// retrieval URI and its $id, each subschema with an $id under that $id
// resolved against the base where it stands, and the anchors in them
// ($anchor, $dynamicAnchor; an $id "#name" before 2019-09). The index is
// built on the first $ref that needs it: a plain "#/..." in a document
// without an $id below its root is resolved without it.

package subsetcheck

import (
	"net/url"
	"strings"
)

// DefaultBaseURI is the retrieval URI of a schema given without one
// (Options.BaseURI): its base when it has no $id, as a validator names a
// schema read from memory.
const DefaultBaseURI = "file:///schema.json"

// defaultBaseURL is DefaultBaseURI parsed, once: a check only reads it.
var defaultBaseURL, _ = url.Parse(DefaultBaseURI)

// resource is a schema a URI names: its value, document, JSON Pointer and
// the base URI in force there (its own $id applied).
type resource struct {
	v    *Value
	doc  *Document
	ptr  string
	base string
}

// resolveURI resolves ref against base (absolute, without fragment) into
// an absolute URI without fragment and the fragment, undecoded.
func resolveURI(base, ref string) (uri, frag string, ok bool) {
	if strings.HasPrefix(ref, "#") {
		return base, ref[1:], true // the usual "#/$defs/name": no parsing
	}
	abs := baseAt(base, ref)
	if abs == "" {
		return "", "", false
	}
	uri, frag, _ = strings.Cut(abs, "#")
	_, frag, _ = strings.Cut(ref, "#")
	return uri, frag, true
}

// baseAt is ref resolved against base, without fragment; "" when either
// does not parse. A relative reference against an opaque base ("urn:x")
// resolves to the base, as validators see it.
func baseAt(base, ref string) string {
	r, err := url.Parse(ref)
	if err != nil {
		return ""
	}
	b, err := url.Parse(base)
	if err != nil {
		return ""
	}
	if b.Opaque != "" && !r.IsAbs() {
		return base
	}
	abs, _, _ := strings.Cut(b.ResolveReference(r).String(), "#")
	return abs
}

// resource returns the schema resource uri names, indexing the documents
// on first use.
func (c *checker) resource(uri string) (resource, bool) {
	if uri == c.rootBase {
		// The root's own base, as for every "#/..." outside an embedded
		// resource: no index needed (a duplicate of it is refused, S203).
		return resource{v: c.main.Root, doc: c.main, base: c.rootBase}, true
	}
	if c.resources == nil {
		c.indexResources()
	}
	r, ok := c.resources[uri]
	return r, ok
}

// anchor returns the schema the anchor name of resource uri names.
func (c *checker) anchor(uri, name string) (resource, bool) {
	if c.resources == nil {
		c.indexResources()
	}
	r, ok := c.anchors[uri+"#"+name]
	return r, ok
}

// indexResources indexes the resources and anchors of the document and of
// those handed in (Options.Documents), in that order: the first to claim a
// URI keeps it (a duplicate $id within a document is refused apart, S203).
func (c *checker) indexResources() {
	c.resources, c.anchors = map[string]resource{}, map[string]resource{}
	c.indexDocument(c.main, c.baseURI)
	for _, uri := range c.docOrder {
		c.indexDocument(c.docs[uri], uri)
	}
}

// indexDocument indexes one document, retrieved from uri: its root, each
// subschema that brings a new base URI, and the anchors.
func (c *checker) indexDocument(doc *Document, uri string) {
	uriBase, _, _ := strings.Cut(uri, "#")
	claim := func(m map[string]resource, key string, r resource) {
		if _, taken := m[key]; !taken {
			m[key] = r
		}
	}
	claim(c.resources, uriBase, resource{v: doc.Root, doc: doc, base: uriBase})
	c.eachPosition(doc, uri, func(v *Value, ptr func() string, base string) {
		// Positions come parents first: the first with a base is the
		// schema whose $id brought it.
		if _, taken := c.resources[base]; !taken {
			c.resources[base] = resource{v: v, doc: doc, ptr: ptr(), base: base}
		}
		for _, name := range c.anchorsOf(v) {
			claim(c.anchors, base+"#"+name, resource{v: v, doc: doc, ptr: ptr(), base: base})
		}
	})
}

// anchorsOf are the anchor names schema v defines: $anchor and
// $dynamicAnchor from 2019-09 (its "$recursiveAnchor" names none), an $id
// that is a bare fragment before.
func (c *checker) anchorsOf(v *Value) []string {
	var out []string
	if c.draft >= Draft2019 {
		for _, kw := range [...]string{"$anchor", "$dynamicAnchor"} {
			if a := v.Get(kw); a != nil && a.Kind == String && LookupKeyword(kw, c.draft) != nil {
				out = append(out, a.Str)
			}
		}
		return out
	}
	if id := v.Get(c.idKeyword()); id != nil && id.Kind == String && strings.HasPrefix(id.Str, "#") && len(id.Str) > 1 && !c.refHidesID(v) {
		out = append(out, id.Str[1:])
	}
	return out
}

// Resource is where a schema resource stands: its document's name and the
// JSON Pointer of its schema there.
type Resource struct {
	File    string
	Pointer string
}

// Resources lists the schema resources of a checked schema's documents (the
// root's and those handed in), by URI without fragment, as a validator
// names them: a validator's schema locations are these URIs with a JSON
// Pointer fragment from the resource's schema. A document with an $id
// answers to both its retrieval URI and its $id.
func Resources(c *Checked) map[string]Resource {
	ch := newChecker(c.Doc, Options{DefaultDraft: c.Draft, BaseURI: c.BaseURI, Documents: c.Documents})
	ch.draft = c.Draft
	out := map[string]Resource{}
	add := func(doc *Document, uri string) {
		base, _, _ := strings.Cut(uri, "#")
		if _, ok := out[base]; !ok {
			out[base] = Resource{File: doc.Name}
		}
		ch.eachPosition(doc, uri, func(v *Value, ptr func() string, base string) {
			if _, ok := out[base]; !ok {
				out[base] = Resource{File: doc.Name, Pointer: ptr()}
			}
		})
	}
	add(c.Doc, ch.baseURI)
	for _, uri := range ch.docOrder {
		add(c.Documents[uri], uri)
	}
	return out
}

// Gathering the other documents a schema's $refs name, before the check:
// the caller's loader reads them (from local files only: schema2gbnf's
// Options.Refs), Gather follows their own $refs in turn, within
// Limits.MaxRefDocuments and MaxRefBytes, and Check then reads only what
// was gathered.

package subsetcheck

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// A Loader reads the document at an absolute URI (without fragment): its
// name for messages and its bytes. ErrNotHandedIn says it has none; a
// *Problem is reported as it is (S212 for a path it refuses); any other
// error as S212.
type Loader func(uri string) (name string, data []byte, err error)

// ErrNotHandedIn is a Loader's answer for a URI it has no document for:
// the $ref is then refused by the check (S206), or, leniently, not
// followed.
var ErrNotHandedIn = errors.New("no document for this URI")

// Gather reads, through load, every other document the $refs of doc name,
// and theirs in turn, for Options.Documents. Documents are read with
// opts.Limits; more than Limits.MaxRefDocuments of them (L507), or more
// than Limits.MaxRefBytes in all (L508), is an error, and so is a document
// that does not read (J101-J107, L501-L505) or that load refuses (S212).
// Every problem is reported at once, at the $ref that named the document.
func Gather(doc *Document, opts Options, load Loader) (map[string]*Document, error) {
	if doc == nil || doc.Root == nil || load == nil {
		return nil, nil
	}
	c := newChecker(doc, opts)
	c.readRootDialect()
	c.errs = nil // the check reports them
	lim := c.lim
	out := map[string]*Document{}
	known := map[string]bool{} // resources of the documents read so far
	missing := map[string]bool{}
	var errs ErrorList
	total := 0
	queue := []*Document{doc}
	uris := map[*Document]string{doc: c.baseURI}
	for len(queue) > 0 && len(errs) == 0 {
		d := queue[0]
		queue = queue[1:]
		for r := range c.resourcesOf(d, uris[d]) {
			known[r] = true
		}
		for _, site := range c.refSites(d, uris[d]) {
			if known[site.uri] || missing[site.uri] || out[site.uri] != nil {
				continue
			}
			name, data, err := load(site.uri)
			var p *Problem
			switch {
			case errors.Is(err, ErrNotHandedIn):
				missing[site.uri] = true
				continue
			case errors.As(err, &p):
				errs = append(errs, d.problem(p.Code, site.ptr, site.offset, "%s", p.Message))
				continue
			case err != nil:
				errs = append(errs, d.problem(CodeRefPath, site.ptr, site.offset, "the document of %q cannot be read: %v", site.uri, err))
				continue
			}
			if len(out) >= lim.MaxRefDocuments {
				errs = append(errs, d.problem(CodeTooManyRefDocs, site.ptr, site.offset,
					"this $ref needs more than %d other documents (-max-ref-documents, Limits.MaxRefDocuments); merge documents, or raise the limit", lim.MaxRefDocuments))
				break
			}
			if total += len(data); total > lim.MaxRefBytes {
				errs = append(errs, d.problem(CodeRefBytes, site.ptr, site.offset,
					"the documents $refs name are more than %d bytes in all (-max-ref-bytes, Limits.MaxRefBytes); raise the limit", lim.MaxRefBytes))
				break
			}
			rd, err := Read(name, data, opts.Limits)
			if err != nil {
				var list ErrorList
				if errors.As(err, &list) {
					errs = append(errs, list...)
				} else {
					errs = append(errs, d.problem(CodeRefPath, site.ptr, site.offset, "the document of %q cannot be read: %v", site.uri, err))
				}
				continue
			}
			out[site.uri] = rd
			uris[rd] = site.uri
			queue = append(queue, rd)
		}
	}
	if len(errs) > 0 {
		return nil, errs.Err()
	}
	return out, nil
}

// refSite is a $ref to another document: its URI without fragment, and
// where the $ref is.
type refSite struct {
	uri    string
	ptr    string
	offset int
}

// refSites lists the $refs of doc (retrieved from uri) whose URI is not
// the document's own, in document order.
func (c *checker) refSites(doc *Document, uri string) []refSite {
	own := c.resourcesOf(doc, uri)
	var out []refSite
	c.eachPosition(doc, uri, func(v *Value, ptr func() string, base string) {
		ref := v.Get("$ref")
		if ref == nil || ref.Kind != String {
			return
		}
		target, _, ok := resolveURI(base, ref.Str)
		if !ok || own[target] {
			return
		}
		out = append(out, refSite{uri: target, ptr: join(ptr(), "$ref"), offset: ref.Offset})
	})
	return out
}

// resourcesOf is the set of URIs doc's schema resources answer to.
func (c *checker) resourcesOf(doc *Document, uri string) map[string]bool {
	out := map[string]bool{}
	c.eachPosition(doc, uri, func(v *Value, _ func() string, base string) { out[base] = true })
	return out
}

// eachPosition calls f on each schema position of doc (retrieved from
// uri), with its pointer and the base URI in force there.
func (c *checker) eachPosition(doc *Document, uri string, f func(v *Value, ptr func() string, base string)) {
	u, err := url.Parse(uri)
	if err != nil {
		return
	}
	in := c.doc
	c.doc = doc
	defer func() { c.doc = in }()
	ps := c.positionsFrom(doc.Root, u)
	bases := make([]string, len(ps.at))
	uriBase, _, _ := strings.Cut(uri, "#")
	id := 0
	for i := range ps.at {
		p := &ps.at[i]
		switch {
		case id < len(ps.ids) && ps.ids[id].at == i:
			bases[i] = ps.ids[id].base
			id++
		case p.parent < 0:
			bases[i] = uriBase
		default:
			bases[i] = bases[p.parent]
		}
		if p.v.Kind == Object {
			f(p.v, func() string { return ps.pointer(i) }, bases[i])
		}
	}
}

// RefPathError is a Loader's refusal of a path (S212), with the message.
func RefPathError(format string, args ...any) *Problem {
	return &Problem{Code: CodeRefPath, Message: fmt.Sprintf(format, args...)}
}

package oracle

import (
	"encoding/json"
	"math"
	"math/big"
	"net/url"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Counts past 2^63-1. JSON Schema's counts (minLength, maxLength, minItems,
// maxItems, minProperties, maxProperties, minContains, maxContains) are any
// non-negative integer. The validator keeps a count's low 64 bits, read as
// an int64: maxItems 2^63 becomes -2^63 (every array is too long),
// minItems 2^64-1 becomes -1 (every array is long enough), maxProperties
// 2^64 becomes 0. No text holds 2^63-1 characters, items or members, so a
// count past it means what 2^63-1 means, which the validator reads right:
// New judges by the spec there, and only there, by reading each such count
// as 2^63-1 in the schemas the validator compiled (TestCountQuirks pins the
// departure, so that this goes when the validator changes).

// countKeywords are the keywords whose value is a count.
var countKeywords = []string{"minLength", "maxLength", "minItems", "maxItems",
	"minProperties", "maxProperties", "minContains", "maxContains"}

// LibraryCounts keeps the validator's own reading of counts past 2^63-1
// (their low 64 bits), for the test that pins it.
func LibraryCounts() Option { return func(c *config) { c.libraryCounts = true } }

// maxCount is 2^63-1 as the schema's text.
var maxCount = json.Number(strconv.FormatInt(math.MaxInt64, 10))

// specCounts rewrites in doc, a schema document as jsonschema.UnmarshalJSON
// reads it, every count past 2^63-1 to 2^63-1, in the schema objects the
// validator compiled from it (from root): where the validator sees a
// keyword, not in enum or const values that merely look like one. It
// reports whether it rewrote any.
func specCounts(doc any, root *jsonschema.Schema) bool {
	loc, _, _ := strings.Cut(root.Location, "#") // the document's URL
	changed := false
	seen := map[*jsonschema.Schema]bool{}
	var walk func(s *jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if obj, ok := schemaAt(doc, s.Location, loc); ok {
			for _, kw := range countKeywords {
				if n, ok := obj[kw].(json.Number); ok && pastInt64(n) {
					obj[kw] = maxCount
					changed = true
				}
			}
		}
		for _, sub := range subschemas(s) {
			walk(sub)
		}
	}
	walk(root)
	return changed
}

// pastInt64 says whether n is an integer past 2^63-1.
func pastInt64(n json.Number) bool {
	r, ok := new(big.Rat).SetString(string(n))
	return ok && r.IsInt() && r.Sign() > 0 && !r.Num().IsInt64()
}

// schemaAt is the object in doc at a schema's location, when that
// location is in doc (loc#pointer).
func schemaAt(doc any, location, loc string) (map[string]any, bool) {
	frag, ok := strings.CutPrefix(location, loc+"#")
	if !ok {
		return nil, false
	}
	ptr, err := url.PathUnescape(frag)
	if err != nil {
		return nil, false
	}
	v := doc
	if ptr != "" {
		for _, tok := range strings.Split(ptr, "/")[1:] {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			switch x := v.(type) {
			case map[string]any:
				v = x[tok]
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(x) {
					return nil, false
				}
				v = x[i]
			default:
				return nil, false
			}
		}
	}
	obj, ok := v.(map[string]any)
	return obj, ok
}

// subschemas are the schemas s refers to or holds.
func subschemas(s *jsonschema.Schema) []*jsonschema.Schema {
	out := []*jsonschema.Schema{s.Ref, s.RecursiveRef, s.Not, s.If, s.Then, s.Else, s.PropertyNames,
		s.UnevaluatedProperties, s.Contains, s.Items2020, s.UnevaluatedItems, s.ContentSchema}
	if s.DynamicRef != nil {
		out = append(out, s.DynamicRef.Ref)
	}
	out = append(out, s.AllOf...)
	out = append(out, s.AnyOf...)
	out = append(out, s.OneOf...)
	out = append(out, s.PrefixItems...)
	for _, p := range s.Properties {
		out = append(out, p)
	}
	for _, p := range s.PatternProperties {
		out = append(out, p)
	}
	for _, p := range s.DependentSchemas {
		out = append(out, p)
	}
	for _, d := range s.Dependencies {
		if p, ok := d.(*jsonschema.Schema); ok {
			out = append(out, p)
		}
	}
	for _, x := range []any{s.AdditionalProperties, s.Items, s.AdditionalItems} {
		switch x := x.(type) {
		case *jsonschema.Schema:
			out = append(out, x)
		case []*jsonschema.Schema:
			out = append(out, x...)
		}
	}
	return out
}

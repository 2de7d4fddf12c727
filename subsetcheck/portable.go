// The portable profile's authoring rules (seed 001, ADR-0035 §2 and §4),
// beyond its keyword column in the table.

package subsetcheck

import "strconv"

// portableDraft refuses a root "$schema" naming a draft other than
// draft-07, the draft the portable profile's schemas are written in: the
// one editors and validators all read. A schema without "$schema" is read
// in Options.DefaultDraft, as engines ignore the member.
func (c *checker) portableDraft() {
	root := c.doc.Root
	if root.Kind != Object {
		return
	}
	v := root.Get("$schema")
	if v == nil || v.Kind != String {
		return
	}
	if d, ok := dialect(v.Str); ok && d != Draft7 {
		c.errorAt(CodePortableRule, "/$schema", v.Offset, `the portable profile is written in draft-07, the draft every editor and validator reads; write "$schema": "http://json-schema.org/draft-07/schema#"`)
	}
}

// portableID refuses an $id below the root: it changes the base URI of the
// $refs under it, which engines resolve differently. At the root it is the
// document's address (ADR-0035 §4 names a schema's release with it), and
// every engine takes it as an annotation.
func (c *checker) portableID(k *keywordAt) {
	c.errorAt(CodeRefusedKeyword, c.pointerOf(k), k.m.NameOffset, "%s below the root is not in the portable profile: it changes the base URI of the $refs under it, which engines resolve differently; keep one %s, at the root, as the document's address, and drop this one", k.m.Name, k.m.Name)
}

// portableBoolean refuses a boolean schema: "any value" must list the six
// types, and false has no place in a portable schema.
func (c *checker) portableBoolean(ptr string, v *Value) {
	if v.Bool {
		c.errorAt(CodePortableRule, ptr, v.Offset, `"any value" must list the six types: write {"type": ["null", "boolean", "object", "array", "number", "string"]}`)
	} else {
		c.errorAt(CodePortableRule, ptr, v.Offset, "the portable profile has no boolean schema false; remove the part that can never be valid")
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
	for _, name := range [...]string{"minimum", "maximum"} {
		if b := v.Get(name); b != nil && s.Types&TNumber != 0 {
			c.errorAt(CodePortableRule, join(ptr, name), b.Offset, `%s bounds whole numbers only in the portable profile (not every engine takes a bound on other numbers): write "type": "integer", or drop %s`, name, name)
		}
	}
	if anyOf := v.Get("anyOf"); anyOf != nil && anyOf.Kind == Array {
		c.portableNull(ptr, anyOf)
	}
}

// portableNull refuses "or nothing" written as an anyOf branch
// {"type": "null"}: the portable profile writes it as a type list
// (["string", "null"]), which every engine reads alike. Beside branches
// that are all $refs, which nothing may stand beside, the branch is the
// only way and is kept.
func (c *checker) portableNull(ptr string, anyOf *Value) {
	null, others := -1, false
	for i, b := range anyOf.Items {
		switch {
		case onlyNull(b):
			null = i
		case b.Kind != Object || b.Get("$ref") == nil:
			others = true
		}
	}
	if null >= 0 && others {
		c.errorAt(CodePortableRule, join(join(ptr, "anyOf"), strconv.Itoa(null)), anyOf.Items[null].Offset, `"or nothing" is a type list in the portable profile: add "null" to the "type" of the other branch (for example "type": ["string", "null"]) and drop this branch`)
	}
}

// onlyNull reports whether a schema is {"type": "null"}, with annotations
// at most.
func onlyNull(v *Value) bool {
	if v.Kind != Object {
		return false
	}
	t := v.Get("type")
	if t == nil || t.Kind != String || t.Str != "null" {
		return false
	}
	for _, m := range v.Members {
		if m.Name != "type" && m.Name != "title" && m.Name != "description" {
			return false
		}
	}
	return true
}

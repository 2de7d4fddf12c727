// The portable profile's authoring rules (seed 001 §2), beyond its keyword
// column in the table.

package subsetcheck

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
}

// The object keywords: properties, required, additionalProperties,
// patternProperties, propertyNames, minProperties, maxProperties,
// dependencies, dependentRequired, dependentSchemas,
// unevaluatedProperties.

package subsetcheck

import (
	"regexp/syntax"
	"slices"
	"strconv"
)

func checkProperties(c *checker, k *keywordAt) {
	val := k.m.Value
	if val.Kind != Object {
		c.bad(k, "must be an object whose members are schemas")
		return
	}
	if len(val.Members) == 0 {
		return
	}
	name := func(j int) string { return escapePointerToken(val.Members[j].Name) }
	ptrs := c.spell.spellPointers(k.s.Pointer, k.m.Name, len(val.Members), name)
	props := take(&c.propertyBlock, &c.propertiesLeft, len(val.Members), maxSliceBlock)
	k.s.Properties = props
	ctx := k.ctx.child()
	for j := range val.Members {
		pm := &val.Members[j]
		props[j] = Property{Name: pm.Name, Schema: c.build(ptrs.next(len(name(j))), pm.Value, ctx)}
	}
}

func checkRequired(c *checker, k *keywordAt) {
	val, s := k.m.Value, k.s
	if val.Kind != Array {
		c.bad(k, "must be an array of member names")
		return
	}
	if c.draft == Draft4 && len(val.Items) == 0 {
		c.bad(k, "must not be empty in draft-04; remove it")
	}
	// Names listed so far are s.Required: searched while short, through a
	// map past linearMembers.
	var seen map[string]bool
	for j, item := range val.Items {
		if item.Kind != String {
			c.errorAt(CodeBadKeywordValue, join(c.pointerOf(k), strconv.Itoa(j)), item.Offset, "required: each item must be a member name (a string), not %s", kindName(item.Kind))
			continue
		}
		if seen == nil && len(s.Required) > linearMembers {
			seen = make(map[string]bool, len(val.Items))
			for _, name := range s.Required {
				seen[name] = true
			}
		}
		if seen[item.Str] || seen == nil && slices.Contains(s.Required, item.Str) {
			c.errorAt(CodeBadKeywordValue, join(c.pointerOf(k), strconv.Itoa(j)), item.Offset, "required: %q is listed twice; the names must be unique", item.Str)
			continue
		}
		if seen != nil {
			seen[item.Str] = true
		}
		if s.Required == nil {
			s.Required = take(&c.requiredBlock, &c.requiredLeft, len(val.Items), maxRequiredBlock)[:0]
		}
		s.Required = append(s.Required, item.Str)
	}
}

// additionalProperties: true or false are schemas here even in draft-04,
// and exempt from the portable profile's "type" rules.
func checkAdditionalProperties(c *checker, k *keywordAt) {
	sub := k.ctx.child()
	sub.boolOK, sub.portableX = true, true
	k.s.AdditionalProperties = c.build(c.pointerOf(k), k.m.Value, sub)
}

// patternProperties (refused): an object whose names are regular
// expressions and whose values are schemas.
func checkPatternProperties(c *checker, k *keywordAt) {
	val := k.m.Value
	if val.Kind != Object {
		c.bad(k, "must be an object")
		return
	}
	for _, pm := range val.Members {
		if _, err := syntax.Parse(pm.Name, syntax.Perl); err != nil {
			c.errorAt(CodeBadKeywordValue, join(c.pointerOf(k), pm.Name), pm.NameOffset, "patternProperties: %q is not a valid regular expression: %v", pm.Name, err)
		}
	}
	c.schemaMap(k, nil)
}

// dependentSchemas (refused): an object whose values are schemas.
func checkDependentSchemas(c *checker, k *keywordAt) {
	if k.m.Value.Kind != Object {
		c.bad(k, "must be an object")
		return
	}
	c.schemaMap(k, nil)
}

// propertyNames, unevaluatedProperties (refused): the subschema is checked.
func checkPropertyNames(c *checker, k *keywordAt)         { c.subschema(k) }
func checkUnevaluatedProperties(c *checker, k *keywordAt) { c.subschema(k) }

// dependencies (refused): an object whose values are schemas or arrays of
// unique member names; the schemas are checked.
func checkDependencies(c *checker, k *keywordAt) {
	checkDependentNames(c, k, false)
	c.schemaMap(k, func(v *Value) bool { return v.Kind != Array })
}

// dependentRequired (refused): an object whose values are arrays of unique
// member names.
func checkDependentRequired(c *checker, k *keywordAt) {
	checkDependentNames(c, k, true)
}

// checkDependentNames checks the arrays of member names in the value of
// dependencies or dependentRequired; namesOnly: every value must be one.
func checkDependentNames(c *checker, k *keywordAt, namesOnly bool) {
	val := k.m.Value
	if val.Kind != Object {
		c.bad(k, "must be an object")
		return
	}
	for _, pm := range val.Members {
		if pm.Value.Kind != Array {
			if namesOnly {
				c.errorAt(CodeBadKeywordValue, join(c.pointerOf(k), pm.Name), pm.Value.Offset, "%s: each value must be an array of member names", k.m.Name)
			}
			continue
		}
		seen := map[string]bool{}
		for _, item := range pm.Value.Items {
			if item.Kind != String || seen[item.Str] {
				c.errorAt(CodeBadKeywordValue, join(c.pointerOf(k), pm.Name), item.Offset, "%s: each value must be an array of unique member names", k.m.Name)
				break
			}
			seen[item.Str] = true
		}
	}
}

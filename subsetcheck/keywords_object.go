// The object keywords: properties, required, additionalProperties,
// patternProperties, propertyNames, minProperties, maxProperties,
// dependencies, dependentRequired, dependentSchemas,
// unevaluatedProperties.

package subsetcheck

import (
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

// patternProperties: an object whose names are patterns (compiled once
// per Check, as pattern's are: pattern.go) and whose values are schemas.
// A member whose name is in a pattern's language, declared or not, must
// match its schema; additionalProperties applies to the names no pattern
// matches and no property declares.
func checkPatternProperties(c *checker, k *keywordAt) {
	val := k.m.Value
	if val.Kind != Object {
		c.bad(k, "must be an object")
		return
	}
	var patterns []*Pattern
	for _, pm := range val.Members {
		patterns = append(patterns, c.compilePattern(k.m.Name, join(c.pointerOf(k), pm.Name), pm.NameOffset, pm.Name))
	}
	props := c.schemaMap(k, nil)
	for i, p := range props {
		if patterns[i] != nil {
			k.s.PatternProperties = append(k.s.PatternProperties, PatternProperty{Pattern: patterns[i], Schema: p.Schema})
		}
	}
}

// minProperties, maxProperties: counts of an object's members, declared
// and extra (compile/count.go).
func checkMinProperties(c *checker, k *keywordAt) {
	if n, ok := c.countOf(k); ok {
		k.s.MinProperties = n
	}
}

func checkMaxProperties(c *checker, k *keywordAt) {
	if n, ok := c.countOf(k); ok {
		k.s.MaxProperties = &n
	}
}

// dependentSchemas: an object whose values are schemas, each met with the
// object's when the member it names is present (compile/dependencies.go).
func checkDependentSchemas(c *checker, k *keywordAt) {
	if k.m.Value.Kind != Object {
		c.bad(k, "must be an object")
		return
	}
	for _, p := range c.schemaMap(k, nil) {
		k.s.Dependencies = append(k.s.Dependencies, Dependency{Name: p.Name, Schema: p.Schema})
	}
}

// propertyNames: the schema every member name, a string, must match.
func checkPropertyNames(c *checker, k *keywordAt) { k.s.PropertyNames = c.subschema(k) }

// unevaluatedProperties (refused): the subschema is checked.
func checkUnevaluatedProperties(c *checker, k *keywordAt) { c.subschema(k) }

// dependencies (draft-04 to draft-07, and still read by validators in
// later drafts): an object whose values are arrays of unique member names
// (dependentRequired's form) or schemas (dependentSchemas').
func checkDependencies(c *checker, k *keywordAt) {
	checkDependentNames(c, k, false)
	for _, p := range c.schemaMap(k, func(v *Value) bool { return v.Kind != Array }) {
		k.s.Dependencies = append(k.s.Dependencies, Dependency{Name: p.Name, Schema: p.Schema})
	}
}

// dependentRequired: an object whose values are arrays of unique member
// names, all required when the member the array is for is present.
func checkDependentRequired(c *checker, k *keywordAt) {
	checkDependentNames(c, k, true)
}

// checkDependentNames reads the arrays of member names in the value of
// dependencies or dependentRequired into k.s.Dependencies; namesOnly:
// every value must be one. Draft-04 wants each array non-empty.
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
		if c.draft == Draft4 && len(pm.Value.Items) == 0 {
			c.errorAt(CodeBadKeywordValue, join(c.pointerOf(k), pm.Name), pm.Value.Offset, "%s: a list of names must not be empty in draft-04; remove the member", k.m.Name)
			continue
		}
		names := make([]string, 0, len(pm.Value.Items))
		for _, item := range pm.Value.Items {
			if item.Kind != String || slices.Contains(names, item.Str) {
				c.errorAt(CodeBadKeywordValue, join(c.pointerOf(k), pm.Name), item.Offset, "%s: each value must be an array of unique member names", k.m.Name)
				names = nil
				break
			}
			names = append(names, item.Str)
		}
		if names != nil {
			k.s.Dependencies = append(k.s.Dependencies, Dependency{Name: pm.Name, Required: names})
		}
	}
}

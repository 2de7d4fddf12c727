// The combinators: anyOf, oneOf, allOf, not, if, then, else.

package subsetcheck

func checkAnyOf(c *checker, k *keywordAt) {
	if nonEmptyList(c, k) {
		k.s.AnyOf = c.schemaList(k)
	}
}

// oneOf (refused): its branches are checked.
func checkOneOf(c *checker, k *keywordAt) {
	if nonEmptyList(c, k) {
		c.schemaList(k)
	}
}

// allOf (refused): its branches are checked.
func checkAllOf(c *checker, k *keywordAt) {
	if nonEmptyList(c, k) {
		c.schemaList(k)
	}
}

// not, if, then, else (refused): the subschema is checked.
func checkNot(c *checker, k *keywordAt)  { c.subschema(k) }
func checkIf(c *checker, k *keywordAt)   { c.subschema(k) }
func checkThen(c *checker, k *keywordAt) { c.subschema(k) }
func checkElse(c *checker, k *keywordAt) { c.subschema(k) }

// nonEmptyList checks that keyword k's value is a non-empty array, as the
// meta-schemas require of anyOf, oneOf and allOf.
func nonEmptyList(c *checker, k *keywordAt) bool {
	if val := k.m.Value; val.Kind != Array || len(val.Items) == 0 {
		c.bad(k, "must be a non-empty array of schemas")
		return false
	}
	return true
}

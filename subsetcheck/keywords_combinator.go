// The combinators: anyOf, allOf, oneOf, not, if, then, else. The checker
// reads them into Schema; what each means for the grammar is compile's
// (compile/combinator.go, oneof.go, not.go).

package subsetcheck

func checkAnyOf(c *checker, k *keywordAt) {
	if nonEmptyList(c, k) {
		k.s.AnyOf = c.schemaList(k)
	}
}

func checkAllOf(c *checker, k *keywordAt) {
	if nonEmptyList(c, k) {
		k.s.AllOf = c.schemaList(k)
	}
}

func checkOneOf(c *checker, k *keywordAt) {
	if nonEmptyList(c, k) {
		k.s.OneOf = c.schemaList(k)
	}
}

func checkNot(c *checker, k *keywordAt) { k.s.Not = c.subschema(k) }

// if, then and else mean something only beside each other: they are noted
// here and built by finishConditional once the object's members are read.
func checkIf(c *checker, k *keywordAt)   { k.ifm = k.m }
func checkThen(c *checker, k *keywordAt) { k.thenm = k.m }
func checkElse(c *checker, k *keywordAt) { k.elsem = k.m }

// finishConditional sets k.s.If, Then and Else. As validators read them,
// then and else without if, and if without both, constrain nothing: they
// are accepted with a warning (W301) and not built for the compiler (the
// meta pass still checks their subschemas).
func finishConditional(c *checker, k *keywordAt) {
	if k.ifm == nil && k.thenm == nil && k.elsem == nil {
		return
	}
	if k.ifm == nil {
		for _, m := range []*Member{k.thenm, k.elsem} {
			if m != nil {
				c.warnAt(CodeIgnoredKeyword, join(k.s.Pointer, m.Name), m.NameOffset, "%s has an effect only beside if, and validators ignore it here; add the if or remove the %s", m.Name, m.Name)
			}
		}
		return
	}
	if k.thenm == nil && k.elsem == nil {
		c.warnAt(CodeIgnoredKeyword, join(k.s.Pointer, "if"), k.ifm.NameOffset, "if without then or else constrains nothing (validators only annotate with it); add then or else, or remove the if")
		return
	}
	build := func(m *Member) *Schema {
		if m == nil {
			return nil
		}
		return c.build(c.spell.join(k.s.Pointer, m.Name), m.Value, k.ctx.child())
	}
	k.s.If, k.s.Then, k.s.Else = build(k.ifm), build(k.thenm), build(k.elsem)
}

// nonEmptyList checks that keyword k's value is a non-empty array, as the
// meta-schemas require of anyOf, oneOf and allOf.
func nonEmptyList(c *checker, k *keywordAt) bool {
	if val := k.m.Value; val.Kind != Array || len(val.Items) == 0 {
		c.bad(k, "must be a non-empty array of schemas")
		return false
	}
	return true
}

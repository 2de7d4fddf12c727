// The array keywords: items (a schema, or before 2020-12 an array of
// schemas), prefixItems, additionalItems (settled by finishAdditionalItems,
// as it depends on items), minItems, maxItems, uniqueItems, contains,
// minContains, maxContains, unevaluatedItems.

package subsetcheck

func checkItems(c *checker, k *keywordAt) {
	val := k.m.Value
	if val.Kind != Array {
		k.s.Items = c.build(c.pointerOf(k), val, k.ctx.child())
		return
	}
	switch {
	case c.draft >= Draft2020:
		c.bad(k, `is a single schema in 2020-12; write the positional schemas as "prefixItems"`)
	case c.profile == Portable:
		c.errorAt(CodeRefusedKeyword, c.pointerOf(k), k.m.NameOffset, "items as an array of schemas is %s; use a single schema", notPortable)
	case len(val.Items) == 0:
		c.bad(k, "an items array must not be empty; write a single schema instead")
	default:
		k.itemsArray = true
		k.s.PrefixItems = c.schemaList(k)
	}
}

func checkPrefixItems(c *checker, k *keywordAt) {
	if val := k.m.Value; val.Kind != Array || len(val.Items) == 0 {
		c.bad(k, "must be a non-empty array of schemas")
		return
	}
	k.s.PrefixItems = c.schemaList(k)
}

// additionalItems is read by finishAdditionalItems, once items is known.
func checkAdditionalItems(c *checker, k *keywordAt) {
	k.additionalItems = k.m
}

// finishAdditionalItems builds additionalItems as the schema of the items
// after an items array; anywhere else validators ignore it.
func finishAdditionalItems(c *checker, k *keywordAt) {
	m := k.additionalItems
	if m == nil {
		return
	}
	kp := c.spell.join(k.s.Pointer, m.Name)
	if !k.itemsArray {
		c.warnAt(CodeIgnoredKeyword, kp, m.NameOffset, "additionalItems has an effect only after an items array, and validators ignore it here; remove it")
		return
	}
	sub := k.ctx.child()
	sub.boolOK = true
	k.s.Items = c.build(kp, m.Value, sub)
}

func checkMinItems(c *checker, k *keywordAt) {
	if n, ok := c.countOf(k); ok {
		k.s.MinItems = n
	}
}

func checkMaxItems(c *checker, k *keywordAt) {
	if n, ok := c.countOf(k); ok {
		k.s.MaxItems = n
	}
}

// uniqueItems: true or false; true asks that no two items be equal
// (compile/items.go).
func checkUniqueItems(c *checker, k *keywordAt) {
	if k.m.Value.Kind != Bool {
		c.bad(k, "must be true or false")
		return
	}
	k.s.UniqueItems = k.m.Value.Bool
}

// contains: the schema some items must match, between minContains and
// maxContains of them (compile/contains.go); the counts are settled by
// finishContains, as they mean something only beside contains.
func checkContains(c *checker, k *keywordAt) { k.s.Contains = c.subschema(k) }

func checkMinContains(c *checker, k *keywordAt) {
	if n, ok := c.countOf(k); ok {
		k.minContains = &n
	}
}

func checkMaxContains(c *checker, k *keywordAt) {
	if n, ok := c.countOf(k); ok {
		k.maxContains = &n
	}
}

// finishContains settles the counts of contains: at least one matching
// item unless minContains says otherwise. Without contains the counts
// constrain nothing, as validators judge.
func finishContains(k *keywordAt) {
	if k.s.Contains == nil {
		return
	}
	k.s.MinContains = 1
	if k.minContains != nil {
		k.s.MinContains = *k.minContains
	}
	k.s.MaxContains = k.maxContains
}

// unevaluatedItems (refused): the subschema is checked.
func checkUnevaluatedItems(c *checker, k *keywordAt) { c.subschema(k) }

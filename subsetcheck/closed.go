package subsetcheck

// closeObjects is Options.ClosedObjects: every object schema that lists
// properties and says nothing of other members gets a false
// additionalProperties, as llama.cpp's and most converters' readings have
// it. The schema only narrows: it gains a conjunct where every keyword is
// monotone in its subschemas, so every text a grammar of it accepts is
// still valid; values with members that properties does not list are no
// longer accepted. not, if and oneOf are not monotone (a narrower negated
// schema, condition or branch widens the whole: {"not": {"properties":
// {"a": {}}}} closed would accept every object with another member), so
// nothing they reach is closed.
func (c *checker) closeObjects() {
	keepOpen := map[*Schema]bool{}
	var open func(s *Schema)
	open = func(s *Schema) {
		if s == nil || keepOpen[s] {
			return
		}
		keepOpen[s] = true
		subschemas(s, open)
	}
	shut := func(s *Schema) {
		if s == nil {
			return
		}
		open(s.Not)
		open(s.If)
		for _, b := range s.OneOf {
			open(b)
		}
	}
	for _, s := range c.built {
		shut(s)
	}
	for _, s := range c.schemas {
		shut(s)
	}
	close := func(s *Schema) {
		if s != nil && !keepOpen[s] && len(s.Properties) > 0 && s.AdditionalProperties == nil {
			s.AdditionalProperties = &Schema{Pointer: s.Pointer + "/additionalProperties", Node: s.Node, False: true, Closed: true}
		}
	}
	for _, s := range c.built {
		close(s)
	}
	for _, s := range c.schemas {
		close(s)
	}
}

// subschemas calls fn with each schema s holds.
func subschemas(s *Schema, fn func(*Schema)) {
	for _, p := range s.Properties {
		fn(p.Schema)
	}
	for _, list := range [...][]*Schema{s.PrefixItems, s.AnyOf, s.AllOf, s.OneOf} {
		for _, b := range list {
			fn(b)
		}
	}
	for _, t := range [...]*Schema{s.AdditionalProperties, s.Items, s.Ref, s.Not, s.If, s.Then, s.Else} {
		fn(t)
	}
}

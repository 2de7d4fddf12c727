package subsetcheck

// closeObjects is Options.ClosedObjects: every object schema that lists
// properties and says nothing of other members gets a false
// additionalProperties, as llama.cpp's and most converters' readings have
// it. The schema only narrows (it gains a conjunct, and every keyword the
// checker admits is monotone in its subschemas), so every text a grammar of
// it accepts is still valid; values with members that properties does not
// list are no longer accepted.
func (c *checker) closeObjects() {
	shut := func(s *Schema) {
		if s != nil && len(s.Properties) > 0 && s.AdditionalProperties == nil {
			s.AdditionalProperties = &Schema{Pointer: s.Pointer + "/additionalProperties", Node: s.Node, False: true, Closed: true}
		}
	}
	for _, s := range c.built {
		shut(s)
	}
	for _, s := range c.schemas {
		shut(s)
	}
}

// The meta pass: the keyword values of the schemas the walk did not reach,
// checked as a validator's meta-schema check does.

package subsetcheck

// metaPass checks the keyword values of the schemas the walk did not reach
// (unused definitions, annotation and refused subschemas): validators check
// the whole document against the draft's meta-schema, so a bad value there
// makes them refuse the schema. Only S203 and S204 are reported for them.
// The schemas it builds go into the memo too: nothing reads it afterwards.
func (c *checker) metaPass(ps *positions) {
	c.metaOnly = true
	for i := range ps.at {
		if c.tooMany {
			break
		}
		p := &ps.at[i]
		ctx := buildContext{root: i == 0, boolOK: p.boolOK()}
		if c.builtAt(p.v) == nil {
			c.build(ps.pointer(i), p.v, ctx)
		} else if c.draft <= Draft7 && p.v.Kind == Object && p.v.Get("$ref") != nil {
			// The walk ignored the siblings of this $ref; validators still
			// check their values against the meta-schema.
			c.buildObject(c.newSchema(ps.pointer(i), p.v), p.v, ctx)
		}
	}
	c.metaOnly = false
	c.pending = nil
}

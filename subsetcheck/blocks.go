// Memory handed out in blocks, one allocation for many: take, which the
// reader and the checker share for members, items and lists, and the
// checker's Schemas and Problems.

package subsetcheck

// maxSliceBlock bounds a block of members (and of the checker's lists).
// Items have a smaller bound, maxItemBlock: their bound from the text also
// counts the commas between members, five times too many on the corpus.
const (
	maxSliceBlock = 256
	maxItemBlock  = 32
)

// take cuts n elements from *block, capped at n so that an append to them
// cannot reach the next container's; a new block is made when too few are
// left, sized by *left, an upper bound on the elements still to come, and
// at most most (unless n is more).
func take[T any](block *[]T, left *int, n, most int) []T {
	if len(*block) < n {
		*block = make([]T, max(n, min(*left, most)))
	}
	out := (*block)[:n:n]
	*block = (*block)[n:]
	*left -= n
	return out
}

// maxProblemBlock bounds a block of Problems.
const maxProblemBlock = 64

// newProblem hands out a Problem from a block: a schema with one warning
// often has dozens (an unknown keyword on every definition). Blocks start
// small and double, so that a few problems cost little.
func (c *checker) newProblem() *Problem {
	if len(c.problemBlock) == 0 {
		c.problemBlock = make([]Problem, min(max(4, len(c.errs)+len(c.warns)), maxProblemBlock))
	}
	p := &c.problemBlock[0]
	c.problemBlock = c.problemBlock[1:]
	return p
}

// maxRequiredBlock bounds a block of Schema.Required names: their bound,
// the document's values, is loose.
const maxRequiredBlock = 16

// maxSchemaBlock bounds a block of Schemas (see newSchema).
const maxSchemaBlock = 256

// newSchema returns a Schema that constrains nothing yet. Schemas are
// handed out from blocks, one allocation for many, sized by schemasLeft:
// the schema positions of the document not yet built, which bound the
// schemas a check builds (one per position, plus a few for the meta pass).
func (c *checker) newSchema(ptr string, v *Value) *Schema {
	if len(c.schemaBlock) == 0 {
		n := min(max(c.schemasLeft, 4), maxSchemaBlock)
		c.schemaBlock = make([]Schema, n)
		c.schemasLeft -= n
	}
	s := &c.schemaBlock[0]
	c.schemaBlock = c.schemaBlock[1:]
	// The block is zeroed: set only what is not zero (a whole Schema
	// copied in was a third of the time of this function).
	s.Pointer, s.Node, s.Types, s.MaxItems, s.MaxLength = ptr, v, AllTypes, -1, -1
	if c.doc != c.main {
		s.Doc = c.doc
	}
	return s
}

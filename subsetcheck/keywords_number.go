// The number keywords: minimum, maximum, exclusiveMinimum,
// exclusiveMaximum (combined by finishBounds into Schema.Lower and Upper),
// multipleOf.

package subsetcheck

import "math/big"

func checkMinimum(c *checker, k *keywordAt) {
	if r, ok := c.numberOf(k); ok {
		k.minimum = r
	}
}

func checkMaximum(c *checker, k *keywordAt) {
	if r, ok := c.numberOf(k); ok {
		k.maximum = r
	}
}

// numberOf reads keyword k's value as a number, reporting one that is not.
func (c *checker) numberOf(k *keywordAt) (*big.Rat, bool) {
	r, ok := k.m.Value.Rat()
	if !ok {
		c.bad(k, "must be a number")
	}
	return r, ok
}

// exclusiveMinimum, exclusiveMaximum: a number from draft-06 on; in
// draft-04 a boolean that makes minimum or maximum exclusive.
func checkExclusiveMinimum(c *checker, k *keywordAt) {
	if checkExclusive(c, k, "minimum") {
		k.exclMin = k.m.Value
	}
}

func checkExclusiveMaximum(c *checker, k *keywordAt) {
	if checkExclusive(c, k, "maximum") {
		k.exclMax = k.m.Value
	}
}

// checkExclusive checks the value of an exclusive bound whose inclusive
// keyword is called inclusive.
func checkExclusive(c *checker, k *keywordAt, inclusive string) bool {
	val := k.m.Value
	if c.draft == Draft4 {
		if val.Kind != Bool {
			c.bad(k, "must be true or false in draft-04 (it makes minimum or maximum exclusive)")
			return false
		}
		if k.obj.Get(inclusive) == nil {
			c.bad(k, "needs %s beside it in draft-04", inclusive)
			return false
		}
	} else if val.Kind != Number {
		c.bad(k, "must be a number")
		return false
	}
	return true
}

// multipleOf: a number greater than 0, which every number must be an
// integer multiple of (compile/multipleof.go).
func checkMultipleOf(c *checker, k *keywordAt) {
	r, ok := k.m.Value.Rat()
	if !ok || r.Sign() <= 0 {
		c.bad(k, "must be a number greater than 0")
		return
	}
	k.s.MultipleOf = r
}

// finishBounds combines the four bound keywords into the schema's bounds.
func finishBounds(k *keywordAt) {
	k.s.Lower = tighter(k.minimum, k.exclMin, true)
	k.s.Upper = tighter(k.maximum, k.exclMax, false)
}

// tighter combines an inclusive bound and an exclusive one (a number, or
// draft-04's boolean applying to the inclusive value) into one Bound.
func tighter(inclusive *big.Rat, exclusive *Value, lower bool) *Bound {
	var b *Bound
	if inclusive != nil {
		b = &Bound{Value: inclusive}
	}
	if exclusive == nil {
		return b
	}
	if exclusive.Kind == Bool {
		if exclusive.Bool && b != nil {
			b.Exclusive = true
		}
		return b
	}
	e, _ := exclusive.Rat()
	if b == nil {
		return &Bound{Value: e, Exclusive: true}
	}
	cmp := e.Cmp(b.Value)
	if cmp == 0 || (lower && cmp > 0) || (!lower && cmp < 0) {
		return &Bound{Value: e, Exclusive: true}
	}
	return b
}

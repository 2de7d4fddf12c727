package compile

import (
	"math/big"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Decimal ranges: a bounded number accepts only plain decimals
// -?(0|[1-9][0-9]*)(\.[0-9]*[1-9])? (no exponent, no trailing fraction
// zeros, no "-0") whose value lies between the bounds. That narrower
// spelling still holds the canonical text of every valid value. The grammar
// compares digit strings: the integer part with the integer-range grammar,
// then the fraction digits where the integer part equals a bound's.
// Bounds are JSON literals, so their decimal expansions are finite.

// numberRange is the grammar of the numbers between two schema bounds.
func (cp *compiler) numberRange(lower, upper *subsetcheck.Bound) gbnf.Expr {
	return cp.decimalRange(lower, upper, true)
}

// fractionRange is the grammar of the numbers with a non-zero fractional
// part between two schema bounds (type number, not integer: what "not"
// leaves of the numbers beside an integer). Unbounded, too, they are
// plain decimals: the full number grammar would spell 1.0 and 1e2, which
// are integers.
func (cp *compiler) fractionRange(lower, upper *subsetcheck.Bound) gbnf.Expr {
	return cp.decimalRange(lower, upper, false)
}

// decimalRange is the grammar of the plain decimals between two bounds,
// integers among them when whole is set; unbounded with whole, any number
// in any spelling.
func (cp *compiler) decimalRange(lower, upper *subsetcheck.Bound, whole bool) gbnf.Expr {
	if lower != nil && lower.Value == nil {
		lower = nil
	}
	if upper != nil && upper.Value == nil {
		upper = nil
	}
	if lower == nil && upper == nil && whole {
		return cp.number()
	}
	var nonNeg, neg gbnf.Expr
	if upper == nil || upper.Value.Sign() >= 0 {
		lo, loStrict := new(big.Rat), false
		if lower != nil && lower.Value.Sign() >= 0 {
			lo, loStrict = lower.Value, lower.Exclusive
		}
		var hi *big.Rat
		hiStrict := false
		if upper != nil {
			hi, hiStrict = upper.Value, upper.Exclusive
		}
		nonNeg = cp.magnitudes(lo, loStrict, hi, hiStrict, whole)
	}
	if lower == nil || lower.Value.Sign() < 0 {
		lo, loStrict := new(big.Rat), true // no "-0": zero belongs to the non-negative part
		if upper != nil && upper.Value.Sign() < 0 {
			lo, loStrict = new(big.Rat).Neg(upper.Value), upper.Exclusive
		}
		var hi *big.Rat
		hiStrict := false
		if lower != nil {
			hi, hiStrict = new(big.Rat).Neg(lower.Value), lower.Exclusive
		}
		if m := cp.magnitudes(lo, loStrict, hi, hiStrict, whole); m != nil {
			neg = seq(lit("-"), m)
		}
	}
	return alt(nonNeg, neg)
}

// magnitudes is the grammar of the plain decimals x with lo <= x <= hi
// (strict where asked), lo >= 0, hi nil for no upper bound; nil if none.
// Without whole, only those with a fractional part.
func (cp *compiler) magnitudes(lo *big.Rat, loStrict bool, hi *big.Rat, hiStrict bool, whole bool) gbnf.Expr {
	intA, fracA := decimalDigits(lo)
	frac := func(t tail) gbnf.Expr {
		t.empty = t.empty && whole
		return cp.fraction(t)
	}
	any := func() gbnf.Expr { // built where it is used: shared rules keep their order
		if !whole {
			return seq(lit("."), cp.fracTail())
		}
		return cp.anyFraction()
	}
	if hi == nil {
		return alt(
			seq(lit(intA.String()), frac(cp.fracAbove(fracA, 0, loStrict))),
			seq(cp.naturals(new(big.Int).Add(intA, big.NewInt(1)), nil), any()))
	}
	switch c := lo.Cmp(hi); {
	case c > 0, c == 0 && (loStrict || hiStrict):
		return nil
	case c == 0:
		if !whole && fracA == "" {
			return nil
		}
		return lit(decimalText(intA, fracA))
	}
	intB, fracB := decimalDigits(hi)
	if intA.Cmp(intB) == 0 {
		return seq(lit(intA.String()), frac(cp.fracBetween(fracA, fracB, 0, loStrict, hiStrict)))
	}
	var middle gbnf.Expr
	if a, b := new(big.Int).Add(intA, big.NewInt(1)), new(big.Int).Sub(intB, big.NewInt(1)); a.Cmp(b) <= 0 {
		middle = seq(cp.naturals(a, b), any())
	}
	return alt(
		seq(lit(intA.String()), frac(cp.fracAbove(fracA, 0, loStrict))),
		middle,
		seq(lit(intB.String()), frac(cp.fracBelow(fracB, 0, hiStrict))))
}

// finiteDecimal: the bound is absent or has a finite decimal expansion (a
// JSON literal always has; a hand-built schema may hold 1/3).
func finiteDecimal(b *subsetcheck.Bound) bool {
	if b == nil || b.Value == nil {
		return true
	}
	den := new(big.Int).Set(b.Value.Denom())
	for _, p := range []int64{2, 5} {
		q, m, f := new(big.Int), new(big.Int), big.NewInt(p)
		for q.DivMod(den, f, m); m.Sign() == 0; q.DivMod(den, f, m) {
			den.Set(q)
		}
	}
	return den.Cmp(big.NewInt(1)) == 0
}

// decimalDigits splits r >= 0, a finite decimal, into its integer part and
// its fraction digits without trailing zeros ("" for a whole number).
func decimalDigits(r *big.Rat) (*big.Int, string) {
	intPart := floorRat(r)
	rest := new(big.Rat).Sub(r, new(big.Rat).SetInt(intPart))
	if rest.Sign() == 0 {
		return intPart, ""
	}
	// rest = num/den with den = 2^i 5^j: scale by 10^k for k = max(i, j).
	den := new(big.Int).Set(rest.Denom())
	k := 0
	ten, two, five, zero := big.NewInt(10), big.NewInt(2), big.NewInt(5), new(big.Int)
	for den.Cmp(big.NewInt(1)) != 0 {
		m := new(big.Int)
		switch {
		case m.Mod(den, two).Cmp(zero) == 0:
			den.Div(den, two)
		case m.Mod(den, five).Cmp(zero) == 0:
			den.Div(den, five)
		default:
			return intPart, "" // not a finite decimal: cannot come from a JSON literal
		}
		k++
	}
	scaled := new(big.Rat).Mul(rest, new(big.Rat).SetInt(new(big.Int).Exp(ten, big.NewInt(int64(k)), nil)))
	digits := scaled.Num().String()
	for len(digits) < k {
		digits = "0" + digits
	}
	for len(digits) > 0 && digits[len(digits)-1] == '0' {
		digits = digits[:len(digits)-1]
	}
	return intPart, digits
}

func decimalText(intPart *big.Int, frac string) string {
	if frac == "" {
		return intPart.String()
	}
	return intPart.String() + "." + frac
}

// fracTail is [0-9]*[1-9]: a non-empty run of fraction digits ending in a
// non-zero digit.
func (cp *compiler) fracTail() gbnf.Expr {
	return cp.shared("fraction-digits", func(string) gbnf.Expr {
		return seq(&gbnf.Repeat{Expr: rangeClass('0', '9'), Min: 0, Max: -1}, rangeClass('1', '9'))
	})
}

// anyFraction is an optional fraction without trailing zeros.
func (cp *compiler) anyFraction() gbnf.Expr { return opt(seq(lit("."), cp.fracTail())) }

// tail is a set of fraction digit strings: the non-empty ones as an
// expression (nil for none), and whether the empty string belongs to it.
type tail struct {
	nonEmpty gbnf.Expr
	empty    bool
}

// fraction turns a set of fraction digit strings into "" or "." digits.
func (cp *compiler) fraction(t tail) gbnf.Expr {
	var e gbnf.Expr
	if t.empty {
		e = epsilon()
	}
	return cp.altOpt(seq(lit("."), t.nonEmpty), e)
}

func digitAt(s string, i int) rune {
	if i < len(s) {
		return rune(s[i])
	}
	return '0'
}

// after prefixes digit d to t; d alone is a valid ending only if non-zero.
func after(d rune, t tail) gbnf.Expr {
	var alone gbnf.Expr
	if t.empty && d != '0' {
		alone = lit(string(d))
	}
	return alt(seq(lit(string(d)), t.nonEmpty), alone)
}

// fracAbove: digit strings t with 0.t >= 0.s[i:] (> when strict).
func (cp *compiler) fracAbove(s string, i int, strict bool) tail {
	if i >= len(s) {
		return tail{cp.fracTail(), !strict}
	}
	d := rune(s[i])
	var higher gbnf.Expr
	if d < '9' {
		higher = seq(rangeClass(d+1, '9'), opt(cp.fracTail()))
	}
	return tail{alt(after(d, cp.fracAbove(s, i+1, strict)), higher), false}
}

// fracBelow: digit strings t with 0.t <= 0.s[i:] (< when strict).
func (cp *compiler) fracBelow(s string, i int, strict bool) tail {
	if i >= len(s) {
		return tail{nil, !strict}
	}
	d := rune(s[i])
	var lower, lowerAlone gbnf.Expr
	if d >= '1' {
		lower = seq(rangeClass('0', d-1), cp.fracTail())
	}
	if d >= '2' {
		lowerAlone = rangeClass('1', d-1)
	}
	return tail{alt(lower, lowerAlone, after(d, cp.fracBelow(s, i+1, strict))), true}
}

// fracBetween: digit strings t with 0.a[i:] <= 0.t <= 0.b[i:] (strict where
// asked), the values of a and b differing.
func (cp *compiler) fracBetween(a, b string, i int, aStrict, bStrict bool) tail {
	emptyOK := i >= len(a) && !aStrict // t ends here: its value is the common prefix
	ca, cb := digitAt(a, i), digitAt(b, i)
	if ca == cb {
		return tail{after(ca, cp.fracBetween(a, b, i+1, aStrict, bStrict)), emptyOK}
	}
	var middle gbnf.Expr
	if cb-ca >= 2 {
		middle = seq(rangeClass(ca+1, cb-1), opt(cp.fracTail()))
	}
	return tail{alt(
		after(ca, cp.fracAbove(a, i+1, aStrict)),
		middle,
		after(cb, cp.fracBelow(b, i+1, bStrict))), emptyOK}
}

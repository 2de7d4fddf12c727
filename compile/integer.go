package compile

import (
	"math/big"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Integer ranges: the canonical spellings -?(0|[1-9][0-9]*) of the integers
// between two bounds of any size, as a digit-by-digit grammar (the
// range-to-regex construction): numbers longer than the lower bound, plus
// numbers as long as it and not smaller, and symmetrically for the upper one.

// integerBounds turns schema bounds (rationals, maybe exclusive) into the
// smallest and largest allowed integer; nil means unbounded.
func integerBounds(lower, upper *subsetcheck.Bound) (lo, hi *big.Int) {
	if lower != nil && lower.Value != nil {
		if lower.Exclusive {
			lo = floorRat(lower.Value)
			lo.Add(lo, big.NewInt(1))
		} else {
			lo = ceilRat(lower.Value)
		}
	}
	if upper != nil && upper.Value != nil {
		if upper.Exclusive {
			hi = ceilRat(upper.Value)
			hi.Sub(hi, big.NewInt(1))
		} else {
			hi = floorRat(upper.Value)
		}
	}
	return lo, hi
}

func floorRat(r *big.Rat) *big.Int {
	return new(big.Int).Div(r.Num(), r.Denom()) // Euclidean: rounds down, the denominator being positive
}

func ceilRat(r *big.Rat) *big.Int {
	neg := new(big.Rat).Neg(r)
	f := floorRat(neg)
	return f.Neg(f)
}

// integerRange is the grammar of the integers in [lo, hi]; nil bounds are open.
func (cp *compiler) integerRange(lo, hi *big.Int) gbnf.Expr {
	if lo == nil && hi == nil {
		return cp.integerAny()
	}
	if lo != nil && hi != nil && lo.Cmp(hi) > 0 {
		return nil
	}
	zero := big.NewInt(0)
	var nonNeg, neg gbnf.Expr
	if hi == nil || hi.Sign() >= 0 {
		a := zero
		if lo != nil && lo.Sign() > 0 {
			a = lo
		}
		nonNeg = cp.naturals(a, hi)
	}
	if lo == nil || lo.Sign() < 0 {
		a := big.NewInt(1) // magnitudes of the negative part: [max(1,-hi), -lo]
		if hi != nil && hi.Sign() < 0 {
			a = new(big.Int).Neg(hi)
		}
		var b *big.Int
		if lo != nil {
			b = new(big.Int).Neg(lo)
		}
		neg = seq(lit("-"), cp.naturals(a, b))
	}
	return alt(nonNeg, neg)
}

// naturals is the grammar of the canonical decimals of [a, b], a >= 0,
// b nil for no upper bound.
func (cp *compiler) naturals(a, b *big.Int) gbnf.Expr {
	var alts []gbnf.Expr
	if a.Sign() == 0 {
		alts = append(alts, lit("0"))
		a = big.NewInt(1)
	}
	if b != nil && b.Cmp(a) < 0 {
		return alt(alts...)
	}
	sa := a.String()
	if b == nil {
		alts = append(alts, geqDigits(cp, sa, 0), seq(rangeClass('1', '9'), cp.repeat(cp.digit(len(sa)), len(sa), -1)))
		return alt(alts...)
	}
	sb := b.String()
	if len(sa) == len(sb) {
		return alt(append(alts, betweenDigits(cp, sa, sb))...)
	}
	alts = append(alts, geqDigits(cp, sa, 0))
	if len(sb)-len(sa) >= 2 { // every number of a length strictly between
		alts = append(alts, seq(rangeClass('1', '9'), cp.repeat(cp.digit(len(sb)), len(sa), len(sb)-2)))
	}
	alts = append(alts, leqDigits(cp, sb, 0, '1'))
	return alt(alts...)
}

// digit is [0-9], as a shared rule when it will be repeated many times.
func (cp *compiler) digit(count int) gbnf.Expr {
	if count <= MaxRepeatCount {
		return rangeClass('0', '9')
	}
	return cp.shared("digit", func(string) gbnf.Expr { return rangeClass('0', '9') })
}

func (cp *compiler) digits(n int) gbnf.Expr { return cp.repeatExact(cp.digit(n), n) }

// geqDigits: strings of len(s)-i digits that are >= s[i:].
func geqDigits(cp *compiler, s string, i int) gbnf.Expr {
	if i == len(s) {
		return epsilon()
	}
	d := rune(s[i])
	rest := len(s) - i - 1
	if strings.Trim(s[i+1:], "0") == "" {
		return seq(rangeClass(d, '9'), cp.digits(rest))
	}
	return alt(seq(lit(string(d)), geqDigits(cp, s, i+1)), seq(rangeClass(d+1, '9'), cp.digits(rest)))
}

// leqDigits: strings of len(s)-i digits that are <= s[i:], the first digit
// at least first.
func leqDigits(cp *compiler, s string, i int, first rune) gbnf.Expr {
	if i == len(s) {
		return epsilon()
	}
	d := rune(s[i])
	rest := len(s) - i - 1
	if strings.Trim(s[i+1:], "9") == "" {
		return seq(rangeClass(first, d), cp.digits(rest))
	}
	return alt(seq(rangeClass(first, d-1), cp.digits(rest)), seq(lit(string(d)), leqDigits(cp, s, i+1, '0')))
}

// betweenDigits: strings as long as sa and sb (sa <= sb) between them.
func betweenDigits(cp *compiler, sa, sb string) gbnf.Expr {
	i := 0
	for i < len(sa) && sa[i] == sb[i] {
		i++
	}
	if i == len(sa) {
		return lit(sa)
	}
	prefix := lit(sa[:i])
	da, db := rune(sa[i]), rune(sb[i])
	rest := len(sa) - i - 1
	low := seq(lit(string(da)), geqDigits(cp, sa, i+1))
	midLo := da + 1
	if strings.Trim(sa[i+1:], "0") == "" {
		low, midLo = nil, da
	}
	high := seq(lit(string(db)), leqDigits(cp, sb, i+1, '0'))
	midHi := db - 1
	if strings.Trim(sb[i+1:], "9") == "" {
		high, midHi = nil, db
	}
	var mid gbnf.Expr
	if midLo <= midHi {
		mid = seq(rangeClass(midLo, midHi), cp.digits(rest))
	}
	return seq(prefix, alt(low, mid, high))
}

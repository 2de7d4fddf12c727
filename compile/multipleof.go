package compile

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// lcmRat is the least common multiple of two positive rationals (nil:
// none): the numbers that are multiples of both are the multiples of
// lcm(p/q, r/s) = lcm(p, r) / gcd(q, s), for fractions in lowest terms.
func lcmRat(a, b *big.Rat) *big.Rat {
	switch {
	case a == nil:
		return b
	case b == nil || a.Cmp(b) == 0:
		return a
	}
	g := new(big.Int).GCD(nil, nil, a.Num(), b.Num())
	num := new(big.Int).Mul(a.Num(), new(big.Int).Quo(b.Num(), g))
	den := new(big.Int).GCD(nil, nil, a.Denom(), b.Denom())
	return new(big.Rat).SetFrac(num, den)
}

// multipleOf: the numbers of a range that are multiples of d, exactly, in
// their canonical plain spelling. d is a JSON literal, a finite decimal
// D / 10^s (s its fraction digits, D an integer). A number x is a multiple
// of d when x·10^s / D is an integer, so x has at most s fraction digits
// and N = x·10^s (its digits with the point dropped, the fraction padded
// with zeros to s digits) is a multiple of D. For integers only (type
// integer), the multiples of d = p/q in lowest terms are the multiples of
// p, with s = 0.
//
// The grammar is a digit automaton over N's digits padded to a width W,
// left to right, each state a rule: the position, the remainder of the
// digits so far modulo D, whether the digits so far equal the lower or the
// upper bound's (the range-to-regex construction of integer.go, carried
// digit by digit), whether nothing but leading zeros was read, and whether
// the last fraction digit was not zero (a canonical fraction ends in one;
// the zeros after it are implicit). Without an upper bound, numbers longer
// than W loop on one state per remainder. The states are bounded by
// Options.MaxMultipleOfStates (C403): multipleOf 1e-300 needs a few
// hundred, multipleOf 7 over ten-digit bounds a few hundred.

// multipleOfRange is the grammar of the multiples of p.MultipleOf within
// p's bounds, of the number types in nc: integers only (TInteger), numbers
// that are not integers only (TNumber, from a complement), or both.
func (cp *compiler) multipleOfRange(p *subsetcheck.Schema, nc subsetcheck.Type) gbnf.Expr {
	d := p.MultipleOf
	var s int
	var D *big.Int
	lower, upper := p.Lower, p.Upper
	if nc == subsetcheck.TInteger {
		D = new(big.Int).Set(d.Num())
	} else {
		if !finiteDecimal(&subsetcheck.Bound{Value: d}) {
			cp.problem(p, subsetcheck.CodeNotExactlyCompilable, "multipleOf is not a finite decimal, so no digit automaton can state it")
			return nil
		}
		_, frac := decimalDigits(new(big.Rat).Abs(d))
		s = len(frac)
		scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(s)), nil))
		D = new(big.Rat).Mul(d, scale).Num()
		lower, upper = scaleBound(lower, scale), scaleBound(upper, scale)
	}
	lo, hi := integerBounds(lower, upper)
	if lo != nil && hi != nil && lo.Cmp(hi) > 0 {
		return nil
	}
	// A whole step with trailing zeros (1000 = 1 × 10^3): the multiples
	// are M followed by the zeros, M a multiple of what is left, so the
	// automaton needs a state per remainder of 1, not of 1000.
	zeros := 0
	if s == 0 {
		ten, q, m := big.NewInt(10), new(big.Int), new(big.Int)
		for D.Sign() > 0 {
			if q.DivMod(D, ten, m); m.Sign() != 0 {
				break
			}
			D = new(big.Int).Set(q)
			zeros++
		}
	}
	if !D.IsInt64() || D.Int64() > int64(cp.maxMultipleOfStates) {
		cp.multipleOfTooLarge(p, s, D)
		return nil
	}
	if nc == subsetcheck.TNumber && s == 0 {
		return nil // the multiples of a whole step are integers
	}
	a := &digitAutomaton{cp: cp, p: p, s: s, d: int(D.Int64()), zeros: zeros, fractionOnly: nc == subsetcheck.TNumber,
		rules: map[digitState]gbnf.Expr{}, byBody: map[string]gbnf.Expr{}}
	var nonNeg, neg gbnf.Expr
	if hi == nil || hi.Sign() >= 0 {
		from := new(big.Int)
		if lo != nil && lo.Sign() > 0 {
			from = lo
		}
		nonNeg = a.magnitudes(from, hi)
	}
	if lo == nil || lo.Sign() < 0 {
		from := big.NewInt(1) // no "-0": zero belongs to the non-negative part
		if hi != nil && hi.Sign() < 0 {
			from = new(big.Int).Neg(hi)
		}
		var to *big.Int
		if lo != nil {
			to = new(big.Int).Neg(lo)
		}
		if m := a.magnitudes(from, to); m != nil {
			neg = seq(lit("-"), m)
		}
	}
	if a.failed {
		return nil
	}
	return alt(nonNeg, neg)
}

func (cp *compiler) multipleOfTooLarge(p *subsetcheck.Schema, s int, D *big.Int) {
	cp.problem(p, subsetcheck.CodeGrammarTooLarge, fmt.Sprintf(
		"multipleOf %s needs a digit automaton of more than %d states (Options.MaxMultipleOfStates): %s remainders over %d fraction digits and the bounds' digits; use a simpler multipleOf, narrower bounds, or raise the limit",
		p.MultipleOf.RatString(), cp.maxMultipleOfStates, D.String(), s))
}

// scaleBound multiplies a bound by scale.
func scaleBound(b *subsetcheck.Bound, scale *big.Rat) *subsetcheck.Bound {
	if b == nil || b.Value == nil {
		return nil
	}
	return &subsetcheck.Bound{Value: new(big.Rat).Mul(b.Value, scale), Exclusive: b.Exclusive}
}

// digitAutomaton builds the states of one multipleOf range.
type digitAutomaton struct {
	cp    *compiler
	p     *subsetcheck.Schema
	s, d  int // fraction digits and divisor
	zeros int // the step's trailing zeros, taken out of d (a whole step only)
	// fractionOnly: only the multiples that are not integers (a fraction
	// digit is written).
	fractionOnly bool
	a, b         string // the bounds' digits padded to the width; b "" for none
	bounds       int    // which magnitudes call a and b belong to
	rules        map[digitState]gbnf.Expr
	byBody       map[string]gbnf.Expr // state rules by exprKey of their bodies
	states       int
	failed       bool
}

// digitState is one state: see multipleOf's comment. long > 0 marks the
// integer digits of a number longer than the width (then only r counts):
// one more than the count of them so far, up to minInt+1.
type digitState struct {
	pos, r         int
	tlo, thi, lead bool
	last           bool
	long           int
	minInt         int // long states: integer digits the number has at least
	width          int // the width the positions count in
	bounds         int // tight states: the bounds they compare with
}

// magnitudes is the grammar of N/10^s for the multiples N of d·10^zeros
// in [from, to] (to nil: no upper bound), from >= 0.
func (a *digitAutomaton) magnitudes(from, to *big.Int) gbnf.Expr {
	if a.zeros == 0 {
		return a.digitsOf(from, to)
	}
	// N = M·10^zeros: M from ceil(from/10^zeros) (at least 1) to
	// floor(to/10^zeros), then the zeros; and 0 itself, spelled "0".
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(a.zeros)), nil)
	var zero gbnf.Expr
	if from.Sign() == 0 {
		zero = lit("0")
	}
	mFrom := new(big.Int).Add(from, new(big.Int).Sub(scale, big.NewInt(1)))
	mFrom.Quo(mFrom, scale)
	if mFrom.Sign() == 0 {
		mFrom.SetInt64(1)
	}
	var mTo *big.Int
	if to != nil {
		if mTo = new(big.Int).Quo(to, scale); mTo.Cmp(mFrom) < 0 {
			return zero
		}
	}
	m := a.digitsOf(mFrom, mTo)
	if m == nil {
		return zero
	}
	return alt(zero, seq(m, lit(strings.Repeat("0", a.zeros))))
}

// digitsOf is magnitudes without the trailing zeros: N/10^s for the
// multiples N of d in [from, to].
func (a *digitAutomaton) digitsOf(from, to *big.Int) gbnf.Expr {
	a.bounds++ // tight states belong to these bounds only
	sa := from.String()
	w := max(len(sa), a.s+1)
	if to != nil {
		sb := to.String()
		if len(sb) > w {
			w = len(sb)
		}
		a.a, a.b = pad(sa, w), pad(sb, w)
		return a.state(digitState{tlo: true, thi: true, lead: true, width: w, bounds: a.bounds})
	}
	a.a, a.b = pad(sa, w), ""
	if from.BitLen() <= 1 {
		// From zero (or the first multiple above it, as the negative
		// side starts): "0" and its fraction, or a first digit 1-9, any
		// more integer digits and the fraction. Both sides share these.
		var zero gbnf.Expr
		switch {
		case from.Sign() == 0:
			zero = seq(lit("0"), a.state(digitState{pos: w - a.s, width: w}))
		case a.s > 0: // 0.0…01 and up
			zero = seq(lit("0"), a.state(digitState{pos: w - a.s, width: w, tlo: true, bounds: a.bounds}))
		}
		return alt(zero, a.state(digitState{long: 1, minInt: 1, width: w}))
	}
	// Up to w digits, at least from (none is above w digits' reach);
	// longer: any digits.
	short := a.state(digitState{tlo: true, lead: true, width: w, bounds: a.bounds})
	return alt(short, a.state(digitState{long: 1, minInt: w - a.s + 1, width: w}))
}

func pad(s string, w int) string { return strings.Repeat("0", w-len(s)) + s }

// state is the rule of one state, nil when it leads to no number.
func (a *digitAutomaton) state(st digitState) gbnf.Expr {
	if a.failed {
		return nil
	}
	if r, ok := a.rules[st]; ok {
		return r
	}
	if a.states++; a.states > a.cp.maxMultipleOfStates {
		a.failed = true
		a.cp.multipleOfTooLarge(a.p, a.s, big.NewInt(int64(a.d)))
		return nil
	}
	var rule *gbnf.Rule
	if st.long > 0 { // a loop: the rule exists before its body
		rule = a.cp.newRule(a.cp.newName(pointerName(a.p.Pointer)+"-multiple"), nil)
		a.rules[st] = a.cp.ref(rule.Name)
	} else {
		a.rules[st] = nil // positions only grow: no way back here
	}
	e := a.body(st)
	if a.failed {
		return nil
	}
	if rule != nil {
		rule.Expr = e
		if e == nil { // cannot happen: some multiple is longer than any width
			rule.Expr = lit("0")
		}
		return a.rules[st]
	}
	if e == nil || isEpsilon(e) {
		a.rules[st] = e
		return e
	}
	// States with the same way on are one: their bodies name the same
	// rules (positions only grow, so the rules below are final).
	key := exprKey(nil, e)
	if r, ok := a.byBody[string(key)]; ok {
		a.rules[st] = r
		return r
	}
	r := a.cp.addRule(a.cp.newName(pointerName(a.p.Pointer)+"-multiple"), e)
	a.rules[st] = r
	a.byBody[string(key)] = r
	return r
}

// exprKey appends a spelling of e that two expressions share only when
// they are the same: the shapes the digit automaton builds.
func exprKey(b []byte, e gbnf.Expr) []byte {
	switch x := e.(type) {
	case *gbnf.Lit:
		return strconv.AppendQuote(append(b, 'L'), x.Text)
	case *gbnf.Class:
		b = append(b, 'C')
		if x.Negated {
			b = append(b, '^')
		}
		for _, r := range x.Ranges {
			b = strconv.AppendInt(append(b, ' '), int64(r.Lo), 10)
			b = strconv.AppendInt(append(b, '-'), int64(r.Hi), 10)
		}
		return append(b, ';')
	case *gbnf.Ref:
		return append(append(append(b, 'R'), x.Name...), ';')
	case *gbnf.Seq:
		b = append(b, '(')
		for _, it := range x.Items {
			b = exprKey(b, it)
		}
		return append(b, ')')
	case *gbnf.Alt:
		b = append(b, '[')
		for _, it := range x.Alts {
			b = append(exprKey(b, it), '|')
		}
		return append(b, ']')
	case *gbnf.Repeat:
		b = exprKey(append(b, '{'), x.Expr)
		b = strconv.AppendInt(append(b, ','), int64(x.Min), 10)
		return append(strconv.AppendInt(append(b, ','), int64(x.Max), 10), '}')
	}
	return append(b, '?')
}

// body is the alternatives of one state.
func (a *digitAutomaton) body(st digitState) gbnf.Expr {
	intDigits := st.width - a.s // positions before the point
	if st.long > 0 {
		// A number longer than the width: a first digit 1-9, then at
		// least intDigits more integer digits, then the fraction.
		var alts []gbnf.Expr
		lo := '0'
		if st.long == 1 {
			lo = '1'
		}
		next := min(st.long+1, st.minInt+1)
		alts = append(alts, a.digits(lo, '9', st, func(d int, n *digitState) { n.long = next }, nil)...)
		if st.long == st.minInt+1 { // long enough: the fraction may start
			alts = append(alts, a.fraction(digitState{pos: intDigits, r: st.r, width: st.width}))
		}
		return alt(alts...)
	}
	if st.pos == st.width {
		if st.r == 0 && (a.s == 0 || st.last) {
			return epsilon()
		}
		return nil
	}
	if st.pos >= intDigits {
		return a.fraction(st)
	}
	lo, hi := rune('0'), rune('9')
	if st.tlo {
		lo = rune(a.a[st.pos])
	}
	if st.thi {
		hi = rune(a.b[st.pos])
	}
	var alts []gbnf.Expr
	if st.lead && lo == '0' && st.pos < intDigits-1 {
		// A leading zero is not written.
		n := st
		n.pos++
		n.tlo = st.tlo && a.a[st.pos] == '0'
		n.thi = st.thi && a.b[st.pos] == '0'
		if !n.tlo && !n.thi {
			n.bounds = 0
		}
		alts = append(alts, a.state(n))
		lo = '1'
	}
	if lo <= hi {
		alts = append(alts, a.digits(lo, hi, st, nil, nil)...)
	}
	return alt(alts...)
}

// fraction is a state at or past the point: stop here (the rest of the
// digits zeros), or write the next digit, the point first.
func (a *digitAutomaton) fraction(st digitState) gbnf.Expr {
	j := st.pos - (st.width - a.s) // fraction digits written
	var alts []gbnf.Expr
	if j == 0 && !a.fractionOnly || j > 0 && st.last {
		rest := st.width - st.pos
		stop := !st.tlo || strings.Trim(a.a[st.pos:], "0") == ""
		if stop && a.remainderAfterZeros(st.r, rest) == 0 {
			alts = append(alts, epsilon())
		}
	}
	lo, hi := rune('0'), rune('9')
	if st.tlo {
		lo = rune(a.a[st.pos])
	}
	if st.thi {
		hi = rune(a.b[st.pos])
	}
	if lo <= hi && st.pos < st.width {
		var point gbnf.Expr
		if j == 0 {
			point = lit(".")
		}
		alts = append(alts, a.digits(lo, hi, st, func(d int, n *digitState) { n.last = d != 0 }, point)...)
	}
	return alt(alts...)
}

// remainderAfterZeros is r·10^k mod d.
func (a *digitAutomaton) remainderAfterZeros(r, k int) int {
	for ; k > 0 && r != 0; k-- {
		r = r * 10 % a.d
	}
	return r
}

// digits is the ways to write one digit from lo to hi at st, each followed
// by its next state, digits leading to the same state grouped in one
// class; tweak adjusts the next state, prefix comes before the digit.
func (a *digitAutomaton) digits(lo, hi rune, st digitState, tweak func(int, *digitState), prefix gbnf.Expr) []gbnf.Expr {
	type group struct {
		next   digitState
		lo, hi rune
	}
	var groups []group
	for c := lo; c <= hi; c++ {
		d := int(c - '0')
		n := st
		n.r = (st.r*10 + d) % a.d
		if st.long == 0 {
			n.pos++
			n.tlo = st.tlo && byte(c) == a.a[st.pos]
			n.thi = st.thi && byte(c) == a.b[st.pos]
			n.lead = false
			n.last = false
			if !n.tlo && !n.thi {
				n.bounds = 0 // free of the bounds: shared by every side
			}
		}
		if tweak != nil {
			tweak(d, &n)
		}
		if k := len(groups); k > 0 && groups[k-1].next == n && groups[k-1].hi == c-1 {
			groups[k-1].hi = c
			continue
		}
		groups = append(groups, group{n, c, c})
	}
	var out []gbnf.Expr
	for _, g := range groups {
		next := a.state(g.next)
		if next == nil {
			continue
		}
		var digit gbnf.Expr = rangeClass(g.lo, g.hi)
		if g.lo == g.hi {
			digit = lit(string(g.lo))
		}
		if prefix != nil {
			digit = seq(prefix, digit)
		}
		out = append(out, seq(digit, next))
	}
	return out
}

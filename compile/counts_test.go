package compile

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// The exact set of counts a grammar accepts, computed from its rules, for
// bounds whose texts are too long to build (maxLength: 10^9). Every
// expression is read as the set of numbers of items (occurrences of one
// chosen expression, such as the rule char in a string) that its texts
// hold: an item counts 1, any other terminal 0; a sequence adds its parts'
// counts, a choice unites them, x{m,n} is the union of the j-fold sums for
// m <= j <= n. Sets are unions of arithmetic progressions (a block of 16
// items repeated up to k times is the progression 0, 16, …, 16k), so a
// count of 10^18 costs a few steps, not 10^18. The reading is exact for
// grammars whose every part derives some text, as pruned grammars do; that
// each item is one character, one array item, is the matcher's to test on
// short texts.

// many is the number of terms of a progression with no end.
const many = -1

// prog is the progression lo, lo+step, …, with n terms (n >= 1 or many);
// step is 0 when n == 1.
type prog struct{ lo, step, n int64 }

func (p prog) single() bool   { return p.n == 1 }
func (p prog) interval() bool { return p.n == 1 || p.step == 1 }

// hi is the last term; math.MaxInt64 when there is none (test p.n == many
// first where it matters: a finite count may be math.MaxInt64 too).
func (p prog) hi() int64 {
	if p.n == many {
		return math.MaxInt64
	}
	return p.lo + p.step*(p.n-1)
}

// through is the progression from p.lo by step to the furthest end of p
// and q.
func progThrough(p, q prog, step int64) prog {
	if p.n == many || q.n == many {
		return prog{p.lo, step, many}
	}
	return progSpan(p.lo, max(p.hi(), q.hi()), step)
}

func (p prog) String() string {
	switch {
	case p.n == 1:
		return strconv.FormatInt(p.lo, 10)
	case p.n == many && p.step == 1:
		return fmt.Sprintf("[%d,∞)", p.lo)
	case p.n == many:
		return fmt.Sprintf("%d+%dk (k>=0)", p.lo, p.step)
	case p.step == 1:
		return fmt.Sprintf("[%d,%d]", p.lo, p.hi())
	}
	return fmt.Sprintf("%d+%dk (0<=k<%d)", p.lo, p.step, p.n)
}

// countSet is a union of progressions, sorted by lo once normalized.
type countSet []prog

func (s countSet) String() string {
	if len(s) == 0 {
		return "{}"
	}
	parts := make([]string, len(s))
	for i, p := range s {
		parts[i] = p.String()
	}
	return "{" + strings.Join(parts, " ∪ ") + "}"
}

// has says whether c is in the set.
func (s countSet) has(c int64) bool {
	for _, p := range s {
		if c < p.lo || c > p.hi() {
			continue
		}
		if p.n == 1 || (c-p.lo)%p.step == 0 {
			return true
		}
	}
	return false
}

// isInterval says whether the set is exactly [lo, hi] (hi < 0: no end).
func (s countSet) isInterval(lo, hi int64) bool {
	if len(s) != 1 || !s[0].interval() || s[0].lo != lo {
		return false
	}
	if hi < 0 {
		return s[0].n == many
	}
	return s[0].n != many && s[0].hi() == hi
}

var errOverflow = errors.New("a count passes int64")

func addCount(a, b int64) int64 {
	s, carry := bits.Add64(uint64(a), uint64(b), 0)
	if carry != 0 || s > math.MaxInt64 {
		panic(errOverflow)
	}
	return int64(s)
}

func mulCount(a, b int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		panic(errOverflow)
	}
	return int64(lo)
}

// span is the progression from lo to hi by step.
func progSpan(lo, hi, step int64) prog {
	if hi == lo {
		return prog{lo, 0, 1}
	}
	return prog{lo, step, (hi-lo)/step + 1}
}

// contains says whether every term of q is a term of p.
func progContains(p, q prog) bool {
	if q.lo < p.lo || q.n == many && p.n != many || q.hi() > p.hi() {
		return false
	}
	if p.n == 1 {
		return q.n == 1 && q.lo == p.lo
	}
	return (q.lo-p.lo)%p.step == 0 && (q.n == 1 || q.step%p.step == 0)
}

// merge joins q (q.lo >= p.lo) to p when their union is one progression.
func progMerge(p, q prog) (prog, bool) {
	if progContains(p, q) {
		return p, true
	}
	if p.interval() && q.interval() && q.lo-1 <= p.hi() {
		return progThrough(p, q, 1), true
	}
	step := p.step
	switch {
	case p.n == 1 && q.n == 1:
		step = q.lo - p.lo
	case p.n == 1:
		step = q.step
	}
	if step <= 0 || p.n == many || (q.n != 1 && q.step != step) || (q.lo-p.lo)%step != 0 || q.lo-step > p.hi() {
		return p, false
	}
	return progThrough(p, q, step), true
}

// normalize sorts the progressions and merges neighbours.
func normalizeCounts(s countSet) countSet {
	slices.SortFunc(s, func(a, b prog) int {
		if a.lo != b.lo {
			return compareCount(a.lo, b.lo)
		}
		return compareCount(b.hi(), a.hi())
	})
	var out countSet
	for _, q := range s {
		if n := len(out); n > 0 {
			if m, ok := progMerge(out[n-1], q); ok {
				out[n-1] = m
				continue
			}
		}
		out = append(out, q)
	}
	return out
}

func compareCount(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// maxEnumerated bounds the sums worked out term by term, when two
// progressions fit none of the closed forms.
const maxEnumerated = 1 << 12

var errIrregular = errors.New("a sum of two count progressions fits no closed form")

// sumProg is {a + b : a in p, b in q}.
func sumProgs(p, q prog) countSet {
	if p.n == 1 {
		p, q = q, p
	}
	if q.n == 1 {
		if p.n != many {
			addCount(p.hi(), q.lo) // the last term must fit too
		}
		return countSet{{addCount(p.lo, q.lo), p.step, p.n}}
	}
	if p.step > q.step {
		p, q = q, p
	}
	lo := addCount(p.lo, q.lo)
	whole := func() prog { // from lo to the last sum, by p.step
		if p.n == many || q.n == many {
			return prog{lo, p.step, many}
		}
		return progSpan(lo, addCount(p.hi(), q.hi()), p.step)
	}
	switch {
	case p.step == q.step:
		return countSet{whole()}
	case q.step%p.step == 0 && (p.n == many || p.n >= q.step/p.step):
		// p's terms fill the gap between two of q's.
		return countSet{whole()}
	case p.n != many && q.n != many && p.n*q.n <= maxEnumerated:
		var out countSet
		for i := int64(0); i < p.n; i++ {
			for j := int64(0); j < q.n; j++ {
				out = append(out, prog{p.lo + i*p.step + q.lo + j*q.step, 0, 1})
			}
		}
		return out
	}
	panic(errIrregular)
}

func sumCounts(a, b countSet) countSet {
	var out countSet
	for _, p := range a {
		for _, q := range b {
			out = append(out, sumProgs(p, q)...)
		}
	}
	return normalizeCounts(out)
}

func unionCounts(a, b countSet) countSet { return normalizeCounts(append(slices.Clone(a), b...)) }

// repeatSet is x{min,max} for a set x of counts.
func repeatCounts(x countSet, min, max int) countSet {
	if max < 0 {
		if len(x) != 1 || x[0].n != 1 {
			panic(fmt.Errorf("x{%d,} of a count set %v that is not one number", min, x))
		}
		c := x[0].lo
		if c == 0 {
			return countSet{{0, 0, 1}}
		}
		return countSet{{mulCount(int64(min), c), c, many}}
	}
	var out countSet
	acc := countSet{{0, 0, 1}}
	for j := 0; j <= max; j++ {
		if j >= min {
			out = unionCounts(out, acc)
		}
		if j < max {
			acc = sumCounts(acc, x)
		}
	}
	return out
}

// counter reads the rules of a grammar as count sets.
type counter struct {
	g      *gbnf.Grammar
	isItem func(gbnf.Expr) bool
	rules  map[string]countSet
	open   map[string]bool
}

// countsOf is the set of item counts of the texts g accepts from root.
func countsOf(g *gbnf.Grammar, isItem func(gbnf.Expr) bool) (s countSet, err error) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(error)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	c := &counter{g: g, isItem: isItem, rules: map[string]countSet{}, open: map[string]bool{}}
	return c.rule("root"), nil
}

func (c *counter) rule(name string) countSet {
	if s, ok := c.rules[name]; ok {
		return s
	}
	if c.open[name] {
		panic(fmt.Errorf("rule %s is recursive: its counts have no closed form here", name))
	}
	r := c.g.Rule(name)
	if r == nil {
		panic(fmt.Errorf("no rule %s", name))
	}
	c.open[name] = true
	s := c.expr(r.Expr)
	delete(c.open, name)
	c.rules[name] = s
	return s
}

func (c *counter) expr(e gbnf.Expr) countSet {
	if c.isItem(e) {
		return countSet{{1, 0, 1}}
	}
	switch e := e.(type) {
	case *gbnf.Ref:
		return c.rule(e.Name)
	case *gbnf.Seq:
		out := countSet{{0, 0, 1}}
		for _, x := range e.Items {
			out = sumCounts(out, c.expr(x))
		}
		return out
	case *gbnf.Alt:
		var out countSet
		for _, x := range e.Alts {
			out = unionCounts(out, c.expr(x))
		}
		return out
	case *gbnf.Repeat:
		return repeatCounts(c.expr(e.Expr), e.Min, e.Max)
	}
	return countSet{{0, 0, 1}} // Lit, Class, Any: no item
}

// bruteCounts is the set of item counts up to limit, worked out count by
// count as a bit set: the reference countsOf is checked against.
func bruteCounts(g *gbnf.Grammar, isItem func(gbnf.Expr) bool, limit int) *big.Int {
	mask := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(limit+1)), big.NewInt(1))
	popcount := func(a *big.Int) (n int) {
		for _, w := range a.Bits() {
			n += bits.OnesCount(uint(w))
		}
		return n
	}
	sum := func(a, b *big.Int) *big.Int {
		if popcount(a) > popcount(b) {
			a, b = b, a
		}
		out, sh := new(big.Int), new(big.Int)
		for wi, w := range a.Bits() {
			for w != 0 {
				i := wi*bits.UintSize + bits.TrailingZeros(uint(w))
				w &= w - 1
				out.Or(out, sh.Lsh(b, uint(i)))
			}
		}
		return out.And(out, mask)
	}
	one := func(c int) *big.Int { return new(big.Int).SetBit(new(big.Int), c, 1) }
	memo := map[string]*big.Int{}
	var expr func(e gbnf.Expr) *big.Int
	expr = func(e gbnf.Expr) *big.Int {
		if isItem(e) {
			return one(1)
		}
		switch e := e.(type) {
		case *gbnf.Ref:
			if b, ok := memo[e.Name]; ok {
				return b
			}
			b := expr(g.Rule(e.Name).Expr)
			memo[e.Name] = b
			return b
		case *gbnf.Seq:
			out := one(0)
			for _, x := range e.Items {
				out = sum(out, expr(x))
			}
			return out
		case *gbnf.Alt:
			out := new(big.Int)
			for _, x := range e.Alts {
				out.Or(out, expr(x))
			}
			return out
		case *gbnf.Repeat:
			x, acc, out := expr(e.Expr), one(0), new(big.Int)
			for j := 0; e.Max < 0 && j <= limit+e.Min || j <= e.Max; j++ {
				if j >= e.Min {
					out.Or(out, acc)
				}
				acc = sum(acc, x)
			}
			return out
		}
		return one(0)
	}
	return expr(&gbnf.Ref{Name: "root"})
}

// TestCountsOf checks the symbolic count sets against counting one by one,
// on the compiler's own repetitions (every construction of repeat.go: as
// printed, chains, blocks of blocks) and on sums and unions of them.
func TestCountsOf(t *testing.T) {
	const limit = 14000
	r := rand.New(rand.NewPCG(7, 8))
	isItem := isRef("x")
	for i := range 200 {
		cp := newCompiler(checkSchemaFor(t), Options{})
		x := &gbnf.Ref{Name: "x"}
		pick := func() (int, int) {
			sizes := []int{3, 20, 120, 1200, 13000}
			hi := r.IntN(sizes[r.IntN(len(sizes))])
			lo := r.IntN(hi + 1)
			if r.IntN(8) == 0 {
				return lo, -1
			}
			return lo, hi
		}
		lo1, hi1 := pick()
		e := cp.repeat(x, lo1, hi1)
		what := fmt.Sprintf("x{%d,%d}", lo1, hi1)
		if r.IntN(2) == 0 {
			lo2, hi2 := pick()
			f := cp.repeat(x, lo2, hi2)
			if r.IntN(2) == 0 {
				e, what = seq(e, f), what+fmt.Sprintf(" x{%d,%d}", lo2, hi2)
			} else {
				e, what = alt(e, f), what+fmt.Sprintf(" | x{%d,%d}", lo2, hi2)
			}
		}
		cp.g.Rules = append(cp.g.Rules, &gbnf.Rule{Name: "root", Expr: e}, &gbnf.Rule{Name: "x", Expr: lit("a")})
		back, err := gbnf.Parse(cp.g.String())
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		got, err := countsOf(back, isItem)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		want := bruteCounts(back, isItem, limit)
		for c := 0; c <= limit; c++ {
			if ok := want.Bit(c) == 1; got.has(int64(c)) != ok {
				t.Fatalf("case %d, %s: count %d: symbolic %v (%v), one by one %v", i, what, c, !ok, got, ok)
			}
		}
	}
}

// checkSchemaFor is a checked schema to hang a bare compiler on.
func checkSchemaFor(t *testing.T) *subsetcheck.Checked { return checkSchema(t, `{}`) }

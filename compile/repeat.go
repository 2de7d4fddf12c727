package compile

import (
	"strconv"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// Bounded repetition. llama.cpp expands x{m,n} at load time into m copies and
// n-m nested optional rules, and recent releases refuse counts near 2000. So
// no printed count exceeds MaxRepeatCount: a big count is written in base
// MaxRepeatCount with block rules (x100 ::= x{100}, x10000 ::= x100{100}, …),
// which keeps both the printed grammar and llama.cpp's expansion small for
// any bound that fits an int.

// repeat is x{min,max}; max < 0 means no upper bound. x should be a Ref so
// that blocks can be shared.
func (cp *compiler) repeat(x gbnf.Expr, min, max int) gbnf.Expr {
	if x == nil {
		if min == 0 {
			return epsilon()
		}
		return nil
	}
	if max >= 0 && max < min {
		return nil
	}
	if _, isRef := x.(*gbnf.Ref); !isRef && (min > MaxRepeatCount || max > MaxRepeatCount) {
		x = cp.addRule(cp.newName("item"), x) // one rule, so that its blocks are shared
	}
	if max < 0 {
		return seq(cp.repeatExact(x, min), &gbnf.Repeat{Expr: x, Min: 0, Max: -1})
	}
	if max <= MaxRepeatCount {
		return rep(x, min, max)
	}
	return seq(cp.repeatExact(x, min), cp.repeatUpTo(x, max-min))
}

// rep is a plain x{min,max} with small counts, simplified.
func rep(x gbnf.Expr, min, max int) gbnf.Expr {
	switch {
	case max == 0:
		return epsilon()
	case min == 1 && max == 1:
		return x
	}
	return &gbnf.Repeat{Expr: x, Min: min, Max: max}
}

// repeatExact is x{n}.
func (cp *compiler) repeatExact(x gbnf.Expr, n int) gbnf.Expr {
	if n <= MaxRepeatCount {
		return rep(x, n, n)
	}
	return seq(cp.repeatExact(cp.block(x), n/MaxRepeatCount), rep(x, n%MaxRepeatCount, n%MaxRepeatCount))
}

// repeatUpTo is x{0,n}: either fewer than a whole number of blocks, or
// exactly that number of blocks and a short rest (n = a*K + b).
func (cp *compiler) repeatUpTo(x gbnf.Expr, n int) gbnf.Expr {
	if n <= MaxRepeatCount {
		return rep(x, 0, n)
	}
	k := MaxRepeatCount
	a, b := n/k, n%k
	return alt(
		seq(cp.repeatUpTo(cp.block(x), a-1), rep(x, 0, k-1)),
		seq(cp.repeatExact(cp.block(x), a), rep(x, 0, b)))
}

// block is a reference to the shared rule x{MaxRepeatCount}.
func (cp *compiler) block(x gbnf.Expr) gbnf.Expr {
	base := "block"
	if r, ok := x.(*gbnf.Ref); ok {
		base = r.Name
	} else {
		// Name the item first, so that its blocks are shared.
		x = cp.addRule(cp.newName("item"), x)
		base = x.(*gbnf.Ref).Name
	}
	return cp.shared(base+"-x"+strconv.Itoa(MaxRepeatCount), func(string) gbnf.Expr {
		return &gbnf.Repeat{Expr: x, Min: MaxRepeatCount, Max: MaxRepeatCount}
	})
}

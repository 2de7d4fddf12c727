package compile

import (
	"strconv"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// Bounded repetition. llama.cpp expands x{m,n} at load time into m copies and
// n-m nested optional rules, and recent releases refuse counts near 2000. So
// no printed count exceeds MaxRepeatCount: a big count is written in base
// repeatBlock with block rules (x-x16 ::= x{16}, x-x16-x16 ::= x-x16{16}, …),
// which keeps both the printed grammar and llama.cpp's expansion small for
// any bound that fits an int.

// repeatBlock is the block size of big counts. llama.cpp turns x{0,n} into
// n rules and copies every rule for each text it checks, so a small block
// keeps the grammar cheap; too small a block nests deep and keeps more
// stacks alive along a long string.
const repeatBlock = 16

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
	if _, isRef := x.(*gbnf.Ref); !isRef && (min > repeatBlock || max > repeatBlock) {
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
	return seq(cp.repeatExact(cp.block(x), n/repeatBlock), rep(x, n%repeatBlock, n%repeatBlock))
}

// repeatUpTo is x{0,n}. Up to MaxRepeatCount it is printed as it is:
// llama.cpp makes n nested rules of it at load time, and along any text one
// way to read it. Up to maxChainedCount it is a chain of levels,
// upto-n ::= x{0,k-1} | x{k} upto-(n-k), with k about √n: about 2√n rules
// and, along any text, only two live ways to read it (the short rest or
// one more block), whatever the depth. Beyond, either fewer than a whole
// number of blocks, or exactly that number and a short rest (n = a*K + b).
func (cp *compiler) repeatUpTo(x gbnf.Expr, n int) gbnf.Expr {
	if n <= MaxRepeatCount {
		return rep(x, 0, n)
	}
	if r, ok := x.(*gbnf.Ref); ok && n <= maxChainedCount {
		k := 1
		for k*k < n {
			k++
		}
		return cp.upToChain(r, n, k)
	}
	k := repeatBlock
	a, b := n/k, n%k
	return alt(
		seq(cp.repeatUpTo(cp.block(x), a-1), rep(x, 0, k-1)),
		seq(cp.repeatExact(cp.block(x), a), rep(x, 0, b)))
}

// maxChainedCount is the largest x{0,n} written as one chain of levels
// (about 2√n rules); bigger counts use blocks of blocks.
const maxChainedCount = MaxRepeatCount * MaxRepeatCount

// upToChain is x{0,n} as a chain of shared levels of k items each, built
// bottom up (levels n mod k + k, + 2k, …, n), each level a rule that other
// bounds on the same item and k reuse.
func (cp *compiler) upToChain(x *gbnf.Ref, n, k int) gbnf.Expr {
	short := cp.shared(x.Name+"-upto-"+strconv.Itoa(k-1), func(string) gbnf.Expr { return rep(x, 0, k-1) })
	block := cp.shared(x.Name+"-x"+strconv.Itoa(k), func(string) gbnf.Expr { return rep(x, k, k) })
	r := n % k
	next := rep(x, 0, r)
	if r == k-1 {
		next = short
	}
	prefix := x.Name + "-upto-"
	suffix := "-by-" + strconv.Itoa(k)
	for m := r + k; m <= n; m += k {
		key := prefix + strconv.Itoa(m) + suffix
		if name, ok := cp.helper[key]; ok {
			next = ref(name)
			continue
		}
		level := alt(short, seq(block, next))
		next = cp.shared(key, func(string) gbnf.Expr { return level })
	}
	return next
}

// block is a reference to the shared rule x{repeatBlock}.
func (cp *compiler) block(x gbnf.Expr) gbnf.Expr {
	base := "block"
	if r, ok := x.(*gbnf.Ref); ok {
		base = r.Name
	} else {
		// Name the item first, so that its blocks are shared.
		x = cp.addRule(cp.newName("item"), x)
		base = x.(*gbnf.Ref).Name
	}
	return cp.shared(base+"-x"+strconv.Itoa(repeatBlock), func(string) gbnf.Expr {
		return &gbnf.Repeat{Expr: x, Min: repeatBlock, Max: repeatBlock}
	})
}

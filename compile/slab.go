package compile

import (
	"slices"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// nodeSlab hands out Seq and Alt nodes and their item lists from blocks.
// The extra-name tries (nameNode) were 58% of a compile's allocations on
// the corpus: many small nodes, all built at once and living exactly as long
// as the grammar, so one allocation per block serves them as well as one per
// node. Its seq and alt build what the functions seq and alt build.
type nodeSlab struct {
	seqs  []gbnf.Seq
	alts  []gbnf.Alt
	lits  []gbnf.Lit
	items []gbnf.Expr
}

// Block sizes: small enough that a schema with one short object wastes
// little, large enough that a big trie takes few allocations.
const (
	slabNodes = 32
	slabItems = 128
)

// list copies items into the current block of items.
func (s *nodeSlab) list(items []gbnf.Expr) []gbnf.Expr {
	n := len(items)
	if n > slabItems/4 {
		return slices.Clone(items)
	}
	if cap(s.items)-len(s.items) < n {
		s.items = make([]gbnf.Expr, 0, slabItems)
	}
	start := len(s.items)
	s.items = append(s.items, items...)
	return s.items[start:len(s.items):len(s.items)] // an append to it never reaches a neighbour
}

func (s *nodeSlab) seq(items ...gbnf.Expr) gbnf.Expr {
	var buf [16]gbnf.Expr
	out, ok := seqItems(buf[:0], items)
	if !ok {
		return nil
	}
	if len(out) == 1 {
		return out[0]
	}
	return s.newSeq(out)
}

// newSeq is a Seq of a copy of items, from the blocks.
func (s *nodeSlab) newSeq(items []gbnf.Expr) *gbnf.Seq {
	if len(s.seqs) == cap(s.seqs) {
		s.seqs = make([]gbnf.Seq, 0, slabNodes)
	}
	s.seqs = append(s.seqs, gbnf.Seq{Items: s.list(items)})
	return &s.seqs[len(s.seqs)-1]
}

func (s *nodeSlab) alt(items ...gbnf.Expr) gbnf.Expr {
	var buf [16]gbnf.Expr
	out := altItems(buf[:0], items)
	switch len(out) {
	case 0:
		return nil
	case 1:
		return out[0]
	}
	if len(s.alts) == cap(s.alts) {
		s.alts = make([]gbnf.Alt, 0, slabNodes)
	}
	s.alts = append(s.alts, gbnf.Alt{Alts: s.list(out)})
	return &s.alts[len(s.alts)-1]
}

// lit is what the function lit builds, the literal text; a new one comes
// from a block (an object member's quoted name: one per member).
func (s *nodeSlab) lit(text string) gbnf.Expr {
	if len(text) == 1 && text[0] < utf8.RuneSelf {
		return &asciiLits[text[0]]
	}
	if len(s.lits) == cap(s.lits) {
		s.lits = make([]gbnf.Lit, 0, slabNodes/2)
	}
	s.lits = append(s.lits, gbnf.Lit{Text: text})
	return &s.lits[len(s.lits)-1]
}

// pair is what seq(a, b) builds for a trie node's rune a (a literal) and
// its child b, most often a choice: then there is nothing to drop, flatten
// or join, and seq's general pass is skipped.
func (s *nodeSlab) pair(a, b gbnf.Expr) gbnf.Expr {
	if _, ok := b.(*gbnf.Alt); !ok {
		return s.seq(a, b)
	}
	return s.newSeq([]gbnf.Expr{a, b})
}

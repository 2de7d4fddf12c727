package compile

import (
	"errors"
	"fmt"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// oneOf: "exactly one branch" is "at least one branch" when no value
// matches two branches, so a oneOf whose branches are pairwise disjoint
// compiles as anyOf. Disjointness is decided on the languages themselves:
// for each pair, the meet of the two branches and of the rest of the
// schema (its other keywords: a value the rest rejects does not count) is
// compiled on its own, in a compiler of its own; a meet that admits no
// value leaves no grammar (C401), which is the proof. A meet with a
// grammar is an overlap, shown by the shortest text that grammar accepts
// (gbnf.Sampler.Shortest), checked against both branches, and refused
// (C404). The work is n(n-1)/2 meets for n branches, bounded per compile
// by Options.MaxOneOfPairs.
//
// A branch may lead back to a oneOf being proven (a recursive schema).
// There the oneOf is read as the union of its branches, a superset of what
// it accepts; a meet found empty with a superset is empty, as long as no
// complement was taken on the way (a complement of a superset is a
// subset). A proof that met both is refused.

// oneOfProofs is shared by a compile and the compiles it runs to prove
// oneOf branches disjoint, so that each oneOf is proven once.
type oneOfProofs struct {
	state      map[*subsetcheck.Schema]proofState
	rest       map[*subsetcheck.Schema]*subsetcheck.Schema // s without its oneOf
	pairs      int                                         // meets tried, against max
	max        int                                         // Options.MaxOneOfPairs
	assumed    int                                         // oneOfs read as unions while being proven
	complement int                                         // complements taken
}

type proofState uint8

const (
	unproven proofState = iota
	proving
	disjoint
	refused
)

// oneOfDisjoint proves s's oneOf branches pairwise disjoint beside the
// rest of s, or reports why not. Canonical trusts the compile.
func (cp *compiler) oneOfDisjoint(s *subsetcheck.Schema) bool {
	if cp.trustOneOf {
		return true
	}
	if cp.proofs == nil {
		cp.proofs = &oneOfProofs{state: map[*subsetcheck.Schema]proofState{}, rest: map[*subsetcheck.Schema]*subsetcheck.Schema{}, max: cp.maxPairs}
	}
	pf := cp.proofs
	switch pf.state[s] {
	case disjoint:
		return true
	case refused:
		cp.metRefused = true // the problem is reported where the proof failed
		return false
	case proving:
		pf.assumed++
		return true
	}
	var live []int // the branches that admit some value
	for i, b := range s.OneOf {
		if !b.False {
			live = append(live, i)
		}
	}
	n := len(live)
	if need := n * (n - 1) / 2; pf.pairs+need > pf.max {
		cp.problem(s, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
			"proving the %d branches of this oneOf pairwise disjoint takes %d meets, and this schema's oneOfs would need more than %d (Options.MaxOneOfPairs); "+
				"write anyOf if the branches cannot overlap anyway, or raise the limit", n, need, pf.max))
		pf.state[s] = refused
		return false
	}
	pf.state[s] = proving
	rest := pf.restOf(s)
	for x := 0; x < n; x++ {
		for y := x + 1; y < n; y++ {
			pf.pairs++
			i, j := live[x], live[y]
			if !cp.pairDisjoint(s, rest, i, j) {
				pf.state[s] = refused
				return false
			}
		}
	}
	pf.state[s] = disjoint
	return true
}

// restOf is s without its oneOf: the rest of the schema a oneOf branch
// is met with.
func (pf *oneOfProofs) restOf(s *subsetcheck.Schema) *subsetcheck.Schema {
	if r, ok := pf.rest[s]; ok {
		return r
	}
	r := *s
	r.OneOf = nil
	pf.rest[s] = &r
	return &r
}

// pairDisjoint proves that no value matches branches i and j of s's oneOf
// and the rest of s, or reports the value that does (C404), or why the
// meet cannot be decided.
func (cp *compiler) pairDisjoint(s, rest *subsetcheck.Schema, i, j int) bool {
	bi, bj := s.OneOf[i], s.OneOf[j]
	sub := cp.prover()
	meet, ok := sub.conjOf(uniqueParts(rest, bi, bj))
	if !ok {
		cp.errs = append(cp.errs, sub.errs...)
		return false
	}
	if alts, ok := sub.expand(meet); ok && !sub.metRefused && evidentlyEmpty(alts) {
		return true // the meet's own keywords contradict: no grammar needed
	}
	assumed, complements := cp.proofs.assumed, cp.proofs.complement
	g, err := sub.runRoot(meet)
	if cp.proofs.assumed > assumed && cp.proofs.complement > complements {
		cp.problem(s, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
			"branches %s and %s of this oneOf lead back to it through a complement (not, if/then/else), so whether they overlap cannot be proven; write anyOf if they cannot overlap",
			pointerOrRoot(bi.Pointer), pointerOrRoot(bj.Pointer)))
		return false
	}
	if err != nil {
		var l subsetcheck.ErrorList
		if sub.metRefused { // a oneOf inside was refused earlier: no conclusion here
			for _, p := range sub.errs { // but the refusal itself, if it was made here
				if p.Code != subsetcheck.CodeNoValidValue {
					cp.errs = append(cp.errs, p)
				}
			}
			return false
		}
		if errors.As(err, &l) && onlyNoValue(l) {
			return true
		}
		cp.errs = append(cp.errs, sub.errs...) // why the meet cannot be compiled: the branches' own problems
		if len(sub.errs) == 0 {
			cp.problem(s, subsetcheck.CodeNotExactlyCompilable, "whether these oneOf branches overlap cannot be decided: "+firstLine(err.Error()))
		}
		return false
	}
	text, v, ok := cp.witness(g, rest, bi, bj)
	if !ok {
		cp.problem(s, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
			"branches %s and %s of this oneOf could not be proven disjoint; write anyOf if they cannot overlap",
			pointerOrRoot(bi.Pointer), pointerOrRoot(bj.Pointer)))
		return false
	}
	cp.problem(s, subsetcheck.CodeOneOfOverlap, fmt.Sprintf(
		"branches %d and %d overlap: %s matches %s and %s, so oneOf rejects it while each branch accepts it%s; "+
			"make the branches exclusive (a member with a different const in each, or one that the other forbids), or write anyOf if a value may match both",
		i, j, clip(text, maxWitness), bi.Pointer, bj.Pointer, objectHint(v, bi, bj)))
	return false
}

// objectHint says why a witness that is no object matches branches that
// speak of objects: their object keywords do not constrain other values.
func objectHint(v *subsetcheck.Value, branches ...*subsetcheck.Schema) string {
	if v.Kind == subsetcheck.Object {
		return ""
	}
	for _, b := range branches {
		b = target(b)
		if b != nil && b.Types&subsetcheck.TObject != 0 && acceptsType(b.Types, v) &&
			(len(b.Properties) > 0 || len(b.Required) > 0 || b.AdditionalProperties != nil || hasNameRules(b)) {
			return ` (properties, required and additionalProperties constrain only objects: a branch without "type": "object" accepts every other value)`
		}
	}
	return ""
}

// maxWitness bounds the bytes of a witness shown in a message.
const maxWitness = 200

// prover is a compiler for one meet of oneOf branches: compact
// whitespace, the same limits, the proofs shared.
func (cp *compiler) prover() *compiler {
	sub := newCompiler(cp.checked, Options{Whitespace: Compact, MaxRules: cp.maxRules, MaxAlternatives: cp.maxAlts, MaxMeets: cp.maxMeets})
	sub.proofs = cp.proofs
	return sub
}

// uniqueParts is the conjuncts of a meet, each once, the trivial ones left
// out (conjOf wants distinct parts).
func uniqueParts(parts ...*subsetcheck.Schema) []*subsetcheck.Schema {
	var out []*subsetcheck.Schema
	for _, p := range parts {
		if p = target(p); !isTrue(p) && !containsSchema(out, p) {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		out = append(out, trueSchema(parts[0]))
	}
	return out
}

func containsSchema(list []*subsetcheck.Schema, s *subsetcheck.Schema) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// evidentlyEmpty says whether every alternative admits no value by its
// own keywords: false, no type left, or an enum with no member left.
func evidentlyEmpty(alts []alternative) bool {
	for _, a := range alts {
		p := a.plain
		if p == nil || !(p.False || p.Types == 0 || p.Enum != nil && len(p.Enum) == 0) {
			return false
		}
	}
	return true
}

// onlyNoValue says whether every problem is C401: the meet admits no value.
func onlyNoValue(l subsetcheck.ErrorList) bool {
	for _, p := range l {
		if p.Code != subsetcheck.CodeNoValidValue {
			return false
		}
	}
	return len(l) > 0
}

// witness is the shortest text the meet's grammar accepts, and its value,
// when the validator agrees that rest and both branches accept it.
func (cp *compiler) witness(g *gbnf.Grammar, rest, bi, bj *subsetcheck.Schema) (string, *subsetcheck.Value, bool) {
	sm, err := gbnf.NewSampler(g, 1)
	if err != nil {
		return "", nil, false
	}
	text := sm.Shortest()
	doc, err := subsetcheck.Read("witness", []byte(text), subsetcheck.Limits{})
	if err != nil {
		return "", nil, false
	}
	v := doc.Root
	return text, v, accepts(rest, v) && accepts(bi, v) && accepts(bj, v)
}

package compile

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// oneOf: "exactly one branch". When no value matches two branches (beside
// the rest of the schema), exactly one is at least one: the oneOf compiles
// as anyOf. Disjointness is decided on the languages themselves: for each
// pair, the meet of the two branches and of the rest of the schema (its
// other keywords: a value the rest rejects does not count) is compiled on
// its own, in a compiler of its own; a meet that admits no value leaves no
// grammar (C401), which is the proof. The work is n(n-1)/2 meets for n
// branches, bounded per compile by Options.MaxOneOfPairs.
//
// Where a pair's meet has a grammar, the branches overlap, shown by the
// shortest text that grammar accepts (gbnf.Sampler.Shortest), checked
// against both branches. Exactly one is then still a union: branch i met
// with the complement (not.go) of every branch j that overlaps it, the
// pairs proven disjoint needing none. Each branch so met is compiled once
// on its own first, so that a complement that cannot be built refuses the
// oneOf with the overlap and the reason (C404); otherwise the overlap is a
// warning (W304): the grammar excludes the values that match two branches,
// as oneOf says, where a user often meant anyOf.
//
// A branch may lead back to a oneOf being proven (a recursive schema).
// There the oneOf is read as the union of its branches, a superset of what
// it accepts. A conclusion drawn with it must still be a fact about the
// schema (Canonical, which proves oneOfs in the order a value leads it,
// must plan as the compile did): a meet found empty with a superset is
// empty as long as no complement was taken on the way (a complement of a
// superset is a subset), and a meet found non-empty overlaps when the
// validator accepts its witness. A proof that can conclude neither is
// refused (C402).

// oneOfProofs is shared by a compile and the compiles it runs to prove
// oneOf branches disjoint, so that each oneOf is proven once.
type oneOfProofs struct {
	state      map[*subsetcheck.Schema]proofState
	plans      map[*subsetcheck.Schema]*oneOfPlan          // of the overlapping oneOfs
	rest       map[*subsetcheck.Schema]*subsetcheck.Schema // s without its oneOf
	pairs      int                                         // meets tried, against max
	max        int                                         // Options.MaxOneOfPairs
	assumed    int                                         // oneOfs read as unions while being proven
	complement int                                         // complements taken
	warns      subsetcheck.ErrorList                       // W304, in the order the oneOfs were proven
	unions     map[branchKey]*subsetcheck.Schema           // the branches each branch overlaps (unionOf)
}

// branchKey names branch i of s's oneOf.
type branchKey struct {
	s *subsetcheck.Schema
	i int
}

type proofState uint8

const (
	unproven proofState = iota
	proving
	disjoint
	overlapping // compiled by its plan
	refused
)

// oneOfPlan is what each branch of an overlapping oneOf is met with.
type oneOfPlan struct {
	partners [][]int // per branch: the branches overlapping it, whose complements it is met with
	empty    []bool  // per branch: nothing of it is left beside those complements
}

// overlap is a pair of branches whose meet admits a value, and the
// shortest value (witness), if it was looked for and both branches accept
// it.
type overlap struct {
	i, j int
	text string
	v    *subsetcheck.Value
}

// oneOfBranches is the union s's oneOf stands for: its branches, each met
// with the complements its plan gives it. ok is false after a problem.
func (cp *compiler) oneOfBranches(s *subsetcheck.Schema) ([]alternative, bool) {
	plan, ok := cp.oneOfPlan(s)
	if !ok {
		return nil, false
	}
	var out []alternative
	for i, b := range s.OneOf {
		switch {
		case b.False:
		case plan == nil || len(plan.partners[i]) == 0:
			out = append(out, alternative{opaque: b})
		case !plan.empty[i]:
			x, ok := cp.exclusive(s, i, plan.partners[i])
			if !ok {
				return nil, false
			}
			out = append(out, alternative{opaque: x})
		}
	}
	return out, true
}

// exclusive is branch i of s's oneOf without the values of the branches
// partners: one conjunction schema, compiled as a rule of its own. Several
// partners are one complement, of their union, whose parts are crossed
// once, the contradicting ones left out (not.go).
func (cp *compiler) exclusive(s *subsetcheck.Schema, i int, partners []int) (*subsetcheck.Schema, bool) {
	others := s.OneOf[partners[0]]
	if len(partners) > 1 {
		others = cp.unionOf(s, i, partners)
	}
	x, ok := cp.conjOf(uniqueParts(s.OneOf[i], cp.negation(others)))
	if ok {
		put(&cp.complemented, x, true)
	}
	return x, ok
}

// unionOf is the schema anyOf of the partners of branch i of s's oneOf,
// one per branch (so that its negation is made once).
func (cp *compiler) unionOf(s *subsetcheck.Schema, i int, partners []int) *subsetcheck.Schema {
	pf := cp.proofs
	key := branchKey{s, i}
	if u, ok := pf.unions[key]; ok {
		return u
	}
	u := trueSchema(s)
	for _, j := range partners {
		u.AnyOf = append(u.AnyOf, s.OneOf[j])
	}
	put(&pf.unions, key, u)
	return u
}

// oneOfPlan proves s's oneOf branches pairwise disjoint beside the rest of
// s (nil plan: compile it as anyOf), or plans the complements its
// overlapping branches are met with, or reports why neither can be done.
// Canonical trusts the compile: it looks for no witness and builds no
// branch ahead.
func (cp *compiler) oneOfPlan(s *subsetcheck.Schema) (*oneOfPlan, bool) {
	if cp.proofs == nil {
		cp.proofs = &oneOfProofs{max: cp.maxPairs}
	}
	pf := cp.proofs
	switch pf.state[s] {
	case disjoint:
		return nil, true
	case overlapping:
		return pf.plans[s], true
	case refused:
		cp.metRefused = true // the problem is reported where the proof failed
		return nil, false
	case proving:
		pf.assumed++
		return nil, true
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
		put(&pf.state, s, refused)
		return nil, false
	}
	put(&pf.state, s, proving)
	rest := pf.restOf(s)
	var overlaps []overlap
	shown := map[int]bool{} // the branches with a witness already
	for x := 0; x < n; x++ {
		for y := x + 1; y < n; y++ {
			pf.pairs++
			i, j := live[x], live[y]
			lookFor := !cp.trustOneOf && !(shown[i] && shown[j])
			o, ok := cp.pairMeet(s, rest, i, j, lookFor)
			if !ok {
				pf.state[s] = refused
				return nil, false
			}
			if o != nil {
				overlaps = append(overlaps, *o)
				if o.v != nil {
					shown[i], shown[j] = true, true
				}
			}
		}
	}
	if len(overlaps) == 0 {
		pf.state[s] = disjoint
		return nil, true
	}
	plan := &oneOfPlan{partners: make([][]int, len(s.OneOf)), empty: make([]bool, len(s.OneOf))}
	for _, o := range overlaps {
		plan.partners[o.i] = append(plan.partners[o.i], o.j)
		plan.partners[o.j] = append(plan.partners[o.j], o.i)
	}
	for _, p := range plan.partners {
		slices.Sort(p)
	}
	pf.state[s] = overlapping // a branch that leads back to s reads the plan
	put(&pf.plans, s, plan)
	if cp.trustOneOf {
		return plan, true
	}
	if !cp.buildExclusive(s, rest, plan, overlaps) {
		pf.state[s] = refused
		delete(pf.plans, s)
		return nil, false
	}
	cp.warnOverlap(s, overlaps)
	return plan, true
}

// restOf is s without its oneOf: the rest of the schema a oneOf branch
// is met with.
func (pf *oneOfProofs) restOf(s *subsetcheck.Schema) *subsetcheck.Schema {
	if r, ok := pf.rest[s]; ok {
		return r
	}
	r := *s
	r.OneOf = nil
	put(&pf.rest, s, &r)
	return &r
}

// pairMeet proves that no value matches branches i and j of s's oneOf and
// the rest of s (nil overlap), or finds that some value does (the overlap,
// with the shortest such value when lookFor), or reports why the meet
// cannot be decided (ok false). Each conclusion is a fact about the
// schema, whichever oneOfs were being proven when it was drawn, so that
// Canonical, which proves in the order a value leads it, plans as the
// compile did: where the meet read a oneOf being proven as the union of
// its branches, an overlap needs a witness the validator accepts, and an
// empty meet needs no complement on the way.
func (cp *compiler) pairMeet(s, rest *subsetcheck.Schema, i, j int, lookFor bool) (*overlap, bool) {
	bi, bj := s.OneOf[i], s.OneOf[j]
	pf := cp.proofs
	sub := cp.prover()
	meet, ok := sub.conjOf(uniqueParts(rest, bi, bj))
	if !ok {
		cp.errs = append(cp.errs, sub.errs...)
		return nil, false
	}
	assumed, complements := pf.assumed, pf.complement
	exact := func() bool { return pf.assumed == assumed || pf.complement == complements }
	if alts, ok := sub.expand(meet); ok && !sub.metRefused && evidentlyEmpty(alts) && exact() {
		return nil, true // the meet's own keywords contradict: no grammar needed
	}
	g, err := sub.runRoot(meet)
	if err != nil {
		var l subsetcheck.ErrorList
		switch {
		case sub.metRefused: // a oneOf inside was refused earlier: no conclusion here
			cp.keepRefusals(sub)
		case errors.As(err, &l) && onlyNoValue(l) && exact():
			return nil, true
		case errors.As(err, &l) && onlyNoValue(l):
			cp.problem(s, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
				"branches %s and %s of this oneOf lead back to it through a complement (not, if/then/else, or an overlapping oneOf), so whether they overlap cannot be proven; write anyOf if they cannot overlap",
				pointerOrRoot(bi.Pointer), pointerOrRoot(bj.Pointer)))
		default:
			cp.errs = append(cp.errs, sub.errs...) // why the meet cannot be compiled: the branches' own problems
			if len(sub.errs) == 0 {
				cp.problem(s, subsetcheck.CodeNotExactlyCompilable, "whether these oneOf branches overlap cannot be decided: "+firstLine(err.Error()))
			}
		}
		return nil, false
	}
	o := &overlap{i: i, j: j}
	superset := pf.assumed > assumed
	if lookFor || superset {
		o.text, o.v = cp.witness(g, rest, bi, bj)
	}
	if superset && o.v == nil {
		cp.problem(s, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
			"branches %s and %s of this oneOf lead back to it, and no value was found that both accept, so whether they overlap cannot be proven; write anyOf if they cannot overlap",
			pointerOrRoot(bi.Pointer), pointerOrRoot(bj.Pointer)))
		return nil, false
	}
	return o, true
}

// keepRefusals keeps the problems of a sub-compile that met a oneOf
// refused earlier: the refusal itself, if it was made there, without the
// C401 it left behind.
func (cp *compiler) keepRefusals(sub *compiler) {
	for _, p := range sub.errs {
		if p.Code != subsetcheck.CodeNoValidValue {
			cp.errs = append(cp.errs, p)
		}
	}
}

// buildExclusive compiles each overlapping branch of s's oneOf met with
// its plan's complements and the rest of s, on its own: a branch left with
// no value is marked empty; one whose complements cannot be built refuses
// the oneOf (C404, with the overlap and the reason).
func (cp *compiler) buildExclusive(s, rest *subsetcheck.Schema, plan *oneOfPlan, overlaps []overlap) bool {
	pf := cp.proofs
	for i, partners := range plan.partners {
		if len(partners) == 0 {
			continue
		}
		sub := cp.prover()
		x, ok := sub.exclusive(s, i, partners)
		if !ok {
			cp.errs = append(cp.errs, sub.errs...)
			return false
		}
		meet, ok := sub.conjOf(uniqueParts(rest, x))
		if !ok {
			cp.errs = append(cp.errs, sub.errs...)
			return false
		}
		assumed := pf.assumed
		_, err := sub.runRoot(meet)
		var l subsetcheck.ErrorList
		switch {
		case err == nil:
		case sub.noComplement != nil:
			cp.refuseOverlap(s, i, partners, overlaps, sub)
			return false
		case sub.metRefused:
			cp.keepRefusals(sub)
			return false
		case errors.As(err, &l) && onlyNoValue(l):
			// Nothing of branch i is left beside the others: it adds no
			// alternative (unless a oneOf being proven was read as the
			// union of its branches on the way, under a complement).
			plan.empty[i] = pf.assumed == assumed
		default:
			cp.errs = append(cp.errs, sub.errs...)
			return false
		}
	}
	none := true // no branch keeps a value
	for i, b := range s.OneOf {
		none = none && (b.False || plan.empty[i])
	}
	if none {
		example := ""
		for _, o := range overlaps {
			if o.v != nil {
				example = fmt.Sprintf(" (%s matches %s and %s)", clip(o.text, maxWitness), s.OneOf[o.i].Pointer, s.OneOf[o.j].Pointer)
				break
			}
		}
		cp.noteCause("every value a branch of the oneOf at %q accepts matches another branch too%s", s.Pointer, example)
	}
	return true
}

// refuseOverlap reports (C404) that branch i of s's oneOf overlaps
// branches whose complements cannot be built, as the compile of branch i
// with them found (sub.noComplement). The pair proofs compiled every pair
// of branches without complements, so what has none is theirs; it is
// named by the branch it comes from, when that can be told.
func (cp *compiler) refuseOverlap(s *subsetcheck.Schema, i int, partners []int, overlaps []overlap, sub *compiler) {
	nc := sub.noComplement
	j := partners[0]
	for _, k := range partners {
		for _, at := range sub.origins(nc.at) {
			if under(at, target(s.OneOf[k]).Pointer) || under(at, s.OneOf[k].Pointer) {
				j = k
			}
		}
	}
	lo, hi := min(i, j), max(i, j)
	value := "some value"
	for _, o := range overlaps { // the pair's witness, or another of branch i's
		if o.v != nil && (o.i == lo && o.j == hi || value == "some value" && (o.i == i || o.j == i)) {
			lo, hi, value = o.i, o.j, clip(o.text, maxWitness)
		}
	}
	cp.problem(s, subsetcheck.CodeOneOfOverlap, fmt.Sprintf(
		"branches %d and %d overlap: %s matches %s and %s, so oneOf rejects it while each branch accepts it; "+
			"keeping such values out of %s needs the values %s, which cannot be written exactly: %s; "+
			"make the branches exclusive (a member with a different const in each, or one that the other forbids), or write anyOf if a value may match both",
		lo, hi, value, s.OneOf[lo].Pointer, s.OneOf[hi].Pointer, pointerOrRoot(s.OneOf[i].Pointer), rejecters(s, j, partners), nc.why))
}

// rejecters names the branches whose rejected values a branch needs, with
// the verb: j alone, or j among the others.
func rejecters(s *subsetcheck.Schema, j int, partners []int) string {
	switch len(partners) {
	case 1:
		return pointerOrRoot(s.OneOf[j].Pointer) + " rejects"
	case 2:
		return pointerOrRoot(s.OneOf[j].Pointer) + " and one more branch reject"
	}
	return fmt.Sprintf("%s and %d more branches reject", pointerOrRoot(s.OneOf[j].Pointer), len(partners)-1)
}

// under says whether JSON Pointer p is at or below q.
func under(p, q string) bool {
	return p == q || strings.HasPrefix(p, q+"/")
}

// warnOverlap warns (W304) that s's oneOf has overlapping branches, and
// that its grammar keeps out the values they share.
func (cp *compiler) warnOverlap(s *subsetcheck.Schema, overlaps []overlap) {
	o := overlaps[0]
	for _, x := range overlaps {
		if x.v != nil {
			o = x
			break
		}
	}
	bi, bj := s.OneOf[o.i], s.OneOf[o.j]
	value := "some value"
	if o.v != nil {
		value = clip(o.text, maxWitness)
	}
	more := ""
	switch k := len(overlaps) - 1; {
	case k == 1:
		more = " (and one more pair of branches overlaps)"
	case k > 1:
		more = fmt.Sprintf(" (and %d more pairs of branches overlap)", k)
	}
	p := cp.located(s, subsetcheck.CodeOneOfOverlapExcluded, fmt.Sprintf(
		"branches %d and %d of this oneOf overlap: %s matches %s and %s%s%s; the grammar keeps out every value that matches more than one branch, as oneOf says. "+
			"If a value may match several, write anyOf; if the branches were meant to be exclusive, give each a member with a const of its own, or forbid in one a member the other requires",
		o.i, o.j, value, bi.Pointer, bj.Pointer, objectHint(o.v, bi, bj), more))
	cp.proofs.warns = append(cp.proofs.warns, p)
}

// objectHint says why a witness that is no object matches branches that
// speak of objects: their object keywords do not constrain other values.
func objectHint(v *subsetcheck.Value, branches ...*subsetcheck.Schema) string {
	if v == nil || v.Kind == subsetcheck.Object {
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
	sub.nMeets = cp.nMeets
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
// own keywords (noValueEvident).
func evidentlyEmpty(alts []alternative) bool {
	for _, a := range alts {
		if a.plain == nil || !noValueEvident(a.plain) {
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
// when the validator agrees that rest and both branches accept it (nil
// otherwise).
func (cp *compiler) witness(g *gbnf.Grammar, rest, bi, bj *subsetcheck.Schema) (string, *subsetcheck.Value) {
	sm, err := gbnf.NewSampler(g, 1)
	if err != nil {
		return "", nil
	}
	text := sm.Shortest()
	doc, err := subsetcheck.Read("witness", []byte(text), subsetcheck.Limits{})
	if err != nil {
		return "", nil
	}
	v := doc.Root
	if !accepts(rest, v) || !accepts(bi, v) || !accepts(bj, v) {
		return "", nil
	}
	return text, v
}

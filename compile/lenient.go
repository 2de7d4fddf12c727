package compile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// The lenient profile's compile: the checker relaxes what the exact
// profile refuses (subsetcheck.Lenient); what the compiler then refuses
// (C402 and the other refusals that name no limit) is relaxed too, place by
// place. The compiler says where it failed (the schema's pointer), not
// which keyword to blame, so each place climbs a ladder of relaxations,
// each tried by compiling again: the keywords that negate a subschema
// (oneOf as anyOf, if/then/else, not, maxContains), then each other keyword
// of the schema alone, in document order, and last the whole schema. The
// first rung after which the compiler no longer refuses the place is kept:
// the widest exact part the ladder finds. All places climb at once, one
// compile per rung, within Options.MaxRelaxRounds compiles.

// DefaultMaxRelaxRounds is the default of Options.MaxRelaxRounds.
const DefaultMaxRelaxRounds = 100

// Lenient checks doc under the lenient profile and compiles it, relaxing
// the places the compiler refuses (relaxable); checkOpts.Profile is
// ignored. The warnings are the compiler's (CompileWithWarnings); the
// relaxations are the checked schema's, Relaxed. A schema that admits no value (C401), a grammar past
// Options.MaxRules, the reader's and checker's limits (L5xx) and a problem
// with the schema itself (S203, S205, ...) stay errors: relaxing cannot
// mend them.
func Lenient(doc *subsetcheck.Document, checkOpts subsetcheck.Options, opts Options) (*subsetcheck.Checked, *gbnf.Grammar, subsetcheck.ErrorList, error) {
	checkOpts.Profile = subsetcheck.Lenient
	fixed := checkOpts.Relax
	maxRounds := opts.MaxRelaxRounds
	if maxRounds <= 0 {
		maxRounds = DefaultMaxRelaxRounds
	}
	var places []*ladder // in order of first failure
	at := map[string]*ladder{}
	for round := 1; ; round++ {
		checkOpts.Relax = slices.Clip(fixed)
		for _, p := range places {
			checkOpts.Relax = append(checkOpts.Relax, p.rungs[p.rung])
		}
		checked, err := subsetcheck.Check(doc, checkOpts)
		if err != nil {
			return nil, nil, nil, err
		}
		g, warns, err := CompileWithWarnings(checked, opts)
		if err == nil {
			return checked, g, warns, nil
		}
		list, _ := err.(subsetcheck.ErrorList)
		var fatal subsetcheck.ErrorList
		var failing []*subsetcheck.Problem
		for _, p := range list {
			if relaxable(p) && docOf(checked, p.File).At(p.Pointer) != nil {
				failing = append(failing, p)
			} else {
				fatal = append(fatal, p)
			}
		}
		if len(fatal) > 0 || len(failing) == 0 {
			if len(fatal) == 0 {
				return nil, nil, nil, err
			}
			return nil, nil, nil, fatal
		}
		if round >= maxRounds {
			return nil, nil, nil, subsetcheck.ErrorList{relaxRoundsProblem(failing[0], maxRounds)}
		}
		seen := map[string]bool{}
		for _, p := range failing {
			where := p.File + "#" + p.Pointer
			if seen[where] {
				continue // two problems at one place: one step
			}
			seen[where] = true
			l := at[where]
			switch {
			case l == nil:
				l = newLadder(docOf(checked, p.File), checked.Draft, checked.AssertFormat, p)
				at[where] = l
				places = append(places, l)
			case l.rung+1 < len(l.rungs):
				l.rung++
			default:
				return nil, nil, nil, subsetcheck.ErrorList{p} // the whole schema relaxed, and still refused
			}
		}
	}
}

// ladder is the relaxations tried, in turn, at one place the compiler
// refused.
type ladder struct {
	rungs []subsetcheck.Relaxation
	rung  int // the one tried now
}

// negating are the keywords relaxed first: they hold the subschemas whose
// meets and complements the compiler most often cannot build, and
// relaxing them keeps the rest of the schema.
var negating = []string{"oneOf", "if", "not", "maxContains"}

// newLadder lists the relaxations to try at the schema where p was
// refused.
func newLadder(doc *subsetcheck.Document, d subsetcheck.Draft, assertFormat bool, p *subsetcheck.Problem) *ladder {
	v := doc.At(p.Pointer)
	rung := func(keyword string) subsetcheck.Relaxation {
		return subsetcheck.Relaxation{File: p.File, Pointer: p.Pointer, Keyword: keyword, Code: p.Code, Reason: p.Message}
	}
	l := &ladder{}
	if v.Kind == subsetcheck.Object {
		for _, name := range negating {
			if v.Get(name) != nil && subsetcheck.LookupKeyword(name, d) != nil {
				l.rungs = append(l.rungs, rung(name))
			}
		}
		for _, m := range v.Members {
			kw := subsetcheck.LookupKeyword(m.Name, d)
			if kw != nil && kw.Constrains(assertFormat) && !slices.Contains(negating, m.Name) {
				l.rungs = append(l.rungs, rung(m.Name))
			}
		}
	}
	l.rungs = append(l.rungs, rung(""))
	return l
}

// docOf is the document a problem is in, by its name: the root's, or one
// of those handed in; an empty document when none is.
func docOf(c *subsetcheck.Checked, name string) *subsetcheck.Document {
	if name == "" || name == c.Doc.Name {
		return c.Doc
	}
	for _, d := range c.Documents {
		if d.Name == name {
			return d
		}
	}
	return &subsetcheck.Document{}
}

// relaxable says whether the lenient profile relaxes a refusal of the
// compiler: every C-code at a place of the schema, a limit met there too
// (uniqueItems over values without end, a multipleOf automaton, the meets
// of a oneOf, a string language past a Limits.MaxPattern* limit, L506; the
// warning quotes the message, which names the limit to raise instead), but
// C401 (the schema admits no value: nothing to relax)
// and the whole grammar's size (Options.MaxRules), which relaxing one
// place would not mend but only blur.
func relaxable(p *subsetcheck.Problem) bool {
	switch {
	case p.Code == subsetcheck.CodePatternTooLarge:
		return true
	case !strings.HasPrefix(string(p.Code), "C"), p.Code == subsetcheck.CodeNoValidValue:
		return false
	case p.Code == subsetcheck.CodeGrammarTooLarge && strings.Contains(p.Message, "Options.MaxRules"):
		return false
	}
	return true
}

// relaxRoundsProblem is the error of a lenient compile that did not settle
// within Options.MaxRelaxRounds.
func relaxRoundsProblem(p *subsetcheck.Problem, n int) *subsetcheck.Problem {
	return &subsetcheck.Problem{Code: subsetcheck.CodeRelaxRounds, File: p.File, Pointer: p.Pointer, Line: p.Line, Col: p.Col,
		Message: fmt.Sprintf("the lenient profile compiled this schema %d times (-max-relax-rounds, Options.MaxRelaxRounds) and the compiler still refuses it here: %s", n, p.Message)}
}

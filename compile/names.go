package compile

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/strlang"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Member names: patternProperties and propertyNames. A member whose name
// is in a patternProperties pattern's language must match its schema, for
// every pattern that matches (a meet), declared or not;
// additionalProperties takes the names no property declares and no
// pattern matches; every name must be a string propertyNames accepts.
//
// The declared members (and the names an object grammar writes at their
// place: required names not declared, the names of dependencies) are
// folded: each gets the meet of every schema its name is under, or false
// where propertyNames rejects it (fold). The other names are split into
// regions, each the strings that lie in the same patterns' languages, in
// propertyNames' language and not declared: the value of a member is the
// meet of its region's pattern schemas, or additionalProperties where no
// pattern matches (nameRegions). The regions are disjoint languages, so
// one automaton, their product, reads an extra member's name and knows
// its region at the closing quote: one rule per state, as strings are
// written (machine.go), each accepting state followed by its region's
// value (extraMember). Objects without patternProperties and
// propertyNames keep the extra-name trie of json.go, byte for byte.

// hasNameRules says whether s has patternProperties or propertyNames.
func hasNameRules(s *subsetcheck.Schema) bool {
	return len(s.PatternProperties) > 0 || s.PropertyNames != nil
}

// memberSchema is the schema the value of member name must match under
// p: its declared schema and those of the patterns it matches, or
// additionalProperties (nil: any value) when it is neither declared nor
// matched. It does not say whether propertyNames allows the name.
func (cp *compiler) memberSchema(p *subsetcheck.Schema, name string) (*subsetcheck.Schema, bool) {
	var s *subsetcheck.Schema
	parts := 0
	meet := func(x *subsetcheck.Schema) bool {
		parts++
		var ok bool
		s, ok = cp.conj(s, x)
		return ok
	}
	isDeclared := declared(p, name)
	if isDeclared && !meet(property(p, name)) { // (nil: any value)
		return nil, false
	}
	for _, pp := range p.PatternProperties {
		if pp.Pattern.Lang.Match(name) && !meet(pp.Schema) {
			return nil, false
		}
	}
	if parts == 0 && !isDeclared {
		return p.AdditionalProperties, true
	}
	return s, true
}

// nameAllowed says whether propertyNames (if any) accepts name.
func (cp *compiler) nameAllowed(p *subsetcheck.Schema, name string) (bool, bool) {
	if p.PropertyNames == nil {
		return true, true
	}
	l, ok := cp.namesLang(p.PropertyNames)
	if !ok {
		return false, false
	}
	return l.Match(name), true
}

// fold is p with every member its object grammar writes at its place
// declared, in that order (the declared ones, the required names p does
// not declare, the names its dependencies speak of), each with the schema
// its name is under (memberSchema), or false where propertyNames rejects
// it. Its patternProperties and propertyNames stay: they govern the extra
// members. p itself when it has neither. ok is false after a problem.
func (cp *compiler) fold(p *subsetcheck.Schema) (*subsetcheck.Schema, bool) {
	if !hasNameRules(p) {
		return p, true
	}
	if f, ok := cp.folded[p]; ok {
		return f, f != nil
	}
	put(&cp.folded, p, nil)
	f := *p
	f.Properties = nil
	seen := map[string]bool{}
	add := func(name string) bool {
		if seen[name] {
			return true
		}
		seen[name] = true
		s, ok := cp.memberSchema(p, name)
		if !ok {
			return false
		}
		allowed, ok := cp.nameAllowed(p, name)
		if !ok {
			return false
		}
		if !allowed {
			if slices.Contains(p.Required, name) {
				cp.noteCause("required property %q (at %q) is not a name propertyNames accepts", name, p.Pointer)
			}
			s = falseSchema(p)
		}
		if s == nil {
			s = trueSchema(p)
		}
		f.Properties = append(f.Properties, subsetcheck.Property{Name: name, Schema: s})
		return true
	}
	for _, pr := range p.Properties {
		if !add(pr.Name) {
			return nil, false
		}
	}
	for _, r := range p.Required {
		if !add(r) {
			return nil, false
		}
	}
	for _, n := range dependencyNames(p) {
		if !add(n) {
			return nil, false
		}
	}
	put(&cp.folded, p, &f)
	return &f, true
}

// namesLang is the language of the strings s accepts (propertyNames'
// schema): the union of its alternatives' string languages; an
// alternative that admits no string adds nothing, an enum its string
// members.
func (cp *compiler) namesLang(s *subsetcheck.Schema) (*strlang.Lang, bool) {
	s = target(s)
	switch {
	case isTrue(s):
		return strlang.All(), true
	case s.False:
		return strlang.Empty(), true
	}
	if l, ok := cp.nameLangs[s]; ok {
		return l, l != nil
	}
	put(&cp.nameLangs, s, nil) // a schema that leads back to itself fails
	alts, ok := cp.expand(s)
	if !ok {
		return nil, false
	}
	lim := cp.checked.Limits.Strlang()
	u := strlang.Empty()
	for _, a := range alts {
		var l *strlang.Lang
		if a.opaque != nil {
			if l, ok = cp.namesLang(a.opaque); !ok {
				return nil, false
			}
		} else if l, ok = cp.plainNames(a.plain); !ok {
			return nil, false
		}
		var err error
		if u, err = strlang.Union(u, l, lim); err != nil {
			cp.problem(s, subsetcheck.CodePatternTooLarge, subsetcheck.StringLimitMessage("the names propertyNames accepts", err))
			return nil, false
		}
	}
	put(&cp.nameLangs, s, u)
	return u, true
}

// plainNames is the language of the strings a plain schema accepts.
func (cp *compiler) plainNames(p *subsetcheck.Schema) (*strlang.Lang, bool) {
	switch {
	case p.False || p.Types&subsetcheck.TString == 0:
		return strlang.Empty(), true
	case p.Enum != nil:
		rest := *p
		rest.Enum = nil
		var strs []string
		for _, m := range p.Enum {
			if m.Kind == subsetcheck.String && accepts(&rest, m) {
				strs = append(strs, m.Str)
			}
		}
		l, err := strlang.Literals(strs, cp.checked.Limits.Strlang())
		if err != nil {
			cp.problem(p, subsetcheck.CodePatternTooLarge, subsetcheck.StringLimitMessage("the names of this enum", err))
			return nil, false
		}
		return l, true
	}
	var except []string
	for _, x := range p.Except {
		if x.Kind == subsetcheck.String {
			except = append(except, x.Str)
		}
	}
	e, ok := cp.stringLang(p, except)
	switch {
	case !ok:
		return nil, false
	case e.lang == nil:
		cp.problem(p, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
			"member names in format %q have no automaton here (its leap seconds are a table of offsets); drop the format from propertyNames, or give it a pattern that admits no second 60", p.Format))
		return nil, false
	}
	return e.lang, true
}

// meetPatternProperties is the patternProperties of the meet of a and b:
// both lists, and where one side's patterns could match a name the other
// side leaves to its additionalProperties, that side's additionalProperties
// as one more pattern property, over the names its patterns miss and its
// properties do not declare: the meet's own additionalProperties then
// applies to no name the patterns of either side match, as JSON Schema
// reads it, while each side's still holds where that side says.
func (cp *compiler) meetPatternProperties(a, b *subsetcheck.Schema) ([]subsetcheck.PatternProperty, bool) {
	out := append(slices.Clip(a.PatternProperties), b.PatternProperties...)
	for _, side := range [][2]*subsetcheck.Schema{{a, b}, {b, a}} {
		x, other := side[0], side[1]
		if len(other.PatternProperties) == 0 || isTrue(target(x.AdditionalProperties)) {
			continue
		}
		rest, ok := cp.unmatchedNames(x)
		if !ok {
			return nil, false
		}
		out = append(out, subsetcheck.PatternProperty{Pattern: rest, Schema: x.AdditionalProperties})
	}
	return out, true
}

// unmatchedNames is the language of the names x neither declares nor
// matches with a pattern: where its additionalProperties applies.
func (cp *compiler) unmatchedNames(x *subsetcheck.Schema) (*subsetcheck.Pattern, bool) {
	lim := cp.checked.Limits.Strlang()
	l := strlang.Empty()
	var err error
	for _, pp := range x.PatternProperties {
		if l, err = strlang.Union(l, pp.Pattern.Lang, lim); err != nil {
			break
		}
	}
	names := make([]string, len(x.Properties))
	for i, p := range x.Properties {
		names[i] = p.Name
	}
	var d *strlang.Lang
	if err == nil {
		d, err = strlang.Literals(names, lim)
	}
	if err == nil {
		l, err = strlang.Union(l, d, lim)
	}
	if err != nil {
		cp.problem(x, subsetcheck.CodePatternTooLarge, subsetcheck.StringLimitMessage("the names additionalProperties applies to", err))
		return nil, false
	}
	return &subsetcheck.Pattern{Source: "the names " + pointerOrRoot(x.Pointer) + " neither declares nor matches with patternProperties", Lang: l.Complement()}, true
}

// region is a set of extra member names that lie in the same patterns'
// languages, and the schema of their values (nil: any value).
type region struct {
	lang   *strlang.Lang
	schema *subsetcheck.Schema
}

// nameRegions splits the names of extra members of folded p (names: its
// declared ones, which are not extra) into regions, in order of the
// patterns that hold them. At most Limits.MaxNameRegions (L506).
func (cp *compiler) nameRegions(p *subsetcheck.Schema, names []string) ([]region, bool) {
	lim := cp.checked.Limits.Strlang()
	limit := func(err error) ([]region, bool) {
		cp.problem(p, subsetcheck.CodePatternTooLarge, subsetcheck.StringLimitMessage("the names of this object's extra members", err))
		return nil, false
	}
	names0 := strlang.All()
	if p.PropertyNames != nil {
		var ok bool
		if names0, ok = cp.namesLang(p.PropertyNames); !ok {
			return nil, false
		}
	}
	if len(names) > 0 {
		d, err := strlang.Literals(names, lim)
		if err == nil {
			names0, err = strlang.Minus(names0, d, lim)
		}
		if err != nil {
			return limit(err)
		}
	}
	type part struct {
		lang *strlang.Lang
		in   []int // the patterns whose languages hold it
	}
	parts := []part{{lang: names0}}
	for i, pp := range p.PatternProperties {
		var next []part
		for _, r := range parts {
			in, err := strlang.Intersect(r.lang, pp.Pattern.Lang, lim)
			if err != nil {
				return limit(err)
			}
			out, err := strlang.Minus(r.lang, pp.Pattern.Lang, lim)
			if err != nil {
				return limit(err)
			}
			if !in.IsEmpty() {
				next = append(next, part{in, append(slices.Clip(r.in), i)})
			}
			if !out.IsEmpty() {
				next = append(next, part{out, r.in})
			}
		}
		if max := cp.checked.Limits.MaxNameRegions; len(next) > max {
			cp.problem(p, subsetcheck.CodePatternTooLarge, fmt.Sprintf(
				"the patternProperties of this object split the names of its extra members into more than %d regions, each with its own value schema (-max-name-regions, Limits.MaxNameRegions); use fewer overlapping patterns, or raise the limit", max))
			return nil, false
		}
		parts = next
	}
	out := make([]region, 0, len(parts))
	for _, r := range parts {
		if r.lang.IsEmpty() { // propertyNames false, or every name declared
			continue
		}
		var s *subsetcheck.Schema
		if len(r.in) == 0 {
			s = p.AdditionalProperties
		}
		for _, i := range r.in {
			var ok bool
			if s, ok = cp.conj(s, p.PatternProperties[i].Schema); !ok {
				return nil, false
			}
		}
		out = append(out, region{r.lang, s})
	}
	return out, true
}

// extraMember is the grammar of an extra member of p (folded) after its
// opening quote: the rest of its name, then the colon and the value, and
// the whitespace after it; nil when no extra member may appear. names are
// the members the object writes at their place.
func (cp *compiler) extraMember(p *subsetcheck.Schema, names []string, base string, ws gbnf.Expr) gbnf.Expr {
	if !hasNameRules(p) {
		if ap := p.AdditionalProperties; ap == nil || !ap.False {
			if v := cp.schemaRef(ap); v != nil {
				return seq(cp.extraName(names), ws, lit(":"), ws, v, ws)
			}
		}
		return nil
	}
	regions, ok := cp.nameRegions(p, names)
	if !ok {
		return nil
	}
	var langs []*strlang.Lang
	var ends []gbnf.Expr
	for _, r := range regions {
		if r.schema != nil && r.schema.False {
			continue
		}
		if v := cp.schemaRef(r.schema); v != nil {
			langs = append(langs, r.lang)
			ends = append(ends, seq(ws, lit(":"), ws, v, ws))
		}
	}
	var m *machine
	switch len(langs) {
	case 0:
		return nil
	case 1:
		m = langMachine(langs[0], ends[0])
	default:
		var err error
		if m, err = productMachine(langs, ends, cp.checked.Limits.Strlang().States); err != nil {
			cp.problem(p, subsetcheck.CodePatternTooLarge, subsetcheck.StringLimitMessage("the names of this object's extra members", err))
			return nil
		}
	}
	e := cp.machineExpr(m, base+"-name")
	if _, isRef := e.(*gbnf.Ref); !isRef { // written twice by the object: once
		e = cp.addRule(cp.newName(base+"-name"), e)
	}
	return e
}

// productMachine is the machine of disjoint languages read at once, each
// accepting state followed by its language's end: a state is a state of
// each language's automaton (or none, once it has left it), and an edge
// takes the characters that lead every language to the same next state.
// At most limit states (strlang.ErrLimitStates).
func productMachine(langs []*strlang.Lang, ends []gbnf.Expr, limit int) (*machine, error) {
	m := &machine{}
	index := map[string]int{}
	var tuples [][]int32
	key := func(t []int32) string {
		b := make([]byte, 0, 4*len(t))
		for _, q := range t {
			b = append(b, byte(q), byte(q>>8), byte(q>>16), byte(q>>24))
		}
		return string(b)
	}
	state := func(t []int32) (int, error) {
		k := key(t)
		if q, ok := index[k]; ok {
			return q, nil
		}
		if len(tuples) >= limit {
			return 0, &strlang.Error{Kind: strlang.ErrLimitStates, Offset: -1, Rune: -1,
				Detail: fmt.Sprintf("the automaton of the names needs more than %d states", limit)}
		}
		q := len(tuples)
		index[k] = q
		tuples = append(tuples, t)
		return q, nil
	}
	start := make([]int32, len(langs))
	if _, err := state(start); err != nil {
		return nil, err
	}
	for q := 0; q < len(tuples); q++ {
		t := tuples[q]
		var accept gbnf.Expr
		live, all := -1, false
		edges := make([][]strlang.Edge, len(t))
		for i, s := range t {
			if s < 0 {
				continue
			}
			if langs[i].Accepting(int(s)) {
				accept = ends[i] // the languages are disjoint: one at most
			}
			if live == -1 {
				live = i
			} else {
				live = -2
			}
			all = langs[i].IsAll(int(s))
			edges[i] = langs[i].Edges(int(s))
		}
		m.accept = append(m.accept, accept)
		m.all = append(m.all, live >= 0 && all)
		var out []strlang.Edge
		for _, part := range refineEdges(edges) {
			to, err := state(part.to)
			if err != nil {
				return nil, err
			}
			out = append(out, strlang.Edge{Set: part.set, To: to})
		}
		m.edges = append(m.edges, out)
	}
	return m, nil
}

// edgePart is a set of code points and the states each language goes to
// on them (-1: it leaves the language).
type edgePart struct {
	set strlang.Set
	to  []int32
}

// refineEdges splits the code points into the sets on which every
// language's edges agree, in order of their least code point.
func refineEdges(edges [][]strlang.Edge) []edgePart {
	// The boundaries of every range of every edge.
	var cuts []rune
	for _, es := range edges {
		for _, e := range es {
			for _, r := range e.Set.Ranges() {
				cuts = append(cuts, r.Lo, r.Hi+1)
			}
		}
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	var parts []edgePart
	at := map[string]int{}
	for k := 0; k+1 < len(cuts); k++ {
		lo, hi := cuts[k], cuts[k+1]-1
		to := make([]int32, len(edges))
		any := false
		for i, es := range edges {
			to[i] = -1
			for _, e := range es {
				if e.Set.Contains(lo) {
					to[i], any = int32(e.To), true
					break
				}
			}
		}
		if !any {
			continue
		}
		var b strings.Builder
		for _, q := range to {
			b.WriteString(strconv.Itoa(int(q)))
			b.WriteByte(',')
		}
		set := strlang.NewSet(strlang.Range{Lo: lo, Hi: hi})
		if j, ok := at[b.String()]; ok {
			parts[j].set = parts[j].set.Union(set)
			continue
		}
		at[b.String()] = len(parts)
		parts = append(parts, edgePart{set, to})
	}
	return parts
}

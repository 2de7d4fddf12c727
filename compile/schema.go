package compile

import (
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// schemaRef is a reference to the rule of s (one rule per schema, so shared
// and recursive subschemas cost one rule), or nil when s admits no value.
func (cp *compiler) schemaRef(s *subsetcheck.Schema) gbnf.Expr {
	s = target(s)
	switch {
	case s == nil || isTrue(s):
		return cp.anyValue()
	case s.False:
		return nil
	}
	if r := cp.rules[s]; r != nil {
		if cp.empty[s] {
			return nil
		}
		if r.Expr == nil { // s refers to itself while its body is built
			put(&cp.recursive, r, true)
		}
		return cp.ref(r.Name)
	}
	if len(cp.g.Rules) > cp.maxRules { // stop early: the grammar is refused anyway
		cp.tooLarge(s)
		return nil
	}
	r := cp.newRule(cp.newName(pointerName(s.Pointer)), nil)
	at := len(cp.g.Rules) - 1
	cp.rules[s] = r
	r.Expr = cp.body(s, r.Name)
	if r.Expr == nil {
		put(&cp.empty, s, true)
		return nil
	}
	// A rule that only names another rule (properties-age ::= integer) is
	// dropped, and s refers to that rule instead: most properties have a
	// plain type. Prune would drop it too, after renaming every reference,
	// a walk of each body holding one. Not when s recurses: references to
	// its rule are out already. The dropped rule stays in rules, renamed
	// as its target, so that the next reference to s names the target;
	// its own name stays taken, as before.
	if to, ok := r.Expr.(*gbnf.Ref); ok && to.Name != r.Name && !cp.recursive[r] {
		cp.dropRule(at)
		r.Name = to.Name
	}
	return cp.ref(r.Name)
}

// body is the union of s's alternatives.
func (cp *compiler) body(s *subsetcheck.Schema, name string) gbnf.Expr {
	alts, ok := cp.expand(s)
	if !ok {
		return nil
	}
	var buf [4]gbnf.Expr // alt copies them out: most schemas have one alternative
	exprs := buf[:0]
	for i, a := range alts {
		base := name
		if len(alts) > 1 {
			base = name + "-" + strconv.Itoa(i+1)
		}
		if a.opaque != nil {
			exprs = append(exprs, cp.schemaRef(a.opaque))
		} else {
			exprs = append(exprs, cp.plainExpr(a.plain, base))
		}
	}
	return alt(exprs...)
}

// plainExpr is the grammar of a schema without $ref and anyOf: the union of
// its types' grammars, or its enum members' canonical texts.
func (cp *compiler) plainExpr(p *subsetcheck.Schema, base string) gbnf.Expr {
	if p.False {
		return nil
	}
	if p.Enum != nil {
		return cp.enumExpr(p)
	}
	if isTrue(p) {
		return cp.anyValue()
	}
	var ex excluded
	if len(p.Except) > 0 {
		var ok bool
		if ex, ok = cp.excludedBy(p); !ok {
			return nil
		}
	}
	t := p.Types &^ ex.types
	var buf [8]gbnf.Expr // one per type at most (two for boolean); alt copies them out
	alts := buf[:0]
	if t&subsetcheck.TObject != 0 {
		if p.SomeMember != nil {
			alts = append(alts, cp.someMemberObject(p, base)) // somemember.go
		} else {
			alts = append(alts, cp.objectExpr(p, base))
		}
	}
	if t&subsetcheck.TArray != 0 {
		alts = append(alts, cp.arrayExpr(p, base))
	}
	if t&subsetcheck.TString != 0 {
		switch {
		case len(p.Patterns) > 0 || len(ex.strings) > 0 && p.Format != "":
			alts = append(alts, cp.patternString(p, base, ex.strings))
		case len(ex.strings) > 0:
			alts = append(alts, cp.stringsExcept(p, ex.strings))
		case p.Format != "":
			alts = append(alts, cp.formattedString(p))
		default:
			alts = append(alts, cp.boundedString(p.MinLength, p.MaxLength))
		}
	}
	switch nc := t & (subsetcheck.TNumber | subsetcheck.TInteger); {
	case nc == 0:
	case p.MultipleOf != nil: // multipleof.go
		if len(ex.numbers) > 0 {
			cp.problem(p, subsetcheck.CodeNotExactlyCompilable,
				`multipleOf beside numbers the schema excludes (not, or a const or enum negated) is not supported: the digit automaton cannot leave out single values; list the allowed numbers in enum instead`)
			return nil
		}
		alts = append(alts, cp.multipleOfRange(p, nc))
	case nc&subsetcheck.TNumber != 0 && (!finiteDecimal(p.Lower) || !finiteDecimal(p.Upper)):
		cp.problem(p, subsetcheck.CodeNotExactlyCompilable,
			`a bound on non-integer numbers is not a finite decimal, so no decimal digit range can state it`)
		return nil
	case len(ex.numbers) > 0 || nc == subsetcheck.TNumber:
		alts = append(alts, cp.numbersExcept(p.Lower, p.Upper, nc, ex.numbers))
	case nc&subsetcheck.TNumber != 0:
		alts = append(alts, cp.numberRange(p.Lower, p.Upper))
	default:
		alts = append(alts, cp.integerRange(integerBounds(p.Lower, p.Upper)))
	}
	if t&subsetcheck.TBoolean != 0 {
		if !ex.isTrue {
			alts = append(alts, lit("true"))
		}
		if !ex.isFalse {
			alts = append(alts, lit("false"))
		}
	}
	if t&subsetcheck.TNull != 0 {
		alts = append(alts, lit("null"))
	}
	return alt(alts...)
}

// enumExpr lists the canonical texts of the members the rest of the schema
// accepts, each value once.
func (cp *compiler) enumExpr(p *subsetcheck.Schema) gbnf.Expr {
	rest := *p
	rest.Enum = nil
	kept := map[string]bool{} // by subsetcheck.CanonicalKey, which is exact
	var alts []gbnf.Expr
next:
	for _, m := range p.Enum {
		if !accepts(&rest, m) {
			continue
		}
		key := subsetcheck.CanonicalKey(m)
		if kept[key] {
			continue next
		}
		kept[key] = true
		alts = append(alts, lit(plainText(m)))
	}
	if len(alts) == 0 {
		cp.noteCause("enum/const at %q has no member that the rest of the schema accepts", p.Pointer)
		return nil
	}
	texts := make([]string, len(alts))
	for i, a := range alts {
		texts[i] = a.(*gbnf.Lit).Text
	}
	return literalTrie(texts)
}

// literalTrie is the union of texts written as a trie: shared
// prefixes once, then a group of what follows. llama.cpp keeps a stack per
// alternative whose next character fits, so a flat list of string enum
// members (all starting with a quote) keeps one per member until they part;
// the trie keeps one per distinct next character.
func literalTrie(texts []string) gbnf.Expr {
	slices.Sort(texts) // code point order; a text comes before its extensions
	texts = slices.Compact(texts)
	rs := make([][]rune, len(texts))
	for i, t := range texts {
		rs[i] = []rune(t)
	}
	// node is the texts [lo, hi), which share their first depth runes.
	var node func(lo, hi, depth int) gbnf.Expr
	node = func(lo, hi, depth int) gbnf.Expr {
		var alts []gbnf.Expr
		i := lo
		if len(rs[i]) == depth {
			alts = append(alts, epsilon())
			i++
		}
		for i < hi {
			r := rs[i][depth]
			j := i + 1
			for j < hi && rs[j][depth] == r {
				j++
			}
			if j == i+1 {
				alts = append(alts, lit(string(rs[i][depth:])))
				i = j
				continue
			}
			d := depth + 1
			for sharedAt(rs[i:j], d) {
				d++
			}
			alts = append(alts, seq(lit(string(rs[i][depth:d])), node(i, j, d)))
			i = j
		}
		return alt(alts...)
	}
	return node(0, len(rs), 0)
}

// sharedAt says whether every text in rs goes on past d runes with the
// same rune there.
func sharedAt(rs [][]rune, d int) bool {
	for _, t := range rs {
		if len(t) <= d || t[d] != rs[0][d] {
			return false
		}
	}
	return true
}

// objectExpr: declared members in schema order, each optional one
// skippable, then extra members. Linear in the number of members: the
// members from i on are one expression, a rule when two places refer to it.
func (cp *compiler) objectExpr(p *subsetcheck.Schema, base string) gbnf.Expr {
	return cp.objectWithExtras(p, base, nil)
}

// objectWithExtras is objectExpr whose extra members meet the
// requirements some (somemember.go).
func (cp *compiler) objectWithExtras(p *subsetcheck.Schema, base string, some []subsetcheck.SomeMember) gbnf.Expr {
	p, ok := cp.fold(p) // patternProperties and propertyNames (names.go)
	if !ok {
		return nil
	}
	type member = objectMember
	members := make([]member, 0, len(p.Properties)+len(p.Required))
	names := make([]string, 0, len(p.Properties)+len(p.Required))
	isRequired := func(name string) bool { return slices.Contains(p.Required, name) }
	if len(p.Required) > maxScannedRequired {
		required := make(map[string]bool, len(p.Required))
		for _, r := range p.Required {
			required[r] = true
		}
		isRequired = func(name string) bool { return required[name] }
	}
	add := func(name string, s *subsetcheck.Schema) bool {
		names = append(names, name)
		v := cp.schemaRef(s)
		if v == nil {
			if isRequired(name) {
				cp.noteCause("required property %q (at %q) admits no value", name, p.Pointer)
				return false
			}
			return true // may simply not appear
		}
		members = append(members, member{name, v, isRequired(name)})
		return true
	}
	for _, pr := range p.Properties {
		if !add(pr.Name, pr.Schema) {
			return nil
		}
	}
	for _, r := range p.Required {
		if !declared(p, r) && !add(r, p.AdditionalProperties) {
			return nil
		}
	}
	for _, n := range dependencyNames(p) { // dependencies.go
		add(n, p.AdditionalProperties)
	}
	if some == nil && (p.Dependencies != nil || (p.MinProperties > 0 || p.MaxProperties != nil) && !cp.countsHold(p, members)) {
		return cp.countedObject(p, base, members, names)
	}
	ws, quote := cp.w(), lit(`"`)
	// From the last member back: rest is the members from i on once the
	// opening quote of a name was written (nil when none may come), more
	// the same before the comma, what may follow member i-1. A comma and
	// a quote are written once for all the members that may come next, not
	// once per member: llama.cpp keeps a parse stack per alternative until
	// they part, so an object with k optional members left kept k stacks
	// at each of the comma, the whitespace and the quote (see cost.go).
	var rest gbnf.Expr
	more := epsilon()
	if some != nil {
		if rest, more = cp.someMemberTail(p, base, names, some); rest == nil {
			return nil
		}
	} else if extra := cp.extraMember(p, names, base, ws); extra != nil {
		member := cp.addRule(cp.newName(base+"-extra"), seq(lit(","), ws, quote, extra))
		more = &gbnf.Repeat{Expr: member, Min: 0, Max: -1}
		rest = seq(extra, more)
	}
	optional := some == nil // no member from i on is required (some needs an extra)
	for i := len(members) - 1; i >= 0; i-- {
		m := members[i]
		// The nodes come from the slab (slab.go): members are the most
		// nodes a compile makes after extra-name tries.
		mem := cp.slab.seq(cp.slab.lit(quotedName(m.name)[1:]), ws, lit(":"), ws, m.value, ws, more)
		if m.required || rest == nil {
			rest = mem
		} else {
			rest = cp.slab.alt(mem, rest)
		}
		optional = optional && !m.required
		if i == 0 {
			break
		}
		if !members[i-1].required { // rest is in member i-1's more and in its rest
			rest = cp.addRule(cp.newName(base+"-rest"+strconv.Itoa(i+1)), rest)
		}
		more = cp.slab.seq(lit(","), ws, quote, rest)
		if optional { // a rule: llama.cpp makes two of a group made optional
			more = cp.addRule(cp.newName(base+"-next"+strconv.Itoa(i+1)), cp.slab.alt(more, epsilon()))
		}
	}
	if rest == nil {
		return cp.slab.seq(lit("{"), ws, lit("}"))
	}
	first := cp.slab.seq(quote, rest)
	if optional {
		first = opt(first)
	}
	return cp.slab.seq(lit("{"), ws, first, lit("}"))
}

// objectMember is one member objectExpr writes at its place: a declared
// property, or a required name the schema does not declare.
type objectMember struct {
	name     string
	value    gbnf.Expr
	required bool
}

// maxScannedRequired is the longest "required" list objectExpr searches
// by scanning; longer ones (a hostile schema's thousands) get a map.
const maxScannedRequired = 16

// quotedName is quoted(name), without a builder for the usual name that
// has nothing to escape.
func quotedName(name string) string {
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' {
			return quoted(name)
		}
	}
	return `"` + name + `"`
}

// altOpt is x | y where y may be the empty string (then x?).
func (cp *compiler) altOpt(x, y gbnf.Expr) gbnf.Expr {
	if isEpsilon(y) {
		return opt(x)
	}
	return cp.slab.alt(x, y)
}

// arrayExpr: positional items, then Items for the rest, with the item count
// between MinItems and MaxItems.
func (cp *compiler) arrayExpr(p *subsetcheck.Schema, base string) gbnf.Expr {
	if p.UniqueItems || p.Contains != nil {
		return cp.constrainedArray(p, base) // items.go
	}
	maxN := p.MaxItems
	var prefix []gbnf.Expr
	for i := range p.PrefixItems {
		if maxN >= 0 && i >= maxN {
			break
		}
		e := cp.schemaRef(p.PrefixItems[i])
		if e == nil { // no value fits here, so no array reaches this position
			maxN = minLimit(maxN, i)
			break
		}
		prefix = append(prefix, e)
	}
	var rest gbnf.Expr
	if len(prefix) == len(p.PrefixItems) && (maxN < 0 || maxN > len(prefix)) {
		if rest = cp.schemaRef(p.Items); rest == nil {
			maxN = len(prefix)
		}
	}
	if maxN >= 0 && p.MinItems > maxN {
		cp.noteCause("the array at %q needs at least %d items but at most %d can be valid", p.Pointer, p.MinItems, maxN)
		return nil
	}
	ws := cp.w()
	k := len(prefix)
	restHi := -1
	if maxN >= 0 {
		restHi = maxN - k
	}
	restLo := max(0, p.MinItems-k)
	var tail gbnf.Expr = epsilon()
	if rest != nil && restHi != 0 {
		more := cp.addRule(cp.newName(base+"-more"), seq(lit(","), ws, rest, ws))
		if k > 0 {
			tail = cp.repeat(more, restLo, restHi)
		} else {
			hi := restHi
			if hi > 0 {
				hi--
			}
			tail = seq(rest, ws, cp.repeat(more, max(0, restLo-1), hi))
			if restLo == 0 {
				tail = opt(tail)
			}
		}
	}
	for i := k - 1; i >= 0; i-- {
		item := seq(prefix[i], ws, tail)
		if i > 0 {
			item = seq(lit(","), ws, item)
		}
		if i < p.MinItems {
			tail = item
		} else {
			tail = opt(item)
		}
	}
	return seq(lit("["), ws, tail, lit("]"))
}

// formattedString is the grammar of the strings in p's asserted format.
// Length bounds that every string of the format meets are dropped, and
// bounds that none meets leave no string; bounds that cut through the
// format's lengths would need the format counted character by character,
// so they are refused.
func (cp *compiler) formattedString(p *subsetcheck.Schema) gbnf.Expr {
	lo, hi := formatLength(p.Format)
	switch {
	case p.MinLength <= lo && (p.MaxLength < 0 || hi >= 0 && hi <= p.MaxLength):
		return cp.formatString(p.Format)
	case hi >= 0 && hi < p.MinLength || p.MaxLength >= 0 && p.MaxLength < lo:
		cp.noteCause("format %q at %q has no string within minLength %d and maxLength %d", p.Format, p.Pointer, p.MinLength, p.MaxLength)
		return nil
	}
	cp.problem(p, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
		"format %q with minLength %d and maxLength %d cannot be enforced exactly: the bounds cut through the format's lengths (%s); drop the bounds or make them cover %s",
		p.Format, p.MinLength, p.MaxLength, lengthRange(lo, hi), lengthRange(lo, hi)))
	return nil
}

func lengthRange(lo, hi int) string {
	if hi < 0 {
		return strconv.Itoa(lo) + " or more characters"
	}
	if lo == hi {
		return strconv.Itoa(lo) + " characters"
	}
	return strconv.Itoa(lo) + " to " + strconv.Itoa(hi) + " characters"
}

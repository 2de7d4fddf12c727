package compile

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Excluded values (Schema.Except): the complement of an enum or const
// (not.go) is every value but its members. Per type: null and the booleans
// drop out; numbers become the ranges between the excluded ones, in plain
// decimals only, so that no other spelling of an excluded number (3.0,
// 30e-1) is left; strings become the complement of the excluded strings'
// trie, in canonical spelling only, so that no other spelling of an
// excluded string is left (extraName). An excluded array or object is
// written member by member instead (otherThan), never as Except.

// otherThan is every value but the array or object c, as a union of
// plain schemas whose parts are disjoint (the first difference): for an
// object, another type, the first of c's members missing, the first with
// another value, or all of c's members and some other member
// (Schema.SomeMember); for an array, another type, another length, or the
// first item with another value. The members and items of c are excluded
// in turn by their own complements (negation of their const), so nested
// values need nothing more.
func (cp *compiler) otherThan(p *subsetcheck.Schema, c *subsetcheck.Value) []alternative {
	mk := func(t subsetcheck.Type) *subsetcheck.Schema {
		s := trueSchema(p)
		s.Types = t
		return s
	}
	var out []alternative
	add := func(s *subsetcheck.Schema) { out = append(out, alternative{plain: s}) }
	if c.Kind == subsetcheck.Object {
		add(mk(subsetcheck.AllTypes &^ subsetcheck.TObject))
		names := make([]string, len(c.Members))
		same := make([]subsetcheck.Property, len(c.Members))
		for i, m := range c.Members {
			names[i] = m.Name
			same[i] = subsetcheck.Property{Name: m.Name, Schema: constOf(p, m.Value)}
		}
		for i, n := range names { // the names before n, without n
			s := mk(subsetcheck.TObject)
			s.Required = names[:i:i]
			s.Properties = []subsetcheck.Property{{Name: n, Schema: falseSchema(p)}}
			add(s)
		}
		for i, m := range c.Members { // all there, those before m the same, m not
			s := mk(subsetcheck.TObject)
			s.Required = names
			s.Properties = append(slices.Clip(same[:i]), subsetcheck.Property{Name: m.Name, Schema: cp.negation(same[i].Schema)})
			add(s)
		}
		s := mk(subsetcheck.TObject) // all there and the same, and another member
		s.Required = names
		s.Properties = same
		s.SomeMember = []subsetcheck.SomeMember{{Schema: trueSchema(p), Names: names}}
		add(s)
		return out
	}
	add(mk(subsetcheck.AllTypes &^ subsetcheck.TArray))
	n := len(c.Items)
	if n > 0 {
		s := mk(subsetcheck.TArray)
		s.MaxItems = n - 1
		add(s)
	}
	longer := mk(subsetcheck.TArray)
	longer.MinItems = n + 1
	add(longer)
	for i, it := range c.Items { // n items, those before i the same, item i not
		s := mk(subsetcheck.TArray)
		s.MinItems, s.MaxItems = n, n
		for _, before := range c.Items[:i] {
			s.PrefixItems = append(s.PrefixItems, constOf(p, before))
		}
		s.PrefixItems = append(s.PrefixItems, cp.negation(constOf(p, it)))
		add(s)
	}
	return out
}

// constOf is the schema {"const": v}, placed at p.
func constOf(p *subsetcheck.Schema, v *subsetcheck.Value) *subsetcheck.Schema {
	s := trueSchema(p)
	s.Enum = []*subsetcheck.Value{v}
	return s
}

// excluded is what a plain schema's Except takes away, per type.
type excluded struct {
	types           subsetcheck.Type // types left with no value (null)
	isTrue, isFalse bool             // booleans excluded
	numbers         []*big.Rat       // sorted, distinct
	strings         []string
}

// excludedBy sorts p's excluded values by type, keeping those the rest of p
// accepts (the others are not in p's language anyway).
func (cp *compiler) excludedBy(p *subsetcheck.Schema) (excluded, bool) {
	rest := *p
	rest.Except = nil
	var ex excluded
	for _, x := range p.Except {
		if !accepts(&rest, x) {
			continue
		}
		switch x.Kind {
		case subsetcheck.Null:
			ex.types |= subsetcheck.TNull
		case subsetcheck.Bool:
			ex.isTrue = ex.isTrue || x.Bool
			ex.isFalse = ex.isFalse || !x.Bool
		case subsetcheck.Number:
			d, ok := parseDecimal(x.Num)
			if !ok {
				cp.problem(p, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
					"the number %s is excluded here (not of an enum or const), but its exponent passes %d (MaxExponent), so the ranges around it cannot be written", clip(x.Num, 40), MaxExponent))
				return ex, false
			}
			ex.numbers = append(ex.numbers, d.rat())
		case subsetcheck.String:
			ex.strings = append(ex.strings, x.Str)
		default:
			cp.problem(p, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
				"%s is excluded here (not of an enum or const), and the %ss other than one value have no grammar here; exclude it by a keyword of its members instead (for example not with required or properties)",
				clip(plainText(x), 60), kindWord(x.Kind)))
			cp.noteNoComplement(&noComplement{at: p, why: fmt.Sprintf("the %ss other than %s have no grammar here", kindWord(x.Kind), clip(plainText(x), 60))})
			return ex, false
		}
	}
	if ex.isTrue && ex.isFalse {
		ex.types |= subsetcheck.TBoolean
	}
	slices.SortFunc(ex.numbers, func(a, b *big.Rat) int { return a.Cmp(b) })
	ex.numbers = slices.CompactFunc(ex.numbers, func(a, b *big.Rat) bool { return a.Cmp(b) == 0 })
	return ex, true
}

func kindWord(k subsetcheck.Kind) string {
	if k == subsetcheck.Array {
		return "array"
	}
	return "object"
}

// numbersExcept is the grammar of the numbers of class nc (TNumber,
// TInteger or both) between the bounds, without the sorted points: the
// ranges between them, each bounded on one side at least, so plain
// decimals.
func (cp *compiler) numbersExcept(lower, upper *subsetcheck.Bound, nc subsetcheck.Type, points []*big.Rat) gbnf.Expr {
	var alts []gbnf.Expr
	lo := lower
	for _, x := range points {
		alts = append(alts, cp.classRange(lo, &subsetcheck.Bound{Value: x, Exclusive: true}, nc))
		lo = &subsetcheck.Bound{Value: x, Exclusive: true}
	}
	alts = append(alts, cp.classRange(lo, upper, nc))
	return alt(alts...)
}

// classRange is the grammar of the numbers of class nc between two bounds.
func (cp *compiler) classRange(lower, upper *subsetcheck.Bound, nc subsetcheck.Type) gbnf.Expr {
	switch nc {
	case subsetcheck.TInteger:
		return cp.integerRange(integerBounds(lower, upper))
	case subsetcheck.TNumber:
		return cp.fractionRange(lower, upper)
	}
	return cp.numberRange(lower, upper)
}

// stringsExcept is the grammar of p's strings other than the excluded ones:
// the complement of their trie, canonically spelled, within p's lengths.
func (cp *compiler) stringsExcept(p *subsetcheck.Schema, strs []string) gbnf.Expr {
	if p.Format != "" {
		// Where string languages are automata, this is their difference.
		cp.problem(p, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
			"the strings here must not be %s (not of an enum or const), and excluding strings from format %q is not supported; list the allowed strings in enum instead",
			clip(quoted(strs[0]), 60), p.Format))
		cp.noteNoComplement(&noComplement{at: p, why: fmt.Sprintf("the strings in format %q other than %s have no grammar here", p.Format, clip(quoted(strs[0]), 60))})
		return nil
	}
	if p.MinLength == 0 && p.MaxLength < 0 {
		return seq(lit(`"`), cp.extraName(strs))
	}
	t := lengthTrie{cp: cp, lo: p.MinLength, hi: p.MaxLength}
	return seq(lit(`"`), t.node(sortedValidNames(strs), 0, 0))
}

// lengthTrie is the complement of a trie of names among the strings of lo
// to hi code points (hi < 0: no maximum), after the opening quote: at each
// node, stop (unless a name ends there), take a child's character, or take
// any other character and then any rest of a fitting length.
type lengthTrie struct {
	cp     *compiler
	lo, hi int
}

// node is the trie node of the sorted names, which share their first at
// bytes, d code points.
func (t lengthTrie) node(names []string, at, d int) gbnf.Expr {
	var alts, keys []gbnf.Expr
	var runes []rune
	i := 0
	for i < len(names) && len(names[i]) == at { // a name ending here sorts first
		i++
	}
	if i == 0 && d >= t.lo && (t.hi < 0 || d <= t.hi) {
		alts = append(alts, lit(`"`))
	}
	if t.hi >= 0 && d >= t.hi {
		return alt(alts...) // no room for one more character
	}
	for i < len(names) {
		r, size := utf8.DecodeRuneInString(names[i][at:])
		j := i + 1
		for j < len(names) && strings.HasPrefix(names[j][at:], names[i][at:at+size]) {
			j++
		}
		runes = append(runes, r)
		keys = append(keys, seq(canonicalLit(r), t.node(names[i:j], at+size, d+1)))
		i = j
	}
	alts = append(alts, keys...)
	return alt(append(alts, seq(t.cp.canonicalChar(runes), t.rest(d+1)))...)
}

// rest is any canonical string rest, closing quote included, that makes
// the whole string between lo and hi code points long, d being written.
func (t lengthTrie) rest(d int) gbnf.Expr {
	lo, hi := max(0, t.lo-d), t.hi-d
	if t.hi < 0 {
		hi = -1
	}
	key := "canonical-rest-" + strconv.Itoa(lo) + "-" + strconv.Itoa(hi)
	return t.cp.shared(key, func(string) gbnf.Expr {
		return seq(t.cp.repeat(t.cp.canonicalCharRule(), lo, hi), lit(`"`))
	})
}

package equiv

import (
	"math/big"
	mrand "math/rand"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Generator limits: each has a default in NewGenerator and can be lowered
// for big schemas.
const (
	// DefaultMaxDepth is how many levels of nesting (objects, arrays, $ref
	// and anyOf steps) are explored in full; deeper, each subschema gives
	// only its smallest values.
	DefaultMaxDepth = 5
	// DefaultMaxPerNode caps the values kept for one subschema, so that the
	// number of values stays linear in the schema's size.
	DefaultMaxPerNode = 24
	// hardDepth ends the walk of a recursion that small values cannot close.
	hardDepth = 24
	// maxGenLength caps the strings and arrays built at a large minimum or
	// maximum; longer bounds are tested at the cap's side only.
	maxGenLength = 3000
	// maxEnumValues is how many members of one enum are kept as valid
	// values (all of them, up to this many).
	maxEnumValues = 400
)

// Generator makes instances of one checked schema: valid values that walk
// every branch and bound, and near-miss invalid values one step outside a
// constraint. It is deterministic for a given seed.
type Generator struct {
	MaxDepth   int
	MaxPerNode int

	c     *subsetcheck.Checked
	rng   *rand.Rand
	memo  map[memoKey][]*subsetcheck.Value
	names []string // every declared property name, so extras never collide
	// within holds the branches met with their schema's own object
	// keywords (withOwn), one per pair, so that memo finds them again.
	within map[[2]*subsetcheck.Schema]*subsetcheck.Schema
}

type memoKey struct {
	s     *subsetcheck.Schema
	depth int
}

// NewGenerator returns a generator for c, seeded with seed.
func NewGenerator(c *subsetcheck.Checked, seed uint64) *Generator {
	g := &Generator{
		MaxDepth:   DefaultMaxDepth,
		MaxPerNode: DefaultMaxPerNode,
		c:          c,
		rng:        rand.New(rand.NewPCG(seed, seed^0x5eed)),
		memo:       map[memoKey][]*subsetcheck.Value{},
	}
	return g
}

// Valid returns values the schema accepts (by Holds), without duplicates.
func (g *Generator) Valid() []*subsetcheck.Value {
	return dedupe(g.valid(g.c.Root, 0))
}

// Invalid returns values one step outside the schema (by Holds), without
// duplicates.
func (g *Generator) Invalid() []*subsetcheck.Value {
	var out []*subsetcheck.Value
	for _, v := range g.invalid(g.c.Root, 0) {
		if !Holds(g.c, g.c.Root, v) {
			out = append(out, v)
		}
	}
	return dedupe(out)
}

func dedupe(vs []*subsetcheck.Value) []*subsetcheck.Value {
	seen := map[string]bool{}
	var out []*subsetcheck.Value
	for _, v := range vs {
		k := Compact(v)
		if !seen[k] {
			seen[k] = true
			out = append(out, v)
		}
	}
	return out
}

// keep filters vs to those for which want == Holds(s, v), drops duplicates
// and caps the list, always keeping the first few (the smallest values).
func (g *Generator) keep(s *subsetcheck.Schema, vs []*subsetcheck.Value, want bool) []*subsetcheck.Value {
	var out []*subsetcheck.Value
	for _, v := range dedupe(vs) {
		if holds(g.c.Draft, s, v, 0) == want {
			out = append(out, v)
		}
	}
	limit := g.MaxPerNode
	if want && s.Enum != nil {
		// Every enum member is a value the grammar must accept.
		limit = max(limit, min(len(s.Enum), maxEnumValues))
	}
	if len(s.Patterns) > 0 {
		limit = max(limit, patternKeep)
	}
	if s.Format != "" {
		// Every edge of the format is worth its text.
		limit = max(limit, len(formatStrings(s.Format, want))+len(typeReps))
	}
	if len(out) <= limit {
		return out
	}
	head := 4
	rest := slices.Clone(out[head:])
	g.rng.Shuffle(len(rest), func(i, j int) { rest[i], rest[j] = rest[j], rest[i] })
	return append(out[:head:head], rest[:limit-head]...)
}

func (g *Generator) small(depth int) bool { return depth >= g.MaxDepth }

// first returns the first valid value of s, or nil when none was found.
func (g *Generator) first(s *subsetcheck.Schema, depth int) *subsetcheck.Value {
	if vs := g.valid(s, depth); len(vs) > 0 {
		return vs[0]
	}
	return nil
}

// valid lists values that s accepts. s nil means any value.
func (g *Generator) valid(s *subsetcheck.Schema, depth int) []*subsetcheck.Value {
	if depth > hardDepth {
		return nil
	}
	if s == nil {
		return anyValues(g.small(depth))
	}
	key := memoKey{s, min(depth, g.MaxDepth)}
	if depth > g.MaxDepth {
		key.depth = depth // deep levels differ: they end the recursion
	}
	if vs, ok := g.memo[key]; ok {
		return vs
	}
	g.memo[key] = nil // a recursion back to here finds nothing, and stops
	vs := g.keep(s, g.candidates(s, depth), true)
	g.memo[key] = vs
	return vs
}

func (g *Generator) candidates(s *subsetcheck.Schema, depth int) []*subsetcheck.Value {
	if s.False {
		return nil
	}
	var out, branches []*subsetcheck.Value
	if s.Ref != nil {
		branches = append(branches, g.valid(s.Ref, depth+1)...)
		if g.c.Draft < subsetcheck.Draft2019 {
			return branches
		}
	}
	if s.Enum != nil {
		return append(branches, s.Enum...)
	}
	for _, b := range s.AnyOf {
		branches = append(branches, g.valid(b, depth+1)...)
	}
	branches = append(branches, g.combinatorCandidates(s, depth)...)
	out = append(out, g.typed(s, depth)...)
	// A branch's object and this schema's own object may each miss the
	// other's required members: merge them.
	var merged []*subsetcheck.Value
	for _, b := range branches {
		if b.Kind != subsetcheck.Object {
			continue
		}
		for _, o := range firstN(out, 6) {
			if o.Kind == subsetcheck.Object {
				m := o
				for _, bm := range b.Members {
					if m.Get(bm.Name) == nil {
						m = withMember(m, bm.Name, bm.Value)
					}
				}
				merged = append(merged, m)
			}
		}
	}
	return append(append(branches, out...), merged...)
}

// typed lists candidates from the schema's own type keywords.
func (g *Generator) typed(s *subsetcheck.Schema, depth int) []*subsetcheck.Value {
	var out []*subsetcheck.Value
	t := s.Types
	if t&subsetcheck.TNull != 0 {
		out = append(out, vNull())
	}
	if t&subsetcheck.TBoolean != 0 {
		out = append(out, vBool(true), vBool(false))
	}
	if t&(subsetcheck.TInteger|subsetcheck.TNumber) != 0 {
		out = append(out, g.integers(s, true)...)
	}
	if t&subsetcheck.TNumber != 0 {
		out = append(out, g.fractions(s, true)...)
	}
	if t&(subsetcheck.TInteger|subsetcheck.TNumber) != 0 {
		out = append(out, g.multiples(s, true)...) // gencount.go
	}
	if t&subsetcheck.TString != 0 {
		out = append(out, g.strings(s, true)...)
	}
	if t&subsetcheck.TArray != 0 {
		out = append(out, g.arrays(s, depth)...)
		out = append(out, g.uniqueArrays(s, depth)...)   // gencount.go
		out = append(out, g.containsArrays(s, depth)...) // gencount.go
	}
	if t&subsetcheck.TObject != 0 {
		out = append(out, g.objects(s, depth)...)
		out = append(out, g.countedObjects(s, depth)...)    // gencount.go
		out = append(out, g.dependencyObjects(s, depth)...) // gencount.go
	}
	return out
}

// anyValues stands for a schema that accepts everything.
func anyValues(small bool) []*subsetcheck.Value {
	if small {
		return []*subsetcheck.Value{vNull(), vNum("7")}
	}
	return []*subsetcheck.Value{
		vNull(), vBool(true), vNum("-12"), vNum("1.5e3"), vStr(""), vStr("x\"\\/é😀"),
		vArr(), vArr(vNum("1"), vStr("a"), vNull()), vObj(), vObj(member("k", vArr(vBool(false)))),
	}
}

var (
	one     = big.NewRat(1, 1)
	tenTo20 = new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(20), nil))
	two63   = new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 63))
)

// intRange is the smallest and largest integer s allows (nil: unbounded).
func intRange(s *subsetcheck.Schema) (lo, hi *big.Int) {
	if b := s.Lower; b != nil {
		lo = ceil(b.Value)
		if b.Exclusive && b.Value.IsInt() {
			lo.Add(lo, big.NewInt(1))
		}
	}
	if b := s.Upper; b != nil {
		hi = floor(b.Value)
		if b.Exclusive && b.Value.IsInt() {
			hi.Sub(hi, big.NewInt(1))
		}
	}
	return lo, hi
}

func floor(r *big.Rat) *big.Int {
	q, _ := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
	return q // Euclidean division: rounds down for a positive divisor
}

func ceil(r *big.Rat) *big.Int {
	q := floor(r)
	if !r.IsInt() {
		q.Add(q, big.NewInt(1))
	}
	return q
}

func intText(i *big.Int) *subsetcheck.Value { return vNum(i.String()) }

// integers gives whole numbers at and near the bounds (valid) or just
// outside them (invalid), in several spellings (5, 5.0, 5e0, -0).
func (g *Generator) integers(s *subsetcheck.Schema, valid bool) []*subsetcheck.Value {
	lo, hi := intRange(s)
	var ints []*big.Int
	add := func(i *big.Int, d int64) { ints = append(ints, new(big.Int).Add(i, big.NewInt(d))) }
	if valid {
		for _, k := range []int64{0, 1, -1, 42} {
			ints = append(ints, big.NewInt(k))
		}
		if lo != nil {
			add(lo, 0)
			add(lo, 1)
		}
		if hi != nil {
			add(hi, 0)
			add(hi, -1)
		}
		if lo != nil && hi != nil && hi.Cmp(lo) > 0 {
			span := new(big.Int).Sub(hi, lo)
			r := new(big.Int).Rand(mrand.New(randSource{g.rng}), span)
			ints = append(ints, r.Add(r, lo))
		}
		big20 := tenTo20.Num()
		ints = append(ints, new(big.Int).Set(big20), new(big.Int).Neg(big20), new(big.Int).Set(two63.Num()))
	} else {
		if lo != nil {
			add(lo, -1)
			if lo.Sign() > 0 {
				ints = append(ints, new(big.Int).Neg(lo))
			}
		}
		if hi != nil {
			add(hi, 1)
			add(hi, 1000)
		}
	}
	var out []*subsetcheck.Value
	for i, n := range ints {
		out = append(out, intText(n))
		if i == 0 || i == 4 {
			out = append(out, vNum(n.String()+".0"))
		}
		if i == 5 && n.Sign() != 0 {
			out = append(out, vNum(n.String()+"0e-1"), vNum(n.String()+"E0"))
		}
		if !valid {
			// The same number out of range in other spellings: a grammar
			// that admits exponents must bound their value too.
			out = append(out, vNum(n.String()+".0"), vNum(n.String()+"e0"))
			if n.Sign() != 0 { // "00E-1" would not be JSON
				out = append(out, vNum(n.String()+"e1"), vNum(n.String()+"0E-1"))
			}
		}
		if n.Sign() == 0 && valid {
			out = append(out, vNum("-0"), vNum("0.000"), vNum("0e5"), vNum("1e30"), vNum("100e-2"), vNum("-12345678901234567890123"))
		}
	}
	return out
}

// fractions gives numbers with a fractional part at and near the bounds.
func (g *Generator) fractions(s *subsetcheck.Schema, valid bool) []*subsetcheck.Value {
	var rats []*big.Rat
	step := big.NewRat(1, 1000)
	for _, b := range []*subsetcheck.Bound{s.Lower, s.Upper} {
		if b != nil {
			sc := decimalScale(b.Value) + 1
			d := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(sc)), nil))
			if d.Cmp(step) < 0 {
				step = d
			}
		}
	}
	addStep := func(r *big.Rat, k int64) {
		rats = append(rats, new(big.Rat).Add(r, new(big.Rat).Mul(step, big.NewRat(k, 1))))
	}
	lower, upper := s.Lower, s.Upper
	if valid {
		for _, t := range []string{"0.5", "-2.25", "123.456", "1e-7", "-3.5E+2", "12345678901234567890.123456789012345678"} {
			r, _ := new(big.Rat).SetString(t)
			rats = append(rats, r)
		}
		if lower != nil {
			rats = append(rats, lower.Value)
			addStep(lower.Value, 1)
		}
		if upper != nil {
			rats = append(rats, upper.Value)
			addStep(upper.Value, -1)
		}
		if lower != nil && upper != nil {
			mid := new(big.Rat).Add(lower.Value, upper.Value)
			rats = append(rats, mid.Mul(mid, big.NewRat(1, 2)))
		}
	} else {
		if lower != nil {
			addStep(lower.Value, -1)
			rats = append(rats, lower.Value)
		}
		if upper != nil {
			addStep(upper.Value, 1)
			rats = append(rats, upper.Value)
		}
	}
	var out []*subsetcheck.Value
	for _, r := range rats {
		if t, ok := decimalText(r); ok {
			out = append(out, vNum(t))
		}
	}
	if valid {
		out = append(out, vNum("1.5e300"), vNum("-2.50"), vNum("1E-2"), vNum("1e400"), vNum("-1e-400"), vNum("0.1e1"), vNum("-0.0"))
	}
	return out
}

// charPool holds the characters that trip converters: quotes, backslashes,
// "/", control characters (escaped in JSON), DEL (raw in JSON), non-ASCII,
// astral characters (a surrogate pair when escaped), line separators, NUL.
var charPool = []rune{
	'a', '"', '\\', '/', '\n', 'é', '\t', 0x01, 0x1f, 0x7f, '中', '😀', ' ', 0x2028,
	'Z', '\r', '\b', '\f', 0xffff, '~', 0x10ffff, '0', 0x80, 0,
}

// makeString builds a string of n code points, walking charPool from off.
func makeString(n, off int) string {
	var b strings.Builder
	for i := range n {
		b.WriteRune(charPool[(off+i)%len(charPool)])
	}
	return b.String()
}

// lengths are the string or array lengths worth trying between min and max
// (max < 0: unbounded), or just outside them.
func (g *Generator) lengths(minN, maxN int, valid bool) []int {
	var ns []int
	if valid {
		ns = append(ns, minN, minN+1, minN+3)
		if maxN >= 0 {
			ns = append(ns, maxN, maxN-1)
			if maxN > minN {
				ns = append(ns, minN+g.rng.IntN(min(maxN-minN, maxGenLength)+1))
			}
		} else {
			ns = append(ns, minN+8)
		}
	} else {
		ns = append(ns, minN-1)
		if maxN >= 0 {
			ns = append(ns, maxN+1)
		}
	}
	var out []int
	for _, n := range ns {
		if n >= 0 && n <= maxGenLength && (!valid || n >= minN && (maxN < 0 || n <= maxN)) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func (g *Generator) strings(s *subsetcheck.Schema, valid bool) []*subsetcheck.Value {
	var out []*subsetcheck.Value
	for _, p := range g.patternStrings(s, valid) {
		out = append(out, vStr(p))
	}
	if s.Format != "" {
		for _, f := range formatStrings(s.Format, valid) {
			out = append(out, vStr(f))
		}
		if valid {
			return out // no other string is in the format
		}
	}
	for i, n := range g.lengths(s.MinLength, s.MaxLength, valid) {
		out = append(out, vStr(makeString(n, i*5)))
		if valid && i == 1 {
			// Walk the whole pool so every awkward character appears.
			for off := n; off < len(charPool) && n > 0; off += n {
				out = append(out, vStr(makeString(n, off)))
			}
		}
		if n > 0 {
			out = append(out, vStr(strings.Repeat("😀", n)), vStr(strings.Repeat("b", n)))
		}
	}
	return out
}

// itemSchema is the schema of the array item at index i (nil: any value).
func itemSchema(s *subsetcheck.Schema, i int) *subsetcheck.Schema {
	if i < len(s.PrefixItems) {
		return s.PrefixItems[i]
	}
	return s.Items
}

// baseArray builds an array of n items, item i taking the (i+off)-th valid
// value of its schema; nil when some position has no valid value.
func (g *Generator) baseArray(s *subsetcheck.Schema, n, off, depth int) *subsetcheck.Value {
	items := make([]*subsetcheck.Value, n)
	for i := range n {
		vs := g.valid(itemSchema(s, i), depth+1)
		if len(vs) == 0 {
			return nil
		}
		if g.small(depth) {
			items[i] = vs[0]
		} else {
			items[i] = vs[(i+off)%len(vs)]
		}
	}
	return vArr(items...)
}

func (g *Generator) arrayLengths(s *subsetcheck.Schema, valid bool) []int {
	maxN := s.MaxItems
	if s.Items != nil && s.Items.False && (maxN < 0 || maxN > len(s.PrefixItems)) && valid {
		maxN = len(s.PrefixItems)
	}
	return g.lengths(s.MinItems, maxN, valid)
}

func (g *Generator) arrays(s *subsetcheck.Schema, depth int) []*subsetcheck.Value {
	var out []*subsetcheck.Value
	ns := g.arrayLengths(s, true)
	if g.small(depth) && len(ns) > 0 {
		ns = ns[:1]
	}
	for i, n := range ns {
		if a := g.baseArray(s, n, i, depth); a != nil {
			out = append(out, a)
		}
	}
	if g.small(depth) || len(out) == 0 {
		return out
	}
	// Every valid value of every position, one at a time.
	longest := out[0]
	for _, a := range out {
		if len(a.Items) > len(longest.Items) && len(a.Items) <= len(s.PrefixItems)+2 {
			longest = a
		}
	}
	for i := range longest.Items {
		for _, v := range g.valid(itemSchema(s, i), depth+1) {
			out = append(out, withItem(longest, i, v))
		}
	}
	return out
}

// extraNames are member names for undeclared members: awkward ones first.
var extraNames = []string{"extra", "", "root", "a\"b\\c", "é😀", "x-y_z", "/", "\u007f", "\n"}

func (g *Generator) extraName(s *subsetcheck.Schema, k int) (string, bool) {
	names := extraNames
	if len(s.Properties) > 0 {
		// Names that share a prefix with a declared one.
		d := s.Properties[0].Name
		names = append([]string{d + "x"}, names...)
		if r := []rune(d); len(r) > 1 {
			names = append(names, string(r[:len(r)-1]))
		}
	}
	for _, n := range names {
		if declared(s, n) != nil || slices.Contains(s.Required, n) {
			continue
		}
		if k == 0 {
			return n, true
		}
		k--
	}
	return "", false
}

// objects builds objects with required members only, with every declared
// member, with each member's valid values in turn, and with extra members
// when the schema allows them.
func (g *Generator) objects(s *subsetcheck.Schema, depth int) []*subsetcheck.Value {
	valueOf := func(name string) *subsetcheck.Value { return g.memberValue(s, name, depth) } // names.go
	var out []*subsetcheck.Value
	base := vObj()
	for _, p := range s.Properties {
		if slices.Contains(s.Required, p.Name) {
			v := valueOf(p.Name)
			if v == nil {
				return nil
			}
			base = withMember(base, p.Name, v)
		}
	}
	for _, name := range s.Required {
		if declared(s, name) == nil {
			v := valueOf(name)
			if v == nil {
				return nil
			}
			base = withMember(base, name, v)
		}
	}
	out = append(out, base)
	if g.small(depth) {
		return out
	}
	full := vObj()
	for _, p := range s.Properties {
		if v := valueOf(p.Name); v != nil {
			full = withMember(full, p.Name, v)
		} else if slices.Contains(s.Required, p.Name) {
			return out
		}
	}
	for _, m := range base.Members {
		if full.Get(m.Name) == nil {
			full = withMember(full, m.Name, m.Value)
		}
	}
	out = append(out, full)
	for _, p := range s.Properties {
		if base.Get(p.Name) == nil {
			if v := valueOf(p.Name); v != nil {
				out = append(out, withMember(base, p.Name, v))
			}
		}
		for _, v := range g.memberValues(s, p.Name, depth) {
			out = append(out, withMember(full, p.Name, v))
		}
	}
	if len(s.PatternProperties) > 0 || s.PropertyNames != nil {
		return append(out, g.ruledObjects(s, full, depth, true)...)
	}
	if ap := s.AdditionalProperties; ap == nil || !ap.False {
		vs := g.valid(ap, depth+1)
		for k, v := range vs {
			name, ok := g.extraName(s, k%len(extraNames))
			if !ok {
				break
			}
			out = append(out, withMember(full, name, v))
			if k == 0 {
				two, ok2 := g.extraName(s, 1)
				if ok2 {
					out = append(out, withMember(withMember(base, name, v), two, vs[len(vs)-1]))
				}
			}
		}
	}
	return out
}

// randSource lets math/big draw from the generator's seeded source.
type randSource struct{ r *rand.Rand }

func (s randSource) Int63() int64 { return s.r.Int64() }
func (s randSource) Seed(int64)   {}

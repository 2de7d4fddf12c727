package compile

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/internal/oracle"
)

// Every bound at every size: for each count the compiler emits and each
// numeric bound, the value at the bound and the first value past it, on
// both sides, at sizes around every place where the construction changes
// (MaxRepeatCount, repeatBlock, maxChainedCount) and far beyond.

// countKind is one count a schema bounds. To cover a new one (minProperties
// and maxProperties, once enforced), add a row to countKinds.
type countKind struct {
	name string
	// schema is the schema with the count between lo and hi (hi < 0: no
	// upper bound), written as JSON numbers.
	schema func(lo, hi string) string
	// isItem picks what is counted in the grammar.
	isItem func(gbnf.Expr) bool
	// text is a text holding k items, valid but for the count.
	text func(k int) string
}

func isRef(names ...string) func(gbnf.Expr) bool {
	return func(e gbnf.Expr) bool { r, ok := e.(*gbnf.Ref); return ok && slices.Contains(names, r.Name) }
}

func isLit(text string) func(gbnf.Expr) bool {
	return func(e gbnf.Expr) bool { l, ok := e.(*gbnf.Lit); return ok && l.Text == text }
}

func bounds(kw string, lo, hi string) string {
	s := `"min` + kw + `":` + lo
	if hi != "" {
		s += `,"max` + kw + `":` + hi
	}
	return s
}

func nulls(k int) string {
	return "[" + strings.TrimSuffix(strings.Repeat("null,", k), ",") + "]"
}

var countKinds = []countKind{
	{
		name:   "string length",
		schema: func(lo, hi string) string { return `{"type":"string",` + bounds("Length", lo, hi) + `}` },
		isItem: isRef("char"),
		// é is one code point of two bytes: lengths count code points.
		text: func(k int) string { return `"` + strings.Repeat("é", k) + `"` },
	},
	{
		name: "array items",
		schema: func(lo, hi string) string {
			return `{"type":"array","items":{"type":"null"},` + bounds("Items", lo, hi) + `}`
		},
		isItem: isLit("null"),
		text:   nulls,
	},
	{
		// With prefixItems the rest is counted apart (arrayExpr's k > 0).
		name: "array items after two prefixItems",
		schema: func(lo, hi string) string {
			return `{"type":"array","prefixItems":[{"type":"null"},{"type":"null"}],"items":{"type":"null"},` + bounds("Items", lo, hi) + `}`
		},
		isItem: isLit("null"),
		text:   nulls,
	},
	{
		// Extra members only, counted by repetition (count.go's more).
		name: "object members",
		schema: func(lo, hi string) string {
			return `{"type":"object","additionalProperties":{"type":"null"},` + bounds("Properties", lo, hi) + `}`
		},
		isItem: isRef("additionalProperties"), // the rule of each member's value
		text:   func(k int) string { return members(k, 0) },
	},
	{
		// Two declared members first, counted by the states of the object.
		name: "object members after two declared",
		schema: func(lo, hi string) string {
			return `{"type":"object","properties":{"a":{"type":"null"},"b":{"type":"null"}},"additionalProperties":{"type":"null"},` + bounds("Properties", lo, hi) + `}`
		},
		isItem: isRef("properties-a", "properties-b", "additionalProperties"),
		text:   func(k int) string { return members(k, 2) },
	},
}

// members is an object of k members with the value null: the declared
// ones (a, b, …) first, then extra ones m<i>.
func members(k, declared int) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range k {
		if i > 0 {
			b.WriteByte(',')
		}
		if i < declared {
			b.WriteString(`"` + string(rune('a'+i)) + `":null`)
		} else {
			b.WriteString(`"m` + strconv.Itoa(i) + `":null`)
		}
	}
	b.WriteByte('}')
	return b.String()
}

// countSizes are the bounds tried: around the small counts, MaxRepeatCount
// (printed as it is up to 100), repeatBlock (16), maxChainedCount
// (10,000), big counts, and counts past int, which the checker reads as
// math.MaxInt, as they mean the same (no text holds that many).
var countSizes = []string{
	"0", "1", "2", "15", "16", "17", "99", "100", "101", "255", "256", "257",
	"9999", "10000", "10001", "10016", "10017", "65535", "65536", "65537", "160000", "160017",
	"1000000", "1000001", "999999999", "1000000000", "1000000001",
	"2147483647", "2147483648", "9007199254740993",
	"9223372036854775806", "9223372036854775807", "9223372036854775808",
	"18446744073709551615", "18446744073709551616", "18446744073709551617",
	"999999999999999999999999999999", "1e30", "1000000000000000000000000000001",
}

// clampCount is the checker's reading of a count: math.MaxInt past int.
func clampCount(s string) int64 {
	r, ok := new(big.Rat).SetString(s)
	if !ok || !r.IsInt() {
		panic("bad count " + s)
	}
	if !r.Num().IsInt64() {
		return math.MaxInt64
	}
	return r.Num().Int64()
}

// Texts are built and matched up to 10,017 items for every range, up to
// 65,537 for the first three ranges of a size (hi = n, lo = n, both), and
// for the first two ranges of n = 10^6 of the string and plain array kinds
// up to 1,000,001 (a million characters take the matcher about a second);
// -short stops at 10,017.
func textLimit(kind, rng int, n string) int64 {
	switch {
	case testing.Short():
		return 10017
	case rng < 2 && kind < 2 && n == "1000000":
		return 1000001
	case rng < 3:
		return 65537
	}
	return 10017
}

// countRanges are the (lo, hi) pairs tried for a size: hi = n, lo = n, both,
// a window one wide on each side, one block wide, and n above a small lo.
func countRanges(n string) [][2]string {
	v := clampCount(n)
	out := [][2]string{{"0", n}, {n, ""}, {n, n}, {"1", n}, {"3", n}}
	if v >= 1 && v < math.MaxInt64 {
		less := strconv.FormatInt(v-1, 10)
		out = append(out, [2]string{less, n})
		if v < math.MaxInt64-17 {
			out = append(out, [2]string{less, strconv.FormatInt(v+1, 10)}, [2]string{n, strconv.FormatInt(v+17, 10)})
		}
	}
	if v > 1000 {
		out = append(out, [2]string{strconv.FormatInt(v/2, 10), n}, [2]string{"100", n}, [2]string{"101", n})
	}
	return out
}

// TestEveryCountBound checks each count kind at every size, two ways.
// Structure, at every size (10^9, 2^63-1 and past it too, where no text
// can be built): the exact set of counts the grammar's rules accept,
// computed symbolically (counts_test.go), must be [lo, hi], and no printed
// count may pass MaxRepeatCount. Texts, where they can be built
// (textLimit): lo-1, lo, hi and hi+1 items through the matcher, against
// the bounds and the oracle, which judges counts past int64 by the spec
// too (the validator alone misreads them: internal/oracle's
// TestCountQuirks). Both grammars, bounded and compact. Each kind whose
// cases run (-run may pick some: the mutation check does) must build and
// match at least 300 texts.
func TestEveryCountBound(t *testing.T) {
	built := make([]atomic.Int64, len(countKinds))
	ran := make([]atomic.Bool, len(countKinds))
	t.Run("group", func(t *testing.T) { // returns once the parallel cases are done
		everyCountBound(t, built, ran)
	})
	kinds := 0
	for i, kind := range countKinds {
		if !ran[i].Load() {
			continue
		}
		kinds++
		if n := built[i].Load(); n < 300 {
			t.Errorf("%s: only %d texts built and matched", kind.name, n)
		}
	}
	if kinds == 0 {
		t.Errorf("no count kind was checked")
	}
}

func everyCountBound(t *testing.T, built []atomic.Int64, ran []atomic.Bool) {
	for ki, kind := range countKinds {
		seen := map[[2]string]bool{}
		for _, n := range countSizes {
			for i, r := range countRanges(n) {
				if seen[r] || r[1] != "" && clampCount(r[0]) > clampCount(r[1]) {
					continue // minimum above maximum: refused, C401 (TestErrors)
				}
				seen[r] = true
				lo, hi := clampCount(r[0]), int64(-1)
				if r[1] != "" {
					hi = clampCount(r[1])
				}
				schema := kind.schema(r[0], r[1])
				t.Run(kind.name+" "+schema, func(t *testing.T) {
					t.Parallel()
					ran[ki].Store(true)
					c := checkSchema(t, schema)
					for _, ws := range []Whitespace{Bounded, Compact} {
						g, m := mustGrammar(t, c, Options{Whitespace: ws})
						if mc := maxCount(g); mc > MaxRepeatCount {
							t.Errorf("%s: a repetition count of %d", ws, mc)
						}
						// mustGrammar checked that g prints and parses back
						// to itself: its rules are what llama.cpp reads.
						got, err := countsOf(g, kind.isItem)
						if err != nil {
							t.Fatalf("%s: counts: %v\n%s", ws, err, clipGrammar(g))
						}
						if !got.isInterval(lo, hi) {
							t.Errorf("%s: the grammar accepts counts %v, want [%d, %s]%s", ws, got, lo, endText(hi), pastBounds(got, lo, hi))
						}
						if ws != Bounded {
							continue
						}
						limit := textLimit(ki, i, n)
						var o *oracle.Oracle
						for _, k := range []int64{lo - 1, lo, hi, hi + 1} {
							if k < 0 || k > limit {
								continue
							}
							text := kind.text(int(k))
							res, err := m.Check(text)
							if err != nil {
								t.Fatalf("%d items: matcher: %v", k, err)
							}
							built[ki].Add(1)
							want := k >= lo && (hi < 0 || k <= hi)
							if res.Accepted != want {
								t.Errorf("%d items: grammar %v, want %v", k, res.Accepted, want)
							}
							if o == nil {
								o = newOracle(t, schema)
							}
							if o := oracleAccepts(o, text); o != want {
								t.Errorf("%d items: the oracle says %v, the bounds %v", k, o, want)
							}
						}
					}
				})
			}
		}
	}
}

func endText(hi int64) string {
	if hi < 0 {
		return "∞)"
	}
	return strconv.FormatInt(hi, 10)
}

// pastBounds names the first counts past the bounds that the set gets wrong.
func pastBounds(s countSet, lo, hi int64) string {
	var out []string
	check := func(c int64, want bool) {
		if c >= 0 && s.has(c) != want {
			out = append(out, fmt.Sprintf("count %d accepted=%v", c, !want))
		}
	}
	check(lo-1, false)
	check(lo, true)
	if hi >= 0 {
		check(hi, true)
		if hi < math.MaxInt64 {
			check(hi+1, false)
		}
	}
	if len(out) == 0 {
		return ""
	}
	return ": " + strings.Join(out, ", ")
}

func clipGrammar(g *gbnf.Grammar) string {
	s := g.String()
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

// numberSizes are the magnitudes of numeric bounds tried: small, around
// powers of ten and two, past 64 bits, and with more digits than
// MaxRepeatCount.
var numberSizes = []string{
	"0", "1", "9", "10", "99", "100", "101", "10001", "65536", "1000000", "1000000000",
	"2147483648", "9007199254740993", "9223372036854775807", "9223372036854775808",
	"18446744073709551615", "18446744073709551616", "18446744073709551617",
	"999999999999999999999999999999", "1000000000000000000000000000000", "1000000000000000000000000000001",
	"1" + strings.Repeat("0", 150), strings.Repeat("9", 150),
}

// TestEveryNumberBound: for each magnitude, each sign and each of minimum,
// maximum, exclusiveMinimum and exclusiveMaximum, on integers and on
// numbers, the grammar judges as the oracle does the bound, one above and
// one below it, and (numbers) a tenth and 10^-25 either side; and the
// same around a decimal bound (the magnitude plus a half).
func TestEveryNumberBound(t *testing.T) {
	checked := 0
	one, half := big.NewRat(1, 1), big.NewRat(1, 2)
	tiny := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(25), nil))
	tenth := big.NewRat(1, 10)
	for _, size := range numberSizes {
		for _, neg := range []bool{false, true} {
			if neg && size == "0" {
				continue
			}
			for _, frac := range []bool{false, true} {
				b, _ := new(big.Rat).SetString(size)
				if frac {
					b.Add(b, half)
				}
				if neg {
					b.Neg(b)
				}
				bound := plainDecimal(b)
				for _, kw := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
					for _, typ := range []string{"integer", "number"} {
						schema := `{"type":"` + typ + `","` + kw + `":` + bound + `}`
						c := checkSchema(t, schema)
						_, m := mustGrammar(t, c, Options{})
						o := newOracle(t, schema)
						texts := map[string]bool{}
						for _, d := range []*big.Rat{new(big.Rat), one, half, tenth, tiny} {
							texts[plainDecimal(new(big.Rat).Add(b, d))] = true
							texts[plainDecimal(new(big.Rat).Sub(b, d))] = true
						}
						// the integers either side of a decimal bound
						fl := floorRat(b)
						for _, i := range []int64{-1, 0, 1, 2} {
							texts[new(big.Int).Add(fl, big.NewInt(i)).String()] = true
						}
						for text := range texts {
							checked++
							if got, want := m.Accepts(text), oracleAccepts(o, text); got != want {
								t.Errorf("%s: %s: grammar %v, oracle %v", schema, text, got, want)
							}
						}
					}
				}
			}
		}
	}
	if checked < 3000 {
		t.Errorf("only %d texts checked", checked)
	}
}

// TestNumberRangesAtSize: two-sided ranges [-n, n], [n, n], [n-1, n+1] and
// (n, n+1) at each magnitude, judged at and past both ends.
func TestNumberRangesAtSize(t *testing.T) {
	for _, size := range numberSizes {
		n, _ := new(big.Int).SetString(size, 10)
		if n == nil {
			continue
		}
		add := func(d int64) string { return new(big.Int).Add(n, big.NewInt(d)).String() }
		negN := new(big.Int).Neg(n).String()
		for _, r := range [][2]string{{negN, size}, {size, size}, {add(-1), add(1)}, {add(-1000), add(7)}} {
			for _, typ := range []string{"integer", "number"} {
				for _, excl := range []bool{false, true} {
					kwLo, kwHi := "minimum", "maximum"
					if excl {
						kwLo, kwHi = "exclusiveMinimum", "exclusiveMaximum"
					}
					lo, _ := new(big.Int).SetString(r[0], 10)
					hi, _ := new(big.Int).SetString(r[1], 10)
					if excl && new(big.Int).Sub(hi, lo).Cmp(big.NewInt(1)) <= 0 && typ == "integer" {
						continue // no integer between: refused (C401)
					}
					if excl && lo.Cmp(hi) == 0 {
						continue
					}
					schema := fmt.Sprintf(`{"type":%q,%q:%s,%q:%s}`, typ, kwLo, r[0], kwHi, r[1])
					_, m := mustGrammar(t, checkSchema(t, schema), Options{})
					o := newOracle(t, schema)
					for _, end := range []*big.Int{lo, hi} {
						for _, d := range []int64{-1, 0, 1} {
							text := new(big.Int).Add(end, big.NewInt(d)).String()
							if got, want := m.Accepts(text), oracleAccepts(o, text); got != want {
								t.Errorf("%s: %s: grammar %v, oracle %v", schema, text, got, want)
							}
							if typ == "number" {
								for _, f := range []string{".5", ".0000000000000000000000001"} {
									x, _ := new(big.Rat).SetString(text + f)
									for _, v := range []*big.Rat{x, new(big.Rat).Sub(x, big.NewRat(1, 1))} {
										text := plainDecimal(v)
										if got, want := m.Accepts(text), oracleAccepts(o, text); got != want {
											t.Errorf("%s: %s: grammar %v, oracle %v", schema, text, got, want)
										}
									}
								}
							}
						}
					}
				}
			}
		}
	}
}

// plainDecimal spells a finite decimal canonically: no exponent, no
// trailing fraction zeros, no -0.
func plainDecimal(r *big.Rat) string {
	s := r.FloatString(40)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" || s == "" {
		return "0"
	}
	return s
}

package compile

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/interop"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// formatOracle is the validator asserting one format on a string.
func formatOracle(t testing.TB, name string) func(string) bool {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("file:///format.json", map[string]any{"format": name}); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("file:///format.json")
	if err != nil {
		t.Fatal(err)
	}
	return func(s string) bool { return sch.Validate(s) == nil }
}

// formatGrammar is a grammar whose root is the format's JSON string,
// checked to be valid GBNF that prints and parses back the same.
func formatGrammar(t testing.TB, names ...string) (*gbnf.Grammar, *gbnf.Matcher) {
	t.Helper()
	cp := newCompiler(checkSchema(t, `{}`), Options{})
	root := &gbnf.Rule{Name: "root"}
	cp.g.Rules = append(cp.g.Rules, root)
	var alts []gbnf.Expr
	for _, name := range names {
		alts = append(alts, cp.formatString(name))
	}
	root.Expr = alt(alts...)
	g := cp.g
	if err := gbnf.Validate(&g); err != nil {
		t.Fatalf("invalid grammar: %v", err)
	}
	text := g.String()
	back, err := gbnf.Parse(text)
	if err != nil {
		t.Fatalf("printed grammar does not parse: %v", err)
	}
	if back.String() != text {
		t.Fatal("grammar does not print back the same")
	}
	m, err := gbnf.NewMatcher(back)
	if err != nil {
		t.Fatalf("matcher: %v", err)
	}
	return &g, m
}

// formatQuirks are the validator's verdicts we knowingly do not follow: it
// reads time fields and ipv4 octets with strconv.Atoi, which takes a sign.
// RFC 3339 and dotted decimal allow digits only.
var formatQuirks = []struct{ name, text string }{
	{"time", "+1:00:00Z"},
	{"time", "-0:00:00Z"},
	{"time", "12:+5:00Z"},
	{"time", "12:00:+5Z"},
	{"time", "12:00:00+05:+3"},
	{"time", "12:00:00-+5:00"},
	{"date-time", "2024-02-29T+1:00:00Z"},
	{"ipv4", "+1.2.3.4"},
	{"ipv4", "-0.0.0.0"},
	{"ipv4", "1.2.3.+01"},
	{"ipv4", "1.-00.3.4"},
}

func TestFormatQuirks(t *testing.T) {
	for _, q := range formatQuirks {
		if !formatOracle(t, q.name)(q.text) {
			t.Errorf("%s %q: the validator no longer accepts it; drop it from formatQuirks", q.name, q.text)
		}
		if formatValid(q.name, q.text) {
			t.Errorf("%s %q: we accept it", q.name, q.text)
		}
	}
}

// signQuirk says whether the validator may accept s only because a numeric
// field holds a sign (see formatQuirks).
func signQuirk(name, s string) bool {
	switch name {
	case "ipv4":
		return strings.ContainsAny(s, "+-")
	case "date-time":
		if len(s) < 11 {
			return false
		}
		s = s[11:]
	case "time":
	default:
		return false
	}
	if len(s) < 9 {
		return false
	}
	fields := []string{s[0:2], s[3:5], s[6:8]}
	if off := s[len(s)-6:]; len(s) >= 14 {
		fields = append(fields, off[1:3], off[4:6])
	}
	for _, f := range fields {
		if strings.ContainsAny(f, "+-") {
			return true
		}
	}
	return false
}

// formatAlphabets are the characters mutations draw from, per format.
var formatAlphabets = map[string]string{
	"date":      "0123456789-T:",
	"time":      "0123456789:.+-Zz",
	"date-time": "0123456789-:.+TtZz",
	"uuid":      "0123456789abcdefABCDEFgG-",
	"ipv4":      "0123456789.+-x",
	"ipv6":      "0123456789abcdefABCDEFg:.%",
	"duration":  "0123456789PYMWDTHS.,",
}

// formatTexts are the test strings of a format: systematic ones, then
// random mutations of the valid ones.
func formatTexts(name string) []string {
	rng := rand.New(rand.NewPCG(8, uint64(len(name))))
	var out []string
	switch name {
	case "date":
		out = dateTexts()
	case "time":
		out = timeTexts()
	case "date-time":
		dates := []string{"0000-02-29", "2023-02-28", "2024-02-29", "2100-02-29", "9999-12-31", "2024-13-01", "1999-1-01"}
		for _, tm := range sampleOf(rng, timeTexts(), 300) {
			for _, d := range dates {
				for _, sep := range []string{"T", "t", " "} {
					out = append(out, d+sep+tm)
				}
			}
		}
	case "uuid":
		out = []string{"00000000-0000-0000-0000-000000000000", "FFFFFFFF-ffff-AbCd-0000-123456789abc", "", "-"}
		for i := 0; i < 200; i++ {
			b := []byte("xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx")
			for j := range b {
				if b[j] == 'x' {
					b[j] = "0123456789abcdefABCDEF"[rng.IntN(22)]
				}
			}
			out = append(out, string(b))
		}
	case "ipv4":
		for n := 0; n <= 300; n++ {
			for _, spell := range []string{"%d", "0%d", "00%d"} {
				octet := fmt.Sprintf(spell, n)
				for pos := 0; pos < 4; pos++ {
					fields := []string{"1", "22", "255", "0"}
					fields[pos] = octet
					out = append(out, strings.Join(fields, "."))
				}
			}
		}
		out = append(out, "1.2.3", "1.2.3.4.5", "1..2.3", ".1.2.3", "1.2.3.4.", "")
	case "ipv6":
		out = ipv6Texts(rng)
	case "duration":
		out = durationTexts()
	}
	var valid []string
	for _, s := range out {
		if formatValid(name, s) {
			valid = append(valid, s)
		}
	}
	alphabet := formatAlphabets[name]
	for _, s := range sampleOf(rng, valid, 2000) {
		for k := 0; k < 3; k++ {
			out = append(out, mutate(rng, s, alphabet))
		}
	}
	return out
}

func dateTexts() []string {
	var out []string
	for _, year := range []string{"0000", "0001", "0002", "0003", "1900", "2000", "2023", "2024", "2100", "9999"} {
		for month := 0; month < 40; month++ {
			for day := 0; day < 40; day++ {
				out = append(out, fmt.Sprintf("%s-%02d-%02d", year, month, day))
			}
		}
	}
	return append(out, "2024-1-01", "24-01-01", "20240-01-01", "2024/01/01", "2024-01-01T", "")
}

func timeTexts() []string {
	var out []string
	hm := func(n int) string { return fmt.Sprintf("%02d:%02d", n/60, n%60) }
	for local := 0; local < 1440; local++ {
		for _, sec := range []string{":59", ":60"} {
			for _, off := range []string{"Z", "z", "+00:00", "-00:00",
				"+" + hm((local+1)%1440), "-" + hm(1439-local), "+" + hm((local+2)%1440), "-" + hm((1438-local+1440)%1440)} {
				out = append(out, hm(local)+sec+off)
			}
		}
		if local%7 == 0 {
			out = append(out, hm(local)+":60.123+"+hm((local+1)%1440), hm(local)+":60.5-"+hm(1439-local), hm(local)+":00.0Z")
		}
	}
	for _, local := range []int{0, 59, 60, 750, 1438, 1439} {
		for off := 0; off < 1440; off++ {
			for _, sign := range []string{"+", "-"} {
				out = append(out, hm(local)+":60"+sign+hm(off), hm(local)+":59"+sign+hm(off))
			}
		}
	}
	return append(out, "24:00:00Z", "23:60:00Z", "23:59:61Z", "12:00:00", "12:00:00.Z", "12:00:00+0100",
		"12:00:00+01:60", "12:00:00+24:00", "12:00Z", "1:00:00Z", "12:00:00ZZ", "")
}

func ipv6Texts(rng *rand.Rand) []string {
	groups := []string{"0", "1f", "abc", "FFFF", "0000", "12345", "g", ""}
	var out []string
	for ellipsis := 0; ellipsis < 2; ellipsis++ {
		for left := 0; left <= 9; left++ {
			for right := 0; right <= 9; right++ {
				if ellipsis == 0 && right > 0 {
					continue
				}
				for v4 := 0; v4 < 3; v4++ {
					for k := 0; k < 4; k++ {
						pick := func(n int) []string {
							var gs []string
							for i := 0; i < n; i++ {
								if k == 0 {
									gs = append(gs, groups[rng.IntN(4)]) // valid groups only
								} else {
									gs = append(gs, groups[rng.IntN(len(groups))])
								}
							}
							return gs
						}
						l, r := pick(left), pick(right)
						last := &r
						if ellipsis == 0 {
							last = &l
						}
						switch v4 {
						case 1:
							*last = append(*last, "192.168.0.255")
						case 2:
							*last = append(*last, []string{"1.2.3", "01.2.3.4", "256.1.1.1", "1.2.3.4.5", "a.1.2.3"}[rng.IntN(5)])
						}
						s := strings.Join(l, ":")
						if ellipsis == 1 {
							s += "::" + strings.Join(r, ":")
						}
						out = append(out, s)
					}
				}
			}
		}
	}
	// Every run of up to nine tokens that group counts turn on.
	var walk func(prefix string, n int)
	walk = func(prefix string, n int) {
		out = append(out, prefix)
		if n > 0 {
			for _, tok := range []string{"a:", "1", ":", "0.0.0.0"} {
				walk(prefix+tok, n-1)
			}
		}
	}
	walk("", 9)
	tokens := []string{"1", "ffff", "0", ":", ":", "::", ".", "1.2.3.4", "01.2.3.4", "%eth0", "%", "g", "12345"}
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := 1 + rng.IntN(12); n > 0; n-- {
			b.WriteString(tokens[rng.IntN(len(tokens))])
		}
		out = append(out, b.String())
	}
	return append(out, "::", ":", ":::", "1:2:3:4:5:6:7::", "::1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8::", "::1:2:3:4:5:6:7:8",
		"1:2:3:4:5:6::1.2.3.4", "1:2:3:4:5::1.2.3.4", "ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255", "::ffff:1.2.3.4", "fe80::1%eth0", "1.2.3.4", "1.2.3.4::", "")
}

// durationTexts are "P" and every run of up to five tokens after it.
func durationTexts() []string {
	tokens := []string{"1", "12", "Y", "M", "W", "D", "T", "H", "S"}
	out := []string{"", "1D", "P", "PT"}
	var walk func(prefix string, n int)
	walk = func(prefix string, n int) {
		out = append(out, prefix)
		if n == 0 {
			return
		}
		for _, tok := range tokens {
			walk(prefix+tok, n-1)
		}
	}
	walk("P", 5)
	return append(out, "P1Y2M3DT4H5M6S", "P12345678901234567890D", "P1.5D", "P1,5D", "p1D")
}

func sampleOf(rng *rand.Rand, xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	out := make([]string, n)
	for i := range out {
		out[i] = xs[rng.IntN(len(xs))]
	}
	return out
}

// mutate inserts, deletes or replaces one to three characters.
func mutate(rng *rand.Rand, s, alphabet string) string {
	b := []byte(s)
	for n := 1 + rng.IntN(3); n > 0; n-- {
		c := alphabet[rng.IntN(len(alphabet))]
		i := rng.IntN(len(b) + 1)
		switch op := rng.IntN(3); {
		case op == 0 || len(b) == 0:
			b = slices.Insert(b, i, c)
		case op == 1 && i < len(b):
			b = slices.Delete(b, i, i+1)
		case i < len(b):
			b[i] = c
		}
	}
	return string(b)
}

// TestFormatValidOracle: our recogniser agrees with the validator on every
// test string, except where it takes a sign (formatQuirks).
func TestFormatValidOracle(t *testing.T) {
	for _, name := range subsetcheck.AssertedFormats {
		t.Run(name, func(t *testing.T) {
			oracle := formatOracle(t, name)
			texts := formatTexts(name)
			valid, quirks := 0, 0
			for _, s := range texts {
				ours, theirs := formatValid(name, s), oracle(s)
				if ours {
					valid++
				}
				if ours != theirs {
					if !ours && signQuirk(name, s) {
						quirks++
						continue
					}
					t.Errorf("%s %q: formatValid %v, validator %v", name, s, ours, theirs)
				}
			}
			t.Logf("%s: %d strings, %d valid, %d sign quirks skipped", name, len(texts), valid, quirks)
			if valid == 0 || valid == len(texts) {
				t.Errorf("%s: %d of %d valid: the test strings do not probe both sides", name, valid, len(texts))
			}
		})
	}
}

// TestFormatGrammar: the grammar accepts a quoted string iff formatValid,
// every sampled text is valid, and formatLength bounds the lengths seen.
func TestFormatGrammar(t *testing.T) {
	for _, name := range subsetcheck.AssertedFormats {
		t.Run(name, func(t *testing.T) {
			g, m := formatGrammar(t, name)
			t.Logf("%s: grammar %d bytes, %d rules", name, len(g.String()), len(g.Rules))
			min, max := formatLength(name)
			seenMin, seenMax := -1, -1
			seen := func(s string) {
				n := utf8.RuneCountInString(s)
				if n < min || max >= 0 && n > max {
					t.Errorf("%s %q: length %d outside formatLength [%d, %d]", name, s, n, min, max)
				}
				if seenMin < 0 || n < seenMin {
					seenMin = n
				}
				seenMax = slices.Max([]int{seenMax, n})
			}
			for _, s := range formatTexts(name) {
				want := formatValid(name, s)
				if got := m.Accepts(`"` + s + `"`); got != want {
					t.Errorf("%s %q: grammar %v, formatValid %v", name, s, got, want)
				}
				if want {
					seen(s)
				}
			}
			sampler, err := gbnf.NewSampler(g, 8)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 2000; i++ {
				text, ok := sampler.Sample(100)
				s := strings.TrimSuffix(strings.TrimPrefix(text, `"`), `"`)
				if !ok || !formatValid(name, s) {
					t.Errorf("%s: sampled %q (ok %v) is not valid", name, text, ok)
					continue
				}
				seen(s)
			}
			if seenMin != min || max >= 0 && seenMax != max {
				t.Errorf("%s: lengths seen [%d, %d], formatLength [%d, %d]", name, seenMin, seenMax, min, max)
			}
		})
	}
}

// TestFormatGrammarShared: all formats in one grammar emit each helper rule
// once (date-time reuses date and time) and still tell them apart.
func TestFormatGrammarShared(t *testing.T) {
	g, m := formatGrammar(t, subsetcheck.AssertedFormats...)
	names := map[string]bool{}
	for _, r := range g.Rules {
		if names[r.Name] {
			t.Errorf("rule %s defined twice", r.Name)
		}
		names[r.Name] = true
	}
	t.Logf("all formats: grammar %d bytes, %d rules", len(g.String()), len(g.Rules))
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"2024-02-29", true}, {"2023-02-29", false}, {"23:59:60Z", true}, {"2024-02-29T15:59:60-08:00", true},
		{"0123abcd-0000-0000-0000-000000000000", true}, {"10.0.0.1", true}, {"::1", true}, {"P1W", true},
		{"P1WT1H", false}, {"10.0.0.01", false}, {"2024-02-29T15:59:60+08:00", false},
	} {
		if got := m.Accepts(`"` + tc.text + `"`); got != tc.want {
			t.Errorf("%q: got %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestFormatEdges pins the cases that decide the grammars' shape.
func TestFormatEdges(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"date", "0000-02-29", true},
		{"date", "1900-02-29", false},
		{"date", "2000-02-29", true},
		{"date", "2100-02-29", false},
		{"date", "2104-02-29", true},
		{"date", "2024-04-31", false},
		{"time", "23:59:60Z", true},
		{"time", "23:59:60z", true},
		{"time", "23:59:60+00:00", true},
		{"time", "23:59:60-00:00", true},
		{"time", "15:59:60-08:00", true},
		{"time", "00:59:60+01:00", true},
		{"time", "23:58:60+23:59", true},  // 23:58 - 23:59 = -1 min = 23:59 the day before
		{"time", "23:59:60-00:01", false}, // 24:00, not 23:59: the validator does not wrap forward
		{"time", "00:00:60+00:01", true},
		{"time", "12:00:60Z", false},
		{"time", "12:00:00.Z", false},
		{"time", "12:00:00.000000000001z", true},
		{"date-time", "2024-02-29t23:59:60.5Z", true},
		{"ipv6", "::", true},
		{"ipv6", "1:2:3:4:5:6:7::", true},
		{"ipv6", "::2:3:4:5:6:7:8", true},
		{"ipv6", "1:2:3:4:5:6:7:8::", false},
		{"ipv6", "1:2:3:4:5:6:7:8", true},
		{"ipv6", "1:2:3:4:5:6:1.2.3.4", true},
		{"ipv6", "1:2:3:4:5::1.2.3.4", true},
		{"ipv6", "1:2:3:4:5:6::1.2.3.4", false},
		{"ipv6", "::1.2.3.4", true},
		{"ipv6", "::01.2.3.4", false},
		{"ipv6", "1::2::3", false},
		{"ipv6", "fe80::1%eth0", false},
		{"ipv6", "00000::1", false},
		{"duration", "P1W", true},
		{"duration", "P1Y1W", false},
		{"duration", "PT1M", true},
		{"duration", "P1M", true},
		{"duration", "P1DT", false},
		{"duration", "PT", false},
		{"duration", "P1D1Y", false},
		{"uuid", "0123ABCD-ef01-0000-0000-000000000000", true},
		{"uuid", "0123ABCD0ef01-0000-0000-000000000000", false},
		{"ipv4", "255.255.255.255", true},
		{"ipv4", "256.0.0.0", false},
		{"ipv4", "0.0.0.00", false},
	} {
		if got := formatValid(tc.name, tc.text); got != tc.want {
			t.Errorf("%s %q: formatValid %v, want %v", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestFormatEngine: llama.cpp loads each format grammar and judges test
// strings as our matcher does.
func TestFormatEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("interop")
	}
	e := interop.Shared(t)
	for _, name := range subsetcheck.AssertedFormats {
		t.Run(name, func(t *testing.T) {
			g, m := formatGrammar(t, name)
			lg, err := e.Load(g.String())
			if err != nil {
				t.Fatalf("llama.cpp refuses the grammar: %v", err)
			}
			defer lg.Close()
			rng := rand.New(rand.NewPCG(9, 9))
			var texts []string
			for _, s := range sampleOf(rng, formatTexts(name), 1500) {
				texts = append(texts, `"`+s+`"`)
			}
			got, err := lg.Accepts(texts)
			if err != nil {
				t.Fatal(err)
			}
			for i, text := range texts {
				if ours := m.Accepts(text); ours != got[i] {
					t.Errorf("%s: llama.cpp %v, our matcher %v", text, got[i], ours)
				}
			}
		})
	}
}

// TestFormatUnknown: a name outside subsetcheck.AssertedFormats has no
// strings at all, never a guess.
func TestFormatUnknown(t *testing.T) {
	cp := newCompiler(checkSchema(t, `{}`), Options{})
	for _, name := range []string{"hostname", "email", "", "DATE"} {
		if cp.formatString(name) != nil || formatValid(name, "2024-01-01") {
			t.Errorf("%q: treated as a format", name)
		}
	}
}

// BenchmarkFormatGrammar measures building and printing each format's
// grammar, the part Compile pays.
func BenchmarkFormatGrammar(b *testing.B) {
	c := checkSchema(b, `{}`)
	for _, name := range subsetcheck.AssertedFormats {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				cp := newCompiler(c, Options{})
				cp.g.Rules = append(cp.g.Rules, &gbnf.Rule{Name: "root", Expr: cp.formatString(name)})
				_ = cp.g.String()
			}
		})
	}
}

// BenchmarkFormatMatch measures our matcher on one valid string per format.
func BenchmarkFormatMatch(b *testing.B) {
	texts := map[string]string{"date": "2024-02-29", "time": "23:59:60.25+00:00", "date-time": "2024-02-29T15:59:60-08:00",
		"uuid": "0123abcd-0000-0000-0000-000000000000", "ipv4": "192.168.0.1", "ipv6": "fe80::1:2:192.168.0.1", "duration": "P1Y2M3DT4H5M6S"}
	for _, name := range subsetcheck.AssertedFormats {
		b.Run(name, func(b *testing.B) {
			_, m := formatGrammar(b, name)
			for b.Loop() {
				if !m.Accepts(`"` + texts[name] + `"`) {
					b.Fatal("rejected")
				}
			}
		})
	}
}

// TestFormatsDisjoint: no string has two of the formats, which the meet of
// two different formats relies on (it keeps no string).
func TestFormatsDisjoint(t *testing.T) {
	for _, name := range subsetcheck.AssertedFormats {
		for _, s := range formatTexts(name) {
			if !formatValid(name, s) {
				continue
			}
			for _, other := range subsetcheck.AssertedFormats {
				if other != name && formatValid(other, s) {
					t.Errorf("%q is both %s and %s", s, name, other)
				}
			}
		}
	}
}

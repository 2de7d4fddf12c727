package gbnf

import (
	"strconv"
	"testing"
)

// FuzzMatch decodes a small grammar and a short text from the fuzz input
// and compares the matcher with refMatch, a brute-force recogniser written
// for clarity rather than speed. It also checks that samples are accepted.
func FuzzMatch(f *testing.F) {
	f.Add([]byte{9, 2, 0, 1, 3, 5, 0, 0, 0, 1})
	f.Add([]byte{7, 3, 3, 1, 0, 2, 5, 5, 2, 0, 1, 2, 3, 4, 5, 0, 0})
	f.Add([]byte{5, 2, 0, 0, 9, 0, 3, 1, 4, 1, 0, 0, 1, 2, 2, 2, 2, 0, 1})
	f.Add([]byte{10, 9, 1, 1, 7, 2, 3, 1, 0, 3, 0, 2, 0, 4, 1, 2, 0, 1, 0, 0, 1, 1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		g, text := decodeFuzzCase(data)
		m, err := NewMatcher(g)
		if err != nil {
			return // left recursion: refused, as llama.cpp does
		}
		want := refMatch(g, text)
		if got := m.Match(text); got != want {
			t.Fatalf("grammar %s\ntext %q\nmatcher %+v, reference %+v", fuzzDumpGrammar(g), text, got, want)
		}
		s, err := NewSampler(g, int64(len(data)))
		if err != nil {
			return
		}
		for range 3 {
			sample, ok := s.Sample(8)
			if !ok {
				break
			}
			if !m.Accepts(sample) || !refMatch(g, sample).Accepted {
				t.Fatalf("grammar %s\nsample %q rejected (matcher %v, reference %v)", fuzzDumpGrammar(g), sample, m.Match(sample), refMatch(g, sample))
			}
		}
	})
}

// fuzzBytes hands out the fuzz input one small number at a time.
type fuzzBytes struct {
	b []byte
	i int
}

func (r *fuzzBytes) next(n int) int {
	if r.i >= len(r.b) {
		return 0
	}
	v := int(r.b[r.i])
	r.i++
	return v % n
}

var (
	fuzzLits    = []string{"a", "b", "ab", "é", "", "ba", "\uFFFD", "aa"}
	fuzzClasses = []*Class{
		{Ranges: []Range{{'a', 'a'}}},
		{Negated: true, Ranges: []Range{{'a', 'a'}}},
		{Ranges: []Range{{'a', 'b'}}},
		{Ranges: []Range{{'b', 'a'}}},
		{Negated: true, Ranges: []Range{{'b', 'a'}}},
		{Ranges: []Range{{0, 'a'}, {'é', 'é'}}},
		{Negated: true, Ranges: []Range{{'a', 'b'}, {0x80, 0x10FFFF}}},
	}
	fuzzText = []string{"a", "b", "é", "\xff", "\x00", "c", "a", "b"}
)

func (r *fuzzBytes) expr(depth int) Expr {
	k := r.next(12)
	if depth >= 3 {
		k %= 4
	}
	switch k {
	case 0:
		return &Lit{Text: fuzzLits[r.next(len(fuzzLits))]}
	case 1:
		return fuzzClasses[r.next(len(fuzzClasses))]
	case 2:
		return &Any{}
	case 3:
		return &Ref{Name: []string{"root", "x", "y"}[r.next(3)]}
	case 4, 5, 6:
		s := &Seq{}
		for range r.next(4) {
			s.Items = append(s.Items, r.expr(depth+1))
		}
		return s
	case 7, 8:
		a := &Alt{}
		for range r.next(4) {
			a.Alts = append(a.Alts, r.expr(depth+1))
		}
		return a
	default:
		return &Repeat{Expr: r.expr(depth + 1), Min: r.next(3), Max: r.next(5) - 1}
	}
}

func decodeFuzzCase(data []byte) (*Grammar, string) {
	r := &fuzzBytes{b: data}
	g := &Grammar{}
	for _, name := range []string{"root", "x", "y"} {
		g.Rules = append(g.Rules, &Rule{Name: name, Expr: r.expr(0)})
	}
	text := ""
	for n := 0; r.i < len(r.b) && n < 10; n++ {
		text += fuzzText[r.next(len(fuzzText))]
	}
	return g, text
}

func fuzzDumpGrammar(g *Grammar) string {
	s := ""
	for _, r := range g.Rules {
		s += "\n  " + r.Name + " ::= " + fuzzDumpExpr(r.Expr)
	}
	return s
}

func fuzzDumpExpr(e Expr) string {
	switch e := e.(type) {
	case *Lit:
		return fuzzQuote(e.Text)
	case *Class:
		s := "["
		if e.Negated {
			s += "^"
		}
		for _, r := range e.Ranges {
			s += fuzzQuote(string(r.Lo)) + "-" + fuzzQuote(string(r.Hi))
		}
		return s + "]"
	case *Any:
		return "."
	case *Ref:
		return e.Name
	case *Seq:
		s := "("
		for i, a := range e.Items {
			if i > 0 {
				s += " "
			}
			s += fuzzDumpExpr(a)
		}
		return s + ")"
	case *Alt:
		if len(e.Alts) == 0 {
			return "<no alternative>"
		}
		s := "("
		for i, a := range e.Alts {
			if i > 0 {
				s += " | "
			}
			s += fuzzDumpExpr(a)
		}
		return s + ")"
	case *Repeat:
		return fuzzDumpExpr(e.Expr) + "{" + fuzzItoa(e.Min) + "," + fuzzItoa(e.Max) + "}"
	}
	return "?"
}

func fuzzQuote(s string) string { return strconv.Quote(s) }
func fuzzItoa(n int) string {
	if n < 0 {
		return "-" + fuzzItoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return fuzzItoa(n/10) + string(rune('0'+n%10))
}

// refMatch is the reference recogniser: whole-text acceptance by computing,
// for every rule and start position, the set of end positions; and the
// rejection offset by asking, prefix by prefix, whether some derivation
// scans the prefix's last code point (which is when llama.cpp keeps a stack).
func refMatch(g *Grammar, text string) MatchResult {
	var runes []rune
	var offsets []int
	for i, r := range text {
		runes = append(runes, r)
		offsets = append(offsets, i)
	}
	for k := 1; k <= len(runes); k++ {
		if !newRef(g, runes[:k]).scanLast(&Ref{Name: "root"}, 0) {
			return MatchResult{Offset: offsets[k-1]}
		}
	}
	ends := newRef(g, runes).ends(&Ref{Name: "root"}, 0)
	return MatchResult{Accepted: ends[len(runes)], Offset: len(text)}
}

type refRecogniser struct {
	g        *Grammar
	t        []rune
	endsMemo map[refKey][]bool
	lastMemo map[refKey]bool
}

// refKey memoises by expression node and start; a Ref is keyed by its rule
// so that a rule is computed once per start.
type refKey struct {
	e    Expr
	rule string
	i    int
}

func newRef(g *Grammar, t []rune) *refRecogniser {
	return &refRecogniser{g: g, t: t, endsMemo: map[refKey][]bool{}, lastMemo: map[refKey]bool{}}
}

func memoKey(e Expr, i int) refKey {
	if r, ok := e.(*Ref); ok {
		return refKey{rule: r.Name, i: i}
	}
	return refKey{e: e, i: i}
}

// ends returns which positions e can end at when started at i.
func (r *refRecogniser) ends(e Expr, i int) []bool {
	k := memoKey(e, i)
	if memo, ok := r.endsMemo[k]; ok {
		return memo
	}
	r.endsMemo[k] = make([]bool, len(r.t)+1) // left recursion would see "no ends"
	res := r.endsRaw(e, i)
	r.endsMemo[k] = res
	return res
}

// scanLast reports whether e, started at i, can derive text whose scanned
// code points run exactly to the end of r.t (and may continue beyond).
func (r *refRecogniser) scanLast(e Expr, i int) bool {
	k := memoKey(e, i)
	if v, ok := r.lastMemo[k]; ok {
		return v
	}
	r.lastMemo[k] = false
	v := r.scanLastRaw(e, i)
	r.lastMemo[k] = v
	return v
}

func refTerm(e Expr, r rune) bool {
	if r == 0 {
		return false
	}
	switch e := e.(type) {
	case *Any:
		return true
	case *Class:
		in := false
		for _, rg := range e.Ranges {
			if rg.Lo <= r && r <= rg.Hi {
				in = true
			}
		}
		return in != e.Negated
	}
	return false
}

func refBounds(e *Repeat, m int) (lo, limit int) {
	lo, hi := effectiveBounds(e)
	if hi < 0 {
		return lo, lo + m + 2
	}
	return lo, hi
}

func (r *refRecogniser) endsRaw(e Expr, i int) []bool {
	m := len(r.t)
	out := make([]bool, m+1)
	switch e := e.(type) {
	case *Lit:
		w := []rune(e.Text)
		if i+len(w) <= m {
			ok := true
			for k, c := range w {
				if c == 0 || r.t[i+k] != c {
					ok = false
				}
			}
			out[i+len(w)] = ok
		}
	case *Class, *Any:
		if i < m && refTerm(e, r.t[i]) {
			out[i+1] = true
		}
	case *Seq:
		out[i] = true
		for _, a := range e.Items {
			out = r.step(a, out)
		}
	case *Alt:
		for _, a := range e.Alts {
			for j, ok := range r.ends(a, i) {
				out[j] = out[j] || ok
			}
		}
	case *Ref:
		return r.ends(r.g.Rule(e.Name).Expr, i)
	case *Repeat:
		lo, limit := refBounds(e, m)
		cur := make([]bool, m+1)
		cur[i] = true
		out[i] = lo == 0
		for c := 1; c <= limit; c++ {
			cur = r.step(e.Expr, cur)
			if c >= lo {
				for j, ok := range cur {
					out[j] = out[j] || ok
				}
			}
		}
	}
	return out
}

// step returns the end positions of e started at any position in from.
func (r *refRecogniser) step(e Expr, from []bool) []bool {
	next := make([]bool, len(from))
	for p, ok := range from {
		if ok {
			for j, ok2 := range r.ends(e, p) {
				next[j] = next[j] || ok2
			}
		}
	}
	return next
}

func (r *refRecogniser) scanLastRaw(e Expr, i int) bool {
	m := len(r.t)
	if i >= m {
		return false
	}
	switch e := e.(type) {
	case *Lit:
		w := []rune(e.Text)
		if len(w) < m-i {
			return false
		}
		for k := 0; k < m-i; k++ {
			if w[k] == 0 || w[k] != r.t[i+k] {
				return false
			}
		}
		return true
	case *Class, *Any:
		return i == m-1 && refTerm(e, r.t[i])
	case *Seq:
		return r.seqLast(e.Items, i)
	case *Alt:
		for _, a := range e.Alts {
			if r.scanLast(a, i) {
				return true
			}
		}
		return false
	case *Ref:
		return r.scanLast(r.g.Rule(e.Name).Expr, i)
	case *Repeat:
		_, limit := refBounds(e, m)
		cur := make([]bool, m+1)
		cur[i] = true
		for c := 1; c <= limit; c++ {
			for p, ok := range cur {
				if ok && r.scanLast(e.Expr, p) {
					return true
				}
			}
			cur = r.step(e.Expr, cur)
		}
	}
	return false
}

func (r *refRecogniser) seqLast(items []Expr, i int) bool {
	cur := make([]bool, len(r.t)+1)
	cur[i] = true
	for _, a := range items {
		for p, ok := range cur {
			if ok && r.scanLast(a, p) {
				return true
			}
		}
		cur = r.step(a, cur)
	}
	return false
}

func TestRefMatchAgrees(t *testing.T) {
	// The reference must itself agree with the hand-written table.
	for _, text := range []string{"", "a", "ab", "aab", "b"} {
		g := root(seq(star(opt(lit("a"))), lit("b")))
		m, _ := NewMatcher(g)
		if got, want := m.Match(text), refMatch(g, text); got != want {
			t.Errorf("%q: matcher %+v, reference %+v", text, got, want)
		}
	}
}

// Command escapecost measures what accepting a \u escape beside each
// non-ASCII character of a literal (member names, enum members, consts)
// costs llama.cpp's engine, the remedy compile applies for llama.cpp's
// failure on a literal the vocabulary cannot spell:
//
//	go run ./bench/escapecost [-texts 8] DIR...
//
// For each schema that compiles: whether its grammar has a non-ASCII
// literal at all (a grammar without one has no escape alternative), and for
// those that do, the llamastacks model's stacks built per code point on the
// same canonical texts, with the escape alternatives removed and as
// compiled.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/equiv"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/internal/llamastacks"
)

func main() {
	texts := flag.Int("texts", 8, "canonical texts per schema")
	flag.Parse()
	var files []string
	for _, d := range flag.Args() {
		filepath.Walk(d, func(p string, info os.FileInfo, err error) error {
			if err == nil && !info.IsDir() && strings.HasSuffix(p, ".json") {
				files = append(files, p)
			}
			return nil
		})
	}
	sort.Strings(files)
	compiled, affected, measured := 0, 0, 0
	var before, after llamastacks.Cost
	var ratios []float64
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		g, err := schema2gbnf.Compile(data, schema2gbnf.Options{})
		if err != nil {
			continue
		}
		compiled++
		raw, changed := stripped(g.Rules)
		if !changed {
			continue
		}
		affected++
		a, errA := llamastacks.Parse(raw.String())
		b, errB := llamastacks.Parse(g.GBNF)
		if errA != nil || errB != nil {
			fmt.Fprintln(os.Stderr, f, errA, errB)
			continue
		}
		var ca, cb llamastacks.Cost
		n := 0
		for _, v := range equiv.NewGenerator(g.Schema, 1).Valid() {
			c, err := compile.Canonical(g.Schema, v)
			if err != nil || n >= *texts {
				continue
			}
			x, err1 := a.Run(c)
			y, err2 := b.Run(c)
			if err1 != nil || err2 != nil || !x.Accepted || !y.Accepted {
				continue
			}
			ca, cb = ca.Add(x), cb.Add(y)
			n++
		}
		if n == 0 || ca.CodePoints == 0 {
			continue
		}
		measured++
		before, after = before.Add(ca), after.Add(cb)
		ratios = append(ratios, float64(cb.Built)/float64(ca.Built))
		fmt.Printf("%s\t%d texts\t%d code points\tbuilt/cp %.3f -> %.3f (%.3fx)\n", f, n, ca.CodePoints, float64(ca.Built)/float64(ca.CodePoints), float64(cb.Built)/float64(cb.CodePoints), ratios[len(ratios)-1])
	}
	sort.Float64s(ratios)
	fmt.Printf("\n%d schemas compile; %d have a non-ASCII literal (%.1f%%), the others' grammars hold no escape alternative; %d measured\n", compiled, affected, 100*float64(affected)/float64(max(1, compiled)), measured)
	if measured > 0 {
		fmt.Printf("stacks built per code point, summed: %.3f without the escapes -> %.3f with (%.3fx); per schema median %.3fx, max %.3fx\n",
			float64(before.Built)/float64(before.CodePoints), float64(after.Built)/float64(after.CodePoints),
			float64(after.Built)/float64(before.Built)*float64(before.CodePoints)/float64(after.CodePoints),
			ratios[len(ratios)/2], ratios[len(ratios)-1])
	}
}

// stripped copies g with each escape alternative of a non-ASCII literal,
// ("é" | "\\u00e9"), back to the character alone; changed says whether g
// had one.
func stripped(g *gbnf.Grammar) (*gbnf.Grammar, bool) {
	changed := false
	var copyExpr func(e gbnf.Expr) gbnf.Expr
	copyExpr = func(e gbnf.Expr) gbnf.Expr {
		switch e := e.(type) {
		case *gbnf.Alt:
			if len(e.Alts) == 2 {
				a, ok1 := e.Alts[0].(*gbnf.Lit)
				b, ok2 := e.Alts[1].(*gbnf.Lit)
				if ok1 && ok2 && strings.HasPrefix(b.Text, `\u`) && utf8.RuneCountInString(a.Text) == 1 && a.Text[0] >= utf8.RuneSelf {
					changed = true
					return a
				}
			}
			out := &gbnf.Alt{}
			for _, x := range e.Alts {
				out.Alts = append(out.Alts, copyExpr(x))
			}
			return out
		case *gbnf.Seq:
			out := &gbnf.Seq{}
			for _, x := range e.Items {
				out.Items = append(out.Items, copyExpr(x))
			}
			return out
		case *gbnf.Repeat:
			return &gbnf.Repeat{Expr: copyExpr(e.Expr), Min: e.Min, Max: e.Max}
		}
		return e
	}
	out := &gbnf.Grammar{}
	for _, r := range g.Rules {
		out.Rules = append(out.Rules, &gbnf.Rule{Name: r.Name, Expr: copyExpr(r.Expr)})
	}
	return out, changed
}

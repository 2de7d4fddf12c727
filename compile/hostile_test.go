package compile

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// TestHostile: schemas built to blow the compiler up end in a named error
// or a small grammar.
func TestHostile(t *testing.T) {
	// A chain of $defs, each an anyOf of two branches beside a $ref to the next
	// and a sibling keyword: 2^30 combinations if expanded blindly.
	var defs []string
	for i := 0; i < 30; i++ {
		defs = append(defs, fmt.Sprintf(`"d%d":{"type":"object","$ref":"#/$defs/d%d","anyOf":[{"required":["a%d"]},{"required":["b%d"]}]}`, i, i+1, i, i))
	}
	defs = append(defs, `"d30":{"type":"object"}`)
	chain := `{"$defs":{` + strings.Join(defs, ",") + `},"$ref":"#/$defs/d0"}`

	for _, tc := range []struct{ name, schema, code string }{
		{"anyOf chain", chain, "C402"},
		{"huge maxLength", `{"type":"string","maxLength":9223372036854775807}`, ""},
		{"huge integer bounds", `{"type":"integer","minimum":-1e300,"maximum":1e300}`, ""},
		{"long property name", `{"properties":{"` + strings.Repeat("é", 3000) + `":{"type":"integer"}}}`, ""},
		{"many-digit bounds", `{"type":"integer","minimum":-` + strings.Repeat("7", 900) + `,"maximum":` + strings.Repeat("3", 900) + `}`, ""},
		{"wide enum", `{"enum":[` + strings.TrimSuffix(strings.Repeat(`"x",1,`, 2000), ",") + `]}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := Compile(checkSchema(t, tc.schema), Options{})
			if tc.code != "" {
				if err == nil || !strings.Contains(err.Error(), tc.code) {
					t.Fatalf("got %v, want %s", err, tc.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if n := len(g.String()); n > 400000 { // linear: about 100 bytes per character of a long name
				t.Errorf("grammar of %d bytes", n)
			}
			for _, r := range g.Rules { // outline moved every deeper part out
				if d := nesting(r.Expr); d > maxNesting {
					t.Errorf("rule %s nests groups %d deep, more than maxNesting", r.Name, d)
				}
			}
			mustGrammar(t, checkSchema(t, tc.schema), Options{})
		})
	}
}

// TestNotExactlyCompilable: what the compiler cannot enforce exactly is
// refused with C402 (the checker normally refuses it first; a hand-built
// schema reaches the compiler).
func TestNotExactlyCompilable(t *testing.T) {
	s := &subsetcheck.Schema{Pointer: "", Types: subsetcheck.TNumber | subsetcheck.TInteger, MaxItems: -1, MaxLength: -1,
		Lower: &subsetcheck.Bound{Value: big.NewRat(1, 3)}} // no finite decimal
	_, err := Compile(&subsetcheck.Checked{Root: s}, Options{})
	if err == nil || !strings.Contains(err.Error(), "C402") {
		t.Fatalf("got %v, want C402", err)
	}
	// A hand-built anyOf that leads straight back to its own schema would be
	// left recursion: refused, not returned.
	loop := &subsetcheck.Schema{Types: subsetcheck.AllTypes, MaxItems: -1, MaxLength: -1}
	null := &subsetcheck.Schema{Types: subsetcheck.TNull, MaxItems: -1, MaxLength: -1}
	loop.AnyOf = []*subsetcheck.Schema{{Types: subsetcheck.AllTypes, MaxItems: -1, MaxLength: -1, Ref: loop}, null}
	if _, err := Compile(&subsetcheck.Checked{Root: loop}, Options{}); err == nil || !strings.Contains(err.Error(), "C402") {
		t.Fatalf("got %v, want C402", err)
	}
	// Options.MaxRules ends in C403.
	if _, err := Compile(checkSchema(t, `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"integer"},"c":{"type":"array"}}}`), Options{MaxRules: 3}); err == nil || !strings.Contains(err.Error(), "C403") {
		t.Fatalf("got %v, want C403", err)
	}
	// A nil or empty Checked is an error, not a panic.
	if _, err := Compile(nil, Options{}); err == nil {
		t.Fatal("nil schema compiled")
	}
	if _, err := Canonical(&subsetcheck.Checked{}, nil); err == nil {
		t.Fatal("nil value written")
	}
}

// nesting is how deeply groups (sequences, choices, repetitions) nest in e,
// e itself counted.
func nesting(e gbnf.Expr) int {
	deepest := 0
	switch e := e.(type) {
	case *gbnf.Seq:
		for _, x := range e.Items {
			deepest = max(deepest, nesting(x))
		}
	case *gbnf.Alt:
		for _, x := range e.Alts {
			deepest = max(deepest, nesting(x))
		}
	case *gbnf.Repeat:
		deepest = nesting(e.Expr)
	default:
		return 0
	}
	return deepest + 1
}

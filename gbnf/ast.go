package gbnf

// Grammar is a llama.cpp grammar: named rules, printed in order. The rule
// named "root" is where matching starts. The compiler builds Grammar values,
// the printer writes them as GBNF text, the parser reads them back, and the
// matcher and sampler run them.
type Grammar struct {
	Rules []*Rule
}

// Rule is one "name ::= expr" line.
type Rule struct {
	Name string
	Expr Expr
	Pos  Pos // where the rule was defined; zero for built grammars

	frozen *frozen // set by Freeze
}

// Pos is a 1-based line and column (in bytes) in a grammar text.
type Pos struct {
	Line, Col int
}

// Expr is one node of a rule body: Alt, Seq, Lit, Class, Any, Ref or Repeat.
type Expr interface{ expr() }

// Alt matches any one of its alternatives. An empty Seq alternative matches
// the empty string.
type Alt struct{ Alts []Expr }

// Seq matches its items one after another; an empty Seq matches "".
type Seq struct{ Items []Expr }

// Lit matches its text exactly, code point by code point.
type Lit struct{ Text string }

// Class matches one code point in (or, when Negated, not in) its ranges.
// A Class with no ranges must never be printed: llama.cpp reads "[]" and
// "[^]" as the empty string, not as "nothing" or "anything".
type Class struct {
	Negated bool
	Ranges  []Range
}

// Range is an inclusive range of code points, Lo <= Hi.
type Range struct{ Lo, Hi rune }

// Any matches any single code point ("." in GBNF).
type Any struct{}

// Ref matches the rule it names.
type Ref struct {
	Name string
	Pos  Pos // where the reference was written; zero for built grammars
}

// Repeat matches Expr at least Min and at most Max times; Max < 0 means no
// upper bound. Printed as *, +, ?, {m}, {m,} or {m,n}.
type Repeat struct {
	Expr     Expr
	Min, Max int
}

func (*Alt) expr()    {}
func (*Seq) expr()    {}
func (*Lit) expr()    {}
func (*Class) expr()  {}
func (*Any) expr()    {}
func (*Ref) expr()    {}
func (*Repeat) expr() {}

// Rule returns the rule named name, or nil. When a name is defined twice the
// later definition wins, as in llama.cpp.
func (g *Grammar) Rule(name string) *Rule {
	for i := len(g.Rules) - 1; i >= 0; i-- {
		if g.Rules[i].Name == name {
			return g.Rules[i]
		}
	}
	return nil
}

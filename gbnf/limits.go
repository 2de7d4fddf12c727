package gbnf

// Limits bound the work Parse does on hostile text. Each limit that is hit
// ends parsing with an error that names the limit.
type Limits struct {
	// MaxBytes is the longest grammar text accepted. Parsing costs about
	// 1 KB of short-lived allocation per byte of text (participle builds a
	// reflective parse tree), so the default keeps a hostile text to a
	// second or two; compiled grammars are far smaller.
	MaxBytes int
	// MaxDepth bounds nesting: each parenthesis group and each postfix
	// operator (* + ? {m,n}) applied on top of another counts one level.
	// It keeps the recursive parser, printer and matcher off the stack limit.
	MaxDepth int
	// MaxRepeat is the largest count accepted in {m}, {m,} and {m,n}.
	// llama.cpp expands counts into rules at load time; releases from late
	// 2025 refuse counts of 2000 and more and silently drop a maximum over
	// 2000 (older ones keep it), so the default stops just below.
	MaxRepeat int
	// MaxRules is the largest number of rule definitions accepted.
	MaxRules int
}

// DefaultLimits are the limits Parse uses; ParseWithLimits takes them for
// zero fields.
var DefaultLimits = Limits{
	MaxBytes:  1 << 20,
	MaxDepth:  1000,
	MaxRepeat: 1999,
	MaxRules:  100000,
}

// withDefaults fills zero fields from DefaultLimits.
func (l Limits) withDefaults() Limits {
	if l.MaxBytes == 0 {
		l.MaxBytes = DefaultLimits.MaxBytes
	}
	if l.MaxDepth == 0 {
		l.MaxDepth = DefaultLimits.MaxDepth
	}
	if l.MaxRepeat == 0 {
		l.MaxRepeat = DefaultLimits.MaxRepeat
	}
	if l.MaxRules == 0 {
		l.MaxRules = DefaultLimits.MaxRules
	}
	return l
}

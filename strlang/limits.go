package strlang

// Limits bound the work that one pattern or one operation may cause, so
// that hostile input ends in an *Error (Kind ErrLimit…) within
// milliseconds, never a hang or gigabytes. A zero field means its default.
type Limits struct {
	// PatternBytes is the longest pattern, in bytes (ErrLimitPattern).
	PatternBytes int
	// Depth is the deepest nesting of groups (ErrLimitDepth).
	Depth int
	// Repeat bounds the pattern with its counted repetitions written out:
	// x{n,m} counts m copies of x, nested ones multiply, and the whole, in
	// automaton positions (a character, a fork or an assertion each), may
	// not exceed it (ErrLimitRepeat). a{1,100000} alone is over the
	// default; so is a{0,10000}, which needs a fork per optional a.
	Repeat int
	// States is the most states an automaton may have while it is built
	// (determinization, and the product of two languages), before it is
	// minimized (ErrLimitStates).
	States int
	// LengthStates is the most states of a language intersected with length
	// bounds, before it is minimized: about the language's states times the
	// length bound where a counter is needed (ErrLimitLength).
	LengthStates int
}

// The defaults.
const (
	DefaultPatternBytes = 10_000
	DefaultDepth        = 200
	DefaultRepeat       = 20_000
	DefaultStates       = 10_000
	DefaultLengthStates = 20_000
)

// cellsPerState bounds the size of an automaton's table, states times
// classes, at the state limit times it: a pattern of thousands of distinct
// characters has as many classes, and the table would hold gigabytes
// before the states ran out.
const cellsPerState = 256

// full reports whether an automaton of so many states and classes may not
// grow by one more state under the given state limit.
func full(states, classes, limit int) bool {
	return states >= limit || (states+1)*classes > limit*cellsPerState
}

// orDefaults fills the zero fields.
func (l Limits) orDefaults() Limits {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.PatternBytes, DefaultPatternBytes)
	def(&l.Depth, DefaultDepth)
	def(&l.Repeat, DefaultRepeat)
	def(&l.States, DefaultStates)
	def(&l.LengthStates, DefaultLengthStates)
	return l
}

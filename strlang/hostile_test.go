package strlang

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// Hostile patterns end in a named error or a language, soon and in little
// memory; the times are logged, not asserted.
func TestHostile(t *testing.T) {
	var distinct strings.Builder
	for i := 0; i < 3000; i++ {
		distinct.WriteRune(rune(0x100 + i))
	}
	for _, tc := range []struct {
		name, pattern string
		want          ErrorKind // "" when it compiles
	}{
		{"exponential DFA", `^(a|b)*a(a|b){40}$`, ErrLimitStates},
		{"exponential DFA, unanchored start", `(a|b)*a(a|b){40}$`, ErrLimitStates},
		{"nested counts", `((a{1,100}){1,100}){1,100}`, ErrLimitRepeat},
		{"huge counts", `(?:a{0,4294967295}){0,4294967295}`, ErrLimitRepeat},
		{"many classes", "^" + distinct.String() + "$", ErrLimitStates},
		{"backtracking classic", `^(?:a?){4000}a{4000}$`, ErrLimitStates},
		{"big kernels", `^[a-z]{0,4000}[a-y]{0,4000}z$`, ErrLimitStates},
		{"nested stars", strings.Repeat("(", 100) + "a*" + strings.Repeat(")*", 100), ""},
		{"long alternation", strings.TrimSuffix(strings.Repeat("ab|", 3000), "|"), ""},
		{"properties", strings.Repeat(`\p{L}`, 1600), ""},
		{"deep groups", strings.Repeat("(", 200) + strings.Repeat(")", 200), ""},
		{"too deep", strings.Repeat("(?:", 1000) + strings.Repeat(")", 1000), ErrLimitDepth},
		{"long pattern", strings.Repeat("a", 1_000_000), ErrLimitPattern},
		{"unclosed classes", strings.Repeat("[", 5000), ErrMissingBracket},
	} {
		start := time.Now()
		l, err := Compile(tc.pattern, Limits{})
		d := time.Since(start)
		var e *Error
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && !(errors.As(err, &e) && e.Kind == tc.want):
			t.Errorf("%s: got %v, want %s", tc.name, err, tc.want)
		}
		states := ""
		if l != nil {
			states = fmt.Sprintf(", %d states", l.NumStates())
		}
		t.Logf("%-36s %v%s", tc.name, d, states)
	}
}

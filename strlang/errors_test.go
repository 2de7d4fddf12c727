package strlang

import (
	"errors"
	"strings"
	"testing"
)

// errorTests: a pattern, the kind of its error, and the byte offset the
// error points at.
var errorTests = []struct {
	pattern string
	kind    ErrorKind
	offset  int
}{
	{"(", ErrMissingParen, 0},
	{"a(b", ErrMissingParen, 1},
	{"a(?:b(c)", ErrMissingParen, 1},
	{"a)", ErrUnmatchedParen, 1},
	{"[a", ErrMissingBracket, 0},
	{`[a\`, ErrMissingBracket, 2},
	{"a]", ErrLoneSyntax, 1},
	{"a{", ErrLoneSyntax, 1},
	{"a}", ErrLoneSyntax, 1},
	{"a{,5}", ErrLoneSyntax, 1},
	{"a{1,2", ErrLoneSyntax, 1},
	{"a{x}", ErrLoneSyntax, 1},
	{"é]", ErrLoneSyntax, 2},
	{"{1}", ErrNothingToRepeat, 0},
	{"*", ErrNothingToRepeat, 0},
	{"a|*", ErrNothingToRepeat, 2},
	{"(*)", ErrNothingToRepeat, 1},
	{"a**", ErrNothingToRepeat, 2},
	{"a???", ErrNothingToRepeat, 3},
	{"a{1}{2}", ErrNothingToRepeat, 4},
	{"^*", ErrNothingToRepeat, 1},
	{"$+", ErrNothingToRepeat, 1},
	{`\b+`, ErrNothingToRepeat, 2},
	{`\B{2}`, ErrNothingToRepeat, 2},
	{"(?=a)*", ErrNothingToRepeat, 5},
	{"a{2,1}", ErrRepeatOrder, 1},
	{"a{99999999999999999999,1}", ErrRepeatOrder, 1},
	{`\q`, ErrEscape, 0},
	{`\a`, ErrEscape, 0},
	{`\e`, ErrEscape, 0},
	{`\-`, ErrEscape, 0},
	{`\'`, ErrEscape, 0},
	{`\c`, ErrEscape, 0},
	{`\c1`, ErrEscape, 0},
	{`\c_`, ErrEscape, 0},
	{`\x4`, ErrEscape, 0},
	{`\xg0`, ErrEscape, 0},
	{`\u12`, ErrEscape, 0},
	{`\u{110000}`, ErrEscape, 0},
	{`\u{}`, ErrEscape, 0},
	{`\u{41`, ErrEscape, 0},
	{`\01`, ErrEscape, 0},
	{`a\`, ErrEscape, 1},
	{`\k`, ErrEscape, 0},
	{`\k<a`, ErrGroupName, 0},
	{`[\B]`, ErrEscape, 1},
	{`[\1]`, ErrEscape, 1},
	{`[\k<a>]`, ErrEscape, 1},
	{`[\c1]`, ErrEscape, 1},
	{`[\q]`, ErrEscape, 1},
	{"[z-a]", ErrRangeOrder, 1},
	{"[a--]", ErrRangeOrder, 1},
	{`[\u{1F601}-\u{1F600}]`, ErrRangeOrder, 1},
	{`[\d-z]`, ErrClassInRange, 1},
	{`[a-\d]`, ErrClassInRange, 3},
	{`[\p{L}-z]`, ErrClassInRange, 1},
	{"(?x)", ErrGroup, 0},
	{"(?", ErrGroup, 0},
	{"(?-:a)", ErrGroup, 0},
	{"(?ii:a)", ErrGroup, 3},
	{"(?i)a", ErrGroup, 0},
	{"(?<1a>x)", ErrGroupName, 3},
	{"(?<a", ErrGroupName, 0},
	{"(?<>x)", ErrGroupName, 3},
	{"(?<a-b>x)", ErrGroupName, 4},
	{`(?<\u0031>x)`, ErrGroupName, 3},
	{`(?<a\x41>x)`, ErrGroupName, 4},
	{"(?<a>x)(?<a>y)", ErrDuplicateName, 10},
	{"(?<a>x)((?<a>y)|z)", ErrDuplicateName, 11},
	{`(?<a>x)|(?<\u0061>y)(?<a>z)`, ErrDuplicateName, 23},
	{`\2(a)`, ErrBackrefTarget, 0},
	{`(a)\10`, ErrBackrefTarget, 3},
	{`\k<b>(?<a>x)`, ErrBackrefTarget, 0},
	{`\p`, ErrProperty, 0},
	{`\pL`, ErrProperty, 0},
	{`\p{L`, ErrProperty, 0},
	{`\p{}`, ErrProperty, 0},
	{`\p{Foo}`, ErrProperty, 0},
	{`\p{letter}`, ErrProperty, 0},
	{`\p{ L}`, ErrProperty, 0},
	{`\p{sc=Foo}`, ErrProperty, 0},
	{`\p{gc=Latin}`, ErrProperty, 0},
	{`\p{Script}`, ErrProperty, 0},
	{`\p{ASCII=Yes}`, ErrProperty, 0},
	{`\p{Block=Basic_Latin}`, ErrProperty, 0},
	{`\p{RGI_Emoji}`, ErrProperty, 0},
	{`x\P{Lu=}`, ErrProperty, 1},
	{"\xff", ErrUTF8, 0},
	{"ab\xc3", ErrUTF8, 2},
	// Valid, refused.
	{"(?=a)", ErrLookaround, 0},
	{"a(?!b)", ErrLookaround, 1},
	{"(?<=a)b", ErrLookaround, 0},
	{"(?<!a)b", ErrLookaround, 0},
	{`(a)\1`, ErrBackreference, 3},
	{`\1(a)`, ErrBackreference, 0},
	{`(?<n>a)\k<n>`, ErrBackreference, 7},
	{`\k<n>(?<n>a)`, ErrBackreference, 0},
	{"(?i:a)", ErrModifiers, 0},
	{"(?-i:a)", ErrModifiers, 0},
	{"(?ms-i:a)", ErrModifiers, 0},
	{`\p{Emoji}`, ErrUnsupportedProperty, 0},
	{`[\P{Extended_Pictographic}]`, ErrUnsupportedProperty, 1},
	{`\p{XID_Start}`, ErrUnsupportedProperty, 0},
	{`\p{scx=Latn}`, ErrUnsupportedProperty, 0},
	{`\p{Script_Extensions=Greek}`, ErrUnsupportedProperty, 0},
	{`\p{sc=Garay}`, ErrUnsupportedProperty, 0},
	{`(?=a)(`, ErrMissingParen, 5}, // syntax errors come first
	{`(?=a)\2`, ErrBackrefTarget, 5},
	// Limits.
	{strings.Repeat("(", 201) + strings.Repeat(")", 201), ErrLimitDepth, 200},
	{strings.Repeat("a", 10_001), ErrLimitPattern, -1},
	{"a{1,100000}", ErrLimitRepeat, -1},
	{"((a{1,100}){1,100}){1,100}", ErrLimitRepeat, -1},
	{"(a{1,1000000000000}){1,1000000000000}", ErrLimitRepeat, -1},
	{"^(a|b)*a(a|b){40}$", ErrLimitStates, -1},
	{"^[a-z]{0,4000}[a-y]{0,4000}z$", ErrLimitStates, -1},
}

func TestErrors(t *testing.T) {
	for _, tc := range errorTests {
		_, err := Compile(tc.pattern, Limits{})
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%.40q: got %v, want a %s error at %d", tc.pattern, err, tc.kind, tc.offset)
			continue
		}
		if e.Kind != tc.kind || e.Offset != tc.offset {
			t.Errorf("%.40q: got %s at %d (%v), want %s at %d", tc.pattern, e.Kind, e.Offset, e, tc.kind, tc.offset)
		}
		if e.Pattern != tc.pattern {
			t.Errorf("%.40q: the error quotes %.40q", tc.pattern, e.Pattern)
		}
		if e.Offset >= 0 && e.Rune != len([]rune(tc.pattern[:e.Offset])) {
			t.Errorf("%.40q: rune index %d for byte %d", tc.pattern, e.Rune, e.Offset)
		}
		if tc.kind.Category() != OverLimit {
			if cerr := Check(tc.pattern, Limits{}); cerr == nil || cerr.(*Error).Kind != tc.kind {
				t.Errorf("%.40q: Check says %v", tc.pattern, cerr)
			}
		}
	}
}

func TestErrorCategories(t *testing.T) {
	for kind, want := range map[ErrorKind]Category{
		ErrEscape: Invalid, ErrProperty: Invalid, ErrLookaround: Unsupported, ErrBackreference: Unsupported,
		ErrModifiers: Unsupported, ErrUnsupportedProperty: Unsupported, ErrLimitStates: OverLimit, ErrLimitLength: OverLimit,
	} {
		if got := kind.Category(); got != want {
			t.Errorf("%s: category %d, want %d", kind, got, want)
		}
	}
}

// Limits can be raised, and lowered.
func TestLimitsApply(t *testing.T) {
	if _, err := Compile("a{1,100000}", Limits{Repeat: 200_000, States: 200_000}); err != nil {
		t.Errorf("raised limits: %v", err)
	}
	if _, err := Compile("^[a-z]{20}$", Limits{States: 10}); err == nil || err.(*Error).Kind != ErrLimitStates {
		t.Errorf("lowered States: %v", err)
	}
	if _, err := Compile("((a))", Limits{Depth: 1}); err == nil || err.(*Error).Kind != ErrLimitDepth {
		t.Errorf("lowered Depth: %v", err)
	}
	if _, err := Compile("abc", Limits{PatternBytes: 2}); err == nil || err.(*Error).Kind != ErrLimitPattern {
		t.Errorf("lowered PatternBytes: %v", err)
	}
}

package strlang_test

import (
	"fmt"

	"github.com/schema2gbnf/schema2gbnf/strlang"
)

// A string schema {"pattern": "^[a-z]+$", "minLength": 2, "maxLength": 4}
// as one automaton, walked as a compiler would walk it to write a rule per
// state.
func Example() {
	l, err := strlang.Compile(`^[a-z]+$`, strlang.Limits{})
	if err != nil {
		panic(err)
	}
	l, err = strlang.WithLength(l, 2, 4, strlang.Limits{})
	if err != nil {
		panic(err)
	}
	fmt.Print(l)
	set, min, max, ok := l.Chain(0)
	fmt.Println(set, min, max, ok)
	w, _ := l.Shortest()
	fmt.Printf("%q %v %v\n", w, l.Match("abcd"), l.Match("abcde"))
	// Output:
	// 0 [a-z]->1
	// 1 [a-z]->2
	// 2* [a-z]->3
	// 3* [a-z]->4
	// 4*
	// [a-z] 2 4 true
	// "aa" true false
}

// Errors say what is wrong, where, and in which category.
func ExampleError() {
	_, err := strlang.Compile(`^\d+(?=px)`, strlang.Limits{})
	e := err.(*strlang.Error)
	fmt.Println(e.Kind, e.Kind.Category() == strlang.Unsupported, e.Offset)
	_, err = strlang.Compile(`^a{2,1}$`, strlang.Limits{})
	fmt.Println(err)
	// Output:
	// lookaround true 4
	// pattern "^a{2,1}$", at byte 2 (character 2): in {2,1} the first count is larger than the second
}

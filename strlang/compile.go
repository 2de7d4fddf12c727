package strlang

// Compile returns the language of an ECMA-262 regular expression with the
// u flag, as JSON Schema's pattern reads it: the strings in which the
// pattern matches somewhere (it is not anchored). The error, if any, is an
// *Error: its Kind's Category says whether the pattern is invalid,
// unsupported or over a limit.
func Compile(pattern string, lim Limits) (*Lang, error) {
	lim = lim.orDefaults()
	tree, err := parse(pattern, lim)
	if err != nil {
		return nil, err
	}
	n, err := buildNFA(pattern, tree, lim)
	if err != nil {
		return nil, err
	}
	t, err := determinize(pattern, n, lim)
	if err != nil {
		return nil, err
	}
	return finish(t), nil
}

// Check reports what Compile would about the pattern's syntax, the
// constructs it refuses and Limits.PatternBytes, Depth and Repeat, without
// building the automaton (so it never reports ErrLimitStates).
func Check(pattern string, lim Limits) error {
	lim = lim.orDefaults()
	tree, err := parse(pattern, lim)
	if err != nil {
		return err
	}
	if size := treeSize(tree); size > lim.Repeat {
		_, err := buildNFA(pattern, tree, lim)
		return err
	}
	return nil
}

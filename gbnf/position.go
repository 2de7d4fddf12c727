package gbnf

import "unicode/utf8"

// Position turns a byte offset in text, such as MatchResult.Offset, into a
// 1-based line and a 1-based column counted in code points, as the matcher
// counts them.
func Position(text string, offset int) (line, col int) {
	line, col = 1, 1
	for i := 0; i < offset && i < len(text); {
		c, n := utf8.DecodeRuneInString(text[i:])
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += n
	}
	return line, col
}

package subsetcheck

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Code is a stable problem code. Every code is listed, with its meaning, in
// codes.go; docs and tests read that table.
type Code string

// Problem is one thing wrong with (or, as a warning, worth knowing about) a
// schema: where it is, what rule it breaks, and what to write instead.
type Problem struct {
	Code    Code
	File    string // document name
	Pointer string // JSON Pointer to the offending keyword or value ("" is the root)
	Line    int    // 1-based; 0 when unknown
	Col     int    // 1-based, in bytes
	Message string // says what is wrong and what to write instead
}

// Error formats the problem as "file:line:col: pointer: message [code]".
func (p *Problem) Error() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File)
		b.WriteByte(':')
	}
	if p.Line > 0 {
		fmt.Fprintf(&b, "%d:%d:", p.Line, p.Col)
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	ptr := p.Pointer
	if ptr == "" {
		ptr = "/"
	}
	fmt.Fprintf(&b, "%s: %s [%s]", ptr, p.Message, p.Code)
	return b.String()
}

// ErrorList is every problem found, sorted by position. It is the error type
// of Read, Check and compile.Compile; use errors.As to inspect it.
type ErrorList []*Problem

func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no problems"
	case 1:
		return l[0].Error()
	}
	var b strings.Builder
	for i, p := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.Error())
	}
	return b.String()
}

// Sort orders problems by line, column, pointer and code (stable: problems
// alike keep their order). A typed sort: sort.SliceStable's reflection
// allocated on every schema with a warning.
func (l ErrorList) Sort() {
	slices.SortStableFunc(l, func(a, b *Problem) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col),
			strings.Compare(a.Pointer, b.Pointer), cmp.Compare(a.Code, b.Code))
	})
}

// Err returns nil for an empty list, and the sorted list otherwise.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	l.Sort()
	return l
}

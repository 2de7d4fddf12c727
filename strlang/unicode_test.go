package strlang

import (
	"testing"
	"unicode"
)

// Every script of Go's tables has its short name, and every short name a
// script.
func TestScriptAliases(t *testing.T) {
	long := map[string]bool{}
	for _, l := range scriptAliases {
		long[l] = true
	}
	for name := range unicode.Scripts {
		if !long[name] {
			t.Errorf("script %s has no short name in scriptAliases", name)
		}
	}
	for short, l := range scriptAliases {
		if _, ok := unicode.Scripts[l]; !ok && l != "Katakana_Or_Hiragana" && l != "Unknown" {
			t.Errorf("%s names %s, which Go's tables lack", short, l)
		}
	}
}

// \s is ECMA-262's WhiteSpace and LineTerminator, spelled out.
func TestSpaceSet(t *testing.T) {
	want := NewSet(Range{'\t', '\r'}, Range{' ', ' '}, Range{0xA0, 0xA0}, Range{0x1680, 0x1680}, Range{0x2000, 0x200A},
		Range{0x2028, 0x2029}, Range{0x202F, 0x202F}, Range{0x205F, 0x205F}, Range{0x3000, 0x3000}, Range{0xFEFF, 0xFEFF})
	if !spaceSet.Equal(want) {
		t.Errorf("\\s is %s, want %s", spaceSet, want)
	}
}

// The categories built here agree with Go's where Go has them.
func TestCategories(t *testing.T) {
	for name, short := range generalCategories {
		if name == short {
			if tab, ok := unicode.Categories[short]; ok && short != "C" {
				if got := category(short); !got.Equal(fromTable(tab)) {
					t.Errorf("category %s differs from Go's table", short)
				}
			}
		}
	}
	// Every code point has exactly one two-letter category.
	var all Set
	for name := range categoryGroups {
		if name != "LC" {
			all = all.union(category(name))
		}
	}
	if !all.Equal(anySet) {
		t.Errorf("the categories do not cover every scalar value")
	}
}

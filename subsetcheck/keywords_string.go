// The string keywords: minLength, maxLength, pattern, format.

package subsetcheck

import (
	"fmt"
	"slices"
	"strings"
)

// minLength, maxLength: counted in code points.
func checkMinLength(c *checker, k *keywordAt) {
	if n, ok := c.countOf(k); ok {
		k.s.MinLength = n
	}
}

func checkMaxLength(c *checker, k *keywordAt) {
	if n, ok := c.countOf(k); ok {
		k.s.MaxLength = n
	}
}

// pattern: an ECMA-262 regular expression with the u flag, which a string
// must match somewhere. Its language is compiled once per Check
// (pattern.go) and kept in Schema.Patterns; the compiler intersects it with
// the string's other keywords.
func checkPattern(c *checker, k *keywordAt) {
	val := k.m.Value
	if val.Kind != String {
		c.bad(k, "must be a string")
		return
	}
	if p := c.compilePattern(k.m.Name, c.pointerOf(k), val.Offset, val.Str); p != nil {
		k.s.Patterns = []*Pattern{p}
	}
}

// format: an annotation (W302) unless formats are asserted; then one of
// AssertedFormats is enforced, and any other is refused by finishFormat.
func checkFormat(c *checker, k *keywordAt) {
	val := k.m.Value
	switch {
	case val.Kind != String:
		c.bad(k, "must be a string")
	case !c.assertFormat && slices.Contains(AssertedFormats, val.Str):
		c.warnAt(CodeFormatNotEnforced, c.pointerOf(k), k.m.NameOffset, "format %q is an annotation here: it is not enforced, and the model may write any string; -assert-format (AssertFormat) enforces it exactly", val.Str)
	case !c.assertFormat:
		c.warnAt(CodeFormatNotEnforced, c.pointerOf(k), k.m.NameOffset, "format %q is an annotation here: it is not enforced, and the model may write any string; use enum if the set of strings is small, or check it after decoding (-assert-format enforces only %s, and refuses %q)", val.Str, assertableList, val.Str)
	case slices.Contains(AssertedFormats, val.Str):
		k.s.Format = val.Str
	case !c.metaOnly:
		k.unassertable = k.m // refused unless "type" admits no string: decided by finishFormat
	}
}

// assertableList names the formats -assert-format enforces, for messages.
var assertableList = strings.Join(AssertedFormats[:len(AssertedFormats)-1], ", ") + " and " + AssertedFormats[len(AssertedFormats)-1]

// finishFormat refuses a format that cannot be asserted, once the type is
// known: a format constrains strings only, so beside a type that admits no
// string (OpenAPI's int32 on an integer) it has nothing to enforce.
func finishFormat(c *checker, k *keywordAt) {
	m := k.unassertable
	if m == nil || LookupKeyword("format", c.draft).Use(c.profile) == Refused {
		return // (a profile that refuses format has said so: S201)
	}
	ptr := join(k.s.Pointer, m.Name)
	if k.s.Types&TString == 0 {
		c.warnAt(CodeFormatNotEnforced, ptr, m.NameOffset, "format %q constrains strings only, and this schema's type admits none: it has no effect here", m.Value.Str)
	} else {
		c.errorAt(CodeFormatNotExact, ptr, m.Value.Offset, "%s", formatRefusal(m.Value.Str))
	}
}

// formatRefusal says why a format is not asserted and what to write
// instead.
func formatRefusal(name string) string {
	why := "it is not one the compiler enforces exactly (" + strings.Join(AssertedFormats, ", ") + ")"
	switch name {
	case "hostname", "idn-hostname":
		why = "its 253-character total over labels of at most 63 needs two counters at once, which no grammar of reasonable size keeps"
	}
	return fmt.Sprintf("format %q cannot be asserted: %s; drop it, list the strings in enum, or compile without format assertion so that it stays an annotation", name, why)
}

package compile

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Failure says why a schema rejects a value, in schema terms: the first
// keyword that fails, where it is in the schema and where the value that
// breaks it is in the instance. It lets a caller tell a model's output that
// breaks the schema from one that is only spelled differently from the
// grammar's canonical form.
type Failure struct {
	Keyword         string     // the failing keyword, e.g. "required"; "" for the schema false
	SchemaPointer   string     // JSON Pointer of the keyword in the schema document ("" is the root)
	InstancePointer string     // JSON Pointer of the failing value in the instance ("" is the root)
	Message         string     // what is wrong, in one sentence
	Branches        []*Failure // for anyOf: why each branch failed, in order
}

func (f *Failure) Error() string {
	ptr := f.InstancePointer
	if ptr == "" {
		ptr = "/"
	}
	return fmt.Sprintf("instance %s: %s (schema %s)", ptr, f.Message, pointerOrRoot(f.SchemaPointer))
}

func pointerOrRoot(p string) string {
	if p == "" {
		return "#"
	}
	return "#" + p
}

// Explain validates v against the checked schema, as the compiler's
// validator does, and returns nil when the schema accepts v or the first
// failure otherwise. Keywords are tried in a fixed order, so the answer is
// deterministic.
func Explain(c *subsetcheck.Checked, v *subsetcheck.Value) *Failure {
	if c == nil || v == nil {
		return nil
	}
	return explain(c.Root, v, "", 0)
}

// keywordPointer is the pointer of the first of names written in s, or of s
// itself when none is (a keyword the checker derived, e.g. from allOf).
func keywordPointer(s *subsetcheck.Schema, names ...string) (string, string) {
	if s.Node != nil && s.Node.Kind == subsetcheck.Object {
		for _, n := range names {
			if s.Node.Get(n) != nil {
				return n, s.Pointer + "/" + n
			}
		}
	}
	return names[0], s.Pointer
}

func fail(s *subsetcheck.Schema, inst string, names []string, format string, args ...any) *Failure {
	kw, ptr := keywordPointer(s, names...)
	return &Failure{Keyword: kw, SchemaPointer: ptr, InstancePointer: inst, Message: fmt.Sprintf(format, args...)}
}

func kw(names ...string) []string { return names }

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

func childPointer(inst, token string) string {
	if strings.ContainsAny(token, "~/") {
		token = pointerEscaper.Replace(token)
	}
	return inst + "/" + token
}

// explain mirrors acceptsDepth keyword by keyword; TestExplainAgreesWithAccepts
// keeps the two in step.
func explain(s *subsetcheck.Schema, v *subsetcheck.Value, inst string, depth int) *Failure {
	if s == nil {
		return nil
	}
	if s.False {
		return &Failure{SchemaPointer: s.Pointer, InstancePointer: inst, Message: "the schema admits no value here"}
	}
	if depth > MaxValueDepth {
		return &Failure{SchemaPointer: s.Pointer, InstancePointer: inst,
			Message: fmt.Sprintf("the value is nested deeper than MaxValueDepth (%d)", MaxValueDepth)}
	}
	if !acceptsType(s.Types, v) {
		return fail(s, inst, kw("type"), "%s is not of type %s", kindName(v), typeNames(s.Types))
	}
	if s.Enum != nil {
		found := false
		for _, m := range s.Enum {
			if equal(m, v) {
				found = true
				break
			}
		}
		if !found {
			return fail(s, inst, kw("enum", "const"), "the value is not one of the %d allowed by enum/const", len(s.Enum))
		}
	}
	switch v.Kind {
	case subsetcheck.Object:
		for _, p := range s.Properties {
			if mv := v.Get(p.Name); mv != nil {
				if f := explain(p.Schema, mv, childPointer(inst, p.Name), depth+1); f != nil {
					return f
				}
			}
		}
		for _, r := range s.Required {
			if v.Get(r) == nil {
				return fail(s, inst, kw("required"), "required member %q is missing", r)
			}
		}
		for _, m := range v.Members {
			if s.PropertyNames != nil {
				if f := explain(s.PropertyNames, nameValue(m.Name), childPointer(inst, m.Name), depth+1); f != nil {
					return &Failure{Keyword: "propertyNames", SchemaPointer: s.Pointer + "/propertyNames", InstancePointer: childPointer(inst, m.Name),
						Message: fmt.Sprintf("member name %q is not one propertyNames accepts: %s", m.Name, f.Message)}
				}
			}
			matched := false
			for _, pp := range s.PatternProperties {
				if pp.Pattern.Lang.Match(m.Name) {
					matched = true
					if f := explain(pp.Schema, m.Value, childPointer(inst, m.Name), depth+1); f != nil {
						return f
					}
				}
			}
			if matched || declared(s, m.Name) {
				continue
			}
			ap := s.AdditionalProperties
			if ap != nil && ap.Closed {
				return &Failure{Keyword: "additionalProperties", SchemaPointer: ap.Pointer, InstancePointer: childPointer(inst, m.Name),
					Message: fmt.Sprintf("member %q is not declared: the schema allows other members (it has no additionalProperties), but the grammar was compiled with closed objects (-objects closed), which takes only the members properties lists", m.Name)}
			}
			if ap != nil && ap.False {
				return &Failure{Keyword: "additionalProperties", SchemaPointer: ap.Pointer, InstancePointer: childPointer(inst, m.Name),
					Message: fmt.Sprintf("member %q is not declared and additional members are not allowed", m.Name)}
			}
			if f := explain(ap, m.Value, childPointer(inst, m.Name), depth+1); f != nil {
				return f
			}
		}
		if f := explainMemberCounts(s, v, inst, depth); f != nil { // explaincount.go
			return f
		}
	case subsetcheck.Array:
		n := len(v.Items)
		if n < s.MinItems {
			return fail(s, inst, kw("minItems"), "%d items, fewer than the minimum %d", n, s.MinItems)
		}
		if s.MaxItems >= 0 && n > s.MaxItems {
			return fail(s, inst, kw("maxItems", "items", "additionalItems", "prefixItems"), "%d items, more than the maximum %d", n, s.MaxItems)
		}
		for i, it := range v.Items {
			is := itemSchema(s, i)
			if is != nil && is.False {
				return &Failure{Keyword: "items", SchemaPointer: is.Pointer, InstancePointer: childPointer(inst, strconv.Itoa(i)),
					Message: fmt.Sprintf("item %d is not allowed: the schema admits no item here", i)}
			}
			if f := explain(is, it, childPointer(inst, strconv.Itoa(i)), depth+1); f != nil {
				return f
			}
		}
		if f := explainItemCounts(s, v, inst, depth); f != nil { // explaincount.go
			return f
		}
	case subsetcheck.String:
		n := utf8.RuneCountInString(v.Str)
		if n < s.MinLength {
			return fail(s, inst, kw("minLength"), "the string has %d characters, fewer than the minimum %d", n, s.MinLength)
		}
		if s.MaxLength >= 0 && n > s.MaxLength {
			return fail(s, inst, kw("maxLength"), "the string has %d characters, more than the maximum %d", n, s.MaxLength)
		}
		if s.Format != "" && !formatValid(s.Format, v.Str) {
			return fail(s, inst, kw("format"), "the string is not a valid %s", s.Format)
		}
		for _, p := range s.Patterns {
			if !p.Lang.Match(v.Str) {
				return fail(s, inst, kw("pattern"), "the string does not match the pattern %q", p.Source)
			}
		}
	case subsetcheck.Number:
		if f := explainMultipleOf(s, v, inst); f != nil { // explaincount.go
			return f
		}
		if s.Lower != nil || s.Upper != nil {
			d, ok := parseDecimal(v.Num)
			if !ok {
				return fail(s, inst, kw("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"),
					"the number %s is beyond the exponent the validator compares (MaxExponent %d)", v.Num, MaxExponent)
			}
			r := d.rat()
			if b := s.Lower; b != nil && b.Value != nil {
				if c := r.Cmp(b.Value); c < 0 || c == 0 && b.Exclusive {
					names := kw("minimum", "exclusiveMinimum")
					if b.Exclusive {
						names = kw("exclusiveMinimum", "minimum")
					}
					return fail(s, inst, names, "%s is below the %s %s", v.Num, boundWord(b, "minimum"), b.Value.RatString())
				}
			}
			if b := s.Upper; b != nil && b.Value != nil {
				if c := r.Cmp(b.Value); c > 0 || c == 0 && b.Exclusive {
					names := kw("maximum", "exclusiveMaximum")
					if b.Exclusive {
						names = kw("exclusiveMaximum", "maximum")
					}
					return fail(s, inst, names, "%s is above the %s %s", v.Num, boundWord(b, "maximum"), b.Value.RatString())
				}
			}
		}
	}
	for _, x := range s.Except {
		if equal(x, v) {
			return fail(s, inst, kw("not"), "the value is one that not excludes")
		}
	}
	if s.SomeMember != nil && v.Kind == subsetcheck.Object && !someMemberHolds(s, v, depth) {
		return fail(s, inst, kw("not"), "no member other than those additionalProperties leaves out breaks it, as not requires")
	}
	if s.Ref != nil {
		if f := explain(s.Ref, v, inst, depth+1); f != nil {
			return f
		}
	}
	if s.AnyOf != nil {
		var branches []*Failure
		for _, b := range s.AnyOf {
			f := explain(b, v, inst, depth+1)
			if f == nil {
				branches = nil
				break
			}
			branches = append(branches, f)
		}
		if branches != nil {
			out := fail(s, inst, kw("anyOf", "oneOf", "allOf", "if"), "no branch of %d accepts the value", len(s.AnyOf))
			out.Branches = branches
			return out
		}
	}
	return explainCombinators(s, v, inst, depth)
}

// explainCombinators mirrors acceptsCombinators: allOf, oneOf, not and
// if/then/else, in that order.
func explainCombinators(s *subsetcheck.Schema, v *subsetcheck.Value, inst string, depth int) *Failure {
	for _, b := range s.AllOf {
		if f := explain(b, v, inst, depth+1); f != nil {
			return f
		}
	}
	if s.OneOf != nil {
		var branches []*Failure
		var matched []string
		for _, b := range s.OneOf {
			f := explain(b, v, inst, depth+1)
			if f == nil {
				matched = append(matched, pointerOrRoot(b.Pointer))
			}
			branches = append(branches, f)
		}
		switch len(matched) {
		case 0:
			out := fail(s, inst, kw("oneOf"), "no branch of %d accepts the value", len(s.OneOf))
			out.Branches = branches
			return out
		case 1:
		default:
			return fail(s, inst, kw("oneOf"), "%d branches accept the value (%s), and oneOf allows exactly one", len(matched), strings.Join(matched, ", "))
		}
	}
	if s.Not != nil && explain(s.Not, v, inst, depth+1) == nil {
		return fail(s, inst, kw("not"), "the value matches the schema that not forbids")
	}
	if s.If != nil {
		if explain(s.If, v, inst, depth+1) == nil {
			return explain(s.Then, v, inst, depth+1)
		}
		return explain(s.Else, v, inst, depth+1)
	}
	return nil
}

func boundWord(b *subsetcheck.Bound, word string) string {
	if b.Exclusive {
		return "exclusive " + word
	}
	return word
}

func kindName(v *subsetcheck.Value) string {
	switch v.Kind {
	case subsetcheck.Null:
		return "null"
	case subsetcheck.Bool:
		return "a boolean"
	case subsetcheck.Number:
		return "the number " + v.Num
	case subsetcheck.String:
		return "a string"
	case subsetcheck.Array:
		return "an array"
	}
	return "an object"
}

func typeNames(t subsetcheck.Type) string {
	var names []string
	for _, n := range []struct {
		bits subsetcheck.Type
		name string
	}{
		{subsetcheck.TNull, "null"}, {subsetcheck.TBoolean, "boolean"}, {subsetcheck.TObject, "object"},
		{subsetcheck.TArray, "array"}, {subsetcheck.TNumber | subsetcheck.TInteger, "number"},
		{subsetcheck.TNumber, "non-integer number"}, {subsetcheck.TString, "string"}, {subsetcheck.TInteger, "integer"},
	} {
		if t&n.bits == n.bits {
			names = append(names, n.name)
			t &^= n.bits
		}
	}
	if len(names) == 0 {
		return "(none)"
	}
	return strings.Join(names, " or ")
}

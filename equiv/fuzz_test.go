package equiv

import (
	"encoding/json"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// schemaBuilder turns fuzz bytes into a schema of the subset: every byte
// read picks a keyword, a bound or a name, so that the fuzzer's mutations
// walk the space of schemas the compiler must handle exactly.
type schemaBuilder struct {
	data   []byte
	i      int
	format string // when set, string schemas carry it (FuzzFormats)
	// lenient adds schemas with keywords the exact profile refuses
	// (FuzzLenient).
	lenient bool
}

// withFormat adds the builder's format to a string schema's keywords.
func (b *schemaBuilder) withFormat(schema string) string {
	if b.format == "" {
		return schema
	}
	return `{"format":"` + b.format + `",` + schema[1:]
}

func (b *schemaBuilder) next() int {
	if b.i >= len(b.data) {
		return 0
	}
	c := b.data[b.i]
	b.i++
	return int(c)
}

var fuzzNames = []string{"a", "b", "", "root", "a\"b", "c\\d", "é", "x-y", "/", "~0"}

var fuzzInts = []string{"0", "1", "-1", "5", "-7", "100", "3000000000", "-3000000000", "18446744073709551616", "9223372036854775807", "2.5", "-0.5"}

var fuzzValues = []string{`null`, `true`, `false`, `0`, `1.0`, `-3`, `""`, `"a"`, `"\"\\"`, `"😀"`, `[]`, `[1,"x"]`, `{}`, `{"a":null}`, `1e2`, `"\u007f"`}

func (b *schemaBuilder) pick(xs []string) string { return xs[b.next()%len(xs)] }

func (b *schemaBuilder) schema(depth int) string {
	if depth > 4 {
		return `{"type":"integer"}`
	}
	if b.lenient {
		if s, ok := b.refused(depth); ok {
			return s
		}
	}
	switch b.next() % 22 {
	case 0:
		return b.withFormat(fmt.Sprintf(`{"type":%q}`, b.pick([]string{"null", "boolean", "integer", "number", "string", "array", "object"})))
	case 1:
		return fmt.Sprintf(`{"type":"integer","minimum":%s,"maximum":%s}`, b.pick(fuzzInts), b.pick(fuzzInts))
	case 2:
		return fmt.Sprintf(`{"type":"integer","exclusiveMinimum":%s,"exclusiveMaximum":%s}`, b.pick(fuzzInts), b.pick(fuzzInts))
	case 3:
		return b.withFormat(fmt.Sprintf(`{"type":"string","minLength":%d,"maxLength":%d}`, b.next()%5, b.next()%7))
	case 4:
		n := b.next()%4 + 0
		var vs []string
		for range n {
			vs = append(vs, b.pick(fuzzValues))
		}
		return `{"enum":[` + strings.Join(vs, ",") + `]}`
	case 5:
		return `{"const":` + b.pick(fuzzValues) + `}`
	case 6:
		return fmt.Sprintf(`{"type":"array","items":%s,"minItems":%d,"maxItems":%d}`, b.schema(depth+1), b.next()%3, b.next()%5)
	case 7:
		return fmt.Sprintf(`{"type":"array","prefixItems":[%s,%s],"items":%s}`, b.schema(depth+1), b.schema(depth+1), b.schema(depth+1))
	case 8:
		n := b.next() % 4
		var props, req []string
		for k := range n {
			name := b.pick(fuzzNames)
			props = append(props, strconv.Quote(name)+":"+b.schema(depth+1))
			if b.next()%2 == 0 || k == 0 && b.next()%3 == 0 {
				req = append(req, strconv.Quote(name))
			}
		}
		var ap string
		switch b.next() % 3 {
		case 1:
			ap = `,"additionalProperties":false`
		case 2:
			ap = `,"additionalProperties":` + b.schema(depth+1)
		}
		return `{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":[` + strings.Join(req, ",") + `]` + ap + `}`
	case 9:
		return `{"anyOf":[` + b.schema(depth+1) + `,` + b.schema(depth+1) + `]}`
	case 10:
		return b.pick([]string{"true", "false", "{}"})
	case 11:
		return `{"type":"object","properties":{"n":{"$ref":"#/$defs/r"}},"additionalProperties":false}`
	case 12:
		if b.format != "" {
			return b.withFormat(`{"type":["string","null"]}`)
		}
		return fmt.Sprintf(`{"type":["string","null"],"maxLength":%d}`, b.next()%4)
	case 13:
		return `{"allOf":[` + b.schema(depth+1) + `,` + b.schema(depth+1) + `]}`
	case 14:
		return `{"oneOf":[` + b.schema(depth+1) + `,` + b.schema(depth+1) + `]}`
	case 15:
		return `{"not":` + b.schema(depth+1) + `}`
	case 16:
		parts := `"if":` + b.schema(depth+1)
		if b.next()%3 != 0 {
			parts += `,"then":` + b.schema(depth+1)
		}
		if b.next()%3 != 1 {
			parts += `,"else":` + b.schema(depth+1)
		}
		return `{` + parts + `}`
	case 17: // member counts (issue 21)
		ap := ""
		if b.next()%2 == 0 {
			ap = `,"additionalProperties":` + b.schema(depth+1)
		}
		return fmt.Sprintf(`{"type":"object","properties":{%q:%s,%q:%s},"required":[%q],"minProperties":%d,"maxProperties":%d%s}`,
			b.pick(fuzzNames), b.schema(depth+1), b.pick(fuzzNames), b.schema(depth+1), b.pick(fuzzNames), b.next()%4, b.next()%5, ap)
	case 18: // multipleOf
		return fmt.Sprintf(`{"type":%q,"multipleOf":%s,"minimum":%s,"exclusiveMaximum":%s}`, b.pick([]string{"integer", "number"}),
			b.pick([]string{"1", "3", "0.5", "0.01", "2.5", "0.3", "7", "1e-3"}), b.pick(fuzzInts), b.pick(fuzzInts))
	case 19: // dependencies
		a, c := b.pick(fuzzNames), b.pick(fuzzNames)
		return fmt.Sprintf(`{"properties":{%q:%s,%q:%s},"dependentRequired":{%q:[%q]},"dependentSchemas":{%q:%s}}`,
			a, b.schema(depth+1), c, b.schema(depth+1), c, b.pick(fuzzNames), b.pick(fuzzNames), b.schema(depth+1))
	case 20: // uniqueItems, contains
		if b.next()%2 == 0 {
			return fmt.Sprintf(`{"type":"array","items":%s,"uniqueItems":true,"maxItems":%d}`, b.schema(depth+1), b.next()%4)
		}
		return fmt.Sprintf(`{"type":"array","items":%s,"contains":%s,"minContains":%d,"maxContains":%d}`, b.schema(depth+1), b.schema(depth+1), b.next()%3, b.next()%4)
	default:
		return `{"type":"number"}`
	}
}

// fuzzSchema builds a whole schema document: the root, plus one definition
// "r" that refers back to the root so recursion gets exercised.
func fuzzSchema(data []byte) string { return fuzzSchemaWith(&schemaBuilder{data: data}) }

func fuzzSchemaWith(b *schemaBuilder) string {
	root := b.schema(0)
	if !strings.HasPrefix(root, "{") || root == "{}" {
		return root
	}
	return `{"$defs":{"r":{"anyOf":[{"type":"null"},{"$ref":"#"}]}},` + root[1:]
}

// FuzzEquiv builds a random schema of the subset from the fuzz bytes,
// compiles it, and runs the whole equivalence check on it. A refusal must
// be an ErrorList; a compiled schema must pass. Findings land in
// testdata/fuzz/FuzzEquiv.
func FuzzEquiv(f *testing.F) {
	for _, seed := range []string{"\x00", "\x01\x02", "\x08\x03\x00\x02\x01\x01", "\x09\x06\x01\x03\x01\x04", "\x07\x03\x02\x04\x00\x00", "\x04\x03\x01\x02\x03", "\x08\x02\x04\x0b\x01\x02\x01",
		"\x0d\x01\x03\x02\x01\x03", "\x0d\x03\x01\x04\x03\x02\x03", "\x10\x08\x01\x00\x05\x02\x01\x01\x00\x0c\x03\x00\x01", "\x0e\x00\x00\x00\x04", "\x0e\x05\x05", "\x0f\x04\x02\x05", "\x0f\x0f\x00", "\x10\x00\x00\x01\x01\x03\x04\x01\x00\x04", "\x10\x03\x01\x00\x00\x04",
		// The counting keywords: member counts, multipleOf, dependencies, uniqueItems and contains.
		"\x11\x00\x00\x02\x01\x03\x01\x02\x03", "\x12\x01\x05\x02\x05", "\x12\x00\x01\x07\x06", "\x13\x00\x00\x02\x01\x03\x01\x05\x00", "\x14\x00\x0a\x03", "\x14\x01\x00\x03\x00\x01\x02"} {
		f.Add([]byte(seed))
	}
	if fz := flag.Lookup("test.fuzz"); fz != nil && fz.Value.String() != "" {
		// While fuzzing, every worker would start its own node process:
		// leave llama.cpp to the seed and corpus runs.
		*flagEngine = false
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		schema := fuzzSchema(data)
		checkSchema(t, &tally{}, "fuzz", []byte(schema), subsetcheck.Draft2020, 1)
	})
}

// FuzzFormats is FuzzEquiv with formats asserted: the first byte picks one
// of subsetcheck.AssertedFormats, which every string schema then carries.
func FuzzFormats(f *testing.F) {
	for _, seed := range []string{"\x00\x00\x04", "\x01\x03\x01\x02", "\x02\x08\x02\x00\x00\x04\x01\x00\x0c", "\x05\x09\x00\x04\x0c", "\x06\x06\x00\x04\x01\x03", "\x03\x07\x00\x04\x0c\x00\x04"} {
		f.Add([]byte(seed))
	}
	if fz := flag.Lookup("test.fuzz"); fz != nil && fz.Value.String() != "" {
		*flagEngine = false
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		formats := subsetcheck.AssertedFormats
		schema := fuzzSchemaWith(&schemaBuilder{data: data[1:], format: formats[int(data[0])%len(formats)]})
		checkSchemaWith(t, &tally{}, "fuzz", []byte(schema), assertFormat, 1)
	})
}

// refused is, for one byte in two, a schema with a keyword the exact
// profile refuses, or refused once and enforced now but for some of its
// values (a pattern with a lookaround or a backreference, S211), in a
// position of every polarity.
func (b *schemaBuilder) refused(depth int) (string, bool) {
	if b.next()%2 == 0 {
		return "", false
	}
	sub := func() string { return b.schema(depth + 1) }
	switch b.next() % 14 {
	case 0:
		return fmt.Sprintf(`{"type":"string","pattern":%q,"maxLength":%d}`, b.pick([]string{"^a", "b$", "^[a-c]+$", "x|y", "^$", "^(?!a)", "(.)\\1"}), b.next()%5), true
	case 1:
		return `{"oneOf":[` + sub() + `,` + sub() + `]}`, true
	case 2:
		return `{"not":` + sub() + `}`, true
	case 3:
		return `{"allOf":[` + sub() + `,` + sub() + `]}`, true
	case 4:
		return `{"if":` + sub() + `,"then":` + sub() + `,"else":` + sub() + `}`, true
	case 5:
		return `{"if":` + sub() + `,"then":` + sub() + `}`, true
	case 6:
		ap := b.pick([]string{`false`, `{"type":"integer"}`, `true`})
		name := b.pick([]string{"^x", "^(?=x)"})
		return `{"type":"object","properties":{"a":` + sub() + `},"patternProperties":{"` + name + `":` + sub() + `},"additionalProperties":` + ap + `}`, true
	case 7:
		return fmt.Sprintf(`{"type":"object","properties":{"a":%s,"b":%s},"minProperties":%d,"maxProperties":%d}`, sub(), sub(), b.next()%3, b.next()%4), true
	case 8:
		return `{"type":"array","items":` + sub() + `,"uniqueItems":true,"maxItems":3}`, true
	case 9:
		return fmt.Sprintf(`{"type":%q,"multipleOf":%s,"minimum":-5,"maximum":20}`, b.pick([]string{"integer", "number"}), b.pick([]string{"2", "3", "0.5", "1.5"})), true
	case 10:
		return fmt.Sprintf(`{"type":"array","contains":%s,"minContains":%d,"maxContains":%d,"maxItems":4}`, sub(), b.next()%2, b.next()%3+1), true
	case 11:
		return `{"type":"object","properties":{"a":` + sub() + `,"b":` + sub() + `},"dependentRequired":{"a":["b"]}}`, true
	case 12:
		return `{"type":"object","propertyNames":{"maxLength":1},"additionalProperties":` + sub() + `}`, true
	default:
		return `{"not":{"not":` + sub() + `}}`, true
	}
}

// FuzzLenient builds a random schema with keywords the exact profile
// refuses, in any position, and checks the lenient profile on it: where
// the exact profile compiles, the lenient grammar is the same, byte for
// byte, with nothing relaxed (exact ⊆ lenient); the lenient profile
// compiles whatever the exact one refuses for what it relaxes (the schema's
// own errors, and no valid value, stay refused); and its grammar passes the lenient equivalence check (the
// canonical text of every valid value accepted, every accepted text valid
// or breaking a relaxed constraint). Findings land in
// testdata/fuzz/FuzzLenient.
func FuzzLenient(f *testing.F) {
	for _, seed := range []string{"\x00", "\x01\x00\x01\x00", "\x01\x01\x00\x00", "\x01\x02\x01\x00\x03", "\x01\x04\x00\x01\x00\x09", "\x01\x06\x00\x00\x01\x0a\x00", "\x01\x0a\x00\x05\x02\x01", "\x01\x0d\x01\x01\x00\x02"} {
		f.Add([]byte(seed))
	}
	if fz := flag.Lookup("test.fuzz"); fz != nil && fz.Value.String() != "" {
		*flagEngine = false
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		schema := []byte(fuzzSchemaWith(&schemaBuilder{data: data, lenient: true}))
		exact, _ := build(t, "fuzz", schema, subsetcheck.Draft2020)
		out := checkSchemaWith(t, &tally{}, "fuzz", schema, subsetcheck.Options{Profile: subsetcheck.Lenient, DefaultDraft: subsetcheck.Draft2020}, 1)
		switch {
		case !out.compiled:
			for _, c := range out.codes {
				switch c {
				case subsetcheck.CodeRefusedKeyword, subsetcheck.CodeRemoteRef, subsetcheck.CodeFormatNotExact, subsetcheck.CodePatternNotRegular, subsetcheck.CodeNotExactlyCompilable, subsetcheck.CodeOneOfOverlap:
					t.Errorf("the lenient profile refuses %s for what it relaxes: %v", schema, out.err)
				}
			}
			if exact.compiled {
				t.Errorf("the exact profile compiles %s, the lenient one refuses it: %v", schema, out.err)
			}
		case exact.compiled:
			if len(out.checked.Relaxed) > 0 || out.grammar.String() != exact.grammar.String() {
				t.Errorf("the lenient grammar of %s is not the exact one (relaxed %v)", schema, out.checked.Relaxed)
			}
		}
	})
}

// FuzzPattern pairs a random pattern with a random string, through whole
// schemas: a string schema with the pattern (and length bounds from the
// third argument), bare and as a property, the pattern as a
// patternProperties name and the string schema as propertyNames, the
// string as a member name. A refusal must be an
// ErrorList; a compiled schema gets the whole equivalence check, and the
// string's canonical text must get the oracle's verdict from the grammar.
// Findings land in testdata/fuzz/FuzzPattern.
func FuzzPattern(f *testing.F) {
	for _, s := range []struct{ pattern, text string }{
		{`^[a-z]+$`, "abc"}, {`abc`, "xxabcx"}, {`\d`, "a1"}, {`^.{2,5}$`, "a\nb"}, {`\bfoo\b`, "a foo!"},
		{`^\p{L}+$`, "Żółw"}, {`[^]`, "\u2028"}, {`^\s*$`, "\u00a0\ufeff"}, {`^[\u{1F600}-\u{1F64F}]$`, "😀"},
		{`(a|b)*a(a|b){3}`, "abab"}, {`^(?:\d{3}|[A-Z]{2})-?\w*$`, "AB-x_1"}, {`"`, `"\`}, {`^\uFFFD$`, "\ufffd"},
		{`^[^\x00-\x1f]*$`, "tab\tno"}, {`$^`, ""}, {`a*?b+?`, "b"}, {`(?<n>x)y`, "xy"}, {`^\cJ$`, "\n"},
	} {
		f.Add(s.pattern, s.text, byte(0))
		f.Add(s.pattern, s.text, byte(0x23))
	}
	if fz := flag.Lookup("test.fuzz"); fz != nil && fz.Value.String() != "" {
		*flagEngine = false
	}
	f.Fuzz(func(t *testing.T, pattern, text string, lengths byte) {
		if !utf8.ValidString(pattern) || !utf8.ValidString(text) || len(pattern) > 200 || len(text) > 200 {
			return
		}
		bounds := ""
		if lengths&0x0f != 0 {
			bounds += fmt.Sprintf(`,"minLength":%d`, lengths&0x0f-1)
		}
		if lengths&0xf0 != 0 {
			bounds += fmt.Sprintf(`,"maxLength":%d`, lengths>>4-1)
		}
		str := `{"type":"string","pattern":` + strconv.Quote(pattern) + bounds + `}`
		value, _ := json.Marshal(text)
		q, _ := json.Marshal(pattern)
		for _, c := range []struct{ schema, text string }{
			{str, string(value)},
			{`{"type":"object","properties":{"p":` + str + `},"required":["p"],"additionalProperties":false}`, `{"p":` + string(value) + `}`},
			{`{"type":"object","patternProperties":{` + string(q) + `:{"type":"integer"}},"additionalProperties":{"type":"string"}}`, `{` + string(value) + `:1}`},
			{`{"type":"object","propertyNames":` + str + `}`, `{` + string(value) + `:null}`},
		} {
			out := checkSchema(t, &tally{}, "fuzz", []byte(c.schema), subsetcheck.Draft2020, 1)
			if !out.compiled {
				continue
			}
			o, err := newOracle([]byte(c.schema), out.checked)
			if err != nil {
				continue
			}
			doc, err := subsetcheck.Read("text", []byte(c.text), subsetcheck.Limits{})
			if err != nil {
				continue
			}
			if ok, _ := o.Valid(c.text); ok {
				canon, err := compile.Canonical(out.checked, doc.Root)
				if err != nil || !out.matcher.Match(canon).Accepted {
					t.Errorf("pattern %q, text %q: the oracle accepts it, the grammar rejects its canonical text %q (%v)\nschema: %s", pattern, text, canon, err, c.schema)
				}
				continue
			}
			for _, sp := range []Spelling{{}, {Escaped: true}} {
				if spelled := Text(doc.Root, sp); out.matcher.Match(spelled).Accepted {
					t.Errorf("pattern %q, text %q: the oracle rejects it, the grammar accepts %q\nschema: %s", pattern, text, spelled, c.schema)
				}
			}
		}
	})
}

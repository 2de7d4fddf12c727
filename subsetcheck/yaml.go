package subsetcheck

import (
	"bytes"
	"errors"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// ReadYAML reads a schema written in YAML, strictly: only the part of YAML
// that means the same as JSON (mappings with string keys, sequences, and
// scalars that are strings, JSON numbers, true, false or null). Anchors,
// aliases, tags, merge keys, keys that are not strings, numbers JSON cannot
// spell (0x1F, .inf) and a second document are refused (J107), duplicate
// keys too (J102), so that a YAML schema cannot mean one thing to one reader
// and another to the next. The Document is the one Read makes of the same
// schema in JSON, with offsets into the YAML text, so every message points
// into the file the user wrote. The same limits apply.
func ReadYAML(name string, data []byte, lim Limits) (*Document, error) {
	lim = lim.withDefaults()
	doc := &Document{Name: name, Data: data}
	if len(data) > lim.MaxInputBytes {
		return nil, ErrorList{InputTooLarge(name, int64(len(data)), lim.MaxInputBytes)}
	}
	if bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")) {
		return nil, ErrorList{doc.problem(CodeByteOrderMark, "", 0, "the text starts with a UTF-8 byte order mark; save the file without it")}
	}
	if !utf8.Valid(data) {
		off := 0
		for off < len(data) {
			r, n := utf8.DecodeRune(data[off:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			off += n
		}
		return nil, ErrorList{doc.problem(CodeInvalidUTF8, "", off, "the text is not UTF-8 here; re-encode the file as UTF-8")}
	}
	// The YAML library builds its whole node tree (about 200 bytes a node)
	// before we see any of it, so bound the nodes first: each needs one of
	// these bytes, or a line, of its own.
	if n := yamlNodeBound(data); n > lim.MaxValues {
		return nil, ErrorList{doc.problem(CodeTooManyValues, "", 0,
			"the YAML text may hold up to %d values by its punctuation, more than %d (-max-values, Limits.MaxValues); split it or raise the limit", n, lim.MaxValues)}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, ErrorList{doc.problem(CodeInvalidJSON, "", 0, "the YAML text holds no document")}
		}
		return nil, ErrorList{yamlSyntaxProblem(doc, err)}
	}
	var second yaml.Node
	if err := dec.Decode(&second); !errors.Is(err, io.EOF) {
		off := len(data)
		if err == nil {
			off = yamlOffset(doc, second.Line, second.Column)
		}
		return nil, ErrorList{doc.problem(CodeYAMLNotJSON, "", off, "a second YAML document follows the schema; keep one document per file")}
	}
	y := yamlReader{doc: doc, lim: lim}
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		doc.Root = y.value(root.Content[0], "", 0)
	} else {
		y.add(CodeInvalidJSON, "", 0, "the YAML text holds no value")
	}
	if len(y.problems) > 0 {
		y.problems.Sort()
		return nil, y.problems
	}
	return doc, nil
}

// yamlNodeBound is an upper bound on the nodes of a YAML text: a node
// starts a line, follows a flow or block indicator, or is a key's value.
func yamlNodeBound(data []byte) int {
	n := 1
	for _, c := range data {
		switch c {
		case '\n', ',', '[', '{', '-', '?', ':', '*', '&', '!':
			n += 2
		}
	}
	return n
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlSyntaxProblem turns the YAML library's error into a located problem.
func yamlSyntaxProblem(doc *Document, err error) *Problem {
	msg := err.Error()
	if strings.Contains(msg, "exceeded max depth") {
		return doc.problem(CodeTooDeep, "", 0, "values are nested more than 10000 deep, the YAML reader's own bound, which -max-nesting (Limits.MaxDepth) cannot raise; flatten the document, for example with $ref to $defs")
	}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return doc.problem(CodeInvalidJSON, "", yamlOffset(doc, line, 1), "not valid YAML: %s", m[2])
	}
	return doc.problem(CodeInvalidJSON, "", 0, "not valid YAML: %s", strings.TrimPrefix(msg, "yaml: "))
}

// yamlOffset turns the YAML library's 1-based line and column (counted in
// characters) into a byte offset in doc.Data.
func yamlOffset(doc *Document, line, col int) int {
	d := doc.Data
	off := 0
	for l := 1; l < line; l++ {
		i := bytes.IndexByte(d[off:], '\n')
		if i < 0 {
			return len(d)
		}
		off += i + 1
	}
	for c := 1; c < col && off < len(d) && d[off] != '\n'; c++ {
		_, n := utf8.DecodeRune(d[off:])
		off += n
	}
	return off
}

// yamlReader turns a YAML node tree into Values, refusing what JSON cannot
// say.
type yamlReader struct {
	doc      *Document
	lim      Limits
	problems ErrorList
	values   int
}

func (y *yamlReader) add(code Code, ptr string, off int, format string, args ...any) {
	y.problems = append(y.problems, y.doc.problem(code, ptr, off, format, args...))
}

// yamlCoreNumber is YAML 1.2's core schema for plain ints and floats.
var yamlCoreNumber = regexp.MustCompile(`^([-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)$`)

// jsonNumber is RFC 8259's number grammar.
var jsonNumber = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// value converts n, at JSON Pointer ptr and nesting depth; nil after a
// problem.
func (y *yamlReader) value(n *yaml.Node, ptr string, depth int) *Value {
	off := yamlOffset(y.doc, n.Line, n.Column)
	if y.values++; y.values > y.lim.MaxValues {
		if y.values == y.lim.MaxValues+1 {
			y.add(CodeTooManyValues, ptr, off, "the text holds more than %d values (-max-values, Limits.MaxValues); split it or raise the limit", y.lim.MaxValues)
		}
		return nil
	}
	switch {
	case n.Kind == yaml.AliasNode:
		y.add(CodeYAMLNotJSON, ptr, off, "an alias (*%s) has no JSON equivalent; write the value out, or use $ref to a schema in $defs", n.Value)
		return nil
	case n.Anchor != "":
		y.add(CodeYAMLNotJSON, ptr, off, "an anchor (&%s) has no JSON equivalent; remove it, and use $ref to share a schema", n.Anchor)
		return nil
	case n.Style&yaml.TaggedStyle != 0:
		y.add(CodeYAMLNotJSON, ptr, off, "a tag (%s) has no JSON equivalent; remove it, and quote the value if it is a string", n.Tag)
		return nil
	}
	v := &Value{Offset: off}
	if y.doc.values < math.MaxUint32 {
		y.doc.values++
		v.id = uint32(y.doc.values)
	}
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		if depth >= y.lim.MaxDepth {
			y.add(CodeTooDeep, ptr, off, "values are nested more than %d deep (-max-nesting, Limits.MaxDepth); flatten the document, for example with $ref to $defs, or raise the limit", y.lim.MaxDepth)
			return nil
		}
	}
	switch n.Kind {
	case yaml.MappingNode:
		v.Kind = Object
		if len(n.Content) > 0 {
			v.Members = make([]Member, 0, len(n.Content)/2)
		}
		seen := make(map[string]int, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			koff := yamlOffset(y.doc, k.Line, k.Column)
			name, ok := y.key(k, ptr, koff)
			if !ok {
				continue
			}
			mptr := ptr + "/" + escapePointerToken(name)
			if first, dup := seen[name]; dup {
				fl, fc := y.doc.Position(first)
				y.add(CodeDuplicateKey, mptr, koff, "member name %q appears twice in one mapping, first at %d:%d and again here; readers disagree on which value wins, so keep only one", name, fl, fc)
				continue
			}
			seen[name] = koff
			if mv := y.value(val, mptr, depth+1); mv != nil {
				v.Members = append(v.Members, Member{Name: name, NameOffset: koff, Value: mv})
			}
		}
	case yaml.SequenceNode:
		v.Kind = Array
		if len(n.Content) > 0 {
			v.Items = make([]*Value, 0, len(n.Content))
		}
		for i, item := range n.Content {
			if iv := y.value(item, ptr+"/"+strconv.Itoa(i), depth+1); iv != nil {
				v.Items = append(v.Items, iv)
			}
		}
	case yaml.ScalarNode:
		y.scalar(n, v, ptr)
	default:
		y.add(CodeYAMLNotJSON, ptr, off, "a YAML node of this kind has no JSON equivalent")
		return nil
	}
	return v
}

// key reads a mapping key, which must be a string.
func (y *yamlReader) key(k *yaml.Node, ptr string, off int) (string, bool) {
	switch {
	case k.Kind == yaml.AliasNode || k.Anchor != "" || k.Style&yaml.TaggedStyle != 0:
		y.add(CodeYAMLNotJSON, ptr, off, "an alias, anchor or tag on a key has no JSON equivalent; write the key as a plain string")
	case k.Kind != yaml.ScalarNode:
		y.add(CodeYAMLNotJSON, ptr, off, "a key that is a mapping or a sequence has no JSON equivalent; keys are strings")
	case k.Tag == "!!merge":
		y.add(CodeYAMLNotJSON, ptr, off, "a merge key (<<) has no JSON equivalent; write the members out, or use $ref")
	case k.Tag != "!!str":
		y.add(CodeYAMLNotJSON, ptr, off, "the key %s is a YAML %s, not a string, and JSON keys are strings; quote it: \"%s\"", k.Value, strings.TrimPrefix(k.Tag, "!!"), k.Value)
	default:
		return k.Value, true
	}
	return "", false
}

// scalar fills v from a scalar node by its resolved YAML 1.2 tag.
func (y *yamlReader) scalar(n *yaml.Node, v *Value, ptr string) {
	tag := n.Tag
	if tag == "!!str" && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 && yamlCoreNumber.MatchString(n.Value) {
		// A plain number too large for the library's int and float
		// parsers comes back as a string; YAML 1.2 still means a number.
		tag = "!!float"
	}
	switch tag {
	case "!!null":
		v.Kind = Null
	case "!!bool":
		v.Kind, v.Bool = Bool, strings.EqualFold(n.Value, "true")
	case "!!int", "!!float":
		if !jsonNumber.MatchString(n.Value) {
			y.add(CodeYAMLNotJSON, ptr, v.Offset, "the number %s has no JSON spelling; write it in decimal (1.5, 1e3), or quote it if it is a string", n.Value)
			return
		}
		if digits, exp := numberSize(n.Value); digits > y.lim.MaxNumberDigits || exp > y.lim.MaxNumberDigits {
			y.add(CodeNumberTooLarge, ptr, v.Offset, "the number has %d digits and an exponent of magnitude %d; at most %d of each are read (-max-number-digits, Limits.MaxNumberDigits); write a smaller number or raise the limit", digits, exp, y.lim.MaxNumberDigits)
			return
		}
		v.Kind, v.Num = Number, n.Value
	case "!!str", "!!timestamp", "!!binary":
		// A timestamp is a string in YAML 1.2's core schema, as in JSON;
		// !!binary only comes with a tag, refused above.
		v.Kind, v.Str = String, n.Value
		if !utf8.ValidString(n.Value) {
			y.add(CodeInvalidUTF8, ptr, v.Offset, "the string is not valid UTF-8 (an escape made a byte that is not)")
		}
	default:
		y.add(CodeYAMLNotJSON, ptr, v.Offset, "a YAML %s has no JSON equivalent", n.Tag)
	}
}

// numberSize counts a JSON number's mantissa digits and its exponent's
// magnitude (capped), as the JSON reader does for Limits.MaxNumberDigits.
func numberSize(num string) (digits, exp int) {
	mant, e, _ := strings.Cut(strings.ToLower(num), "e")
	for _, c := range mant {
		if '0' <= c && c <= '9' {
			digits++
		}
	}
	e = strings.TrimLeft(strings.TrimLeft(e, "+-"), "0")
	if len(e) > 9 {
		return digits, math.MaxInt32
	}
	exp, _ = strconv.Atoi(e)
	return digits, exp
}

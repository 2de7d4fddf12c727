package subsetcheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"

	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// encodeValue writes v back as compact JSON, members in document order
// (strings must need no escape).
func encodeValue(b *strings.Builder, v *Value) {
	switch v.Kind {
	case Null:
		b.WriteString("null")
	case Bool:
		b.WriteString(strconv.FormatBool(v.Bool))
	case Number:
		b.WriteString(v.Num)
	case String:
		b.WriteString(`"` + v.Str + `"`)
	case Array:
		b.WriteByte('[')
		for i, item := range v.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			encodeValue(b, item)
		}
		b.WriteByte(']')
	case Object:
		b.WriteByte('{')
		for i, m := range v.Members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"` + m.Name + `":`)
			encodeValue(b, m.Value)
		}
		b.WriteByte('}')
	}
}

// checkOffsets asserts that every value's offset is where its text starts.
func checkOffsets(t *testing.T, data []byte, v *Value) {
	first := map[Kind]string{Null: "n", Bool: "tf", Number: "-0123456789", String: `"`, Array: "[", Object: "{"}[v.Kind]
	require.Contains(t, first, string(data[v.Offset]), "value at %d", v.Offset)
	for _, item := range v.Items {
		checkOffsets(t, data, item)
	}
	for _, m := range v.Members {
		require.Equal(t, byte('"'), data[m.NameOffset])
		checkOffsets(t, data, m.Value)
	}
}

// repeat joins n texts made by f with commas.
func repeat(n int, f func(i int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = f(i)
	}
	return strings.Join(parts, ",")
}

// The reader takes values, items and members from blocks sized by upper
// bounds counted in the text: trees that cross block ends, and texts whose
// strings hold many ',' ':' '[' (bounds far too high), read as written.
func TestReadBlocksKeepTheTree(t *testing.T) {
	cases := []struct{ name, text string }{
		{"empty containers", `{"a":[],"b":{},"c":[[],{}],"d":[{}]}`},
		{"long array", `[` + repeat(1500, strconv.Itoa) + `]`},
		{"many members", `{` + repeat(700, func(i int) string { return fmt.Sprintf(`"m%d":%d`, i, i) }) + `}`},
		{"arrays of objects", `[` + repeat(300, func(i int) string { return fmt.Sprintf(`{"a":[%d,true,null],"b":{"c":"x"}}`, i) }) + `]`},
		{"deep nesting", strings.Repeat(`{"a":[`, 200) + `1` + strings.Repeat(`]}`, 200)},
		{"bounds too high", `{"s":"` + strings.Repeat(",:[{", 3000) + `","t":[1,2,{"u":3}]}`},
		{"bounds exact", `[1,2,3]`},
		{"scalar root", `"x"`},
		{"big containers after small ones", `[[1],{"a":2},[` + repeat(600, strconv.Itoa) + `],{` + repeat(400, func(i int) string { return fmt.Sprintf(`"k%d":[%d]`, i, i) }) + `}]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, err := Read("t", []byte(c.text), Limits{})
			require.NoError(t, err)
			var compact bytes.Buffer
			require.NoError(t, json.Compact(&compact, []byte(c.text)))
			var b strings.Builder
			encodeValue(&b, doc.Root)
			require.Equal(t, compact.String(), b.String())
			checkOffsets(t, doc.Data, doc.Root)
		})
	}
}

// Items and Members are cut from shared blocks with their capacity capped:
// appending to one container's slice never writes into another's.
func TestReadSlicesDoNotShareRoom(t *testing.T) {
	doc, err := Read("t", []byte(`[[1,2],[3,4],{"a":1},{"b":2}]`), Limits{})
	require.NoError(t, err)
	items := doc.Root.Items
	_ = append(items[0].Items, &Value{Kind: Null})
	_ = append(items[2].Members, Member{Name: "z"})
	require.Equal(t, "3", items[1].Items[0].Num)
	require.Equal(t, "b", items[3].Members[0].Name)
}

// Duplicate names are found among the members of the object being read,
// wherever its members sit on the reader's shared stack.
func TestReadDuplicatesInNestedObjects(t *testing.T) {
	cases := []struct{ text, want string }{
		{`{"a":{"x":1,"y":{"x":2},"x":3}}`, "t:1:25: /a/x: member name \"x\" appears twice in one object, first at 1:7"},
		{`{"a":{"x":1},"b":{"x":2},"a":3}`, "t:1:26: /a: member name \"a\" appears twice"},
		{`[{"p":1},{"p":2,"q":{"p":3,"p":4}}]`, "t:1:28: /1/q/p: member name \"p\" appears twice"},
		{`{` + repeat(40, func(i int) string { return fmt.Sprintf(`"m%d":{"m%d":1}`, i, i) }) + `,"m7":0}`, `/m7: member name "m7" appears twice`},
	}
	for _, c := range cases {
		_, err := Read("t", []byte(c.text), Limits{})
		require.ErrorContains(t, err, c.want, c.text)
	}
}

// Line starts are found on the first Position, once, whoever asks first;
// every offset gets the line and column a count of newlines gives.
func TestPositionFromManyGoroutines(t *testing.T) {
	data := []byte("{\n  \"a\": 1,\n\n  \"b\": [\r\n true]\n}\n")
	doc, err := Read("t", data, Limits{})
	require.NoError(t, err)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for off := 0; off <= len(data)+1; off++ {
				at := min(off, len(data))
				wantLine := 1 + bytes.Count(data[:at], []byte{'\n'})
				wantCol := at - bytes.LastIndexByte(data[:at], '\n')
				if line, col := doc.Position(off); line != wantLine || col != wantCol {
					t.Errorf("Position(%d) = %d:%d, want %d:%d", off, line, col, wantLine, wantCol)
				}
			}
		})
	}
	wg.Wait()
}

// count reads plain digits without big.Rat; every form gives what the
// exact reading gives.
func TestCountFastPathAgreesWithRat(t *testing.T) {
	for _, num := range []string{"0", "7", "12", "100", "999999999999999999", "1000000000000000000", "9223372036854775807", "9223372036854775808", "123456789012345678901234567890", "1.0", "1.5", "1e2", "1E2", "-0", "-1", "0.0", "2e-1", "25e-1"} {
		v := &Value{Kind: Number, Num: num}
		n, ok := count(v)
		r, _ := new(big.Rat).SetString(num)
		wantOK := r.IsInt() && r.Sign() >= 0
		require.Equal(t, wantOK, ok, num)
		if ok {
			want := r.Num()
			if !want.IsInt64() {
				want = big.NewInt(int64(^uint(0) >> 1))
			}
			require.Equal(t, want.Int64(), int64(n), num)
		}
	}
}

// A bare fragment is judged without url.Parse: the judgement must be
// url.Parse's.
func TestURIReferenceFragmentsAgreeWithParse(t *testing.T) {
	for _, s := range []string{"#", "#/$defs/a", "#/definitions/a b", "#a", "#/x%41", "#/x%", "#/x%zz", "#/\x01", "#/é", "##", "#/a?b", "#/$defs/\x7f"} {
		_, err := url.Parse(s)
		require.Equal(t, err == nil, uriReference(s), "%q", s)
	}
}

// findKeyword finds every row by its name, and nothing else, whatever its
// hash bucket holds.
func TestFindKeyword(t *testing.T) {
	most := 0
	for i := range Keywords {
		require.Same(t, &Keywords[i], findKeyword(Keywords[i].Name))
		most = max(most, len(keywordTable[keywordHash(Keywords[i].Name)]))
	}
	require.LessOrEqual(t, most, 3, "buckets should stay short")
	for _, name := range []string{"", "x", "$", "Type", "types", "propertie", "properties ", "$ref2", "additionalproperties", "é", "\x00"} {
		require.Nil(t, findKeyword(name), "%q", name)
	}
}

// The checker's memo finds values Read numbered by id and others through a
// map: a document built by hand, or values made by hand inside a read one,
// check as the same text read.
func TestCheckDocumentBuiltByHand(t *testing.T) {
	text := `{"$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"},"v":{"enum":[1,2]}}}},"anyOf":[{"$ref":"#/$defs/n"},{"type":"string","format":"date"}],"x-note":1}`
	read, err := Read("t", []byte(text), Limits{})
	require.NoError(t, err)
	want, err := Check(read, Options{})
	require.NoError(t, err)
	hand := &Document{Name: read.Name, Data: read.Data, Root: read.Root}
	got, err := Check(hand, Options{})
	require.NoError(t, err)
	require.Equal(t, want.Warnings.Error(), got.Warnings.Error())
	require.Equal(t, len(want.Root.AnyOf), len(got.Root.AnyOf))
	require.Equal(t, want.Root.AnyOf[0].Ref.Pointer, got.Root.AnyOf[0].Ref.Pointer)
	require.Same(t, got.Root.AnyOf[0].Ref, got.Root.AnyOf[0].Ref.Properties[0].Schema.Ref, "one Schema per subschema")

	// A subschema made by hand (id 0) inside a read document.
	defs := read.Root.Get("$defs")
	defs.Members = append(defs.Members, Member{Name: "m", Value: &Value{Kind: Object, Members: []Member{{Name: "type", Value: &Value{Kind: String, Str: "integer"}}}}})
	read.Root.Members[1].Value.Items = append(read.Root.Members[1].Value.Items, &Value{Kind: Object, Members: []Member{{Name: "$ref", Value: &Value{Kind: String, Str: "#/$defs/m"}}}})
	mixed, err := Check(read, Options{})
	require.NoError(t, err)
	require.Len(t, mixed.Root.AnyOf, 3)
	require.Equal(t, "/$defs/m", mixed.Root.AnyOf[2].Ref.Pointer)
	require.Equal(t, TInteger, mixed.Root.AnyOf[2].Ref.Types)
}

// Duplicate names in required and type are found however long the list:
// required searches its names while few and uses a map past that.
func TestRequiredAndTypeDuplicates(t *testing.T) {
	names := func(n int) string { return repeat(n, func(i int) string { return fmt.Sprintf(`"p%d"`, i) }) }
	cases := []struct{ schema, want string }{
		{`{"required":["a","b","a"]}`, `/required/2: required: "a" is listed twice`},
		{`{"required":[` + names(16) + `,"p3"]}`, `/required/16: required: "p3" is listed twice`},
		{`{"required":[` + names(17) + `,"p16"]}`, `/required/17: required: "p16" is listed twice`},
		{`{"required":[` + names(40) + `,"p0","p39"]}`, `/required/41: required: "p39" is listed twice`},
		{`{"type":["number","integer","number"]}`, `/type/2: type: "number" is listed twice`},
		{`{"type":["string","null","string"]}`, `/type/2: type: "string" is listed twice`},
	}
	for _, c := range cases {
		doc, err := Read("t", []byte(c.schema), Limits{})
		require.NoError(t, err)
		_, err = Check(doc, Options{})
		require.ErrorContains(t, err, c.want, c.schema)
	}
	for _, ok := range []string{`{"required":[` + names(40) + `]}`, `{"type":["number","integer"]}`} {
		doc, err := Read("t", []byte(ok), Limits{})
		require.NoError(t, err)
		_, err = Check(doc, Options{})
		require.NoError(t, err, ok)
	}
}

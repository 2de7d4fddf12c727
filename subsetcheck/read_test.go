package subsetcheck

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// codesOf returns the codes of an ErrorList error, joined by spaces.
func codesOf(err error) string {
	var list ErrorList
	if !errors.As(err, &list) {
		if err == nil {
			return ""
		}
		return "not an ErrorList: " + err.Error()
	}
	var codes []string
	for _, p := range list {
		codes = append(codes, string(p.Code))
	}
	return strings.Join(codes, " ")
}

func TestReadAcceptsAndRefuses(t *testing.T) {
	tests := []struct {
		in   string
		want string // codes, "" for accepted
	}{
		{`{}`, ""},
		{` [1, -0, 0.5, 1e5, 1E+5, 1e-5, -12.5e3] `, ""},
		{`"a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00"`, ""},
		{`{"a":{"b":[true,false,null]}}`, ""},
		{"\"\x7f\"", ""}, // DEL is allowed raw
		{`{"a":1,"b":2}`, ""},
		{`{"a":tru}`, "J101"},
		{`{"a":01}`, "J101"},
		{`{"a":NaN}`, "J101"},
		{`{"a":1,}`, "J101"},
		{`[1,]`, "J101"},
		{`[1 2]`, "J101"},
		{`{'a':1}`, "J101"},
		{`{a:1}`, "J101"},
		{`1.`, "J101"},
		{`.5`, "J101"},
		{`-`, "J101"},
		{`+1`, "J101"},
		{`1e`, "J101"},
		{`"\x"`, "J101"},
		{`"\u12G4"`, "J101"},
		{"\"a\tb\"", "J101"},
		{"\"a\nb\"", "J101"},
		{`"abc`, "J101"},
		{``, "J101"},
		{`   `, "J101"},
		{`[`, "J101"},
		{`{"a"}`, "J101"},
		{`{"a":1 "b":2}`, "J101"},
		{`True`, "J101"},
		{`{"a":1,"a":2}`, "J102"},
		{`{"a":1,"b":{"c":1,"c":1},"a":3}`, "J102 J102"},
		{`{"\u0061":1,"a":2}`, "J102"},
		{"\"\xff\"", "J103"},
		{"\"\xed\xa0\x80\"", "J103"}, // UTF-8 encoded surrogate
		{"\"\xc0\xaf\"", "J103"},     // overlong
		{"{\"\xff\":1}", "J103"},
		{`"\ud800"`, "J104"},
		{`"\udc00"`, "J104"},
		{`"\ud800\u0041"`, "J104"},
		{`"\ude00\ud83d"`, "J104 J104"},
		{`{"\ud800":1}`, "J104"},
		{"\xef\xbb\xbf{}", "J105"},
		{`{} {}`, "J106"},
		{`{}x`, "J106"},
		{`1 2`, "J106"},
		{`1e10001`, "L503"},
		{`1e999999999999999999`, "L503"},
		{`1e-10001`, "L503"},
		{`1e0000000000000000001`, ""},
		{strings.Repeat("[", 513) + strings.Repeat("]", 513), "L502"},
		{strings.Repeat("[", 512) + strings.Repeat("]", 512), ""},
		{strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100000), "L502"},
		{strings.Repeat("1", 10001), "L503"},
		{strings.Repeat(`[`, 500) + `"` + strings.Repeat("a", 1<<20) + `"` + strings.Repeat(`]`, 500), "L502"},
	}
	for _, tt := range tests {
		_, err := Read("t.json", []byte(tt.in), Limits{})
		if got := codesOf(err); got != tt.want {
			name := tt.in
			if len(name) > 60 {
				name = name[:60] + "..."
			}
			t.Errorf("Read(%q) = %q, want %q (%v)", name, got, tt.want, err)
		}
	}
}

func TestReadLimits(t *testing.T) {
	tests := []struct {
		in   string
		lim  Limits
		want string
	}{
		{`[1,2,3]`, Limits{MaxInputBytes: 3}, "L501"},
		{`[[1]]`, Limits{MaxDepth: 1}, "L502"},
		{`[[1]]`, Limits{MaxDepth: 2}, ""},
		{`[[1,2,3,4]]`, Limits{MaxNestedBytes: 19}, "L502"},
		{`[[1,2,3,4]]`, Limits{MaxNestedBytes: 20}, ""},
		{`12345`, Limits{MaxNumberDigits: 4}, "L503"},
		{`1e5`, Limits{MaxNumberDigits: 4}, "L503"},
		{`1e4`, Limits{MaxNumberDigits: 4}, ""},
	}
	for _, tt := range tests {
		_, err := Read("t", []byte(tt.in), tt.lim)
		if got := codesOf(err); got != tt.want {
			t.Errorf("Read(%s, %+v) = %q, want %q", tt.in, tt.lim, got, tt.want)
		}
	}
}

func TestReadDecodesExactly(t *testing.T) {
	tests := []struct{ in, want string }{
		{`"plain"`, "plain"},
		{`"\ud83d\ude00"`, "😀"},
		{`"\u00e9\u0000"`, "é\x00"},
		{`"\"\\\/\b\f\n\r\t"`, "\"\\/\b\f\n\r\t"},
		{`"é😀"`, "é😀"},
		{`"\uD83D\uDE00x"`, "😀x"},
	}
	for _, tt := range tests {
		doc, err := Read("t", []byte(tt.in), Limits{})
		if err != nil || doc.Root.Str != tt.want {
			t.Errorf("Read(%s) = %+v, %v; want %q", tt.in, doc, err, tt.want)
		}
	}
}

func TestReadKeepsOrderOffsetsAndNumbers(t *testing.T) {
	in := "{\n  \"z\": 1.50,\n  \"a\": [1e2, {\"k\\u0021\": null}],\n  \"m\": \"s\"\n}"
	doc, err := Read("t", []byte(in), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range doc.Root.Members {
		names = append(names, m.Name)
	}
	if strings.Join(names, ",") != "z,a,m" {
		t.Errorf("order %v", names)
	}
	z := doc.Root.Get("z")
	if z.Num != "1.50" || in[z.Offset:z.Offset+4] != "1.50" {
		t.Errorf("z = %+v", z)
	}
	a := doc.Root.Get("a")
	inner := a.Items[1]
	if inner.Members[0].Name != "k!" || in[inner.Members[0].NameOffset] != '"' || in[inner.Members[0].Value.Offset:][:4] != "null" {
		t.Errorf("inner = %+v", inner.Members[0])
	}
	if line, col := doc.Position(a.Offset); line != 3 || col != 8 {
		t.Errorf("Position = %d:%d", line, col)
	}
	if line, col := doc.Position(0); line != 1 || col != 1 {
		t.Errorf("Position(0) = %d:%d", line, col)
	}
}

func TestReadErrorsArePositioned(t *testing.T) {
	_, err := Read("s.json", []byte("{\n \"a\": 1,\n \"b\": {\"c\": [1, tru]}}"), Limits{})
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 1 {
		t.Fatalf("err = %v", err)
	}
	p := list[0]
	if p.Line != 3 || p.Col != 17 || p.Pointer != "/b/c/1" || p.File != "s.json" {
		t.Errorf("problem = %+v", p)
	}
	_, err = Read("d.json", []byte("{\"a\":1,\n\"a\":2}"), Limits{})
	if !strings.Contains(err.Error(), `d.json:2:1: /a: member name "a" appears twice in one object, first at 1:2`) {
		t.Errorf("dup message: %v", err)
	}
}

func TestEqual(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{`1`, `1.0`, true},
		{`1`, `1e0`, true},
		{`100`, `1e2`, true},
		{`0.1`, `1e-1`, true},
		{`-0`, `0`, true},
		{`1`, `1.0000000000000000000001`, false},
		{`12345678901234567890123`, `12345678901234567890123.0`, true},
		{`12345678901234567890123`, `12345678901234567890124`, false},
		{`"a"`, `"\u0061"`, true},
		{`"a"`, `"A"`, false},
		{`{"a":1,"b":[1,2]}`, `{"b":[1.0,2],"a":1}`, true},
		{`{"a":1}`, `{"a":1,"b":1}`, false},
		{`{"a":1,"c":1}`, `{"a":1,"b":1}`, false},
		{`[1,2]`, `[2,1]`, false},
		{`[]`, `{}`, false},
		{`null`, `false`, false},
		{`true`, `true`, true},
		{`1`, `"1"`, false},
	}
	for _, tt := range tests {
		a, err1 := Read("a", []byte(tt.a), Limits{})
		b, err2 := Read("b", []byte(tt.b), Limits{})
		if err1 != nil || err2 != nil {
			t.Fatalf("read: %v %v", err1, err2)
		}
		if got := Equal(a.Root, b.Root); got != tt.want {
			t.Errorf("Equal(%s, %s) = %v", tt.a, tt.b, got)
		}
		if got := Equal(b.Root, a.Root); got != tt.want {
			t.Errorf("Equal(%s, %s) = %v", tt.b, tt.a, got)
		}
	}
}

func TestMaxValues(t *testing.T) {
	for text, want := range map[string]bool{`[1,2]`: true, `[1,[2]]`: false, `[[[]]]`: true, `[[[[]]]]`: false, `{"a":{"b":1}}`: true, `{"a":{"b":[1]}}`: false, `{"a":[]}`: true} {
		_, err := Read("t", []byte(text), Limits{MaxValues: 3})
		if ok := err == nil; ok != want {
			t.Errorf("%s: ok=%v, want %v (%v)", text, ok, want, err)
		} else if !ok && !strings.Contains(err.Error(), "[L505]") {
			t.Errorf("%s: %v, want L505", text, err)
		}
	}
}

// TestCanonicalKeyAgreesWithEqual: same key exactly when Equal says equal.
func TestCanonicalKeyAgreesWithEqual(t *testing.T) {
	texts := []string{`1`, `1.0`, `10e-1`, `0.1e1`, `100E-2`, `1e0`, `-1`, `-1.0`, `0`, `-0`, `0.0e5`, `2`, `12e2`, `1200`,
		`0.5`, `5e-1`, `1e400`, `10e399`, `1e-400`, `"1"`, `[1,2]`, `[2,1]`, `[1.0,2]`, `{"a":1,"b":2}`, `{"b":2.0,"a":1}`, `null`, `true`}
	values := make([]*Value, len(texts))
	for i, text := range texts {
		doc, err := Read("t", []byte(text), Limits{})
		if err != nil {
			t.Fatal(err)
		}
		values[i] = doc.Root
	}
	for i, a := range values {
		for j, b := range values {
			if eq, same := Equal(a, b), CanonicalKey(a) == CanonicalKey(b); eq != same {
				t.Errorf("%s vs %s: Equal %v, same key %v (%q, %q)", texts[i], texts[j], eq, same, CanonicalKey(a), CanonicalKey(b))
			}
		}
	}
}

// TestPlainWord holds the eight-byte test of str to the byte table: every
// byte value at every position among plain bytes, and random words.
func TestPlainWord(t *testing.T) {
	want := func(b []byte) bool {
		for _, c := range b {
			if !plainStringByte[c] {
				return false
			}
		}
		return true
	}
	check := func(b []byte) {
		if got := plainWord(binary.LittleEndian.Uint64(b)); got != want(b) {
			t.Fatalf("plainWord(% x) = %v, want %v", b, got, !got)
		}
	}
	for pos := range 8 {
		for c := range 256 {
			for _, fill := range []byte{'a', ' ', 0x7f, '!', ']', '#'} {
				b := bytes.Repeat([]byte{fill}, 8)
				b[pos] = byte(c)
				check(b)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 1_000_000 {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], r.Uint64())
		// Mostly plain bytes, so that the words that matter are common.
		for i := range b {
			if r.IntN(4) != 0 {
				b[i] = byte(0x20 + r.IntN(0x60))
			}
		}
		check(b[:])
	}
}

// TestReadStringRuns reads strings of every length up to 40, with an escape,
// a non-ASCII rune or nothing special at every place, last in the text and
// not, indented or not, and compares them with encoding/json: the reader
// passes plain bytes and spaces eight at a time, and the edges of those
// runs are where it could go wrong.
func TestReadStringRuns(t *testing.T) {
	for n := range 41 {
		for at := -1; at < n; at++ {
			for _, special := range []string{`\n`, `\"`, "é", `\u00e9`} {
				body := strings.Repeat("a", n)
				if at >= 0 {
					body = body[:at] + special + body[at:]
				}
				for _, text := range []string{
					`"` + body + `"`,
					"[\n" + strings.Repeat(" ", n%17) + `"` + body + `"` + strings.Repeat(" ", at+1) + "]",
					`{"` + body + `":` + strings.Repeat(" ", n) + `"` + body + `"}`,
				} {
					doc, err := Read("t", []byte(text), Limits{})
					if err != nil {
						t.Fatalf("%q: %v", text, err)
					}
					var want any
					if err := json.Unmarshal([]byte(text), &want); err != nil {
						t.Fatal(err)
					}
					var got string
					switch w := want.(type) {
					case string:
						got, want = doc.Root.Str, w
					case []any:
						got, want = doc.Root.Items[0].Str, w[0]
					case map[string]any:
						got, want = doc.Root.Members[0].Name+"="+doc.Root.Members[0].Value.Str, doc.Root.Members[0].Name+"="+w[doc.Root.Members[0].Name].(string)
						if len(w) != 1 {
							t.Fatalf("%q: %d members", text, len(w))
						}
					}
					if got != want {
						t.Fatalf("%q: read %q, encoding/json %q", text, got, want)
					}
				}
			}
		}
	}
}

package subsetcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"unicode/utf8"
)

// FuzzRead checks that Read never panics, that it agrees with encoding/json
// on syntax, and that what it accepts decodes to the same value.
//
//	go test ./subsetcheck/ -run '^$' -fuzz FuzzRead -fuzztime 3m
func FuzzRead(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `null`, `true`, `1`, `-0.5e+3`, `"a\u00e9\ud83d\ude00\"\\\/\b\f\n\r\t"`,
		`{"a":[1,{"b":null}],"c":"d"}`, `{"a":1,"a":2}`, `"\ud800"`, "\"\xff\"", "\xef\xbb\xbf{}",
		`{} x`, `[1,]`, `01`, `1e99999`, `[[[[[[[[[[]]]]]]]]]]`, `{"\u0061":1,"a":2}`, "\"\x7f\"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Read("fuzz", data, Limits{MaxDepth: 64})
		valid := json.Valid(data)
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error is not a non-empty ErrorList: %v", err)
			}
			syntax, limit := false, false
			for _, p := range list {
				switch p.Code {
				case CodeInvalidJSON, CodeByteOrderMark, CodeTrailingData:
					syntax = true
				case CodeInputTooLarge, CodeTooDeep, CodeNumberTooLarge:
					limit = true
				}
				if p.Line < 1 || p.Col < 1 {
					t.Fatalf("problem without a position: %v", p)
				}
			}
			if syntax && valid {
				t.Fatalf("Read refused %q as invalid JSON, encoding/json accepts it: %v", data, err)
			}
			if !syntax && !limit && !valid {
				t.Fatalf("encoding/json refuses %q, Read reported only %v", data, err)
			}
			return
		}
		if !valid {
			t.Fatalf("Read accepted %q, encoding/json refuses it", data)
		}
		if !utf8.Valid(data) {
			t.Fatalf("Read accepted invalid UTF-8 %q", data)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("encoding/json: %v", err)
		}
		if got := toAny(doc.Root, data, t); !reflect.DeepEqual(got, want) {
			t.Fatalf("Read(%q) = %#v, encoding/json gives %#v", data, got, want)
		}
		if !Equal(doc.Root, doc.Root) {
			t.Fatalf("value not Equal to itself: %q", data)
		}
	})
}

// toAny converts a Value to what encoding/json (with UseNumber) decodes,
// checking on the way that each value's offset points at its first byte.
func toAny(v *Value, data []byte, t *testing.T) any {
	first := map[Kind]string{Null: "n", Bool: "tf", Number: "-0123456789", String: `"`, Array: "[", Object: "{"}[v.Kind]
	if v.Offset < 0 || v.Offset >= len(data) || !bytes.ContainsRune([]byte(first), rune(data[v.Offset])) {
		t.Fatalf("offset %d of a %v does not point at its first byte in %q", v.Offset, v.Kind, data)
	}
	switch v.Kind {
	case Null:
		return nil
	case Bool:
		return v.Bool
	case Number:
		return json.Number(v.Num)
	case String:
		return v.Str
	case Array:
		out := []any{}
		for _, item := range v.Items {
			out = append(out, toAny(item, data, t))
		}
		return out
	default:
		out := map[string]any{}
		for _, m := range v.Members {
			if _, dup := out[m.Name]; dup {
				t.Fatalf("duplicate member %q accepted", m.Name)
			}
			if data[m.NameOffset] != '"' {
				t.Fatalf("name offset %d does not point at a quote", m.NameOffset)
			}
			out[m.Name] = toAny(m.Value, data, t)
		}
		return out
	}
}

package subsetcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sameTree reports where two value trees differ, offsets included: "" when
// they are the same.
func sameTree(a, b *Value, ptr string) string {
	switch {
	case a == nil || b == nil:
		if a != b {
			return ptr + ": one is missing"
		}
		return ""
	case a.Kind != b.Kind || a.Bool != b.Bool || a.Str != b.Str || a.Num != b.Num:
		return ptr + ": values differ"
	case a.Offset != b.Offset:
		return ptr + ": offsets differ"
	case len(a.Items) != len(b.Items) || len(a.Members) != len(b.Members):
		return ptr + ": sizes differ"
	}
	for i := range a.Items {
		if d := sameTree(a.Items[i], b.Items[i], ptr+"/"+string(rune('0'+i%10))); d != "" {
			return d
		}
	}
	for i := range a.Members {
		ma, mb := a.Members[i], b.Members[i]
		if ma.Name != mb.Name || ma.NameOffset != mb.NameOffset {
			return ptr + ": member " + ma.Name + " differs"
		}
		if d := sameTree(ma.Value, mb.Value, ptr+"/"+ma.Name); d != "" {
			return d
		}
	}
	return ""
}

// TestReadYAMLOfJSON: a JSON text is (nearly always) YAML too, and
// ReadYAML must make of it the Document Read makes: the same values, at the
// same offsets. Every vendored schema is tried.
func TestReadYAMLOfJSON(t *testing.T) {
	files, _ := filepath.Glob("../testdata/equiv/*.json")
	more, _ := filepath.Glob("../testdata/corpus/*/*.json")
	files = append(files, more...)
	if len(files) < 100 {
		t.Fatalf("only %d schemas", len(files))
	}
	compared := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		j, err := Read(f, data, Limits{})
		if err != nil {
			continue
		}
		y, err := ReadYAML(f, data, Limits{})
		if err != nil {
			// YAML refuses a few JSON texts (a tab where YAML wants
			// spaces); it must say so with a code, never accept them
			// otherwise.
			if !strings.Contains(err.Error(), "[J1") {
				t.Errorf("%s: %v", f, err)
			}
			continue
		}
		compared++
		if d := sameTree(j.Root, y.Root, ""); d != "" {
			t.Errorf("%s: ReadYAML differs from Read at %s", f, d)
		}
		if j.values != y.values {
			t.Errorf("%s: %d values read as JSON, %d as YAML", f, j.values, y.values)
		}
	}
	if compared < len(files)*9/10 {
		t.Errorf("only %d of %d schemas compared", compared, len(files))
	}
	t.Logf("%d of %d schemas read the same as JSON and as YAML", compared, len(files))
}

// TestReadYAMLRefusesWhatJSONCannotSay: each construct with no JSON
// equivalent has its code and position.
func TestReadYAMLRefusesWhatJSONCannotSay(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"a: 1\na: 2\n", "2:1: /a: member name \"a\" appears twice"},
		{"a: &x 1\n", "1:4: /a: an anchor (&x)"},
		{"a: 1\nb: *x\n", "not valid YAML"},
		{"<<: {a: 1}\n", "merge key"},
		{"? [a]\n: 1\n", "a key that is a mapping or a sequence"},
		{"true: 1\n", "the key true is a YAML bool"},
		{"a: 1_000\n", "the number 1_000 has no JSON spelling"},
		{"a: 0o17\n", "the number 0o17"},
		{"a: -.inf\n", "the number -.inf"},
		{"a: !!binary aGk=\n", "a tag (!!binary)"},
		{"\xEF\xBB\xBFa: 1\n", "[J105]"},
		{"a: \"\xff\"\n", "[J103]"},
		{"", "holds no document"},
	} {
		_, err := ReadYAML("s.yaml", []byte(tc.yaml), Limits{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.yaml, err, tc.want)
		}
	}
	// What YAML and JSON mean alike reads as JSON would.
	doc, err := ReadYAML("s.yaml", []byte("a: ~\nb: True\nc: 2024-01-01\nd: '1'\ne: 1e3\nf: |\n  two\n  lines\ng: 1234567890123456789012345678901234567890\n"), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Read("s.json", []byte(`{"a":null,"b":true,"c":"2024-01-01","d":"1","e":1e3,"f":"two\nlines\n","g":1234567890123456789012345678901234567890}`), Limits{})
	for i, m := range doc.Root.Members {
		w := want.Root.Members[i]
		if m.Name != w.Name || m.Value.Kind != w.Value.Kind || m.Value.Str != w.Value.Str || m.Value.Num != w.Value.Num || m.Value.Bool != w.Value.Bool {
			t.Errorf("%s: got %+v, want %+v", m.Name, *m.Value, *w.Value)
		}
	}
}

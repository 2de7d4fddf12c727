package strlang

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/internal/regexp2ecma"
)

// TestSuitePatterns runs the patterns of the official test suite's files
// on patterns (testdata/jsts) through strlang, string by string: a string
// instance of a schema that constrains strings by pattern alone is valid
// exactly when the pattern matches; for property names the schema's shape
// decides, or, when the value schemas decide too, regexp2 judges each
// name.
func TestSuitePatterns(t *testing.T) {
	files, cases, judged := 0, 0, 0
	for _, draft := range []string{"draft7", "draft2020-12"} {
		for _, name := range []string{"pattern.json", "patternProperties.json", "propertyNames.json",
			"optional/ecmascript-regex.json", "optional/non-bmp-regex.json"} {
			path := filepath.Join("..", "testdata", "jsts", draft, name)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			files++
			var groups []struct {
				Description string
				Schema      map[string]json.RawMessage
				Tests       []struct {
					Description string
					Data        any
					Valid       bool
				}
			}
			if err := json.Unmarshal(data, &groups); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for _, g := range groups {
				where := draft + "/" + name + ": " + g.Description
				var pattern string
				var props map[string]json.RawMessage
				var names struct{ Pattern *string }
				json.Unmarshal(g.Schema["pattern"], &pattern)
				json.Unmarshal(g.Schema["patternProperties"], &props)
				json.Unmarshal(g.Schema["propertyNames"], &names)
				onlyPattern := pattern != "" && len(g.Schema) == len(pick(g.Schema, "pattern", "type", "$schema"))
				closedTrue := props != nil && string(g.Schema["additionalProperties"]) == "false" && allTrue(props)
				langs := map[string]*Lang{}
				for _, p := range append(keys(props), pattern, deref(names.Pattern)) {
					if p == "" {
						continue
					}
					l, err := Compile(p, Limits{})
					if err != nil {
						t.Errorf("%s: %s: %v", where, p, err)
						continue
					}
					langs[p] = l
				}
				for _, tc := range g.Tests {
					cases++
					switch data := tc.Data.(type) {
					case string:
						if onlyPattern && langs[pattern] != nil {
							judged++
						}
						if onlyPattern && langs[pattern] != nil && langs[pattern].Match(data) != tc.Valid {
							t.Errorf("%s: %s: %q matches %v, the suite says valid=%v", where, tc.Description, data, !tc.Valid, tc.Valid)
						}
					case map[string]any:
						for key := range data {
							if names.Pattern != nil && len(g.Schema) == len(pick(g.Schema, "propertyNames", "$schema")) {
								if l := langs[*names.Pattern]; l != nil && !l.Match(key) && tc.Valid {
									t.Errorf("%s: %s: name %q does not match, yet valid", where, tc.Description, key)
								}
							}
							matched := false
							for p := range props {
								if l := langs[p]; l != nil {
									matched = matched || l.Match(key)
									re, err := regexp2ecma.Compile(p)
									if err != nil {
										t.Fatalf("%s: regexp2: %v", p, err)
									}
									judged++
									if want, ok := regexp2Match(re, key); ok && want != l.Match(key) {
										t.Errorf("%s: %s on %q: strlang %v, regexp2 %v", where, p, key, l.Match(key), want)
									}
								}
							}
							if closedTrue && !matched && tc.Valid {
								t.Errorf("%s: %s: name %q matches no pattern, yet valid", where, tc.Description, key)
							}
						}
						if names.Pattern != nil && len(g.Schema) == len(pick(g.Schema, "propertyNames", "$schema")) && !tc.Valid {
							bad := false
							for key := range data {
								bad = bad || !langs[*names.Pattern].Match(key)
							}
							if !bad {
								t.Errorf("%s: %s: every name matches, yet invalid", where, tc.Description)
							}
						}
						if closedTrue && !tc.Valid {
							bad := false
							for key := range data {
								m := false
								for p := range props {
									m = m || langs[p].Match(key)
								}
								bad = bad || !m
							}
							if !bad {
								t.Errorf("%s: %s: every name matches a pattern, yet invalid", where, tc.Description)
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d files, %d cases, %d strings judged", files, cases, judged)
}

func pick(m map[string]json.RawMessage, names ...string) []string {
	var out []string
	for _, n := range names {
		if _, ok := m[n]; ok {
			out = append(out, n)
		}
	}
	return out
}

func keys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func allTrue(m map[string]json.RawMessage) bool {
	for _, v := range m {
		if string(v) != "true" {
			return false
		}
	}
	return true
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

package decode

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/internal/oracle"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// verdict is how a finished output fares.
type verdict int

const (
	valid verdict = iota
	invalid
	// duplicateExtra: an extra (undeclared) member name repeats. A grammar
	// cannot forbid that without blowing up, and DESIGN.md puts such texts
	// outside the soundness claim; counted apart, not failed.
	duplicateExtra
	// beyondLimits: valid JSON that subsetcheck.Read refuses by a named limit,
	// e.g. an exponent of 150,000 digits' magnitude (L503), which the oracle's
	// big-number arithmetic could not take either; counted apart.
	beyondLimits
)

// check classifies a finished output: strict JSON first (subsetcheck.Read
// refuses duplicate keys, bad UTF-8 and lone surrogates, which the oracle's
// decoder would let through), then the oracle. declared holds every name of
// every "properties" in the schema: a repeat of one of those is a bug.
func check(o *oracle.Oracle, out []byte, declared map[string]bool) (verdict, string) {
	if _, err := subsetcheck.Read("output", out, subsetcheck.Limits{}); err != nil {
		var list subsetcheck.ErrorList
		if !errors.As(err, &list) || len(list) == 0 {
			return invalid, "not strict JSON: " + err.Error()
		}
		kind := valid
		for _, p := range list {
			switch {
			case p.Code == subsetcheck.CodeNumberTooLarge:
				kind = max(kind, beyondLimits)
			case p.Code == subsetcheck.CodeDuplicateKey && !declared[lastSegment(p.Pointer)]:
				kind = max(kind, duplicateExtra)
			default:
				return invalid, "not strict JSON: " + err.Error()
			}
		}
		if kind == beyondLimits {
			return kind, err.Error()
		}
		// A repeated extra name: the value must still be valid otherwise.
		if v, why := oracleCheck(o, out); v != valid {
			return v, why
		}
		return kind, err.Error()
	}
	return oracleCheck(o, out)
}

func oracleCheck(o *oracle.Oracle, out []byte) (verdict, string) {
	if err := o.Validate(out); err != nil {
		return invalid, err.Error()
	}
	return valid, ""
}

// lastSegment unescapes the last JSON Pointer segment.
func lastSegment(pointer string) string {
	seg := pointer[strings.LastIndexByte(pointer, '/')+1:]
	return strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
}

// declaredNames collects the member names of every "properties" object in
// a schema, at any depth.
func declaredNames(schemaJSON []byte) map[string]bool {
	names := map[string]bool{}
	var doc any
	if json.Unmarshal(schemaJSON, &doc) != nil {
		return names
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if props, ok := x.(map[string]any); ok && (k == "properties" || k == "patternProperties") {
					for name := range props {
						names[name] = true
					}
				}
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(doc)
	return names
}

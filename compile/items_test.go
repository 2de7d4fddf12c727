package compile

import "testing"

// arraysOf lists every array of up to n items drawn from items.
func arraysOf(items []string, n int) []string {
	out := []string{"[]"}
	level := []string{""}
	for range n {
		var next []string
		for _, prefix := range level {
			for _, it := range items {
				s := it
				if prefix != "" {
					s = prefix + "," + it
				}
				next = append(next, s)
				out = append(out, "["+s+"]")
			}
		}
		level = next
	}
	return out
}

// TestUniqueItems: every array of up to four items over a small set, equal
// numbers spelled apart (1 and 1.0), under uniqueItems with listed items.
func TestUniqueItems(t *testing.T) {
	texts := arraysOf([]string{`true`, `false`, `1`, `1.0`, `"a"`, `{"k":[1]}`, `2`}, 4)
	for _, s := range []string{
		`"items":{"type":"boolean"},"uniqueItems":true`,
		`"items":{"enum":["a",1,{"k":[1]}]},"uniqueItems":true,"minItems":2`,
		`"items":{"enum":["a",1,true]},"uniqueItems":true,"maxItems":2`,
		`"prefixItems":[{"enum":[1,2]},{"type":"integer","minimum":1,"maximum":2}],"items":false,"uniqueItems":true`,
		`"prefixItems":[{"const":1}],"items":{"enum":[1,2,true]},"uniqueItems":true`,
		`"maxItems":1,"uniqueItems":true`,
		`"prefixItems":[{"type":"string"}],"items":false,"uniqueItems":true`,
		`"items":{"type":"boolean"},"uniqueItems":true,"minItems":3`,
		`"items":{"type":"string"},"uniqueItems":false`,
	} {
		agree(t, `{"type":"array",`+s+`}`, texts)
	}
}

// TestContains: every array of up to four items over a small set, under
// contains with every pair of counts around them.
func TestContains(t *testing.T) {
	texts := arraysOf([]string{`"s"`, `1`, `7`, `2.5`, `null`, `[1]`}, 3)
	for _, c := range []string{
		`"contains":{"type":"string"}`,
		`"contains":{"minimum":5}`,
		`"contains":{"type":"number","exclusiveMaximum":2}`,
		`"contains":{"type":"array","minItems":1}`,
		`"contains":true`,
		`"contains":false`,
		`"items":{"enum":["s",1,7]},"contains":{"const":7}`,
		`"items":{"type":["string","integer"]},"contains":{"type":"integer"}`,
		`"prefixItems":[{"type":"integer"}],"contains":{"maximum":3}`,
	} {
		for _, n := range []string{``, `,"minContains":0`, `,"minContains":2`, `,"maxContains":1`, `,"minContains":0,"maxContains":0`,
			`,"minContains":2,"maxContains":3`, `,"minContains":3,"maxContains":2`, `,"maxItems":3,"minContains":2`, `,"minItems":3,"maxContains":1`} {
			agree(t, `{"type":"array",`+c+n+`}`, texts)
		}
	}
	// An object that fails contains is written under its negation, whose
	// declared members come first, and so is its canonical text.
	objects := arraysOf([]string{`{"x":null,"a":1}`, `{"x":null,"a":"s"}`, `{"a":1}`, `{}`}, 2)
	for _, n := range []string{``, `,"minContains":0,"maxContains":0`, `,"maxContains":1`} {
		agree(t, `{"type":"array","contains":{"properties":{"a":{"type":"integer"}}}`+n+`}`, objects)
	}
	// not of items: some item breaks it, contains of its negation.
	agree(t, `{"not":{"items":{"type":["string","null"]}}}`, texts)
	agree(t, `{"type":"array","not":{"items":{"minimum":5}}}`, texts)
	agree(t, `{"not":{"type":"array","contains":{"type":"string"},"maxContains":1}}`, texts)
	// draft-07 has no counts: they are other members there.
	agree(t, `{"$schema":"http://json-schema.org/draft-07/schema#","type":"array","contains":{"type":"string"},"minContains":3}`, texts)
}

// TestContainsCanonical: under contains, an item's canonical text is
// written as splitItems writes the item: listed values in their plain
// texts, others under their schema met with contains or its negation
// (declared members first), at prefixItems' positions, past them, under
// maxItems shorter than the prefix, beside uniqueItems with one item at
// most, under allOf and anyOf, through $ref.
func TestContainsCanonical(t *testing.T) {
	objects := arraysOf([]string{`{"x":null,"a":1}`, `{"a":1,"x":null}`, `{"x":null,"a":"s"}`, `{"b":2,"a":1}`, `{}`, `2.0`, `1`}, 3)
	nums := arraysOf([]string{`1.0`, `2`, `2.0`, `2e0`, `3`, `-0`}, 3)
	c := `"contains":{"properties":{"a":{"type":"integer"}},"required":["a"]}`
	for _, s := range []string{
		`{"type":"array",` + c + `,"maxContains":1}`,
		`{"type":"array","prefixItems":[{"type":"object"},{}],` + c + `,"maxContains":1}`,
		`{"type":"array","prefixItems":[{"type":"object"},{}],"maxItems":1,` + c + `,"maxContains":1}`,
		`{"type":"array","prefixItems":[{"type":"object","properties":{"x":{}}}],"items":{"properties":{"b":{}}},` + c + `,"minContains":0,"maxContains":1}`,
		`{"type":"array","uniqueItems":true,"maxItems":1,` + c + `,"maxContains":1}`,
		`{"type":"array","uniqueItems":true,"maxItems":1,` + c + `}`,
		`{"type":"array","uniqueItems":true,"maxItems":1,` + c + `,"minContains":0}`,
		`{"type":"array","items":{"enum":[{"x":null,"a":1},{"b":2,"a":1},{},1,2.0]},` + c + `,"maxContains":1}`,
		`{"type":"array","items":{"anyOf":[{"enum":[{"a":1,"x":null}]},{"enum":[{"x":null,"a":1}]},{"type":"integer","minimum":1,"maximum":2}]},` + c + `,"maxContains":2}`,
		`{"allOf":[{"items":{"properties":{"x":{}}}},{"type":"array",` + c + `,"maxContains":1}]}`,
		`{"anyOf":[{"type":"array","maxItems":1},{"type":"array",` + c + `,"maxContains":1}]}`,
		`{"anyOf":[{"type":"array",` + c + `,"maxContains":0},{"type":"array",` + c + `,"minContains":2}]}`,
		`{"type":"array","contains":{"not":{"properties":{"a":{"type":"string"}}}},"maxContains":1}`,
		`{"type":"array","contains":{"$ref":"#/$defs/o"},"maxContains":1,"$defs":{"o":{"properties":{"a":{"type":"integer"}},"required":["a"]}}}`,
		`{"type":"array","contains":{"dependentRequired":{"x":["a"]},"properties":{"b":{}}},"maxContains":1}`,
		`{"type":"array","items":{"type":"object","properties":{"b":{},"x":{}}},"contains":{"properties":{"a":{"const":1},"x":{"type":"null"}},"required":["x"]},"minContains":1,"maxContains":2}`,
		`{"type":"array","items":{"$ref":"#"},"maxItems":2,"contains":{"type":"array"},"maxContains":1}`,
	} {
		agree(t, s, objects)
	}
	for _, s := range []string{
		`{"type":"array","items":{"type":"integer","minimum":0,"maximum":3},"contains":{"const":2},"maxContains":1}`,
		`{"type":"array","items":{"type":"integer","minimum":-1,"maximum":3},"contains":{"minimum":2},"minContains":2}`,
		`{"type":"array","prefixItems":[{"enum":[1,2]}],"items":{"type":"number"},"contains":{"const":2},"maxContains":1}`,
		`{"type":"array","uniqueItems":true,"maxItems":1,"items":{"enum":[1,2,3]},"contains":{"const":2}}`,
	} {
		agree(t, s, nums)
	}
}

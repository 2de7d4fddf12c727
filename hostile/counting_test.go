package hostile

import (
	"fmt"
	"strings"
)

// The counting keywords' hostile shapes (issue 21): counts, multipleOf and
// dependencies that would explode a naive encoding. TestRefused and
// TestExplodingBounds take them from here, BenchmarkClass times them.

// manyOptional is an object of n optional members under minProperties k:
// a state per (member, count) past what MaxCountStates allows.
func manyOptional(n, k int) string {
	var props []string
	for i := range n {
		props = append(props, fmt.Sprintf(`"p%d":{}`, i))
	}
	return fmt.Sprintf(`{"type":"object","properties":{%s},"minProperties":%d}`, strings.Join(props, ","), k)
}

// dependencyFan is an object with n trigger members t0..., each requiring
// one more, q0.... order "backward" declares every q before the t's: each
// trigger splits the object in two, 2^n cases. "apart" declares the t's
// and leaves the q's after them: the grammar owes any set of q's, 2^n
// states. "interleaved" declares each q after its t: one name owed at a
// time.
func dependencyFan(n int, order string) string {
	var deps, props []string
	for i := range n {
		deps = append(deps, fmt.Sprintf(`"t%d":["q%d"]`, i, i))
		if order == "backward" {
			props = append(props, fmt.Sprintf(`"q%d":{}`, i))
		}
	}
	for i := range n {
		props = append(props, fmt.Sprintf(`"t%d":{}`, i))
		if order == "interleaved" {
			props = append(props, fmt.Sprintf(`"q%d":{}`, i))
		}
	}
	return `{"type":"object","properties":{` + strings.Join(props, ",") + `},"dependentRequired":{` + strings.Join(deps, ",") + `}}`
}

// uniqueEnum is an array of distinct items from an enum of n numbers.
func uniqueEnum(n int) string {
	return `{"type":"array","items":` + numberEnum(n) + `,"uniqueItems":true}`
}

// dependencyCycle is a dependent schema that leads back to the root.
const dependencyCycle = `{"$defs":{"b":{"dependentSchemas":{"b":{"$ref":"#"}}}},"dependentSchemas":{"a":{"$ref":"#/$defs/b"}}}`

// countingRefused are the shapes that end in a named error.
var countingRefused = []struct{ name, schema, code string }{
	{"multipleOf 1e-5000", `{"type":"number","multipleOf":1e-5000}`, "C403"},
	{"multipleOf 123456789 on integers", `{"type":"integer","multipleOf":123456789}`, "C403"},
	{"minProperties over 200 optional members", manyOptional(200, 100), "C403"},
	{"dependentSchemas cycle", dependencyCycle, "C402"},
	{"dependentSchemas on itself", `{"properties":{"a":{}},"dependentSchemas":{"a":{"$ref":"#"}}}`, "C402"},
	{"30 backward dependency triggers", dependencyFan(30, "backward"), "C402"},
	{"30 dependency triggers owing any set", dependencyFan(30, "apart"), "C403"},
	{"uniqueItems on 1,000 values", uniqueEnum(1000), "C402"},
	{"uniqueItems on any items", `{"type":"array","uniqueItems":true}`, "C402"},
	{"contains over 10^9 items", `{"type":"array","maxItems":1000000000,"contains":{"type":"string"},"maxContains":2}`, "C403"},
	{"maxContains 2^64 with no maxItems", `{"type":"array","contains":{},"maxContains":18446744073709551616}`, "C403"},
	{"maxProperties below required", `{"type":"object","required":["a","b"],"maxProperties":1}`, "C401"},
}

// countingBounds compile to a small grammar that decides exactly.
var countingBounds = []struct {
	name, schema string
	maxBytes     int
	accept       []string
	reject       []string
}{
	{"maxProperties 10^9, open", `{"type":"object","properties":{"a":{}},"maxProperties":1000000000}`, 20000,
		[]string{`{}`, `{"a":1}`, `{"a":1,"b":2,"c":3}`}, []string{`{"a":1,}`}},
	{"minProperties 10^9, open", `{"type":"object","minProperties":1000000000}`, 20000,
		nil, []string{`{}`, `{"a":1}`}},
	// A count past 2^63-1 means 2^63-1: a few block rules per digit, as 10^9.
	{"maxProperties 2^64, open", `{"type":"object","properties":{"a":{}},"maxProperties":18446744073709551616}`, 40000,
		[]string{`{}`, `{"a":1}`, `{"a":1,"b":2,"c":3}`}, []string{`{"a":1,}`}},
	{"minProperties 2^64, open", `{"type":"object","minProperties":18446744073709551616}`, 20000,
		nil, []string{`{}`, `{"a":1}`}},
	{"maxProperties 10^9, closed", `{"type":"object","properties":{"a":{}},"additionalProperties":false,"maxProperties":1000000000}`, 20000,
		[]string{`{}`, `{"a":1}`}, []string{`{"b":1}`}},
	{"multipleOf 1e-300", `{"type":"number","multipleOf":1e-300}`, 100000,
		[]string{`0`, `-1.5`, `0.` + strings.Repeat("0", 299) + `1`}, []string{`0.` + strings.Repeat("0", 300) + `1`, `1e3`}},
	{"multipleOf 7 over 300 digits", `{"type":"integer","multipleOf":7,"minimum":-1e300,"maximum":1e300}`, 1 << 20,
		[]string{`0`, `7`, `-700000000000000000000000007`}, []string{`1`, `1` + strings.Repeat("0", 301)}},
	{"uniqueItems on 8 values", uniqueEnum(8), 40000,
		[]string{`[]`, `[0,1,2,3,4,5,6,7]`, `[7,0]`}, []string{`[0,0]`, `[1,2,1]`, `[8]`}},
	{"8 backward dependency triggers", dependencyFan(8, "backward"), 1 << 20,
		[]string{`{}`, `{"q0":2,"t0":1}`, `{"q3":3,"q7":4,"t3":1,"t7":2}`}, []string{`{"t0":1}`, `{"q3":3,"t3":1,"t7":2}`}},
	{"30 interleaved dependency triggers", dependencyFan(30, "interleaved"), 40000,
		[]string{`{}`, `{"t0":1,"q0":2}`, `{"t3":1,"q3":3,"t7":2,"q7":4}`}, []string{`{"t0":1}`, `{"t3":1,"q3":3,"t7":2}`}},
}

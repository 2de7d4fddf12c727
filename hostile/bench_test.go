package hostile

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// class is the worst case of one hostile class, and how to run it.
type class struct {
	name string
	run  func() error
}

// typicalSchema is bench/testdata/typical.json: the yardstick every class
// is measured against.
func typicalSchema() []byte {
	b, err := os.ReadFile("../bench/testdata/typical.json")
	if err != nil {
		return []byte(`{"type":"object","properties":{"name":{"type":"string","maxLength":80},"age":{"type":"integer","minimum":0,"maximum":150},"tags":{"type":"array","items":{"type":"string"},"maxItems":10}},"required":["name"],"additionalProperties":false}`)
	}
	return b
}

// classes lists the worst case of each class; the inputs are built once.
func classes() []class {
	compile := func(s string) func() error {
		b := []byte(s)
		return func() error { _, err := schema2gbnf.Compile(b, schema2gbnf.Options{}); return err }
	}
	parse := func(s string) func() error {
		return func() error { _, err := gbnf.Parse(s); return err }
	}
	typical := typicalSchema()
	return []class{
		{"typical", compile(string(typical))},
		{"not-json", compile(`{"type":"string",` + strings.Repeat(" ", 1000))},
		{"input-50MB", compile(`{"enum":["` + strings.Repeat("a", 50<<20) + `"]}`)},
		{"input-16MB-array-of-numbers", compile(`{"enum":[[` + strings.TrimSuffix(strings.Repeat("1,", 8<<20-8), ",") + `]]}`)},
		{"nesting-100k-arrays", compile(`{"enum":[` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `]}`)},
		{"nesting-100k-subschemas", compile(strings.Repeat(`{"items":`, 100000) + "true" + strings.Repeat("}", 100000))},
		{"ref-cycle", compile(`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`)},
		{"maxLength-1e9", compile(`{"type":"string","maxLength":1000000000}`)},
		{"maxItems-1e9", compile(`{"type":"array","items":{"type":"integer"},"maxItems":1000000000}`)},
		{"integer-1e400", compile(`{"type":"integer","minimum":-1e400,"maximum":1e400}`)},
		{"enum-1M", compile(numberEnum(1000000))},
		{"properties-10k", compile(wideObject(10000, true))},
		{"optional-64-closed", compile(wideObject(64, true))},
		{"anyOf-nest-40", compile(anyOfNest(40))},
		{"anyOf-chain-30", compile(anyOfChain(30))},
		{"oneOf-1000", compile(oneOfConsts(1000))},
		{"oneOf-tagged-44", compile(oneOfTagged(44))},
		{"oneOf-overlap-45", compile(oneOfOverlapping(45))},
		{"oneOf-overlap-nest-100", compile(oneOfNest(100))},
		{"oneOf-overlap-objects-10", compile(oneOfObjects(10))},
		{"allOf-nest-100", compile(allOfNest(100))},
		{"not-nest-250", compile(notNest(250))},
		{"if-chain-100", compile(ifChain(100))},
		{"not-enum-1000", compile(notEnum(1000))},
		{"subschemas-100k", compile(`{"anyOf":[` + strings.TrimSuffix(strings.Repeat(`{},`, 100001), ",") + `]}`)},
		{"pattern-exponential", compile(`{"type":"string","pattern":"(a|b)*a(a|b){40}"}`)},
		{"pattern-nested-counts", compile(`{"type":"string","pattern":"((a{1,100}){1,100}){1,100}"}`)},
		{"pattern-dot-5000-union", compile(`{"type":"string","pattern":"^(?:x|.{1,5000}|[ab]{1,5000})$"}`)},
		{"pattern-length-product", compile(`{"type":"string","pattern":"^(?:\\S+\\s+){0,99}\\S+$","maxLength":5000}`)},
		{"patternProperties-regions", compile(`{"type":"object","patternProperties":{"a":{},"b":{},"c":{},"d":{},"e":{},"f":{},"g":{}}}`)},
		{"pattern-word-count", compile(`{"type":"string","pattern":"^(?:\\S+\\s+){0,49}\\S+$","maxLength":400}`)},
		{"multipleOf-1e-300", compile(`{"type":"number","multipleOf":1e-300}`)},
		{"multipleOf-7-1e300", compile(`{"type":"integer","multipleOf":7,"minimum":-1e300,"maximum":1e300}`)},
		{"maxProperties-1e9", compile(`{"type":"object","properties":{"a":{}},"maxProperties":1000000000}`)},
		{"minProperties-200-optional", compile(manyOptional(200, 100))},
		{"dependentSchemas-cycle", compile(dependencyCycle)},
		{"dependencies-30-backward", compile(dependencyFan(30, "backward"))},
		{"dependencies-30-apart", compile(dependencyFan(30, "apart"))},
		{"dependencies-8-backward", compile(dependencyFan(8, "backward"))},
		{"dependencies-30-interleaved", compile(dependencyFan(30, "interleaved"))},
		{"uniqueItems-enum-1000", compile(uniqueEnum(1000))},
		{"uniqueItems-enum-8", compile(uniqueEnum(8))},
		{"no-valid-value", compile(`{"type":"object","properties":{"a":{"type":"integer","minimum":3,"maximum":1}},"required":["a"]}`)},
		{"gbnf-parens-10k", parse("root ::= " + strings.Repeat("(", 10000) + `"a"` + strings.Repeat(")", 10000))},
		{"gbnf-repeat-1M", parse(`root ::= "a"{1000000}`)},
		{"gbnf-1MB", parse("root ::= \"" + strings.Repeat("a", 1<<20-20) + "\"")},
	}
}

// BenchmarkClass runs the worst case of each class; compare each with
// "typical" (go test -bench Class -benchmem ./hostile/).
func BenchmarkClass(b *testing.B) {
	for _, c := range classes() {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c.run()
			}
		})
	}
}

// TestPeakMemory prints each class's peak heap growth and time with
// HOSTILE_MEM=1 (a measurement for the report, not an assertion).
func TestPeakMemory(t *testing.T) {
	if os.Getenv("HOSTILE_MEM") == "" {
		t.Skip("set HOSTILE_MEM=1 to measure")
	}
	for _, c := range classes() {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		base := ms.HeapAlloc
		var peak atomic.Uint64
		done := make(chan struct{})
		go func() {
			var s runtime.MemStats
			for {
				select {
				case <-done:
					return
				case <-time.After(2 * time.Millisecond):
					runtime.ReadMemStats(&s)
					if s.HeapAlloc > peak.Load() {
						peak.Store(s.HeapAlloc)
					}
				}
			}
		}()
		start := time.Now()
		err := c.run()
		took := time.Since(start)
		close(done)
		runtime.ReadMemStats(&ms)
		p := max(peak.Load(), ms.HeapAlloc)
		code := "ok"
		if err != nil {
			code = firstLine(err.Error())
			if i := strings.LastIndex(code, "["); i >= 0 {
				code = code[i:]
			}
		}
		fmt.Printf("%-28s peak %8.1f MB  %10v  %.60s\n", c.name, float64(p-min(p, base))/(1<<20), took.Round(time.Microsecond), code)
	}
}

// TestRefusedEarlyAllocatesLittle: a refusal by size costs no copy of the
// input, however big it is.
func TestRefusedEarlyAllocatesLittle(t *testing.T) {
	big := []byte(`{"enum":["` + strings.Repeat("a", 50<<20) + `"]}`)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range 5 {
		if _, err := schema2gbnf.Compile(big, schema2gbnf.Options{}); err == nil {
			t.Fatal("compiled")
		}
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / 5; per > 64<<10 {
		t.Fatalf("refusing 50 MB allocated %d bytes per call", per)
	}
}

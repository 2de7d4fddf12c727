package bench

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
	"time"

	"github.com/schema2gbnf/schema2gbnf"
)

// The corpus the speed benchmarks run on. By default the vendored slice of
// JSONSchemaBench; -corpus=path/to/jsonschemabench runs the whole.
var corpusDir = flag.String("corpus", filepath.Join("..", "testdata", "corpus"), "directory of *.json schemas for the corpus benchmarks")

// corpusEntry is a schema that compiled once under the guard, so the timed
// loops can call Compile directly.
type corpusEntry struct {
	Schema
	data []byte
}

// compiledCorpus reads the corpus and keeps the schemas that compile. Crashes
// and hangs are logged (they are bugs) and left out of the timings.
func compiledCorpus(b *testing.B) []corpusEntry {
	b.Helper()
	if _, err := os.Stat(*corpusDir); err != nil {
		b.Skipf("no corpus at %s (vendored slice not there yet?): pass -corpus=DIR", *corpusDir)
	}
	schemas, err := FindSchemas(*corpusDir)
	if err != nil {
		b.Fatal(err)
	}
	var out []corpusEntry
	bugs := 0
	for _, s := range schemas {
		data, err := ReadSchema(s)
		if err != nil {
			b.Fatal(err)
		}
		switch o := DefaultGuard.Compile(data); o.Status {
		case Compiled:
			out = append(out, corpusEntry{s, data})
		case Refused:
		default:
			bugs++
			if bugs <= 5 {
				b.Logf("%s: %s: %.200s", s.Path, o.Status, o.Detail)
			}
		}
	}
	if bugs > 0 {
		b.Logf("%d schemas crashed, errored or hung; left out", bugs)
	}
	if len(out) == 0 {
		b.Skipf("no schema of %d under %s compiles", len(schemas), *corpusDir)
	}
	return out
}

// BenchmarkCompileCorpus compiles every compilable corpus schema once per
// iteration and reports the distribution of the per-schema time, and the
// allocations per schema.
func BenchmarkCompileCorpus(b *testing.B) {
	entries := compiledCorpus(b)
	var bytes int64
	for _, e := range entries {
		bytes += int64(len(e.data))
	}
	micros := make([]float64, 0, len(entries))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.SetBytes(bytes)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, e := range entries {
			start := time.Now()
			if _, err := schema2gbnf.Compile(e.data, schema2gbnf.Options{}); err != nil {
				b.Fatalf("%s: compiled once, now: %v", e.Path, err)
			}
			micros = append(micros, float64(time.Since(start).Nanoseconds())/1e3)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	reportTimes(b, len(entries), micros)
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(len(micros)), "allocs/schema")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(len(micros)), "B/schema")
}

// BenchmarkCompileCorpusMin compiles every compilable corpus schema once
// per iteration and reports the distribution over schemas of each one's
// fastest compile: run it with -benchtime 5x for the min-of-5 figures. The
// fastest of a few runs leaves out what other processes on a shared machine
// add, which the pooled times of BenchmarkCompileCorpus keep.
func BenchmarkCompileCorpusMin(b *testing.B) {
	entries := compiledCorpus(b)
	fastest := make([]float64, len(entries))
	for i := range fastest {
		fastest[i] = math.Inf(1)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i, e := range entries {
			start := time.Now()
			if _, err := schema2gbnf.Compile(e.data, schema2gbnf.Options{}); err != nil {
				b.Fatalf("%s: compiled once, now: %v", e.Path, err)
			}
			fastest[i] = min(fastest[i], float64(time.Since(start).Nanoseconds())/1e3)
		}
	}
	b.StopTimer()
	reportTimes(b, len(entries), fastest)
}

// reportTimes reports the number of schemas and the distribution of the
// per-schema compile times in µs.
func reportTimes(b *testing.B, schemas int, micros []float64) {
	s := Summarize(micros)
	b.ReportMetric(float64(schemas), "schemas")
	b.ReportMetric(s.Median, "µs-median/schema")
	b.ReportMetric(s.P90, "µs-p90/schema")
	b.ReportMetric(s.P99, "µs-p99/schema")
	b.ReportMetric(s.Max, "µs-max/schema")
}

// BenchmarkCompileLargest compiles the largest schemas (the Kubernetes
// subset when the corpus has it) one by one and reports their memory:
// alloc-MB is everything one compile allocates (MemStats.TotalAlloc delta),
// heap-MB the heap still in use with the grammar alive (HeapInuse delta after
// a GC before the compile): the resident cost of holding the result.
func BenchmarkCompileLargest(b *testing.B) {
	entries := compiledCorpus(b)
	var kube []corpusEntry
	for _, e := range entries {
		if e.Subset == "Kubernetes" {
			kube = append(kube, e)
		}
	}
	if len(kube) > 0 {
		entries = kube
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Size > entries[j].Size })
	if len(entries) > 8 {
		entries = entries[:8]
	}
	for _, e := range entries {
		b.Run(filepath.Base(e.Path), func(b *testing.B) {
			b.SetBytes(int64(len(e.data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := schema2gbnf.Compile(e.data, schema2gbnf.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			g, err := schema2gbnf.Compile(e.data, schema2gbnf.Options{})
			runtime.ReadMemStats(&after)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/1e6, "alloc-MB")
			b.ReportMetric(float64(int64(after.HeapInuse)-int64(before.HeapInuse))/1e6, "heap-MB")
			b.ReportMetric(float64(len(g.GBNF)), "grammar-bytes")
			runtime.KeepAlive(g)
		})
	}
}

// BenchmarkCompileTypical compiles one typical structured-output schema
// (testdata/typical.json: nested objects, an array of $ref items, enums,
// bounded strings and integers).
func BenchmarkCompileTypical(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "typical.json"))
	if err != nil {
		b.Fatal(err)
	}
	if o := DefaultGuard.Compile(data); o.Status != Compiled {
		b.Fatalf("typical.json: %s: %s", o.Status, o.Detail)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := schema2gbnf.Compile(data, schema2gbnf.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

package bench

import (
	"testing"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// BenchmarkStages times each stage of Compile alone over the compilable
// corpus schemas, one op being one pass over all of them, so that a change
// to one stage shows in its own line rather than in the noise of the whole.
// The input of each stage is built once, outside the timer.
func BenchmarkStages(b *testing.B) {
	entries := compiledCorpus(b)
	docs := make([]*subsetcheck.Document, len(entries))
	checked := make([]*subsetcheck.Checked, len(entries))
	grammars := make([]*gbnf.Grammar, len(entries))
	for i, e := range entries {
		var err error
		if docs[i], err = subsetcheck.Read("schema", e.data, subsetcheck.Limits{}); err != nil {
			b.Fatalf("%s: %v", e.Path, err)
		}
		if checked[i], err = schema2gbnf.Check(e.data, schema2gbnf.Options{}); err != nil {
			b.Fatalf("%s: %v", e.Path, err)
		}
		if grammars[i], err = compile.Compile(checked[i], compile.Options{}); err != nil {
			b.Fatalf("%s: %v", e.Path, err)
		}
	}
	stage := func(name string, run func(i int) error) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for i := range entries {
					if err := run(i); err != nil {
						b.Fatalf("%s: %v", entries[i].Path, err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(entries))/1e3, "µs/schema")
		})
	}
	stage("read", func(i int) error {
		_, err := subsetcheck.Read("schema", entries[i].data, subsetcheck.Limits{})
		return err
	})
	stage("check", func(i int) error {
		_, err := subsetcheck.Check(docs[i], subsetcheck.Options{})
		return err
	})
	stage("compile", func(i int) error { // includes gbnf.Validate
		_, err := compile.Compile(checked[i], compile.Options{})
		return err
	})
	stage("validate", func(i int) error { return gbnf.Validate(grammars[i]) })
	stage("print", func(i int) error {
		_ = grammars[i].String()
		return nil
	})
	stage("hash", func(i int) error {
		_ = schema2gbnf.SchemaHash(entries[i].data)
		return nil
	})
}

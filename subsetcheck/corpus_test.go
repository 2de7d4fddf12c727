package subsetcheck

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var corpus = flag.String("corpus", os.Getenv("SCHEMA2GBNF_CORPUS"), "path to the JSONSchemaBench corpus (subset folders of *.json); empty skips TestCorpus")

// TestCorpus runs Read and Check over every schema of the corpus, in both
// profiles. It must never panic; it prints how many schemas each subset
// admits and the most frequent refusal codes (one count per schema and code).
//
//	go test ./subsetcheck/ -run TestCorpus -corpus=path/to/jsonschemabench -v
func TestCorpus(t *testing.T) {
	if *corpus == "" {
		t.Skip("no -corpus given")
	}
	subsets, err := filepath.Glob(filepath.Join(*corpus, "*"))
	if err != nil || len(subsets) == 0 {
		t.Fatalf("no subsets under %s: %v", *corpus, err)
	}
	for _, profile := range []Profile{Exact, Portable} {
		codeCounts := map[Code]int{}
		refusedKeywords := map[string]int{}
		examples := map[Code]string{}
		total, admitted, oracleRefused := 0, 0, 0
		for _, dir := range subsets {
			files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
			ok := 0
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				err = checkFile(f, data, profile)
				if err == nil {
					ok++
					if oerr := oracleCompiles(data); oerr != nil {
						oracleRefused++
						t.Logf("%s: admitted (%s) but the oracle refuses it: %v", f, profile, oerr)
					}
					continue
				}
				var list ErrorList
				if !errors.As(err, &list) {
					t.Errorf("%s: error is not an ErrorList: %v", f, err)
					continue
				}
				seen := map[Code]bool{}
				seenKeyword := map[string]bool{}
				for _, p := range list {
					if p.Code == CodeRefusedKeyword {
						k := p.Pointer[strings.LastIndexByte(p.Pointer, '/')+1:]
						if !seenKeyword[k] {
							seenKeyword[k] = true
							refusedKeywords[k]++
						}
					}
					if _, ok := examples[p.Code]; !ok {
						examples[p.Code] = p.Error()
					}
					if !seen[p.Code] {
						seen[p.Code] = true
						codeCounts[p.Code]++
					}
				}
			}
			total += len(files)
			admitted += ok
			fmt.Printf("%-9s %-14s admitted %5d of %5d (%.1f%%)\n", profile, filepath.Base(dir), ok, len(files), 100*float64(ok)/float64(max(1, len(files))))
		}
		fmt.Printf("%-9s %-14s admitted %5d of %5d (%.1f%%)\n", profile, "ALL", admitted, total, 100*float64(admitted)/float64(max(1, total)))
		fmt.Printf("%-9s admitted but refused by the oracle: %d\n", profile, oracleRefused)
		var codes []Code
		for c := range codeCounts {
			codes = append(codes, c)
		}
		sort.Slice(codes, func(i, j int) bool {
			if codeCounts[codes[i]] != codeCounts[codes[j]] {
				return codeCounts[codes[i]] > codeCounts[codes[j]]
			}
			return codes[i] < codes[j]
		})
		var top []string
		for _, c := range codes {
			top = append(top, fmt.Sprintf("%s:%d", c, codeCounts[c]))
		}
		fmt.Printf("%-9s refusals (schemas per code): %s\n", profile, strings.Join(top, " "))
		fmt.Printf("%-9s S201 (schemas per keyword): %s\n", profile, topCounts(refusedKeywords, 15))
		fmt.Printf("%-9s warnings on admitted schemas (schemas per code): W301:%d W302:%d W303:%d\n", profile,
			corpusWarnings[string(profile)+" W301"], corpusWarnings[string(profile)+" W302"], corpusWarnings[string(profile)+" W303"])
		for _, c := range codes {
			fmt.Printf("%-9s e.g. %s\n", profile, examples[c])
		}
	}
}

// checkFile reads and checks one file, turning a panic into a test-visible error.
func checkFile(name string, data []byte, profile Profile) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("PANIC: %v", r)
		}
	}()
	doc, err := Read(name, data, Limits{})
	if err != nil {
		return err
	}
	c, err := Check(doc, Options{Profile: profile})
	if c != nil {
		seen := map[Code]bool{}
		for _, w := range c.Warnings {
			if !seen[w.Code] {
				seen[w.Code] = true
				corpusWarnings[string(profile)+" "+string(w.Code)]++
			}
		}
	}
	return err
}

// corpusWarnings counts admitted schemas per profile and warning code.
var corpusWarnings = map[string]int{}

// topCounts formats the n largest counts, largest first.
func topCounts(m map[string]int, n int) string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var out []string
	for i, k := range keys {
		if i == n {
			break
		}
		out = append(out, fmt.Sprintf("%s:%d", k, m[k]))
	}
	return strings.Join(out, " ")
}

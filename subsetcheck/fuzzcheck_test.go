package subsetcheck

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzCheck checks that Read+Check never panic, in both profiles, and that a
// schema the exact profile admits compiles in the oracle validator.
//
//	go test ./subsetcheck/ -run '^$' -fuzz FuzzCheck -fuzztime 1m
func FuzzCheck(f *testing.F) {
	for _, c := range checkCases {
		f.Add([]byte(c.schema))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := Read("fuzz", data, Limits{MaxDepth: 64, MaxSubschemas: 1000})
		if err != nil {
			return
		}
		for _, p := range []Profile{Exact, Portable} {
			c, err := Check(doc, Options{Profile: p, Limits: Limits{MaxSubschemas: 1000}})
			if err != nil {
				continue
			}
			if c.Root == nil {
				t.Fatalf("admitted without a root: %q", data)
			}
			if p == Exact {
				if oerr := oracleCompiles(data); oerr != nil {
					t.Fatalf("Check admits %q, the oracle refuses it: %v", data, oerr)
				}
			}
		}
	})
}

// TestCheckHostile runs shapes that would be quadratic or recursive without
// care; it asserts only the outcome (speed is for benchmarks).
func TestCheckHostile(t *testing.T) {
	const n = 20000
	var b strings.Builder
	b.WriteString(`{"$defs":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"d%d":{"type":"object","properties":{"x":{"$ref":"#/$defs/d%d"}}}`, i, (i+1)%n)
	}
	b.WriteString(`},"anyOf":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"$ref":"#/$defs/d%d"}`, i)
	}
	b.WriteString(`]}`)
	c, err := Check(mustRead(t, b.String()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Root.AnyOf) != n || c.Root.AnyOf[0].Ref.Properties[0].Schema.Ref != c.Root.AnyOf[1].Ref {
		t.Errorf("graph not shared")
	}

	// A long chain of refs that only refer: a cycle found without recursion.
	b.Reset()
	b.WriteString(`{"$defs":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"d%d":{"$ref":"#/$defs/d%d"}`, i, (i+1)%n)
	}
	b.WriteString(`},"$ref":"#/$defs/d0"}`)
	if _, err := Check(mustRead(t, b.String()), Options{}); codesOf(err) != "S207" {
		t.Errorf("chain: %v", codesOf(err))
	}

	// A large enum with a duplicate at the end, in a draft that forbids it.
	b.Reset()
	b.WriteString(`{` + d7 + `"enum":[`)
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&b, `{"k":%d},`, i)
	}
	b.WriteString(`{"k":0.0}]}`)
	if _, err := Check(mustRead(t, b.String()), Options{}); codesOf(err) != "S203" {
		t.Errorf("enum: %v", codesOf(err))
	}
}

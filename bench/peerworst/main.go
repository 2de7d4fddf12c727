// Command peerworst ranks the schemas of bench/peer runs by engine work per
// code point, ours over the peer's, worst first: where to look for what
// makes our grammars expensive for llama.cpp (then stackcost says which
// rules hold the stacks).
//
//	go run ./bench/peerworst bench/results/peer-*.json
//
// One line per schema: ratio, our and the peer's work in ns per code point,
// whether the peer accepts all our texts, the share of the peer's check that
// is work (a small share makes the ratio noisy), common code points, file.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"

	"github.com/schema2gbnf/schema2gbnf/bench"
)

func main() {
	type row struct {
		file  string
		ratio float64
		o, p  float64
		same  bool
		share float64 // of the peer's check, the work part
		runes int
	}
	var rows []row
	for _, f := range os.Args[1:] {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var run bench.PeerRun
		if err := json.Unmarshal(data, &run); err != nil {
			fmt.Fprintln(os.Stderr, f, err)
			continue
		}
		for _, r := range run.Records {
			if r.Ours.Status != "compiled" || r.Peer.Status != "compiled" {
				continue
			}
			c, ok := r.Cost()
			if !ok || !c.Measurable() {
				continue
			}
			rows = append(rows, row{r.File, c.OursWorkNs / c.PeerWorkNs, c.OursWorkNs, c.PeerWorkNs, r.PeerAcceptsOurs == r.OursAccepted, c.PeerWorkNs * float64(r.CommonRunes) / 1e3 / c.PeerCheckUs, r.CommonRunes})
		}
	}
	if len(rows) == 0 {
		fmt.Fprintln(os.Stderr, "no schema with a measurable decoding cost")
		os.Exit(1)
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].ratio > rows[j].ratio })
	worse := 0
	for _, r := range rows {
		if r.ratio > 1 {
			worse++
		}
	}
	fmt.Fprintf(os.Stderr, "%d schemas, ours slower on %d; median %.2f p90 %.2f\n", len(rows), worse, rows[len(rows)/2].ratio, rows[len(rows)/10].ratio)
	for _, r := range rows {
		fmt.Printf("%.2f\t%.0f\t%.0f\t%v\t%.2f\t%d\t%s\n", r.ratio, r.o, r.p, r.same, r.share, r.runes, r.file)
	}
}

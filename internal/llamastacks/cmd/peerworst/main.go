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

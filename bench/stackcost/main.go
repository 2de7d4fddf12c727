// Command stackcost counts what our grammars and node-llama-cpp's own
// converter's (the peer's) cost llama.cpp's engine on the same texts, with
// the llamastacks model, and optionally times the engine in node:
//
//	go run ./bench/stackcost [-peer] [-time] [-texts 4] [-json out.json] DIR...
//
// Texts are sampled from our compact grammar (valid values, canonical
// spelling); only those both grammars accept are counted for both. Figures
// are per code point. -time measures engine work per code point as
// node-llama-cpp pays it: time(check texts) - time(check "" as often),
// fastest of passes, the grammars taking turns. -ours-only skips the peer
// and reports our grammar alone (for before/after runs of a shape change).
package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/bench"
	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/internal/llamastacks"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// againstDir, when set, holds the grammars to compare with instead of the peer's.
var againstDir string

// withPeerTexts adds texts sampled from the peer's grammar.
var withPeerTexts bool

// closedAgainst compares our grammar with our own under closed objects
// (schema2gbnf -objects closed) instead of the peer's, on texts sampled from
// the closed grammar, which the open one accepts too.
var closedAgainst bool

// Side is one grammar's figures on a schema's texts.
type Side struct {
	Rules, Elements int
	Cost            llamastacks.Cost
	CheckUs         float64 `json:",omitempty"` // node: all texts, fastest pass
	ParseUs         float64 `json:",omitempty"` // node: as many checks of ""
}

// Record is one schema.
type Record struct {
	File       string
	Texts      int
	Runes      int
	Ours, Peer *Side  `json:",omitempty"`
	Note       string `json:",omitempty"`
	blame      [2]map[string]int
	sampled    []string
}

func main() {
	withPeer := flag.Bool("peer", false, "compare with node-llama-cpp's converter (needs node)")
	withTime := flag.Bool("time", false, "time the engine in node as well")
	nTexts := flag.Int("texts", 4, "texts to sample per schema")
	maxRunes := flag.Int("max-runes", 1000, "longest text, in code points")
	every := flag.Int("every", 1, "take every n-th schema only")
	minMs := flag.Int("min-ms", 30, "time each grammar for at least this long")
	jsonOut := flag.String("json", "", "write the records here")
	textsFile := flag.String("texts-file", "", "read the texts per schema from this JSON file if it exists, else sample and write them there (same texts before and after a change)")
	against := flag.String("against", "", "compare with the grammars in this directory (<first 16 hex of sha256 of the schema path>.gbnf, e.g. ours before a change) instead of the peer's")
	compactOurs := flag.Bool("compact", false, "measure our compact grammar (no whitespace slots) instead of the default one")
	blame := flag.Int("blame", 0, "list the rules holding the most live stacks, this many, per side")
	flag.BoolVar(&closedAgainst, "closed", false, "compare our grammar with our grammar under -objects closed (as the peer side), on texts sampled from the closed one")
	flag.BoolVar(&withPeerTexts, "peer-texts", false, "with -peer: also sample texts from the peer's grammar, kept in canonical spelling when the value is valid (as bench/peer does), so that a peer that rejects every text of ours is still compared")
	flag.Parse()
	var files []string
	for _, dir := range flag.Args() {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
				files = append(files, p)
			}
			return nil
		})
	}
	sort.Strings(files)
	saved := map[string][]string{}
	if *textsFile != "" {
		if data, err := os.ReadFile(*textsFile); err == nil {
			json.Unmarshal(data, &saved)
		}
	}
	sampleTexts := len(saved) == 0
	var eng *engine
	if closedAgainst {
		*withPeer = true
		fmt.Println("peer = our grammars with closed objects")
	}
	if *against != "" {
		*withPeer = true
		againstDir = *against
		fmt.Println("peer = grammars from", *against)
	}
	if *withPeer && !closedAgainst || *withTime {
		eng = startEngine()
		defer eng.stop()
	}
	var recs []Record
	blamed := [2]map[string]int{{}, {}}
	for i, f := range files {
		if i%max(*every, 1) != 0 {
			continue
		}
		texts, known := saved[f]
		if !sampleTexts && !known {
			continue
		}
		rec, ok := one(f, texts, *compactOurs, eng, *withPeer, *withTime, *nTexts, *maxRunes, *minMs)
		if sampleTexts && rec.sampled != nil {
			saved[f] = rec.sampled
		}
		if ok {
			recs = append(recs, rec)
			for i := range rec.blame {
				for name, n := range rec.blame[i] {
					blamed[i][name] += n
				}
			}
		}
	}
	if *textsFile != "" && sampleTexts {
		data, _ := json.Marshal(saved)
		os.WriteFile(*textsFile, data, 0o644)
	}
	if *jsonOut != "" {
		data, _ := json.MarshalIndent(recs, "", " ")
		os.WriteFile(*jsonOut, append(data, '\n'), 0o644)
	}
	summary(os.Stdout, recs)
	if *blame > 0 {
		for i, side := range []string{"ours", "peer"} {
			fmt.Printf("%s: live stacks per rule, summed over code points\n", side)
			names := make([]string, 0, len(blamed[i]))
			for n := range blamed[i] {
				names = append(names, n)
			}
			sort.Slice(names, func(a, b int) bool {
				if blamed[i][names[a]] != blamed[i][names[b]] {
					return blamed[i][names[a]] > blamed[i][names[b]]
				}
				return names[a] < names[b]
			})
			for _, n := range names[:min(*blame, len(names))] {
				fmt.Printf("  %8d %s\n", blamed[i][n], n)
			}
		}
	}
}

func one(file string, texts []string, compactOurs bool, eng *engine, withPeer, withTime bool, nTexts, maxRunes, minMs int) (Record, bool) {
	rec := Record{File: file}
	data, err := os.ReadFile(file)
	if err != nil {
		return rec, false
	}
	ours, err := schema2gbnf.Compile(data, schema2gbnf.Options{})
	if err != nil {
		return rec, false
	}
	compact, err := schema2gbnf.Compile(data, schema2gbnf.Options{Whitespace: compile.Compact})
	if err != nil {
		return rec, false
	}
	var closed *schema2gbnf.Grammar
	sampleFrom := compact.Rules
	if closedAgainst {
		closedCompact, err := schema2gbnf.Compile(data, schema2gbnf.Options{Whitespace: compile.Compact, ClosedObjects: true})
		if err != nil {
			return rec, false
		}
		if closed, err = schema2gbnf.Compile(data, schema2gbnf.Options{ClosedObjects: true}); err != nil {
			return rec, false
		}
		sampleFrom = closedCompact.Rules // texts every grammar accepts
	}
	if texts == nil {
		s, err := gbnf.NewSampler(sampleFrom, 1)
		if err != nil {
			return rec, false
		}
		seen := map[string]bool{}
		for try := 0; try < 4*nTexts && len(texts) < nTexts; try++ {
			if t, ok := s.Sample(maxRunes); ok && !seen[t] {
				seen[t] = true
				texts = append(texts, t)
			}
		}
		rec.sampled = texts
	}
	grammars := []string{ours.GBNF}
	if compactOurs {
		grammars[0] = compact.GBNF
	}
	if closedAgainst {
		grammars = append(grammars, closed.GBNF)
	} else if withPeer && againstDir != "" {
		h := sha256.Sum256([]byte(file))
		other, err := os.ReadFile(filepath.Join(againstDir, hex.EncodeToString(h[:8])+".gbnf"))
		if err != nil {
			return rec, false
		}
		grammars = append(grammars, string(other))
	} else if withPeer {
		var p struct{ GBNF, Error string }
		if err := eng.call(map[string]any{"op": "peer", "schema": string(data)}, &p); err != nil || p.Error != "" {
			return rec, false
		}
		peerGBNF, _ := bench.StripPeerSuffix(p.GBNF)
		grammars = append(grammars, peerGBNF)
		if withPeerTexts && rec.sampled != nil {
			texts = append(texts, peerTexts(ours, grammars[1], nTexts, maxRunes)...)
			rec.sampled = texts
		}
	}
	parsed := make([]*llamastacks.Grammar, len(grammars))
	for i, text := range grammars {
		if parsed[i], err = llamastacks.Parse(text); err != nil {
			rec.Note = fmt.Sprintf("grammar %d: %v", i, err)
			return rec, false
		}
	}
	// Keep the texts every grammar accepts.
	var common []string
	costs := make([]llamastacks.Cost, len(grammars))
	for i := range costs {
		costs[i].Accepted = true // Add keeps it only while every text is accepted
	}
texts:
	for _, t := range texts {
		cs := make([]llamastacks.Cost, len(grammars))
		for i, g := range parsed {
			c, err := g.Run(t)
			if err != nil || !c.Accepted {
				continue texts
			}
			cs[i] = c
		}
		for i := range costs {
			costs[i] = costs[i].Add(cs[i])
			b, _ := parsed[i].Blame(t)
			if rec.blame[i] == nil {
				rec.blame[i] = map[string]int{}
			}
			for name, n := range b {
				rec.blame[i][name] += n
			}
		}
		common = append(common, t)
		rec.Runes += utf8.RuneCountInString(t)
	}
	rec.Texts = len(common)
	if len(common) == 0 {
		return rec, false
	}
	sides := make([]*Side, len(grammars))
	for i, g := range parsed {
		sides[i] = &Side{Rules: g.Rules, Elements: g.Elements, Cost: costs[i]}
	}
	if withTime {
		var w struct {
			CheckUs  []float64 `json:"check_us"`
			ParseUs  []float64 `json:"parse_us"`
			Accepted [][]bool  `json:"accepted"`
			Error    string    `json:"error"`
		}
		if err := eng.call(map[string]any{"op": "work", "grammars": grammars, "texts": common, "min_ms": minMs}, &w); err == nil && w.Error == "" {
			for i := range sides {
				sides[i].CheckUs, sides[i].ParseUs = w.CheckUs[i], w.ParseUs[i]
				for j, ok := range w.Accepted[i] {
					if !ok {
						rec.Note += fmt.Sprintf("llama.cpp rejects text %d with grammar %d; ", j, i)
					}
				}
			}
		} else {
			rec.Note = fmt.Sprintf("timing failed: %v %s", err, w.Error)
		}
	}
	rec.Ours = sides[0]
	if withPeer {
		rec.Peer = sides[1]
	}
	return rec, true
}

// peerTexts samples the peer's grammar as bench/peer does and keeps the
// canonical spelling of each valid value.
func peerTexts(ours *schema2gbnf.Grammar, peer string, n, maxRunes int) []string {
	sampled, err := bench.SampleTexts(peer, n, maxRunes)
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, t := range sampled {
		doc, err := subsetcheck.Read("text", []byte(t), subsetcheck.Limits{})
		if err != nil {
			continue
		}
		canon, err := compile.Canonical(ours.Schema, doc.Root)
		if err != nil || seen[canon] {
			continue
		}
		seen[canon] = true
		out = append(out, canon)
	}
	return out
}

// per is a figure per code point of the record's texts.
func per(r Record, x int) float64 { return float64(x) / float64(r.Runes) }

func summary(w io.Writer, recs []Record) {
	if len(recs) == 0 {
		fmt.Fprintln(w, "no schemas")
		return
	}
	type fig struct {
		name string
		get  func(r Record, s *Side) float64
	}
	figs := []fig{
		{"stacks/cp", func(r Record, s *Side) float64 { return per(r, s.Cost.Stacks) }},
		{"max stacks", func(r Record, s *Side) float64 { return float64(s.Cost.MaxStacks) }},
		{"built/cp", func(r Record, s *Side) float64 { return per(r, s.Cost.Built) }},
		{"elements/cp", func(r Record, s *Side) float64 { return per(r, s.Cost.Elements) }},
		{"compares/cp", func(r Record, s *Side) float64 { return per(r, s.Cost.Compares) }},
		{"chartests/cp", func(r Record, s *Side) float64 { return per(r, s.Cost.CharTests) }},
		{"model ns/cp", func(r Record, s *Side) float64 { return s.Cost.EngineNanos() / float64(r.Runes) }},
		{"init stacks", func(r Record, s *Side) float64 { return float64(s.Cost.InitStacks) / float64(r.Texts) }},
		{"rules", func(r Record, s *Side) float64 { return float64(s.Rules) }},
		{"elements", func(r Record, s *Side) float64 { return float64(s.Elements) }},
		{"engine ns/cp", func(r Record, s *Side) float64 {
			if s.CheckUs == 0 {
				return math.NaN()
			}
			return 1000 * (s.CheckUs - s.ParseUs) / float64(r.Runes)
		}},
		{"parse us/text", func(r Record, s *Side) float64 {
			if s.CheckUs == 0 {
				return math.NaN()
			}
			return s.ParseUs / float64(r.Texts)
		}},
	}
	runes := 0
	for _, r := range recs {
		runes += r.Runes
	}
	fmt.Fprintf(w, "%d schemas, %d code points\n", len(recs), runes)
	fmt.Fprintf(w, "%-14s %10s %10s %10s %8s %8s %s\n", "figure", "ours mean", "ours max", "peer mean", "geo o/p", "o>p", "worst o/p")
	for _, f := range figs {
		var so, sp, mo float64
		var logSum float64
		var n, worse, nr int
		worst, worstFile := 0.0, ""
		for _, r := range recs {
			o := f.get(r, r.Ours)
			if math.IsNaN(o) {
				continue
			}
			so += o
			mo = max(mo, o)
			n++
			if r.Peer == nil {
				continue
			}
			p := f.get(r, r.Peer)
			sp += p
			if o > 0 && p > 0 {
				q := o / p
				logSum += math.Log(q)
				nr++
				if q > 1.0001 {
					worse++
				}
				if q > worst {
					worst, worstFile = q, filepath.Base(filepath.Dir(r.File))+"/"+filepath.Base(r.File)
				}
			}
		}
		if n == 0 {
			continue
		}
		geo := math.NaN()
		if nr > 0 {
			geo = math.Exp(logSum / float64(nr))
		}
		fmt.Fprintf(w, "%-14s %10.2f %10.1f %10.2f %8.3f %8d %.2f %s\n", f.name, so/float64(n), mo, sp/float64(n), geo, worse, worst, worstFile)
	}
}

// engine is one node process running engine.mjs.
type engine struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startEngine() *engine {
	_, self, _, _ := runtimeCaller()
	cmd := exec.Command("node", filepath.Join(filepath.Dir(self), "engine.mjs"))
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "stackcost: node:", err)
		os.Exit(1)
	}
	return &engine{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
}

func (e *engine) stop() {
	e.in.Close()
	e.cmd.Wait()
}

func (e *engine) call(req, resp any) error {
	data, err := json.Marshal(req)
	if err != nil {
		return err
	}
	if _, err := e.in.Write(append(data, '\n')); err != nil {
		return err
	}
	line, err := e.out.ReadBytes('\n')
	if err != nil {
		return err
	}
	return json.Unmarshal(line, resp)
}

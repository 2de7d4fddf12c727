// Command peer runs schema2gbnf and node-llama-cpp's own converter
// (llama.createGrammarForJsonSchema, "the peer") side by side on every
// *.json schema under the given directories, in one run:
//
//	go run ./bench/peer [-json out.json] [-texts 8] DIR...
//
// Per schema: compile time, grammar bytes and rules of both; then texts
// sampled from our compact grammar (valid values, canonical spelling) are
// checked by llama.cpp's engine with both grammars in the same node process,
// and the time of the texts both accept is compared (decoding cost). Our Go
// matcher is timed on the same texts against llama.cpp on our grammar.
//
// The peer's root ends with `"\n\n\n\n" [\n]*` (a stop marker for its chat
// wrapper); that suffix is cut off its root rule so that both grammars
// describe the bare JSON value and see the very same texts.
// Needs node and interop/node_modules (cd interop && npm ci).
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/bench"
	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/internal/oracle"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

func main() {
	jsonOut := flag.String("json", "", "write per-schema records to this file")
	nTexts := flag.Int("texts", 8, "texts to sample per schema")
	maxRunes := flag.Int("max-runes", 1000, "longest text to sample, in code points")
	minMs := flag.Int("min-ms", 20, "time each text set for at least this long (ms), fastest pass counts")
	decodeEvery := flag.Int("decode-every", 1, "sample and time texts on every n-th schema only (compile figures cover all)")
	minRunes := flag.Int("min-runes", 0, "repeat the common texts in each timed pass until it holds this many code points (at most 64 copies; 0: once). Longer passes mean fewer of them, and on a busy machine the fastest of few passes is the noisier figure")
	timings := flag.Int("timings", 3, "independent decoding-cost measurements per schema (their spread is reported)")
	compact := flag.Bool("compact", false, "compile ours in compact whitespace mode (default: bounded, as a user gets it)")
	timeout := flag.Duration("timeout", 60*time.Second, "give up on a node request after this long, and restart node")
	compileRuns := flag.Int("compile-runs", 5, "compile each schema this many times back to back on both sides (ours: the guarded run and the rest; the peer: JSON.parse and its converter each); the fastest run counts")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: peer [-json out.json] [-texts 8] DIR...")
		os.Exit(2)
	}
	schemas, err := bench.FindSchemas(flag.Args()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "peer:", err)
		os.Exit(1)
	}
	guard := bench.DefaultGuard
	if *compact {
		guard.Options.Whitespace = compile.Compact
	}
	r := &runner{
		eng:      &engine{script: findScript(), timeout: *timeout},
		guard:    guard,
		nTexts:   *nTexts,
		maxRunes: *maxRunes,
		minMs:    *minMs,
		every:    max(*decodeEvery, 1),
		minRunes: *minRunes,
		timings:  max(*timings, 1),
		runs:     max(*compileRuns, 1),
	}
	defer r.eng.stop()
	progress := bench.StderrIsTerminal()
	records := make([]bench.PeerRecord, 0, len(schemas))
	for i, s := range schemas {
		if progress {
			fmt.Fprintf(os.Stderr, "\r%d/%d %-60.60s", i+1, len(schemas), s.Path)
		}
		records = append(records, r.one(s, i%r.every == 0))
	}
	if progress {
		fmt.Fprintln(os.Stderr)
	}
	if *jsonOut != "" {
		run := bench.PeerRun{Command: bench.PublicCommand("go run ./bench/peer " + strings.Join(os.Args[1:], " ")), Env: bench.Env(), Records: records}
		data, err := json.MarshalIndent(run, "", " ")
		if err == nil {
			err = os.WriteFile(*jsonOut, append(data, '\n'), 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "peer:", err)
			os.Exit(1)
		}
	}
	fmt.Print(bench.PeerTables(records))
	if r.eng.restart > 1 {
		fmt.Fprintf(os.Stderr, "node was restarted %d times after a crash or timeout\n", r.eng.restart-1)
	}
}

type runner struct {
	eng      *engine
	guard    bench.Guard
	nTexts   int
	maxRunes int
	minMs    int
	every    int
	minRunes int // code points per timed pass, at least (see copiesFor)
	timings  int // independent decoding-cost measurements per schema
	runs     int // compile runs per schema on each side, the fastest counts
}

// one compiles s with both; with decode, it also samples and times texts.
func (r *runner) one(s bench.Schema, decode bool) bench.PeerRecord {
	rec := bench.PeerRecord{File: s.Path, Subset: s.Subset, CompileRuns: r.runs}
	data, err := bench.ReadSchema(s)
	if err != nil {
		rec.Ours.Status, rec.Ours.Error = "error", err.Error()
		return rec
	}

	// Ours: the default (bounded whitespace) grammar, as a user gets it.
	out := r.guard.Compile(data)
	rec.Ours.Status = string(out.Status)
	rec.Ours.CompileUs = float64(out.Micros)
	if out.Status == bench.Compiled {
		// Timed as the peer's converter is, the fastest of r.runs runs: the
		// first warms caches (and the peer's JIT); a cold run mostly measures
		// what ran before it. Two runs were too few on a shared VM: two
		// whole runs gave medians 1.43 and 1.18 times the peer's.
		for range r.runs - 1 {
			t0 := time.Now()
			if _, err := schema2gbnf.Compile(data, r.guard.Options); err == nil {
				rec.Ours.CompileUs = min(rec.Ours.CompileUs, float64(time.Since(t0).Nanoseconds())/1e3)
			}
		}
	}
	if out.Status != bench.Compiled {
		rec.Ours.Error = firstLine(out.Detail)
	} else {
		rec.Ours.GrammarBytes = len(out.Grammar.GBNF)
		rec.Ours.Rules = countRules(out.Grammar.GBNF)
		rec.Members = bench.MembersOf(out.Grammar.Schema)
	}

	// The peer.
	var peer struct {
		GBNF      string   `json:"gbnf"`
		ParseUs   float64  `json:"parse_us"`
		ConvertUs float64  `json:"convert_us"`
		CreateUs  float64  `json:"create_us"`
		Warnings  []string `json:"warnings"`
		Error     string   `json:"error"`
	}
	peerText := ""
	switch err := r.eng.call(map[string]any{"op": "peer", "schema": string(data), "runs": r.runs}, &peer); {
	case err != nil:
		rec.Peer.Status, rec.Peer.Error = "engine-died", err.Error()
	case peer.Error != "":
		rec.Peer.Status, rec.Peer.Error = "refused", firstLine(peer.Error)
	default:
		rec.Peer.CompileUs, rec.Peer.ParseUs, rec.Peer.ConvertUs, rec.Peer.Warnings = peer.CreateUs, peer.ParseUs, peer.ConvertUs, peer.Warnings
		var ok bool
		peerText, ok = bench.StripPeerSuffix(peer.GBNF)
		if !ok {
			rec.Note = "peer root without the expected newline suffix; kept as is"
		}
		rec.Peer.GrammarBytes = len(peerText)
		rec.Peer.Rules = countRules(peerText)
		if rec.Peer.LoadUs, err = r.load("peer", peerText); err != nil {
			rec.Peer.Status, rec.Peer.Error = "bad-grammar", firstLine(err.Error())
		} else {
			rec.Peer.Status = "compiled"
		}
	}
	if out.Status != bench.Compiled {
		r.free("peer")
		return rec
	}
	if rec.Ours.LoadUs, err = r.load("ours", out.Grammar.GBNF); err != nil {
		rec.Ours.Status, rec.Ours.Error = "bad-grammar", firstLine(err.Error())
		r.free("peer")
		return rec
	}
	if decode {
		if rec.Peer.Status != "compiled" {
			peerText = ""
		}
		r.texts(&rec, data, out.Grammar, peerText)
	}
	r.free("ours")
	r.free("peer")
	return rec
}

// texts gathers valid texts from both grammars, checks them with both in
// llama.cpp and with our matcher, and times what can be compared.
func (r *runner) texts(rec *bench.PeerRecord, data []byte, ours *schema2gbnf.Grammar, peerText string) {
	withPeer := peerText != ""
	// Our Go matcher on the default grammar: the judge of which texts are valid
	// (the grammar is exact: it accepts what the validator accepts).
	var m *gbnf.Matcher
	if err := guarded(30*time.Second, func() (err error) { m, err = gbnf.NewMatcher(ours.Rules); return err }); err != nil {
		rec.Note = "NewMatcher: " + firstLine(err.Error())
		return
	}
	matches := func(t string) bool {
		ok := false
		if err := guarded(30*time.Second, func() error { ok = m.Match(t).Accepted; return nil }); err != nil {
			rec.Note = "Match: " + firstLine(err.Error())
		}
		return ok
	}

	var texts []string
	seen := map[string]bool{}
	sampled := guarded(30*time.Second, func() error {
		compact, err := schema2gbnf.Compile(data, schema2gbnf.Options{Whitespace: compile.Compact})
		if err != nil {
			return err
		}
		cm, err := gbnf.NewMatcher(compact.Rules)
		if err != nil {
			return err
		}
		s, err := gbnf.NewSampler(compact.Rules, 1)
		if err != nil {
			return err
		}
		for try := 0; try < 4*r.nTexts && len(texts) < r.nTexts; try++ {
			t, ok := s.Sample(r.maxRunes)
			switch {
			case !ok || seen[t]:
			case !cm.Match(t).Accepted: // the sampler and the matcher disagree: a bug, and not a valid text
				rec.SampleRejected++
			default:
				seen[t] = true
				texts = append(texts, t)
			}
		}
		return nil
	})
	if sampled != nil {
		rec.Note = "sampling: " + firstLine(sampled.Error())
		return
	}
	rec.Texts = len(texts)

	// Texts from the peer's grammar: full objects in the peer's shape (every
	// declared property, in order), kept in their canonical spelling when the
	// value is valid, so that both sets of texts are spelled alike.
	var peerTexts []string
	if withPeer {
		if err := guarded(30*time.Second, func() error {
			var err error
			peerTexts, err = bench.SampleTexts(peerText, r.nTexts, r.maxRunes)
			return err
		}); err != nil {
			rec.Note = "peer sampling: " + firstLine(err.Error())
		}
	}
	rec.PeerTexts = len(peerTexts)
	var peerValid, peerRefused []string // canonical texts of valid values; strict JSON texts whose value is not
	for _, t := range peerTexts {
		doc, err := subsetcheck.Read("text", []byte(t), subsetcheck.Limits{})
		if err != nil { // a lone surrogate escape or a repeated name: not strict JSON
			rec.PeerNotStrict++
			continue
		}
		canon, err := compile.Canonical(ours.Schema, doc.Root)
		switch {
		case errors.Is(err, compile.ErrBeyondExponent):
			// A number like 1234e9999: no canonical spelling within compile.MaxExponent,
			// whatever the schema says of it; such values are left out.
			rec.PeerBeyondLimits++
			continue
		case err != nil:
			peerRefused = append(peerRefused, t)
			continue
		}
		rec.PeerTextsValid++
		if !seen[canon] {
			seen[canon] = true
			if !matches(canon) { // our grammar must accept every canonical text: a bug
				rec.CanonRejected++
				continue
			}
			peerValid = append(peerValid, canon)
		}
	}
	var first string
	rec.OracleDisagree, first = oracleDisagreements(data, ours, append(append([]string(nil), texts...), peerValid...), peerRefused, matches)
	if first != "" {
		rec.Note = firstLine(first)
	}

	all := append(append([]string(nil), texts...), peerValid...)
	if len(all) == 0 {
		return
	}
	var oursOK, peerOK struct {
		Accepted []bool `json:"accepted"`
		Error    string `json:"error"`
	}
	if err := r.eng.call(map[string]any{"op": "accepts", "id": "ours", "texts": all}, &oursOK); err != nil || oursOK.Error != "" {
		rec.Note = "llama.cpp accepts (ours) failed"
		return
	}
	if withPeer {
		if err := r.eng.call(map[string]any{"op": "accepts", "id": "peer", "texts": all}, &peerOK); err != nil || peerOK.Error != "" {
			withPeer = false
		}
	}
	var common, mine []string
	for i, t := range all {
		fromOurs := i < len(texts)
		if fromOurs && matches(t) != oursOK.Accepted[i] {
			rec.Disagree++
		}
		if !oursOK.Accepted[i] {
			continue
		}
		mine = append(mine, t)
		rec.MatchBytes += len(t)
		if fromOurs {
			rec.OursAccepted++
		}
		if withPeer && peerOK.Accepted[i] {
			common = append(common, t)
			rec.CommonBytes += len(t)
			rec.CommonRunes += utf8.RuneCountInString(t)
			if fromOurs {
				rec.PeerAcceptsOurs++
			} else {
				rec.PeerTextsCommon++
			}
		}
	}
	// Peer texts our matcher accepts but llama.cpp rejects with our grammar.
	for i := len(texts); i < len(all); i++ {
		if !oursOK.Accepted[i] {
			rec.Disagree++
		}
	}
	rec.Common = len(common)

	if len(common) > 0 {
		rec.Copies = copiesFor(rec.CommonRunes, r.minRunes)
		timed := repeat(common, rec.Copies)
		for range r.timings {
			var w struct {
				CheckUs []float64 `json:"check_us"`
				ParseUs []float64 `json:"parse_us"`
				Error   string    `json:"error"`
			}
			if err := r.eng.call(map[string]any{"op": "work", "ids": []string{"ours", "peer"}, "texts": timed, "min_ms": r.minMs}, &w); err != nil || w.Error != "" {
				break
			}
			c := float64(rec.Copies)
			rec.Timings = append(rec.Timings, bench.Timing{
				OursCheckUs: w.CheckUs[0] / c, PeerCheckUs: w.CheckUs[1] / c,
				OursParseUs: w.ParseUs[0], PeerParseUs: w.ParseUs[1],
			})
		}
	}
	if len(mine) > 0 {
		var timed struct {
			Us    []float64 `json:"us"`
			Error string    `json:"error"`
		}
		if err := r.eng.call(map[string]any{"op": "time", "ids": []string{"ours"}, "texts": mine, "min_ms": r.minMs}, &timed); err == nil && timed.Error == "" {
			rec.LlamaMatchUs = timed.Us[0]
			rec.GoMatchUs = timeGo(m, mine, time.Duration(r.minMs)*time.Millisecond)
		}
	}
}

// oracleDisagreements counts the texts on which the validator disagrees with
// us (a bug on one side): valid texts our matcher judges otherwise, and texts
// the validator accepts although compile.Canonical found their value invalid.
// 0 when the validator cannot load the schema.
func oracleDisagreements(data []byte, ours *schema2gbnf.Grammar, texts, refused []string, matches func(string) bool) (n int, first string) {
	guarded(30*time.Second, func() error {
		o, err := oracle.New(data, ours.Schema.Draft)
		if err != nil {
			return err
		}
		note := func(valid bool, t string) {
			if n++; n == 1 {
				first = fmt.Sprintf("validator says %v, we say %v: %s", valid, !valid, t)
			}
		}
		for _, t := range texts {
			if valid, err := o.Valid(t); err == nil && valid != matches(t) {
				note(valid, t)
			}
		}
		for _, t := range refused {
			if valid, err := o.Valid(t); err == nil && valid {
				note(valid, t)
			}
		}
		return nil
	})
	return n, first
}

// copiesFor is how many times a text set of runes code points is repeated in
// one timed pass so that a pass steps through at least minRunes code points
// (at most maxCopies). Measured on 42 Kubernetes schemas under load, 4000
// made the work ratio less repeatable than 1 (p90 apart 250% vs 10%): the
// fastest of many short passes beats the fastest of a few long ones.
func copiesFor(runes, minRunes int) int {
	const maxCopies = 64
	if runes <= 0 {
		return 1
	}
	return min(max((minRunes+runes-1)/runes, 1), maxCopies)
}

func repeat(texts []string, copies int) []string {
	out := make([]string, 0, len(texts)*copies)
	for range copies {
		out = append(out, texts...)
	}
	return out
}

// timeGo is the fastest pass of the Go matcher over texts, in µs, taking at
// least 3 passes and at least minDur (at most 50 passes), as llama.mjs does.
func timeGo(m *gbnf.Matcher, texts []string, minDur time.Duration) float64 {
	best := time.Duration(1<<63 - 1)
	start := time.Now()
	for reps := 0; reps < 3 || (reps < 50 && time.Since(start) < minDur); reps++ {
		t0 := time.Now()
		for _, t := range texts {
			m.Match(t)
		}
		best = min(best, time.Since(t0))
	}
	return float64(best.Nanoseconds()) / 1e3
}

func (r *runner) load(id, grammar string) (float64, error) {
	var resp struct {
		LoadUs float64 `json:"load_us"`
		Error  string  `json:"error"`
	}
	if err := r.eng.call(map[string]any{"op": "load", "id": id, "grammar": grammar}, &resp); err != nil {
		return 0, err
	}
	if resp.Error != "" {
		return 0, fmt.Errorf("%s", resp.Error)
	}
	return resp.LoadUs, nil
}

func (r *runner) free(id string) {
	var resp struct{}
	r.eng.call(map[string]any{"op": "free", "id": id}, &resp)
}

// guarded runs f, turning a panic into an error and giving up (leaving f
// behind) after d: a bug in the sampler or matcher must not stop the run.
func guarded(d time.Duration, f func() error) error {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("panic: %v", p)
			}
		}()
		done <- f()
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		return fmt.Errorf("still running after %v", d)
	}
}

// countRules counts rule definitions the same way for both grammars: lines
// holding "::=" outside a literal (a crude but even-handed count).
func countRules(g string) int {
	n := 0
	for _, l := range strings.Split(g, "\n") {
		if i := strings.Index(l, "::="); i > 0 && !strings.Contains(l[:i], `"`) {
			n++
		}
	}
	return n
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

package bench

import (
	"fmt"
	"math"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
)

// PeerRecord is one schema's line in a side-by-side run (bench/peer -json):
// our compiler against node-llama-cpp's createGrammarForJsonSchema, with
// both grammars run by llama.cpp's engine in the same process.
type PeerRecord struct {
	File   string `json:"file"`
	Subset string `json:"subset"`

	Ours Side `json:"ours"`
	Peer Side `json:"peer"`

	// CompileRuns is how many times each side compiled the schema, back to
	// back; the fastest run counts (0: two, in runs before the count was
	// recorded).
	CompileRuns int `json:"compile_runs,omitempty"`

	// Texts: valid values, sampled from our compact grammar and from the
	// peer's grammar (kept, in canonical spelling, when the value is valid).
	Texts            int `json:"texts"`                        // sampled from our compact grammar
	SampleRejected   int `json:"sample_rejected,omitempty"`    // sampled texts our matcher rejects: a bug
	OursAccepted     int `json:"ours_accepted"`                // of Texts, accepted by llama.cpp with our grammar
	PeerAcceptsOurs  int `json:"peer_accepts_ours"`            // of those, accepted with the peer's grammar too
	PeerTexts        int `json:"peer_texts"`                   // sampled from the peer's grammar, distinct
	PeerNotStrict    int `json:"peer_not_strict,omitempty"`    // of those, not strict JSON (lone surrogate escape, repeated name)
	PeerBeyondLimits int `json:"peer_beyond_limits,omitempty"` // of those, with a number beyond compile.MaxExponent (e.g. 1234e9999): left out
	PeerTextsValid   int `json:"peer_texts_valid"`             // of those, valid values (compile.Canonical accepts them)
	CanonRejected    int `json:"canon_rejected,omitempty"`     // canonical texts our matcher rejects: a bug, left out
	PeerTextsCommon  int `json:"peer_texts_common"`            // canonical texts accepted by llama.cpp with both grammars
	OracleDisagree   int `json:"oracle_disagree,omitempty"`    // texts where the validator and we differ: a bug

	// Decoding cost, over the Common texts (both origins) that llama.cpp
	// accepts with both grammars, repeated Copies times in each timed pass.
	Common      int      `json:"common"`
	CommonBytes int      `json:"common_bytes"`
	CommonRunes int      `json:"common_runes"` // code points, what llama.cpp's engine steps through
	Copies      int      `json:"copies,omitempty"`
	Timings     []Timing `json:"timings,omitempty"` // independent measurements, to see how repeatable they are

	// Matcher throughput on our grammar, over the texts llama.cpp accepts with it.
	MatchBytes   int     `json:"match_bytes"`
	GoMatchUs    float64 `json:"go_match_us,omitempty"`    // our Go matcher, one pass
	LlamaMatchUs float64 `json:"llama_match_us,omitempty"` // llama.cpp isTextCompatible, one pass
	Disagree     int     `json:"disagree,omitempty"`       // texts where the Go matcher and llama.cpp differ: a bug
	Note         string  `json:"note,omitempty"`

	// Members is how the schema declares object members (MembersOf): the
	// decoding table by members compares like with like.
	Members string `json:"members,omitempty"`
}

// Side is what one compiler made of a schema.
type Side struct {
	Status       string   `json:"status"` // compiled, refused, crash, bad-grammar (llama.cpp cannot load it), engine-died
	CompileUs    float64  `json:"compile_us,omitempty"`
	ParseUs      float64  `json:"parse_us,omitempty"`   // peer: JSON.parse of the schema text (our Compile reads the text itself)
	ConvertUs    float64  `json:"convert_us,omitempty"` // peer: the converter alone, without llama.cpp's parse
	LoadUs       float64  `json:"load_us,omitempty"`    // llama.cpp parsing the grammar
	GrammarBytes int      `json:"grammar_bytes,omitempty"`
	Rules        int      `json:"rules,omitempty"`
	Warnings     []string `json:"warnings,omitempty"` // peer: what it said it ignored
	Error        string   `json:"error,omitempty"`
}

// Timing is one measurement of llama.cpp's isTextCompatible on the common
// texts with both grammars, taking turns in one process, fastest pass of
// each. isTextCompatible parses the grammar source on every call, so
// CheckUs = Common x ParseUs + the engine's work on the texts' code points.
type Timing struct {
	OursCheckUs float64 `json:"ours_check_us"` // one pass over the common texts (one copy)
	PeerCheckUs float64 `json:"peer_check_us"`
	OursParseUs float64 `json:"ours_parse_us"` // one isTextCompatible(""): the parse alone
	PeerParseUs float64 `json:"peer_parse_us"`
}

// PeerRun is a side-by-side run as written by bench/peer -json.
type PeerRun struct {
	Command string       `json:"command"`
	Env     string       `json:"env"` // see Env
	Records []PeerRecord `json:"records"`
}

// PeerTables renders a side-by-side run as Markdown. Ratios are ours / peer,
// per schema, over the schemas both compile (and, for decoding, with at
// least one text both accept); below 1 means ours is smaller or faster.
func PeerTables(recs []PeerRecord) string {
	var b strings.Builder
	count := func(f func(PeerRecord) bool) int {
		n := 0
		for _, r := range recs {
			if f(r) {
				n++
			}
		}
		return n
	}
	both := func(r PeerRecord) bool { return r.Ours.Status == "compiled" && r.Peer.Status == "compiled" }
	n := len(recs)
	fmt.Fprintf(&b, "| schemas | %d |\n|---|---:|\n", n)
	for _, row := range []struct {
		label string
		f     func(PeerRecord) bool
	}{
		{"ours: compiled", func(r PeerRecord) bool { return r.Ours.Status == "compiled" }},
		{"ours: refused (named reason)", func(r PeerRecord) bool { return r.Ours.Status == "refused" }},
		{"ours: crash/error/hang, or llama.cpp cannot load the grammar", func(r PeerRecord) bool {
			return r.Ours.Status != "compiled" && r.Ours.Status != "refused"
		}},
		{"peer: grammar produced and loaded", func(r PeerRecord) bool { return r.Peer.Status == "compiled" }},
		{"peer: … of them with a warning that it ignored part of the schema", func(r PeerRecord) bool {
			return r.Peer.Status == "compiled" && len(r.Peer.Warnings) > 0
		}},
		{"peer: threw", func(r PeerRecord) bool { return r.Peer.Status == "refused" }},
		{"peer: grammar llama.cpp cannot load, or engine died", func(r PeerRecord) bool {
			return r.Peer.Status != "compiled" && r.Peer.Status != "refused"
		}},
		{"both compiled", both},
	} {
		c := count(row.f)
		fmt.Fprintf(&b, "| %s | %d (%s) |\n", row.label, c, pct(c, n))
	}

	var fromText, fromTextRatio, oursPerByte, peerPerByte, perByteRatio []float64
	var oursUs, peerUs, convUs, usRatio, convRatio, oursReady, oursLoad, peerLoad, oursBytes, peerBytes, bytesRatio, oursRules, peerRules []float64
	var goBytes, goUs, llamaUs float64
	var matchRatio []float64
	for _, r := range recs {
		if r.Ours.Status == "compiled" {
			if r.GoMatchUs > 0 && r.LlamaMatchUs > 0 {
				goBytes += float64(r.MatchBytes)
				goUs += r.GoMatchUs
				llamaUs += r.LlamaMatchUs
				matchRatio = append(matchRatio, r.LlamaMatchUs/r.GoMatchUs)
			}
		}
		if !both(r) {
			continue
		}
		oursUs = append(oursUs, r.Ours.CompileUs)
		peerUs = append(peerUs, r.Peer.CompileUs)
		convUs = append(convUs, r.Peer.ConvertUs)
		convRatio = append(convRatio, r.Ours.CompileUs/r.Peer.ConvertUs)
		if r.Peer.ParseUs > 0 { // absent from runs before it was measured
			fromText = append(fromText, r.Peer.ParseUs+r.Peer.ConvertUs)
			fromTextRatio = append(fromTextRatio, r.Ours.CompileUs/(r.Peer.ParseUs+r.Peer.ConvertUs))
		}
		if r.Ours.GrammarBytes > 0 && r.Peer.GrammarBytes > 0 {
			o, p := 1e3*r.Ours.CompileUs/float64(r.Ours.GrammarBytes), 1e3*r.Peer.ConvertUs/float64(r.Peer.GrammarBytes)
			oursPerByte, peerPerByte, perByteRatio = append(oursPerByte, o), append(peerPerByte, p), append(perByteRatio, o/p)
		}
		oursReady = append(oursReady, r.Ours.CompileUs+r.Ours.LoadUs)
		usRatio = append(usRatio, (r.Ours.CompileUs+r.Ours.LoadUs)/r.Peer.CompileUs)
		oursLoad = append(oursLoad, r.Ours.LoadUs)
		peerLoad = append(peerLoad, r.Peer.LoadUs)
		oursBytes = append(oursBytes, float64(r.Ours.GrammarBytes))
		peerBytes = append(peerBytes, float64(r.Peer.GrammarBytes))
		bytesRatio = append(bytesRatio, float64(r.Ours.GrammarBytes)/float64(r.Peer.GrammarBytes))
		oursRules = append(oursRules, float64(r.Ours.Rules))
		peerRules = append(peerRules, float64(r.Peer.Rules))
	}
	b.WriteString("\n| measure (schemas both compile) | ours median / p90 / p99 / max | peer median / p90 / p99 / max | ratio ours/peer median / p90 / max |\n|---|---:|---:|---:|\n")
	dist := func(xs []float64, f string) string {
		s := Summarize(xs)
		return fmt.Sprintf(f+" / "+f+" / "+f+" / "+f, s.Median, s.P90, s.P99, s.Max)
	}
	ratio := func(xs []float64) string {
		s := Summarize(xs)
		return fmt.Sprintf("%.2f / %.2f / %.2f", s.Median, s.P90, s.Max)
	}
	runs := compileRuns(recs)
	fmt.Fprintf(&b, "| compile µs, converter alone (ours: Compile; peer: getGbnfGrammarForGbnfJsonSchema; fastest of %s runs each) | %s | %s | %s |\n", runs, dist(oursUs, "%.0f"), dist(convUs, "%.0f"), ratio(convRatio))
	if len(fromText) > 0 {
		fmt.Fprintf(&b, "| compile µs from the schema's text (ours: Compile, which reads it; peer: JSON.parse, then the converter; fastest of %s runs each) | %s | %s | %s |\n", runs, dist(oursUs, "%.0f"), dist(fromText, "%.0f"), ratio(fromTextRatio))
	}
	fmt.Fprintf(&b, "| compile ns per grammar byte written (the converter alone; ours writes the larger grammar) | %s | %s | %s |\n", dist(oursPerByte, "%.1f"), dist(peerPerByte, "%.1f"), ratio(perByteRatio))
	fmt.Fprintf(&b, "| compile and llama.cpp's parse µs (ours: the above + createGrammar; peer: createGrammarForJsonSchema) | %s | %s | %s |\n", dist(oursReady, "%.0f"), dist(peerUs, "%.0f"), ratio(usRatio))
	fmt.Fprintf(&b, "| llama.cpp grammar load µs | %s | %s | |\n", dist(oursLoad, "%.0f"), dist(peerLoad, "%.0f"))
	fmt.Fprintf(&b, "| grammar bytes | %s | %s | %s |\n", dist(oursBytes, "%.0f"), dist(peerBytes, "%.0f"), ratio(bytesRatio))
	fmt.Fprintf(&b, "| rules | %s | %s | |\n", dist(oursRules, "%.0f"), dist(peerRules, "%.0f"))

	b.WriteString(decodingTables(recs))
	if goUs > 0 && llamaUs > 0 {
		m := Summarize(matchRatio)
		fmt.Fprintf(&b, "Matcher throughput on our grammars (same texts): Go matcher %.2f MB/s, llama.cpp engine %.2f MB/s "+
			"(Go faster by %.1f× in total; per schema median %.1f×, over %d schemas).\n",
			goBytes/goUs, goBytes/llamaUs, llamaUs/goUs, m.Median, m.N)
	}
	return b.String()
}

// compileRuns says how many compile runs per side the records took the
// fastest of: "5", or "2-5" when runs with different counts were merged.
func compileRuns(recs []PeerRecord) string {
	lo, hi := 0, 0
	for _, r := range recs {
		n := r.CompileRuns
		if n == 0 {
			n = 2
		}
		if lo == 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d-%d", lo, hi)
}

// DecodeCost is one schema's decoding figures, each from the fastest of its
// timings. Work is a check's time less the parses it made: what llama.cpp
// pays per code point once a grammar is loaded, as in real decoding.
type DecodeCost struct {
	OursParseUs, PeerParseUs float64 // one parse of the grammar (isTextCompatible(""))
	OursCheckUs, PeerCheckUs float64 // checking every common text once: parses plus work
	OursWorkNs, PeerWorkNs   float64 // work per code point, ns; <= 0 when lost in the noise
}

// Cost computes the decoding figures from the fastest of the timings; false
// when nothing was timed.
func (r PeerRecord) Cost() (DecodeCost, bool) {
	if len(r.Timings) == 0 || r.Common == 0 || r.CommonRunes == 0 {
		return DecodeCost{}, false
	}
	best := r.Timings[0]
	for _, t := range r.Timings[1:] {
		best.OursCheckUs = min(best.OursCheckUs, t.OursCheckUs)
		best.PeerCheckUs = min(best.PeerCheckUs, t.PeerCheckUs)
		best.OursParseUs = min(best.OursParseUs, t.OursParseUs)
		best.PeerParseUs = min(best.PeerParseUs, t.PeerParseUs)
	}
	return r.cost(best), true
}

func (r PeerRecord) cost(t Timing) DecodeCost {
	n, cp := float64(r.Common), float64(r.CommonRunes)
	return DecodeCost{
		OursParseUs: t.OursParseUs, PeerParseUs: t.PeerParseUs,
		OursCheckUs: t.OursCheckUs, PeerCheckUs: t.PeerCheckUs,
		OursWorkNs: (t.OursCheckUs - n*t.OursParseUs) * 1e3 / cp,
		PeerWorkNs: (t.PeerCheckUs - n*t.PeerParseUs) * 1e3 / cp,
	}
}

// Measurable says whether both work figures came out above zero.
func (c DecodeCost) Measurable() bool { return c.OursWorkNs > 0 && c.PeerWorkNs > 0 }

// spread is how far two measurements of a ratio are apart: max/min - 1.
func spread(a, b float64) float64 { return max(a, b)/min(a, b) - 1 }

// decodingTables renders the decoding-cost figures: engine work per code
// point, parse, and the whole check (parse + work, the figure before the two
// were split), ours / peer per schema, and how repeatable they are.
func decodingTables(recs []PeerRecord) string {
	var b strings.Builder
	var oursParse, peerParse, parseRatio, oursWork, peerWork, workRatio, oursCheck, peerCheck, checkRatio []float64
	var oursShare, peerShare, workSpread, parseSpread, checkSpread []float64
	var oursSolid, peerSolid, solidRatio, solidSpread []float64 // where work is at least half of both checks
	var oursSame, peerSame, sameRatio []float64                 // where the peer accepts every text sampled from ours
	var logBytes, logWork, logCheck []float64                   // log ratios, to see what follows grammar size
	solidSlower, sameSlower := 0, 0
	var sumOursWork, sumPeerWork float64
	var costed, lost, workSlower, parseSlower, checkSlower int
	var texts, oursOK, peerAcceptsOurs, peerTexts, peerValid, peerCommon, common, disagree, oracle, canonRejected, sampleRejected, peerNotStrict, peerBeyond int
	var commonPer, runesPer []float64
	for _, r := range recs {
		if r.Ours.Status != "compiled" {
			continue
		}
		disagree += r.Disagree
		oracle += r.OracleDisagree
		canonRejected += r.CanonRejected
		sampleRejected += r.SampleRejected
		if r.Peer.Status != "compiled" {
			continue
		}
		texts += r.Texts
		oursOK += r.OursAccepted
		peerAcceptsOurs += r.PeerAcceptsOurs
		peerTexts += r.PeerTexts
		peerValid += r.PeerTextsValid
		peerNotStrict += r.PeerNotStrict
		peerBeyond += r.PeerBeyondLimits
		peerCommon += r.PeerTextsCommon
		common += r.Common
		c, ok := r.Cost()
		if !ok {
			continue
		}
		costed++
		commonPer = append(commonPer, float64(r.Common))
		runesPer = append(runesPer, float64(r.CommonRunes)/float64(r.Common))
		oursParse = append(oursParse, c.OursParseUs)
		peerParse = append(peerParse, c.PeerParseUs)
		parseRatio = append(parseRatio, c.OursParseUs/c.PeerParseUs)
		perText := float64(r.Common)
		oursCheck = append(oursCheck, c.OursCheckUs/perText)
		peerCheck = append(peerCheck, c.PeerCheckUs/perText)
		checkRatio = append(checkRatio, c.OursCheckUs/c.PeerCheckUs)
		if c.OursParseUs > c.PeerParseUs {
			parseSlower++
		}
		if c.OursCheckUs > c.PeerCheckUs {
			checkSlower++
		}
		if !c.Measurable() {
			lost++
			continue
		}
		x := c.OursWorkNs / c.PeerWorkNs
		oursWork = append(oursWork, c.OursWorkNs)
		peerWork = append(peerWork, c.PeerWorkNs)
		workRatio = append(workRatio, x)
		if x > 1 {
			workSlower++
		}
		logBytes = append(logBytes, math.Log(float64(r.Ours.GrammarBytes)/float64(r.Peer.GrammarBytes)))
		logWork = append(logWork, math.Log(x))
		logCheck = append(logCheck, math.Log(c.OursCheckUs/c.PeerCheckUs))
		cp := float64(r.CommonRunes)
		sumOursWork += c.OursWorkNs * cp
		sumPeerWork += c.PeerWorkNs * cp
		oursShare = append(oursShare, 100*c.OursWorkNs*cp/1e3/c.OursCheckUs)
		peerShare = append(peerShare, 100*c.PeerWorkNs*cp/1e3/c.PeerCheckUs)
		solid := c.OursWorkNs*cp/1e3 >= c.OursCheckUs/2 && c.PeerWorkNs*cp/1e3 >= c.PeerCheckUs/2
		if solid {
			oursSolid = append(oursSolid, c.OursWorkNs)
			peerSolid = append(peerSolid, c.PeerWorkNs)
			solidRatio = append(solidRatio, x)
			if x > 1 {
				solidSlower++
			}
		}
		if r.PeerAcceptsOurs == r.OursAccepted && r.OursAccepted >= 2 {
			oursSame = append(oursSame, c.OursWorkNs)
			peerSame = append(peerSame, c.PeerWorkNs)
			sameRatio = append(sameRatio, x)
			if x > 1 {
				sameSlower++
			}
		}
		if len(r.Timings) >= 2 {
			t0, t1 := r.cost(r.Timings[0]), r.cost(r.Timings[1])
			parseSpread = append(parseSpread, 100*spread(t0.OursParseUs/t0.PeerParseUs, t1.OursParseUs/t1.PeerParseUs))
			checkSpread = append(checkSpread, 100*spread(t0.OursCheckUs/t0.PeerCheckUs, t1.OursCheckUs/t1.PeerCheckUs))
			if t0.Measurable() && t1.Measurable() {
				workSpread = append(workSpread, 100*spread(t0.OursWorkNs/t0.PeerWorkNs, t1.OursWorkNs/t1.PeerWorkNs))
				if solid {
					solidSpread = append(solidSpread, workSpread[len(workSpread)-1])
				}
			}
		}
	}
	dist := func(xs []float64, f string) string {
		s := Summarize(xs)
		return fmt.Sprintf(f+" / "+f+" / "+f+" / "+f, s.Median, s.P90, s.P99, s.Max)
	}
	ratio := func(xs []float64) string {
		s := Summarize(xs)
		return fmt.Sprintf("%.2f / %.2f / %.2f", s.Median, s.P90, s.Max)
	}
	fmt.Fprintf(&b, "\nDecoding cost: llama.cpp's `isTextCompatible` on the same valid texts with both grammars, taking turns in one process, "+
		"fastest pass; %d schemas with texts both grammars accept (median %.0f texts of %.0f code points each).\n\n",
		costed, Summarize(commonPer).Median, Summarize(runesPer).Median)
	b.WriteString("| decoding (schemas with common texts) | ours median / p90 / p99 / max | peer median / p90 / p99 / max | ratio ours/peer median / p90 / max | ours slower on |\n|---|---:|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| engine work, ns per code point (check less its parse) | %s | %s | %s | %d of %d (%s) |\n",
		dist(oursWork, "%.0f"), dist(peerWork, "%.0f"), ratio(workRatio), workSlower, len(workRatio), pct(workSlower, len(workRatio)))
	fmt.Fprintf(&b, "| … the same where work is at least half of both checks (the subtraction is safe) | %s | %s | %s | %d of %d (%s) |\n",
		dist(oursSolid, "%.0f"), dist(peerSolid, "%.0f"), ratio(solidRatio), solidSlower, len(solidRatio), pct(solidSlower, len(solidRatio)))
	fmt.Fprintf(&b, "| … the same where the peer's grammar accepts every text (at least 2) sampled from ours: nearly the same language | %s | %s | %s | %d of %d (%s) |\n",
		dist(oursSame, "%.0f"), dist(peerSame, "%.0f"), ratio(sameRatio), sameSlower, len(sameRatio), pct(sameSlower, len(sameRatio)))
	fmt.Fprintf(&b, "| load: one parse of the grammar, µs (`isTextCompatible(\"\")`) | %s | %s | %s | %d of %d (%s) |\n",
		dist(oursParse, "%.0f"), dist(peerParse, "%.0f"), ratio(parseRatio), parseSlower, costed, pct(parseSlower, costed))
	fmt.Fprintf(&b, "| whole check per text, µs (parse + work: the old figure) | %s | %s | %s | %d of %d (%s) |\n",
		dist(oursCheck, "%.0f"), dist(peerCheck, "%.0f"), ratio(checkRatio), checkSlower, costed, pct(checkSlower, costed))
	fmt.Fprintf(&b, "| work's share of a check, %% | %s | %s | | |\n", dist(oursShare, "%.0f"), dist(peerShare, "%.0f"))
	b.WriteString(membersTable(recs))
	fmt.Fprintf(&b, "\nEngine work summed over the texts of all compared schemas: ours %.1f ms, peer %.1f ms (%.2f×). "+
		"Work lost in the noise (a check not above its parses, left out): %d schemas. "+
		"Correlation of the log ratio with the log grammar-bytes ratio, over the same schemas: engine work %.2f, whole check %.2f.\n",
		sumOursWork/1e6, sumPeerWork/1e6, sumOursWork/max(sumPeerWork, 1e-9), lost, Correlation(logWork, logBytes), Correlation(logCheck, logBytes))
	ws, ss, ps, cs := Summarize(workSpread), Summarize(solidSpread), Summarize(parseSpread), Summarize(checkSpread)
	fmt.Fprintf(&b, "Repeatability: two independent measurements per schema (the figures above take the faster of each part), "+
		"their ratios ours/peer apart by (max/min − 1) median / p90: engine work %.1f%% / %.1f%% (%d schemas; where work is at least half of both checks %.1f%% / %.1f%%), "+
		"parse %.1f%% / %.1f%%, whole check %.1f%% / %.1f%%.\n",
		ws.Median, ws.P90, ws.N, ss.Median, ss.P90, ps.Median, ps.P90, cs.Median, cs.P90)
	fmt.Fprintf(&b, "Texts (schemas both compile): %d sampled from our compact grammars, llama.cpp accepts %d with ours, the peer's grammar %d of them (rejects %s: "+
		"it makes every declared property required, forbids unlisted ones, drops parts it does not support); "+
		"%d sampled from the peer's grammar, %d of them valid values (%s; %d are not even strict JSON, e.g. a lone surrogate escape, "+
		"%d hold a number beyond the exponent our canonical form spells (compile.MaxExponent, e.g. 1234e9999) and are left out, "+
		"the others break a constraint the peer does not enforce), kept in canonical spelling: %d distinct new texts that llama.cpp accepts with both; %d common texts in all.\n",
		texts, oursOK, peerAcceptsOurs, pct(oursOK-peerAcceptsOurs, oursOK), peerTexts, peerValid, pct(peerValid, peerTexts), peerNotStrict, peerBeyond, peerCommon, common)
	fmt.Fprintf(&b, "Checks: Go matcher vs llama.cpp disagreements %d; validator (internal/oracle) vs us disagreements %d; canonical texts our matcher rejects %d; sampled texts our matcher rejects (left out) %d.\n",
		disagree, oracle, canonRejected, sampleRejected)
	return b.String()
}

// PeerRunsApart compares two runs of the same schemas: per schema with
// decoding figures in both, how far the ratios ours/peer lie apart
// (max/min − 1), for the work per code point, the load and the whole check.
// It is the honest noise figure: a rerun on a shared machine, not two
// measurements taken back to back.
func PeerRunsApart(a, b []PeerRecord) string {
	costs := map[string]DecodeCost{}
	for _, r := range a {
		if c, ok := r.Cost(); ok {
			costs[r.File] = c
		}
	}
	var work, parse, check []float64
	flipped := 0
	for _, r := range b {
		c2, ok := r.Cost()
		c1, seen := costs[r.File]
		if !ok || !seen {
			continue
		}
		parse = append(parse, 100*spread(c1.OursParseUs/c1.PeerParseUs, c2.OursParseUs/c2.PeerParseUs))
		check = append(check, 100*spread(c1.OursCheckUs/c1.PeerCheckUs, c2.OursCheckUs/c2.PeerCheckUs))
		if c1.Measurable() && c2.Measurable() {
			x1, x2 := c1.OursWorkNs/c1.PeerWorkNs, c2.OursWorkNs/c2.PeerWorkNs
			work = append(work, 100*spread(x1, x2))
			if (x1 > 1) != (x2 > 1) {
				flipped++
			}
		}
	}
	w, p, c := Summarize(work), Summarize(parse), Summarize(check)
	return fmt.Sprintf("Against a second whole run (named below), per schema, ratios ours/peer apart by (max/min − 1) median / p90: "+
		"engine work %.1f%% / %.1f%% (%d schemas; ours slower in one run and not in the other on %d, %s), load %.1f%% / %.1f%%, whole check %.1f%% / %.1f%%.\n",
		w.Median, w.P90, w.N, flipped, pct(flipped, w.N), p.Median, p.P90, c.Median, c.P90)
}

// peerSuffix is what the peer appends to its root rule, in GBNF text (made
// for its chat wrapper: a run of newlines after the JSON value).
const peerSuffix = ` "\n\n\n\n" [\n]*`

// StripPeerSuffix cuts the peer's trailing-newline run off its root rule,
// and says whether it was there.
func StripPeerSuffix(g string) (string, bool) {
	lines := strings.Split(g, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "root ::= ") && strings.HasSuffix(l, peerSuffix) {
			lines[i] = strings.TrimSuffix(l, peerSuffix)
			return strings.Join(lines, "\n"), true
		}
	}
	return g, false
}

// SampleTexts samples up to n distinct texts of at most maxRunes code
// points from a grammar in GBNF text (the peer's), read by our gbnf package.
func SampleTexts(grammar string, n, maxRunes int) ([]string, error) {
	g, err := gbnf.Parse(grammar)
	if err != nil {
		return nil, err
	}
	s, err := gbnf.NewSampler(g, 1)
	if err != nil {
		return nil, err
	}
	var out []string
	seen := map[string]bool{}
	for try := 0; try < 4*n && len(out) < n; try++ {
		if t, ok := s.Sample(maxRunes); ok && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out, nil
}

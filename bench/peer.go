package bench

import (
	"fmt"
	"strings"
)

// PeerRecord is one schema's line in a side-by-side run (bench/peer -json):
// our compiler against node-llama-cpp's createGrammarForJsonSchema, with
// both grammars run by llama.cpp's engine in the same process.
type PeerRecord struct {
	File   string `json:"file"`
	Subset string `json:"subset"`

	Ours Side `json:"ours"`
	Peer Side `json:"peer"`

	// Decoding cost, over texts sampled from our compact grammar (valid
	// values, canonical spelling) that both grammars accept in llama.cpp.
	Texts          int     `json:"texts"`                     // texts sampled
	SampleRejected int     `json:"sample_rejected,omitempty"` // sampled texts our matcher rejects: a bug
	OursAccepted   int     `json:"ours_accepted"`             // by llama.cpp with our grammar
	Common         int     `json:"common"`                    // accepted by both grammars
	CommonBytes    int     `json:"common_bytes"`              // their total length
	OursCheckUs    float64 `json:"ours_check_us,omitempty"`   // llama.cpp, one pass over the common texts
	PeerCheckUs    float64 `json:"peer_check_us,omitempty"`

	// Matcher throughput on our grammar, over the texts llama.cpp accepts with it.
	MatchBytes   int     `json:"match_bytes"`
	GoMatchUs    float64 `json:"go_match_us,omitempty"`    // our Go matcher, one pass
	LlamaMatchUs float64 `json:"llama_match_us,omitempty"` // llama.cpp isTextCompatible, one pass
	Disagree     int     `json:"disagree,omitempty"`       // texts where the Go matcher and llama.cpp differ: a bug
	Note         string  `json:"note,omitempty"`
}

// Side is what one compiler made of a schema.
type Side struct {
	Status       string   `json:"status"` // compiled, refused, crash, bad-grammar (llama.cpp cannot load it), engine-died
	CompileUs    float64  `json:"compile_us,omitempty"`
	ConvertUs    float64  `json:"convert_us,omitempty"` // peer: the converter alone, without llama.cpp's parse
	LoadUs       float64  `json:"load_us,omitempty"`    // llama.cpp parsing the grammar
	GrammarBytes int      `json:"grammar_bytes,omitempty"`
	Rules        int      `json:"rules,omitempty"`
	Warnings     []string `json:"warnings,omitempty"` // peer: what it said it ignored
	Error        string   `json:"error,omitempty"`
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

	var oursUs, peerUs, convUs, usRatio, oursLoad, peerLoad, oursBytes, peerBytes, bytesRatio, oursRules, peerRules []float64
	var decodeRatio, fairRatio []float64
	var oursDecode, peerDecode float64
	var texts, oursOK, oursOKBoth, common, disagree, sampleRejected int
	var goBytes, goUs, llamaUs float64
	var matchRatio []float64
	slower := 0
	for _, r := range recs {
		if r.Ours.Status == "compiled" {
			texts += r.Texts
			oursOK += r.OursAccepted
			disagree += r.Disagree
			sampleRejected += r.SampleRejected
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
		usRatio = append(usRatio, r.Ours.CompileUs/r.Peer.CompileUs)
		oursLoad = append(oursLoad, r.Ours.LoadUs)
		peerLoad = append(peerLoad, r.Peer.LoadUs)
		oursBytes = append(oursBytes, float64(r.Ours.GrammarBytes))
		peerBytes = append(peerBytes, float64(r.Peer.GrammarBytes))
		bytesRatio = append(bytesRatio, float64(r.Ours.GrammarBytes)/float64(r.Peer.GrammarBytes))
		oursRules = append(oursRules, float64(r.Ours.Rules))
		peerRules = append(peerRules, float64(r.Peer.Rules))
		common += r.Common
		oursOKBoth += r.OursAccepted
		if r.Common > 0 && r.OursCheckUs > 0 && r.PeerCheckUs > 0 {
			x := r.OursCheckUs / r.PeerCheckUs
			decodeRatio = append(decodeRatio, x)
			if x > 1 {
				slower++
			}
			oursDecode += r.OursCheckUs
			peerDecode += r.PeerCheckUs
			if r.Common == r.OursAccepted && r.Common >= 2 {
				fairRatio = append(fairRatio, x)
			}
		}
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
	fmt.Fprintf(&b, "| compile µs (ours: Compile; peer: createGrammarForJsonSchema, incl. llama.cpp parse) | %s | %s | %s |\n", dist(oursUs, "%.0f"), dist(peerUs, "%.0f"), ratio(usRatio))
	fmt.Fprintf(&b, "| peer converter alone µs (getGbnfGrammarForGbnfJsonSchema) | | %s | |\n", dist(convUs, "%.0f"))
	fmt.Fprintf(&b, "| llama.cpp grammar load µs | %s | %s | |\n", dist(oursLoad, "%.0f"), dist(peerLoad, "%.0f"))
	fmt.Fprintf(&b, "| grammar bytes | %s | %s | %s |\n", dist(oursBytes, "%.0f"), dist(peerBytes, "%.0f"), ratio(bytesRatio))
	fmt.Fprintf(&b, "| rules | %s | %s | |\n", dist(oursRules, "%.0f"), dist(peerRules, "%.0f"))

	d := Summarize(decodeRatio)
	fmt.Fprintf(&b, "\nDecoding cost (llama.cpp `isTextCompatible` over the same valid texts, ours / peer, per schema): "+
		"%d schemas, median %.2f, p90 %.2f, max %.2f; ours slower on %d (%s).\n",
		d.N, d.Median, d.P90, d.Max, slower, pct(slower, d.N))
	f := Summarize(fairRatio)
	fmt.Fprintf(&b, "The same, only where the peer's grammar accepts every one (at least 2) of our sampled texts "+
		"(so it did not drop part of the schema, as it does e.g. with `\"type\": [\"object\", \"null\"]` → `null` only): "+
		"%d schemas, median %.2f, p90 %.2f, max %.2f. Summed over all compared schemas: ours %.0f ms, peer %.0f ms (%.2f×).\n",
		f.N, f.Median, f.P90, f.Max, oursDecode/1e3, peerDecode/1e3, oursDecode/max(peerDecode, 1e-9))
	fmt.Fprintf(&b, "Texts: %d sampled from our compact grammars; llama.cpp accepts %d with our grammar; "+
		"on the schemas both compile, the peer's grammar rejects %d of %d (%s): valid values its grammar cannot produce "+
		"(it makes every declared property required, forbids unlisted ones, drops parts it does not support). "+
		"Go matcher vs llama.cpp disagreements: %d; sampled texts our matcher rejects (left out): %d.\n",
		texts, oursOK, oursOKBoth-common, oursOKBoth, pct(oursOKBoth-common, oursOKBoth), disagree, sampleRejected)
	if goUs > 0 && llamaUs > 0 {
		m := Summarize(matchRatio)
		fmt.Fprintf(&b, "Matcher throughput on our grammars (same texts): Go matcher %.2f MB/s, llama.cpp engine %.2f MB/s "+
			"(Go faster by %.1f× in total; per schema median %.1f×, over %d schemas).\n",
			goBytes/goUs, goBytes/llamaUs, llamaUs/goUs, m.Median, m.N)
	}
	return b.String()
}

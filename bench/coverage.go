package bench

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Record is one schema's line in a coverage report (the -json output of
// bench/coverage).
type Record struct {
	File         string             `json:"file"`
	Subset       string             `json:"subset"`
	Status       Status             `json:"status"`
	Codes        []subsetcheck.Code `json:"codes,omitempty"`
	Keywords     []string           `json:"keywords,omitempty"`
	Formats      []string           `json:"formats,omitempty"`
	CompileUs    int64              `json:"compile_us"`
	Slow         bool               `json:"slow,omitempty"`
	GrammarBytes int                `json:"grammar_bytes,omitempty"`
	Rules        int                `json:"rules,omitempty"`
	Detail       string             `json:"detail,omitempty"`
	// Lenient is the same schema under the lenient profile (coverage
	// -lenient), when it was run.
	Lenient *LenientRecord `json:"lenient,omitempty"`
}

// LenientRecord is a schema's compile under the lenient profile.
type LenientRecord struct {
	Status    Status             `json:"status"`
	Codes     []subsetcheck.Code `json:"codes,omitempty"`   // of a refusal
	Relaxed   []string           `json:"relaxed,omitempty"` // "CODE keyword", one per relaxation
	CompileUs int64              `json:"compile_us"`
	Detail    string             `json:"detail,omitempty"`
}

// NewLenientRecord is a report line's lenient part.
func NewLenientRecord(o Outcome) *LenientRecord {
	return &LenientRecord{Status: o.Status, Codes: o.Codes, Relaxed: o.Relaxed, CompileUs: o.Micros, Detail: o.Detail}
}

// LenientTables compares, per subset, the schemas the exact profile
// compiles, those only the lenient one compiles, those neither compiles
// (refused for the schema's own errors, C401, a limit) and those the
// reader cannot read (J, L50x); then ranks the relaxations by keyword and
// code, and the lenient profile's refusals.
func LenientTables(recs []Record) string {
	type row struct{ n, exact, lenient, refused, unreadable, bugs int }
	rows := map[string]*row{}
	total := &row{}
	var subsets []string
	var relaxed, refusedBy []blocker
	schemasRelaxed, relaxations := 0, 0
	var us []float64
	for _, r := range recs {
		if r.Lenient == nil {
			continue
		}
		x := rows[r.Subset]
		if x == nil {
			x = &row{}
			rows[r.Subset] = x
			subsets = append(subsets, r.Subset)
		}
		l := r.Lenient
		for _, x := range []*row{x, total} {
			x.n++
			switch {
			case r.Status == Compiled:
				x.exact++
			case l.Status == Compiled:
				x.lenient++
			case l.Status == Refused && unreadable(l.Codes):
				x.unreadable++
			case l.Status == Refused:
				x.refused++
			default:
				x.bugs++
			}
		}
		if r.Status != Compiled && l.Status == Compiled {
			schemasRelaxed++
			us = append(us, float64(l.CompileUs))
			seen := map[string]bool{}
			for _, k := range l.Relaxed {
				relaxations++
				if !seen[k] {
					seen[k] = true
					relaxed = append(relaxed, blocker{k, false})
				}
			}
		}
		if l.Status == Refused && !unreadable(l.Codes) {
			for _, c := range l.Codes {
				refusedBy = append(refusedBy, blocker{string(c), len(l.Codes) == 1})
			}
		}
	}
	sort.Strings(subsets)
	rows["all"] = total
	subsets = append(subsets, "all")
	var b strings.Builder
	b.WriteString("| subset | schemas | compiled exactly | more compiled leniently | refused leniently | unreadable | crash/error/hang |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, name := range subsets {
		x := rows[name]
		label := name
		if name == "all" {
			label = "**all**"
		}
		fmt.Fprintf(&b, "| %s | %d | %d (%s) | %d (%s) | %d | %d | %d |\n", label, x.n, x.exact, pct(x.exact, x.n),
			x.lenient, pct(x.lenient, x.n), x.refused, x.unreadable, x.bugs)
	}
	t := Summarize(us)
	fmt.Fprintf(&b, "\n%d schemas compile only leniently, with %d relaxations (%.1f a schema); their lenient compile takes %.0f / %.0f / %.0f µs (median / p90 / max).\n",
		schemasRelaxed, relaxations, float64(relaxations)/float64(max(schemasRelaxed, 1)), t.Median, t.P90, t.Max)
	fmt.Fprintf(&b, "\n| relaxation (code, keyword) | schemas | %% of those compiled only leniently |\n|---|---:|---:|\n")
	for i, x := range rank(relaxed) {
		if i == 20 {
			break
		}
		fmt.Fprintf(&b, "| %s | %d | %s |\n", x.name, x.n, pct(x.n, schemasRelaxed))
	}
	if len(refusedBy) > 0 {
		b.WriteString("\n| refused leniently (code) | meaning | schemas | sole reason |\n|---|---|---:|---:|\n")
		for _, x := range rank(refusedBy) {
			fmt.Fprintf(&b, "| %s | %s | %d | %d |\n", x.name, codeMeaning(subsetcheck.Code(x.name)), x.n, x.sole)
		}
	}
	return b.String()
}

// unreadable says whether a refusal's codes are the reader's: the text is
// not strict JSON, or passes a reading limit.
func unreadable(codes []subsetcheck.Code) bool {
	for _, c := range codes {
		if c[0] == 'J' || c == subsetcheck.CodeInputTooLarge || c == subsetcheck.CodeTooDeep || c == subsetcheck.CodeNumberTooLarge || c == subsetcheck.CodeTooManyValues {
			return true
		}
	}
	return false
}

// NewRecord turns a compile outcome into a report line.
func NewRecord(s Schema, o Outcome) Record {
	return Record{File: s.Path, Subset: s.Subset, Status: o.Status, Codes: o.Codes, Keywords: o.Keywords, Formats: o.Formats, CompileUs: o.Micros,
		Slow: o.Slow, GrammarBytes: o.GrammarBytes, Rules: o.Rules, Detail: o.Detail}
}

// Coverage is a coverage run as written by bench/coverage -json.
type Coverage struct {
	Command string   `json:"command"`
	Env     string   `json:"env"` // see Env
	Records []Record `json:"records"`
}

// CoverageTables renders a run as Markdown: per-subset counts, compile time
// and grammar size of the compiled schemas, and the refusal codes ranked by
// how many schemas each one blocks (a schema refused for several codes counts
// once for each). It is both the command's text output and the README's table.
func CoverageTables(recs []Record) string {
	type row struct {
		n, compiled, refused, bugs, slow int
		us, bytes                        []float64
	}
	rows := map[string]*row{}
	var subsets []string
	total := &row{}
	for _, r := range recs {
		x := rows[r.Subset]
		if x == nil {
			x = &row{}
			rows[r.Subset] = x
			subsets = append(subsets, r.Subset)
		}
		for _, x := range []*row{x, total} {
			x.n++
			switch r.Status {
			case Compiled:
				x.compiled++
				x.us = append(x.us, float64(r.CompileUs))
				x.bytes = append(x.bytes, float64(r.GrammarBytes))
			case Refused:
				x.refused++
			default:
				x.bugs++
			}
			if r.Slow {
				x.slow++
			}
		}
	}
	sort.Strings(subsets)
	rows["all"] = total
	subsets = append(subsets, "all")

	var b strings.Builder
	b.WriteString("| subset | schemas | compiled | refused | crash/error/hang | slow (>2 s) | compile µs median / p90 / max | grammar bytes median / max |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, name := range subsets {
		x := rows[name]
		us, by := Summarize(x.us), Summarize(x.bytes)
		label := name
		if name == "all" {
			label = "**all**"
		}
		fmt.Fprintf(&b, "| %s | %d | %d (%s) | %d (%s) | %d | %d | %.0f / %.0f / %.0f | %.0f / %.0f |\n",
			label, x.n, x.compiled, pct(x.compiled, x.n), x.refused, pct(x.refused, x.n), x.bugs, x.slow,
			us.Median, us.P90, us.Max, by.Median, by.Max)
	}

	refused := 0
	var byCode, byKeyword, byFormat []blocker
	for _, r := range recs {
		if r.Status != Refused {
			continue
		}
		refused++
		for _, c := range r.Codes {
			byCode = append(byCode, blocker{string(c), len(r.Codes) == 1})
		}
		for _, k := range r.Keywords {
			byKeyword = append(byKeyword, blocker{k, len(r.Keywords) == 1 && len(r.Codes) == 1})
		}
		for _, f := range r.Formats {
			byFormat = append(byFormat, blocker{f, len(r.Formats) == 1 && len(r.Codes) == 1})
		}
	}
	b.WriteString("\n| refusal code | meaning | schemas blocked | % of refused | sole reason |\n|---|---|---:|---:|---:|\n")
	for _, x := range rank(byCode) {
		fmt.Fprintf(&b, "| %s | %s | %d | %s | %d |\n", x.name, codeMeaning(subsetcheck.Code(x.name)), x.n, pct(x.n, refused), x.sole)
	}
	writeRanked(&b, "refused keyword (S201)", byKeyword, refused, 15)
	if len(byFormat) > 0 {
		writeRanked(&b, "refused format (S210)", byFormat, refused, 10)
	}
	return b.String()
}

// writeRanked writes the most blockers that block most schemas as a table
// headed by what, with their share of the refused schemas.
func writeRanked(b *strings.Builder, what string, bs []blocker, refused, most int) {
	fmt.Fprintf(b, "\n| %s | schemas blocked | %% of refused | sole reason |\n|---|---:|---:|---:|\n", what)
	for i, x := range rank(bs) {
		if i == most {
			break
		}
		fmt.Fprintf(b, "| `%s` | %d | %s | %d |\n", x.name, x.n, pct(x.n, refused), x.sole)
	}
}

// blocker is one reason one schema was refused; sole when it was the only one.
type blocker struct {
	name string
	sole bool
}

type ranked struct {
	name    string
	n, sole int
}

// rank counts blockers by name, most schemas first, ties by name.
func rank(bs []blocker) []ranked {
	idx := map[string]int{}
	var out []ranked
	for _, b := range bs {
		i, ok := idx[b.name]
		if !ok {
			i = len(out)
			idx[b.name] = i
			out = append(out, ranked{name: b.name})
		}
		out[i].n++
		if b.sole {
			out[i].sole++
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].n != out[j].n {
			return out[i].n > out[j].n
		}
		return out[i].name < out[j].name
	})
	return out
}

func pct(n, of int) string {
	if of == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
}

// codeMeaning is a short gloss of each code for the tables (the full text is
// subsetcheck's code table).
func codeMeaning(c subsetcheck.Code) string {
	return codeGlosses[c]
}

var codeGlosses = map[subsetcheck.Code]string{
	subsetcheck.CodeInvalidJSON:          "not strict JSON",
	subsetcheck.CodeDuplicateKey:         "duplicate member name",
	subsetcheck.CodeInvalidUTF8:          "invalid UTF-8",
	subsetcheck.CodeLoneSurrogate:        "lone surrogate escape",
	subsetcheck.CodeByteOrderMark:        "byte order mark",
	subsetcheck.CodeTrailingData:         "data after the value",
	subsetcheck.CodeYAMLNotJSON:          "YAML that JSON cannot say",
	subsetcheck.CodeRefusedKeyword:       "keyword outside the profile",
	subsetcheck.CodeUnknownKeyword:       "keyword of an unknown vocabulary",
	subsetcheck.CodeBadKeywordValue:      "keyword value of wrong type/range",
	subsetcheck.CodeNotASchema:           "neither object nor boolean",
	subsetcheck.CodeUnresolvedRef:        "$ref target missing",
	subsetcheck.CodeRemoteRef:            "$ref to another document",
	subsetcheck.CodeRefCycle:             "$ref cycle without progress",
	subsetcheck.CodeUnknownDraft:         "unknown $schema dialect",
	subsetcheck.CodePortableRule:         "portable authoring rule",
	subsetcheck.CodeFormatNotExact:       "format not enforced exactly",
	subsetcheck.CodePatternNotRegular:    "pattern not a regular language (lookaround, backreference)",
	subsetcheck.CodeIgnoredKeyword:       "not a keyword, ignored (warning)",
	subsetcheck.CodeFormatNotEnforced:    "format not enforced (warning)",
	subsetcheck.CodeRefSiblingsIgnored:   "keywords beside $ref ignored (warning)",
	subsetcheck.CodeOneOfOverlapExcluded: "oneOf branches overlap, shared values kept out (warning)",
	subsetcheck.CodeNoValidValue:         "admits no value",
	subsetcheck.CodeNotExactlyCompilable: "not exactly compilable",
	subsetcheck.CodeGrammarTooLarge:      "grammar size limit",
	subsetcheck.CodeOneOfOverlap:         "oneOf branches overlap",
	subsetcheck.CodeRelaxRounds:          "lenient: relaxation rounds limit",
	subsetcheck.CodeRelaxedKeyword:       "lenient: refused keyword dropped",
	subsetcheck.CodeRelaxedOneOf:         "lenient: oneOf as anyOf",
	subsetcheck.CodeRelaxedNegation:      "lenient: negation relaxed",
	subsetcheck.CodeRelaxedCompile:       "lenient: compiler refusal dropped",
	subsetcheck.CodeRelaxedRef:           "lenient: $ref not followed",
	subsetcheck.CodeIgnoredDialect:       "lenient: subschema $schema ignored",
	subsetcheck.CodeRefPath:              "$ref path outside the folder",
	subsetcheck.CodeTooManyRefDocs:       "$ref documents limit",
	subsetcheck.CodeRefBytes:             "$ref documents bytes limit",
	subsetcheck.CodeInputTooLarge:        "input size limit",
	subsetcheck.CodeTooDeep:              "nesting depth limit",
	subsetcheck.CodeNumberTooLarge:       "number size limit",
	subsetcheck.CodeTooManySchemas:       "subschema count limit",
	subsetcheck.CodeTooManyValues:        "value count limit",
	subsetcheck.CodePatternTooLarge:      "pattern or string language size limit",
	subsetcheck.CodeRegexInvalidGrammar:  "regex: grammar not well formed",
	subsetcheck.CodeRegexRecursive:       "regex: recursive schema",
	subsetcheck.CodeRegexTooLarge:        "regex: size limit",
	subsetcheck.CodeRegexTooDeep:         "regex: nesting limit",
	subsetcheck.CodeRegexNoText:          "regex: matches no text",
}

// Env describes where and when a run was made, for the report's header.
func Env() string {
	return fmt.Sprintf("%s, %s/%s, %d CPUs, %s", time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version())
}

// AssertedCoverage compares a run with format as an annotation (def) and one
// with formats asserted, per subset, and ranks the formats that block
// schemas in the second.
func AssertedCoverage(def, asserted []Record) string {
	type row struct{ n, compiledDef, compiledAsserted, onlyFormat int }
	rows := map[string]*row{}
	total := &row{}
	var subsets []string
	count := func(r Record, f func(x *row)) {
		x := rows[r.Subset]
		if x == nil {
			x = &row{}
			rows[r.Subset] = x
			subsets = append(subsets, r.Subset)
		}
		f(x)
		f(total)
	}
	for _, r := range def {
		count(r, func(x *row) {
			x.n++
			if r.Status == Compiled {
				x.compiledDef++
			}
		})
	}
	var byFormat []blocker
	refused := 0
	for _, r := range asserted {
		count(r, func(x *row) {
			switch {
			case r.Status == Compiled:
				x.compiledAsserted++
			case len(r.Codes) == 1 && r.Codes[0] == subsetcheck.CodeFormatNotExact:
				x.onlyFormat++
			}
		})
		if r.Status == Refused {
			refused++
			for _, f := range r.Formats {
				byFormat = append(byFormat, blocker{f, len(r.Formats) == 1 && len(r.Codes) == 1})
			}
		}
	}
	sort.Strings(subsets)
	rows["all"] = total
	subsets = append(subsets, "all")
	var b strings.Builder
	b.WriteString("| subset | schemas | compiled, format an annotation | compiled, formats asserted | refused only for a format (S210) |\n|---|---:|---:|---:|---:|\n")
	for _, name := range subsets {
		x := rows[name]
		label := name
		if name == "all" {
			label = "**all**"
		}
		fmt.Fprintf(&b, "| %s | %d | %d (%s) | %d (%s) | %d |\n", label, x.n, x.compiledDef, pct(x.compiledDef, x.n),
			x.compiledAsserted, pct(x.compiledAsserted, x.n), x.onlyFormat)
	}
	writeRanked(&b, "refused format (S210)", byFormat, refused, 10)
	return b.String()
}

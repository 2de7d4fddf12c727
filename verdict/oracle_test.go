package verdict

import (
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/equiv"
	"github.com/schema2gbnf/schema2gbnf/internal/oracle"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"

	"golang.org/x/tools/txtar"
)

var corpusDir = flag.String("corpus", "", "also check verdicts on up to -corpus-n schemas of each directory under `DIR` (e.g. path/to/jsonschemabench)")
var corpusN = flag.Int("corpus-n", 40, "schemas per corpus directory")

// agreement checks one schema's verdicts against the oracle and counts them.
type agreement struct {
	t      *testing.T
	counts map[string]int
	nexts  int  // code point boundaries where Next was checked
	sound  bool // also check that what Next allows is allowed
}

func (a *agreement) schema(name string, schema []byte, opts schema2gbnf.Options, texts []string) bool {
	a.t.Helper()
	g, err := schema2gbnf.Compile(schema, opts)
	if err != nil {
		return false
	}
	o, err := oracle.New(schema, g.Schema.Draft)
	if err != nil {
		a.t.Logf("%s: oracle refuses the schema: %v", name, err)
		return false
	}
	j, err := New(g, Limits{})
	if err != nil {
		a.t.Fatalf("%s: %v", name, err)
	}
	gen := equiv.NewGenerator(g.Schema, 1)
	for _, v := range append(gen.Valid(), gen.Invalid()...) {
		for _, sp := range equiv.Spellings {
			texts = append(texts, equiv.Text(v, sp))
		}
		if c, err := compile.Canonical(g.Schema, v); err == nil {
			texts = append(texts, c, c[:len(c)/2], c+"\n")
			a.nextCovers(name, j, c)
		}
	}
	for _, text := range texts {
		a.text(name, o, j, text)
	}
	return true
}

func (a *agreement) text(name string, o *oracle.Oracle, j *Judge, text string) {
	a.t.Helper()
	v := j.Judge([]byte(text))
	ok, err := o.Valid(text)
	valid, decodable := ok, err == nil
	key := string(v.Class)
	if v.Reason != "" {
		key += "/" + v.Reason
	}
	if v.Note != "" {
		key += "/note"
	}
	a.counts[key]++
	bad := false
	switch {
	case v.Class == CompleteValid:
		bad = !valid
	case v.Class == OffGrammar && v.Reason == ReasonSchema:
		bad = !decodable || valid
	case v.Class == ParseError:
		// the oracle's decoder takes duplicate names (the last wins) and
		// lone surrogate escapes (as U+FFFD); the strict reader does not
		bad = decodable && !strictOnly(v)
	case v.Class == Incomplete:
		bad = decodable && strings.TrimSpace(text) != "" && !isPrefixOfNumber(text)
	default:
		bad = true
	}
	if bad {
		a.t.Errorf("%s: %q: %s (%s), oracle valid=%v decodable=%v", name, text, key, v.Message, valid, decodable)
	}
}

func strictOnly(v Verdict) bool {
	if len(v.Problems) == 0 {
		return false
	}
	c := subsetcheck.Code(v.Problems[0].Code)
	return c == subsetcheck.CodeDuplicateKey || c == subsetcheck.CodeLoneSurrogate
}

// nextCovers: at every code point boundary of a text the grammar accepts,
// the next code point is among those Next allows.
func (a *agreement) nextCovers(name string, j *Judge, text string) {
	a.t.Helper()
	for i, r := range text {
		rs, viable, err := j.matcher.Next(text[:i])
		covered := false
		for _, x := range rs {
			covered = covered || x.Lo <= r && r <= x.Hi
		}
		if err != nil || !viable || !covered {
			a.t.Errorf("%s: %q: Next at byte %d = %v (viable %v, %v) lacks %q", name, text, i, rs, viable, err, r)
			return
		}
		a.nexts++
		if !a.sound {
			continue
		}
		// and both ends of every range allowed are allowed indeed
		for _, x := range rs {
			for _, c := range []rune{x.Lo, x.Hi} {
				if _, ok, _ := j.matcher.Next(text[:i] + string(c)); !ok {
					a.t.Errorf("%s: %q: Next at byte %d allows %q, the matcher does not", name, text, i, c)
					return
				}
			}
		}
	}
}

// isPrefixOfNumber: "12" is JSON, and also a prefix of "123" the grammar
// may be waiting for (e.g. minimum 100).
func isPrefixOfNumber(text string) bool {
	return strings.Trim(text, "-0123456789.eE+") == ""
}

func (a *agreement) report() {
	keys := make([]string, 0, len(a.counts))
	total := 0
	for k, n := range a.counts {
		keys = append(keys, k)
		total += n
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(" " + k + "=" + strconv.Itoa(a.counts[k]))
	}
	a.t.Logf("%d texts:%s; Next checked at %d boundaries", total, b.String(), a.nexts)
}

// sections maps each file name of a txtar archive to its text (files of
// the same name joined).
func sections(data string) map[string]string {
	out := map[string]string{}
	for _, f := range txtar.Parse([]byte(data)).Files {
		out[f.Name] += string(f.Data)
	}
	return out
}

// TestAgreesWithOracle: for every text, COMPLETE_VALID (with a note on its
// spelling or not) ⇒ the oracle accepts, OFF_GRAMMAR ⇒ it rejects,
// PARSE_ERROR ⇒ it cannot decode the text. Schemas: compile/testdata, with
// their accept and reject lines and generated values in every spelling.
func TestAgreesWithOracle(t *testing.T) {
	a := &agreement{t: t, counts: map[string]int{}, sound: true}
	files, _ := filepath.Glob("../compile/testdata/*.txtar")
	schemas := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		sec := sections(string(data))
		var opts schema2gbnf.Options
		if strings.TrimSpace(sec["options"]) == "compact" {
			opts.Whitespace = compile.Compact
		}
		var texts []string
		for _, l := range strings.Split(sec["accept"]+sec["reject"], "\n") {
			if l != "" {
				texts = append(texts, l)
			}
		}
		if a.schema(filepath.Base(file), []byte(sec["schema.json"]), opts, texts) {
			schemas++
		}
	}
	if schemas < 20 {
		t.Fatalf("only %d testdata schemas compiled", schemas)
	}
	a.report()
}

// TestAgreesWithOracleCorpus is TestAgreesWithOracle on real-world schemas
// (-corpus DIR).
func TestAgreesWithOracleCorpus(t *testing.T) {
	if *corpusDir == "" {
		t.Skip("no -corpus")
	}
	a := &agreement{t: t, counts: map[string]int{}}
	dirs, _ := filepath.Glob(filepath.Join(*corpusDir, "*"))
	schemas := 0
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		n := 0
		for _, file := range files {
			if n >= *corpusN {
				break
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			if a.schema(file, data, schema2gbnf.Options{}, nil) {
				n++
			}
		}
		schemas += n
	}
	t.Logf("%d schemas", schemas)
	a.report()
}

package bench

import (
	"fmt"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// The object members a schema declares, as MembersOf sorts them. The peer
// makes every declared member required and forbids any other, so only on
// RequiredClosed schemas do both grammars describe the same objects. An
// optional member or an extra one is a choice our grammar must keep open
// (a parse stack per way on) where the peer's allows a single spelling:
// its cost shows by itself in the decoding table by members.
const (
	NoMembers      = "none"            // no object schema declares a member
	RequiredClosed = "required-closed" // every declared member required, no extra ones (additionalProperties: false)
	RequiredOpen   = "required-open"   // every declared member required, extra ones allowed somewhere
	OptionalClosed = "optional-closed" // some declared member optional, no extra ones
	OptionalOpen   = "optional-open"   // some declared member optional, extra ones allowed somewhere
)

// memberShapes are the classes in the order the table lists them, with
// what each row says.
var memberShapes = []struct{ shape, meaning string }{
	{RequiredClosed, "every declared member required, no extra ones: the peer's reading"},
	{RequiredOpen, "every declared member required, extra ones allowed"},
	{OptionalClosed, "some declared member optional, no extra ones"},
	{OptionalOpen, "some declared member optional, extra ones allowed (JSON Schema's default)"},
	{NoMembers, "no declared members"},
}

// MembersOf sorts a checked schema by the object members it declares, over
// every subschema that allows objects and declares properties, reached
// through properties, items, anyOf and $ref.
func MembersOf(c *subsetcheck.Checked) string {
	var optional, open, declares bool
	seen := map[*subsetcheck.Schema]bool{}
	var walk func(s *subsetcheck.Schema)
	walk = func(s *subsetcheck.Schema) {
		if s == nil || s.False || seen[s] {
			return
		}
		seen[s] = true
		if s.Types&subsetcheck.TObject != 0 && len(s.Properties) > 0 {
			declares = true
			required := map[string]bool{}
			for _, name := range s.Required {
				required[name] = true
			}
			for _, p := range s.Properties {
				optional = optional || !required[p.Name]
			}
			open = open || s.AdditionalProperties == nil || !s.AdditionalProperties.False
		}
		for _, p := range s.Properties {
			walk(p.Schema)
		}
		walk(s.AdditionalProperties)
		for _, x := range s.PrefixItems {
			walk(x)
		}
		walk(s.Items)
		for _, x := range s.AnyOf {
			walk(x)
		}
		walk(s.Ref)
	}
	walk(c.Root)
	switch {
	case !declares:
		return NoMembers
	case optional && open:
		return OptionalOpen
	case optional:
		return OptionalClosed
	case open:
		return RequiredOpen
	}
	return RequiredClosed
}

// membersTable renders engine work per code point, ours/peer, by the
// members the schemas declare (records without the class are left out).
func membersTable(recs []PeerRecord) string {
	ratios := map[string][]float64{}
	var sumOurs, sumPeer = map[string]float64{}, map[string]float64{}
	for _, r := range recs {
		if r.Members == "" || r.Ours.Status != "compiled" || r.Peer.Status != "compiled" {
			continue
		}
		c, ok := r.Cost()
		if !ok || !c.Measurable() {
			continue
		}
		ratios[r.Members] = append(ratios[r.Members], c.OursWorkNs/c.PeerWorkNs)
		sumOurs[r.Members] += c.OursWorkNs * float64(r.CommonRunes)
		sumPeer[r.Members] += c.PeerWorkNs * float64(r.CommonRunes)
	}
	if len(ratios) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("\nEngine work per code point by the object members the schema declares. The peer makes every declared member required " +
		"and forbids extra ones, so only in the first row do both grammars describe the same objects; " +
		"an optional or extra member is a choice our grammar keeps open, one more parse stack per way on.\n\n")
	b.WriteString("| members declared | schemas | work ratio ours/peer median / p90 / max | summed over the texts | ours slower on |\n|---|---:|---:|---:|---:|\n")
	for _, m := range memberShapes {
		xs := ratios[m.shape]
		if len(xs) == 0 {
			continue
		}
		s := Summarize(xs)
		slower := 0
		for _, x := range xs {
			if x > 1 {
				slower++
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %.2f / %.2f / %.2f | %.2f× | %d (%s) |\n",
			m.meaning, s.N, s.Median, s.P90, s.Max, sumOurs[m.shape]/sumPeer[m.shape], slower, pct(slower, s.N))
	}
	return b.String()
}

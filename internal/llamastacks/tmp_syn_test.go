package llamastacks

import (
	"encoding/json"
	"os"
	"testing"
	"unicode/utf8"
)

func TestTmpSyn(t *testing.T) {
	data, err := os.ReadFile("/tmp/syn/cases.json")
	if err != nil {
		t.Skip()
	}
	var cases [][3]string
	json.Unmarshal(data, &cases)
	for _, c := range cases {
		g, err := Parse(c[1])
		if err != nil {
			t.Fatal(err)
		}
		cost, _ := g.Run(c[2])
		n := float64(utf8.RuneCountInString(c[2]))
		t.Logf("%-8s acc=%v stacks %.1f built %.1f elems %.1f compares %.1f chartests %.1f", c[0], cost.Accepted, float64(cost.Stacks)/n, float64(cost.Built)/n, float64(cost.Elements)/n, float64(cost.Compares)/n, float64(cost.CharTests)/n)
	}
}

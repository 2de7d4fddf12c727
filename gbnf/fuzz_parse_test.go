package gbnf

import "testing"

// FuzzParse: Parse never panics or hangs, and whatever it accepts prints
// to text that parses back to the same grammar and prints identically.
func FuzzParse(f *testing.F) {
	for _, c := range parseCases {
		f.Add(c.text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		g, err := Parse(text)
		if err != nil {
			if g != nil {
				t.Fatalf("Parse returned a grammar and an error")
			}
			return
		}
		printed := g.String()
		g2, err := Parse(printed)
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", text, printed, err)
		}
		if astDump(g) != astDump(g2) {
			t.Fatalf("%q printed as %q:\n parsed %s\nreparsed %s", text, printed, astDump(g), astDump(g2))
		}
		if again := g2.String(); again != printed {
			t.Fatalf("%q printed as %q, then as %q", text, printed, again)
		}
	})
}

package gbnf

import (
	"strings"
	"testing"
)

// freezeCases: a grammar built afresh by build, the names of the rules to
// freeze first (they must be closed under reference), and the error Validate
// must give the whole grammar ("" for none), frozen or not.
var freezeCases = []struct {
	build  func() *Grammar
	freeze []string
	want   string
}{
	{ // a helper set used as is
		func() *Grammar {
			return rules("root", mkSeq(mkRef("a"), mkRef("a")), "a", mkSeq(mkLit("x"), mkRef("b")), "b", mkAlt(mkLit("y"), mkLit("")))
		},
		[]string{"a", "b"}, "",
	},
	{ // a frozen nullable rule under a star
		func() *Grammar { return rules("root", mkRep(mkRef("n"), 0, -1), "n", mkAlt(mkLit(""), mkLit("x"))) },
		[]string{"n"}, "can match the empty string",
	},
	{ // left recursion behind a frozen nullable rule
		func() *Grammar {
			return rules("root", mkSeq(mkRef("n"), mkRef("root"), mkLit("z")), "n", mkAlt(mkLit(""), mkLit("x")))
		},
		[]string{"n"}, "left recursion: root -> root",
	},
	{ // a frozen rule's reference redefined later to close a cycle through it
		func() *Grammar {
			return rules("root", mkRef("a"), "a", mkSeq(mkRef("b"), mkLit("x")), "b", mkLit("y"), "b", mkSeq(mkRef("a"), mkLit("z")))
		},
		[]string{"a", "b"}, "left recursion",
	},
	{ // a frozen rule redefined later
		func() *Grammar {
			return rules("root", mkRef("b"), "a", mkSeq(mkRef("b"), mkLit("x")), "b", mkLit("y"), "a", mkRef("q"))
		},
		[]string{"a", "b"}, "undefined rule q",
	},
	{ // a grammar without root
		func() *Grammar { return rules("a", mkLit("x")) },
		[]string{"a"}, "no rule named root",
	},
}

// TestFreeze checks that freezing rules changes neither what Validate
// says of a grammar holding them nor its text.
func TestFreeze(t *testing.T) {
	for _, c := range freezeCases {
		g, fresh := c.build(), c.build()
		var set []*Rule
		for _, name := range c.freeze {
			for _, r := range g.Rules {
				if r.Name == name {
					set = append(set, r)
					break // the first definition
				}
			}
		}
		if err := Freeze(set); err != nil {
			t.Fatalf("%s: Freeze(%v): %v", astDump(fresh), c.freeze, err)
		}
		got, want := errText(Validate(g)), errText(Validate(fresh))
		if got != want {
			t.Errorf("%s: frozen %v: Validate says %q, unfrozen %q", astDump(fresh), c.freeze, got, want)
		}
		if c.want == "" && want != "" || c.want != "" && !strings.Contains(want, c.want) {
			t.Errorf("%s: Validate says %q, want %q", astDump(fresh), want, c.want)
		}
		if g.String() != fresh.String() {
			t.Errorf("frozen, the grammar prints\n%s\nunfrozen\n%s", g, fresh)
		}
	}
}

// TestFreezeRefuses: Freeze takes only a valid set closed under reference.
func TestFreezeRefuses(t *testing.T) {
	for _, c := range []struct {
		g    *Grammar
		want string
	}{
		{rules("a", mkRef("b")), "undefined rule b"},
		{rules("a", mkSeq(mkRef("a"), mkLit("x"))), "left recursion"},
		{rules("b", mkLit("z"), "a", mkLit("x"), "a", mkLit("y")), "defined twice"},
		{rules("a", &Class{}), "character class without ranges"},
	} {
		err := Freeze(c.g.Rules)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Freeze says %v, want %q", astDump(c.g), err, c.want)
		}
		for _, r := range c.g.Rules {
			if r.frozen != nil {
				t.Errorf("%s: rule %s frozen although Freeze refused", astDump(c.g), r.Name)
			}
		}
	}
}

// TestFreezeChanged: a frozen rule given another name or body is walked
// and printed as it is now.
func TestFreezeChanged(t *testing.T) {
	g := rules("root", mkRef("a"), "a", mkLit("x"))
	if err := Freeze(g.Rules[1:]); err != nil {
		t.Fatal(err)
	}
	g.Rules[1].Expr = mkRef("nowhere")
	if err := Validate(g); err == nil || !strings.Contains(err.Error(), "undefined rule nowhere") {
		t.Errorf("body changed: Validate says %v", err)
	}
	if got, want := g.String(), "root ::= a\na ::= nowhere\n"; got != want {
		t.Errorf("body changed: prints %q, want %q", got, want)
	}
	g.Rules[1].Expr = mkLit("x")
	g.Rules[1].Name = "b"
	if err := Validate(g); err == nil || !strings.Contains(err.Error(), "undefined rule a") {
		t.Errorf("name changed: Validate says %v", err)
	}
}

// TestFreezeLater: a rule frozen after the set it refers to.
func TestFreezeLater(t *testing.T) {
	g := rules("root", mkRef("c"), "a", mkLit("x"), "c", mkSeq(mkRef("a"), mkRef("a")))
	if err := Freeze(g.Rules[1:2]); err != nil {
		t.Fatal(err)
	}
	if err := Freeze(g.Rules[1:]); err != nil {
		t.Fatal(err)
	}
	if g.Rules[2].frozenAs() == nil || g.Rules[1].frozenAs() == nil {
		t.Fatal("not frozen")
	}
	if err := Validate(g); err != nil {
		t.Error(err)
	}
	if got, want := g.String(), "root ::= c\na ::= \"x\"\nc ::= a a\n"; got != want {
		t.Errorf("prints %q, want %q", got, want)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

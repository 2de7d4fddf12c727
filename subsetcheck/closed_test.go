package subsetcheck

import "testing"

// TestClosedObjectsKeepsNegatedOpen: ClosedObjects closes what is met
// monotonely, and leaves open what not, if and oneOf reach (closing there
// would widen the schema), even through $ref.
func TestClosedObjectsKeepsNegatedOpen(t *testing.T) {
	c, err := Check(mustRead(t, `{"$defs":{"d":{"properties":{"x":{}}}},"properties":{"a":{"properties":{"b":{}}},"n":{"not":{"properties":{"c":{"$ref":"#/$defs/d"}}}},"i":{"if":{"properties":{"k":{}}},"then":{"properties":{"t":{}}}},"o":{"oneOf":[{"properties":{"p":{}}},{"type":"null"}]}}}`), Options{ClosedObjects: true})
	if err != nil {
		t.Fatal(err)
	}
	prop := func(s *Schema, name string) *Schema {
		for _, p := range s.Properties {
			if p.Name == name {
				return p.Schema
			}
		}
		t.Fatalf("no property %q", name)
		return nil
	}
	closed := func(s *Schema) bool { return s.AdditionalProperties != nil && s.AdditionalProperties.Closed }
	root := c.Root
	for _, tc := range []struct {
		name   string
		s      *Schema
		closed bool
	}{
		{"root", root, true},
		{"a", prop(root, "a"), true},
		{"not", prop(root, "n").Not, false},
		{"a $ref target under not", prop(prop(root, "n").Not, "c").Ref, false},
		{"if", prop(root, "i").If, false},
		{"then", prop(root, "i").Then, true},
		{"a oneOf branch", prop(root, "o").OneOf[0], false},
	} {
		if got := closed(tc.s); got != tc.closed {
			t.Errorf("%s: closed %v, want %v", tc.name, got, tc.closed)
		}
	}
}

package compile

import (
	"strings"
	"testing"
)

func TestSanitize(t *testing.T) {
	long := strings.Repeat("a", 60)
	for _, c := range []struct{ in, want string }{
		{"properties-name", "properties-name"},
		{"/properties/name", "properties-name"},
		{"a--b", "a-b"},
		{"-a-", "a"},
		{"a b", "a-b"},
		{"", "schema"},
		{"---", "schema"},
		{"é", "schema"},
		{long, long},
		{long + "b", long},
		{strings.Repeat("a", 59) + "-b", strings.Repeat("a", 59)},
	} {
		if got := sanitize(c.in); got != c.want {
			t.Errorf("sanitize(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestNewName: numbers start at 2, skip names taken by others, and go on
// from the last number given to the same base.
func TestNewName(t *testing.T) {
	cp := newCompiler(nil, Options{})
	put(&cp.names, "item-3", true)
	var got []string
	for _, base := range []string{"item", "item", "item", "other", "item", "item-3", "item"} {
		got = append(got, cp.newName(base))
	}
	want := "item item-2 item-4 other item-5 item-3-2 item-6"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("names = %s, want %s", g, want)
	}
}

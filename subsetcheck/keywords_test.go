package subsetcheck

import "testing"

// TestKeywordHandlers holds the keyword table and its handlers together: a
// keyword a profile enforces must have a handler, or it would be accepted
// and constrain nothing; and each name has one row, the one lookups find.
func TestKeywordHandlers(t *testing.T) {
	for j := range Keywords {
		k := &Keywords[j]
		if (k.Exact == Enforced || k.Portable == Enforced) && k.check == nil {
			t.Errorf("%s is enforced but has no handler", k.Name)
		}
		if found := findKeyword(k.Name); found != k {
			t.Errorf("%s: the lookup finds another row (%p, not %p)", k.Name, found, k)
		}
	}
}

// The keywords for values of every type: type, enum, const.

package subsetcheck

import "strconv"

func checkEnum(c *checker, k *keywordAt) {
	val := k.m.Value
	if val.Kind != Array {
		c.bad(k, "must be an array of values")
		return
	}
	if c.draft <= Draft7 {
		if len(val.Items) == 0 {
			c.bad(k, "must not be empty in %s", c.draft)
		} else if i, j, dup := firstDuplicate(val.Items); dup {
			c.bad(k, "items %d and %d are equal; %s requires enum's values to be unique", i, j, c.draft)
		}
	}
	k.s.Enum = intersect(k.s.Enum, val.Items)
}

func checkConst(c *checker, k *keywordAt) {
	k.s.Enum = intersect(k.s.Enum, []*Value{k.m.Value})
}

// checkType reads "type": one name or a non-empty list of unique names.
func checkType(c *checker, k *keywordAt) {
	k.s.Types = c.types(k)
}

// types returns the set of types keyword k, a type, names.
func (c *checker) types(k *keywordAt) Type {
	val := k.m.Value
	// one reads a type name: its types, and a bit of its own that finds
	// a name listed twice ("number" and "integer" share types).
	one := func(v *Value) (Type, uint8, bool) {
		if v.Kind != String {
			return 0, 0, false
		}
		switch v.Str {
		case "null":
			return TNull, 1 << 0, true
		case "boolean":
			return TBoolean, 1 << 1, true
		case "object":
			return TObject, 1 << 2, true
		case "array":
			return TArray, 1 << 3, true
		case "number":
			return TNumber | TInteger, 1 << 4, true
		case "integer":
			return TInteger, 1 << 5, true
		case "string":
			return TString, 1 << 6, true
		}
		return 0, 0, false
	}
	const names = "null, boolean, object, array, number, integer or string"
	switch val.Kind {
	case String:
		t, _, ok := one(val)
		if !ok {
			c.bad(k, "%q is not a type; use %s", val.Str, names)
			return AllTypes
		}
		return t
	case Array:
		if len(val.Items) == 0 {
			c.bad(k, "must not be an empty list")
			return AllTypes
		}
		var all Type
		var seen uint8
		for j, item := range val.Items {
			t, bit, ok := one(item)
			if !ok {
				c.errorAt(CodeBadKeywordValue, join(c.pointerOf(k), strconv.Itoa(j)), item.Offset, "type: not a type name; use %s", names)
				continue
			}
			if seen&bit != 0 {
				c.errorAt(CodeBadKeywordValue, join(c.pointerOf(k), strconv.Itoa(j)), item.Offset, "type: %q is listed twice", item.Str)
			}
			seen |= bit
			all |= t
		}
		return all
	}
	c.bad(k, "must be a type name or a list of them (%s)", names)
	return AllTypes
}

// intersect narrows an enum (nil: no enum yet) to the values also in more.
func intersect(have, more []*Value) []*Value {
	if have == nil {
		out := make([]*Value, len(more))
		copy(out, more)
		return out
	}
	out := []*Value{}
	for _, h := range have {
		for _, m := range more {
			if Equal(h, m) {
				out = append(out, h)
				break
			}
		}
	}
	return out
}

// firstDuplicate finds two equal values, comparing canonical keys so that a
// large enum is not compared pair by pair.
func firstDuplicate(items []*Value) (int, int, bool) {
	if len(items) <= linearMembers && allStrings(items) {
		// The usual enum: a few strings, compared pair by pair without
		// a key or a map. Equal strings are exactly equal keys.
		for i := 1; i < len(items); i++ {
			for j := range i {
				if items[j].Str == items[i].Str {
					return j, i, true
				}
			}
		}
		return 0, 0, false
	}
	seen := make(map[string]int, len(items))
	for i, v := range items {
		k := CanonicalKey(v)
		if j, ok := seen[k]; ok {
			return j, i, true
		}
		seen[k] = i
	}
	return 0, 0, false
}

func allStrings(items []*Value) bool {
	for _, v := range items {
		if v.Kind != String {
			return false
		}
	}
	return true
}

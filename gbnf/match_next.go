package gbnf

// Next returns the code points the grammar allows right after text, as
// sorted, disjoint ranges, when text is a viable prefix (every code point
// taken); viable is false, and the ranges nil, when the grammar cannot take
// all of text. A complete text may still allow more. It lets a caller say
// what an unfinished output could continue with.
func (m *Matcher) Next(text string) (next []Range, viable bool, err error) {
	e, _ := m.pool.Get().(*earley)
	if e == nil || e.p != m.p {
		e = newEarley(m.p)
	}
	defer func() {
		e.release()
		m.pool.Put(e)
	}()
	r, err := e.run(text, m.lim.MaxItems)
	if err != nil || r.Offset < len(text) {
		return nil, false, err
	}
	// The last set holds every item but the predictions (run skips those at
	// the end of the text): what they scan, and the first code points of
	// what they call, is what may come next.
	p := e.p
	var rs []Range
	for _, it := range e.items[e.setStart[len(e.setStart)-1]:] {
		ds := &e.dstates[it.state]
		for _, t := range ds.terms {
			rs = append(rs, p.setRanges[p.arg[t]]...)
		}
		for _, c := range ds.calls {
			rs = append(rs, p.first[p.arg[c]].toRanges()...)
		}
	}
	return normalRanges(rs, false), true, nil
}

// toRanges lists the members of s as ranges (not merged).
func (s *runeSet) toRanges() []Range {
	var rs []Range
	for c := rune(1); c < 128; c++ {
		if s.has(c) {
			rs = append(rs, Range{c, c})
		}
	}
	return append(rs, s.ranges...)
}

package compile

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/strlang"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// String languages. A string schema with a pattern is the intersection of
// its patterns' languages (subsetcheck.Pattern), its length bounds and its
// asserted format: one minimal automaton over code points (package
// strlang), written as one rule per state (machine.go). Schemas without a
// pattern keep the grammars of json.go and format.go.

// stringEntry is one string language built, and its grammar once written.
type stringEntry struct {
	lang *strlang.Lang // nil: the format's own grammar is the language (formatCovered)
	expr gbnf.Expr
	ok   bool // false: a problem was reported
}

// stringKey names the language of p's string keywords less the strings
// except: the same patterns, bounds, format and excluded strings give the
// same language, built once per compile.
func stringKey(p *subsetcheck.Schema, except []string) string {
	srcs := make([]string, len(p.Patterns))
	for i, pt := range p.Patterns {
		srcs[i] = pt.Source
	}
	slices.Sort(srcs)
	srcs = slices.Compact(srcs)
	key := strings.Join(srcs, "\x00") + "\x01" + strconv.Itoa(p.MinLength) + "\x01" + strconv.Itoa(p.MaxLength) + "\x01" + p.Format
	if len(except) > 0 {
		ex := slices.Clone(except)
		slices.Sort(ex)
		key += "\x01" + strings.Join(ex, "\x00")
	}
	return key
}

// stringLang is the language of the strings a plain schema's string
// keywords accept (patterns, minLength, maxLength, an asserted format),
// less the strings except (Schema.Except, the complement of an enum), as
// the compiler builds it: the hook for keywords that need a string
// schema's language (not on strings takes its complement). ok is false
// after a problem was reported: a limit (L506), or time or date-time
// beside a pattern that cuts through their leap seconds (C402). An entry
// without lang is the format's own grammar (formattedString).
func (cp *compiler) stringLang(p *subsetcheck.Schema, except []string) (*stringEntry, bool) {
	key := stringKey(p, except)
	if e, ok := cp.strs[key]; ok {
		return e, e.ok
	}
	e := &stringEntry{}
	put(&cp.strs, key, e)
	lim := cp.checked.Limits.Strlang()
	limit := func(err error) (*stringEntry, bool) {
		cp.problem(p, subsetcheck.CodePatternTooLarge, subsetcheck.StringLimitMessage("the strings of this schema (its patterns, lengths and format together)", err))
		return e, false
	}
	l := strlang.All()
	for _, pt := range p.Patterns {
		var err error
		if l, err = strlang.Intersect(l, pt.Lang, lim); err != nil {
			return limit(err)
		}
	}
	if p.Format != "" {
		f, ok := formatLanguage(p.Format)
		if !ok {
			cp.problem(p, subsetcheck.CodeNotExactlyCompilable, "format "+strconv.Quote(p.Format)+" beside a pattern has no string language the compiler builds")
			return e, false
		}
		switch inter, covered, err := f.meet(l, lim); {
		case err != nil:
			return limit(err)
		case covered && len(except) > 0:
			cp.problem(p, subsetcheck.CodeNotExactlyCompilable, fmt.Sprintf(
				"the strings here must not be %s (not of an enum or const), and excluding strings from format %q is not supported; list the allowed strings in enum instead",
				clip(quoted(except[0]), 60), p.Format))
			return e, false
		case covered:
			// Every string of the format is in the patterns: the format's
			// grammar, with its lengths, is the language.
			e.ok = true
			return e, true
		case inter == nil:
			cp.problem(p, subsetcheck.CodeNotExactlyCompilable, "pattern beside format "+strconv.Quote(p.Format)+
				" cannot be enforced exactly: the pattern admits some leap-second times (hh:mm:60) and not others, which would need the format's table of leap-second offsets intersected with it; "+
				"drop the pattern or the format, or write a pattern that admits every time of the format or none with second 60")
			return e, false
		default:
			l = inter
		}
	}
	if p.MinLength > 0 || p.MaxLength >= 0 {
		var err error
		if l, err = strlang.WithLength(l, p.MinLength, p.MaxLength, lim); err != nil {
			return limit(err)
		}
	}
	if len(except) > 0 {
		ex, err := strlang.Literals(except, lim)
		if err == nil {
			l, err = strlang.Minus(l, ex, lim)
		}
		if err != nil {
			return limit(err)
		}
	}
	e.lang, e.ok = l, true
	return e, true
}

// patternString is the JSON string text (quotes included) of the strings
// plain schema p accepts, less the strings except, p having a pattern (or
// a format and strings excluded).
func (cp *compiler) patternString(p *subsetcheck.Schema, base string, except []string) gbnf.Expr {
	e, ok := cp.stringLang(p, except)
	switch {
	case !ok:
		return nil
	case e.lang == nil:
		return cp.formattedString(p)
	case e.expr != nil:
		return e.expr
	case e.lang.IsEmpty():
		cp.noteCause("no string at %q matches its pattern%s within its lengths and format%s", p.Pointer, plural(len(p.Patterns)), delimiterHint(p.Patterns))
		return nil
	}
	e.expr = seq(lit(`"`), cp.machineExpr(langMachine(e.lang, epsilon()), base))
	return e.expr
}

// delimiterHint points at a pattern written as a JavaScript literal
// (/^a$/, /x/g): JSON Schema's pattern has no delimiters, so its ^ after a
// / can never match.
func delimiterHint(ps []*subsetcheck.Pattern) string {
	for _, pt := range ps {
		src := strings.TrimRight(pt.Source, "dgimsuvy")
		if len(src) >= 2 && src[0] == '/' && src[len(src)-1] == '/' {
			return fmt.Sprintf(" (pattern %q is written with JavaScript's /…/ delimiters, which a JSON Schema pattern does not have: drop them)", pt.Source)
		}
	}
	return ""
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// stringComplement is s (a string schema that says nothing else) holding
// the strings p's string keywords reject: one pattern whose language is
// the complement of theirs (stringLang), named for what it is. Or why
// that cannot be built: time and date-time have no automaton but beside a
// pattern that meets no leap second.
func (cp *compiler) stringComplement(p, s *subsetcheck.Schema) (*subsetcheck.Schema, string) {
	e, ok := cp.stringLang(p, nil)
	switch {
	case !ok:
		return nil, "the strings of this schema have no language here (the problem above says why), so neither has their complement"
	case e.lang == nil:
		return nil, fmt.Sprintf("the strings that are not in format %q have no grammar here", p.Format)
	}
	var parts []string
	for _, pt := range p.Patterns {
		parts = append(parts, "pattern "+strconv.Quote(pt.Source))
	}
	if p.MinLength > 0 {
		parts = append(parts, "minLength "+strconv.Itoa(p.MinLength))
	}
	if p.MaxLength >= 0 {
		parts = append(parts, "maxLength "+strconv.Itoa(p.MaxLength))
	}
	if p.Format != "" {
		parts = append(parts, "format "+strconv.Quote(p.Format))
	}
	s.Patterns = []*subsetcheck.Pattern{{Source: "not (" + strings.Join(parts, ", ") + ")", Lang: e.lang.Complement()}}
	return s, ""
}

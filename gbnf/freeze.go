package gbnf

import (
	"fmt"

	"github.com/schema2gbnf/schema2gbnf/internal/reuse"
)

// Freeze checks rules as a set closed under reference (every name they
// refer to is one of them) and notes in each its printed line, the rules it
// refers to and whether it matches the empty string. Print then copies a
// frozen rule's line, and Validate takes a grammar's frozen rules as
// checked, without a walk of their bodies, when the names they refer to
// are still theirs. A compiler whose helper rules are the same in every
// grammar freezes them once and shares them: half the text of a small
// compiled grammar is such rules.
//
// Rules frozen earlier may be among rules, so that a rule frozen later can
// refer to them; they are checked again but not changed. After Freeze
// neither the rules nor their bodies may change: many grammars may hold
// them, concurrently. A rule whose Name or Expr is reassigned anyway is
// no longer taken as frozen.
func Freeze(rules []*Rule) error {
	v := validators.Get().(*validator)
	defer v.release()
	v.check(rules, false)
	if len(v.errs) > 0 {
		return v.errs
	}
	for k, r := range rules {
		if v.effective[v.ruleIndex[k]] != r {
			return ErrorList{{Pos: r.Pos, Msg: fmt.Sprintf("rule %s is defined twice: a frozen rule must be its name's only definition", r.Name)}}
		}
	}
	for k, r := range rules {
		if r.frozenAs() != nil {
			continue
		}
		f := &frozen{name: r.Name, expr: r.Expr, nullable: v.nullable[v.ruleIndex[k]]}
		var err error
		if f.line, err = appendRule(nil, r); err != nil {
			return err
		}
		walkRefs(r.Expr, func(name string) {
			j, _ := v.index.Lookup(name) // defined: check saw to it
			for _, u := range f.uses {
				if u.name == name {
					return
				}
			}
			f.uses = append(f.uses, frozenUse{name, v.effective[j]})
		})
		r.frozen = f
	}
	return nil
}

// frozen is what Freeze notes in a rule.
type frozen struct {
	name     string // the rule's Name and Expr when frozen
	expr     Expr
	line     []byte // "name ::= body\n"
	uses     []frozenUse
	nullable bool
}

// frozenUse is a name a frozen rule refers to, and the rule it named.
type frozenUse struct {
	name string
	rule *Rule
}

// frozenAs is what Freeze noted in r, if r still has the name and body it
// had then.
func (r *Rule) frozenAs() *frozen {
	if f := r.frozen; f != nil && f.name == r.Name && f.expr == r.Expr {
		return f
	}
	return nil
}

// trustFrozen reports whether the frozen rules among rules may be taken as
// checked: each is its name's effective definition, and each name it
// refers to still names the frozen rule it named when frozen. Then the
// frozen rules form a closed set that was checked as a whole: no rule
// outside it is reachable from it, so it adds no left corner, no
// repetition and no reference to check. It is all or nothing: one frozen
// rule that fails makes every body walked, as in a grammar without them.
// Needs v.index and v.effective; notes in v.frozen which effective rules
// are frozen, for the later walks to skip.
func (v *validator) trustFrozen(rules []*Rule) bool {
	v.frozen = reuse.Zeroed(v.frozen, len(v.effective))
	some := false
	for _, r := range rules {
		if r == nil || r.frozenAs() == nil {
			continue
		}
		some = true
		j, ok := v.index.Lookup(r.Name)
		if !ok || v.effective[j] != r {
			return false
		}
		v.frozen[j] = true
	}
	if !some {
		return false
	}
	for j, r := range v.effective {
		if !v.frozen[j] {
			continue
		}
		for _, u := range r.frozen.uses {
			k, ok := v.index.Lookup(u.name)
			if !ok || v.effective[k] != u.rule || !v.frozen[k] {
				return false
			}
		}
	}
	return true
}

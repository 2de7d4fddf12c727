package regex

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// buildDepthLimit bounds how deep the builder recurses through expressions
// and inlined rules, so that a hostile grammar ends in CodeTooDeep instead
// of exhausting the stack.
const buildDepthLimit = 20000

// builder turns the grammar's rule graph into one node tree by inlining
// every rule. A rule is built once and shared; a recursive rule is built
// once per count of open recursive rules of its cycle (MaxDepth only).
type builder struct {
	rules     map[string]*gbnf.Rule
	order     []string             // rule names in first-definition order
	component map[string]int       // recursive rules: which cycle (strongly connected set) they belong to
	members   [][]string           // the rules of each cycle, sorted
	linear    []bool               // per cycle: right-linear, solved exactly (linear.go)
	open      map[string]int       // how many times each recursive rule is being built, outer to inner
	memo      map[string]*node     // built rules, by name and (for recursive ones) open counts
	maxDepth  int                  // Options.MaxDepth
	maxNodes  int                  // nodes the builder may create before giving up
	nodes     int                  // nodes created so far
	err       *subsetcheck.Problem // the first problem; building stops at it
	refs      map[string][]string  // rule name -> rules it references, in order, once each
}

func newBuilder(g *gbnf.Grammar, opts Options) (*builder, *subsetcheck.Problem) {
	if g == nil {
		return nil, problem(CodeInvalidGrammar, "no grammar (nil)")
	}
	b := &builder{
		rules:    map[string]*gbnf.Rule{},
		open:     map[string]int{},
		memo:     map[string]*node{},
		maxDepth: opts.MaxDepth,
		maxNodes: opts.MaxBytes,
		refs:     map[string][]string{},
	}
	for _, r := range g.Rules {
		if r == nil {
			return nil, problem(CodeInvalidGrammar, "a rule is nil")
		}
		if _, dup := b.rules[r.Name]; !dup {
			b.order = append(b.order, r.Name)
		}
		b.rules[r.Name] = r // a later definition wins, as in llama.cpp
	}
	if b.rules["root"] == nil {
		return nil, problem(CodeInvalidGrammar, `the grammar has no rule named "root"`)
	}
	for _, name := range b.order {
		var p *subsetcheck.Problem
		b.refs[name], p = ruleRefs(b.rules[name], b.rules)
		if p != nil {
			return nil, p
		}
	}
	b.findCycles()
	b.linear = make([]bool, len(b.members))
	for comp := range b.members {
		b.linear[comp] = b.rightLinear(comp)
	}
	return b, nil
}

// ruleRefs lists the rules r's body references, in order, each once, and
// checks that they exist. It walks with an explicit stack: a hostile body may
// nest deeply.
func ruleRefs(r *gbnf.Rule, rules map[string]*gbnf.Rule) ([]string, *subsetcheck.Problem) {
	var out []string
	seen := map[string]bool{}
	stack := []gbnf.Expr{r.Expr}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch e := e.(type) {
		case *gbnf.Alt:
			if e == nil {
				return nil, nilExpr(r)
			}
			for i := len(e.Alts) - 1; i >= 0; i-- {
				stack = append(stack, e.Alts[i])
			}
		case *gbnf.Seq:
			if e == nil {
				return nil, nilExpr(r)
			}
			for i := len(e.Items) - 1; i >= 0; i-- {
				stack = append(stack, e.Items[i])
			}
		case *gbnf.Repeat:
			if e == nil {
				return nil, nilExpr(r)
			}
			stack = append(stack, e.Expr)
		case *gbnf.Ref:
			if e == nil {
				return nil, nilExpr(r)
			}
			if rules[e.Name] == nil {
				return nil, problem(CodeInvalidGrammar, fmt.Sprintf("rule %s refers to undefined rule %q", r.Name, e.Name))
			}
			if !seen[e.Name] {
				seen[e.Name] = true
				out = append(out, e.Name)
			}
		case *gbnf.Lit:
			if e == nil {
				return nil, nilExpr(r)
			}
		case *gbnf.Class:
			if e == nil {
				return nil, nilExpr(r)
			}
		case *gbnf.Any:
			if e == nil {
				return nil, nilExpr(r)
			}
		default:
			return nil, problem(CodeInvalidGrammar, fmt.Sprintf("rule %s holds an unknown expression %T", r.Name, e))
		}
	}
	return out, nil
}

func nilExpr(r *gbnf.Rule) *subsetcheck.Problem {
	return problem(CodeInvalidGrammar, fmt.Sprintf("rule %s holds a nil expression", r.Name))
}

// findCycles marks the rules that lie on a reference cycle reachable from
// root (Tarjan's strongly connected components, iterative).
func (b *builder) findCycles() {
	b.component = map[string]int{}
	index := map[string]int{}
	low := map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	type frame struct {
		name string
		next int // index into refs[name] of the next edge to follow
	}
	visit := func(name string) []frame {
		index[name] = len(index)
		low[name] = index[name]
		stack = append(stack, name)
		onStack[name] = true
		return []frame{{name: name}}
	}
	calls := visit("root")
	for len(calls) > 0 {
		f := &calls[len(calls)-1]
		if f.next < len(b.refs[f.name]) {
			to := b.refs[f.name][f.next]
			f.next++
			if _, seen := index[to]; !seen {
				calls = append(calls, visit(to)...)
			} else if onStack[to] {
				low[f.name] = min(low[f.name], index[to])
			}
			continue
		}
		name := f.name
		calls = calls[:len(calls)-1]
		if len(calls) > 0 {
			parent := calls[len(calls)-1].name
			low[parent] = min(low[parent], low[name])
		}
		if low[name] != index[name] {
			continue
		}
		var comp []string
		for {
			top := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[top] = false
			comp = append(comp, top)
			if top == name {
				break
			}
		}
		if len(comp) == 1 && !contains(b.refs[name], name) {
			continue // not recursive
		}
		sort.Strings(comp)
		for _, m := range comp {
			b.component[m] = len(b.members)
		}
		b.members = append(b.members, comp)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// recursionProblem describes the first cycle met from root, with the
// path that closes it, so the user can find it in the grammar.
func (b *builder) recursionProblem() *subsetcheck.Problem {
	// The first recursive rule in a breadth-first walk from root.
	start := ""
	from := map[string]string{"root": ""} // the rule that first refers to each
	queue := []string{"root"}
	for len(queue) > 0 && start == "" {
		name := queue[0]
		queue = queue[1:]
		if c, rec := b.component[name]; rec && !b.linear[c] {
			start = name
			break
		}
		for _, to := range b.refs[name] {
			if _, seen := from[to]; !seen {
				from[to] = name
				queue = append(queue, to)
			}
		}
	}
	const bound = "; use the GBNF grammar, or ask for a depth bound (-max-depth N, regex.Options.MaxDepth), which unrolls it N levels deep and rejects valid values nested deeper"
	if anyValueRule(start) {
		// The prelude's any-value rule, not the user's $ref: say what
		// brought it in.
		at := ""
		if from[start] != "" {
			at = " (first in grammar rule " + from[start] + ")"
		}
		return problem(CodeRecursive, "the schema admits any JSON value somewhere"+at+
			": an object schema without \"additionalProperties\" takes extra members of any value, as JSON Schema says, and so does a schema without \"type\"; "+
			"any value nests without bound, which a regular expression cannot match. "+
			"Write \"additionalProperties\": false (or a schema for the extra members) and a \"type\" where any value is not meant"+bound)
	}
	// The shortest path from start back to itself, inside its cycle.
	comp := b.component[start]
	prev := map[string]string{}
	queue = []string{start}
	end := ""
	for len(queue) > 0 && end == "" {
		name := queue[0]
		queue = queue[1:]
		for _, to := range b.refs[name] {
			if c, ok := b.component[to]; !ok || c != comp {
				continue
			}
			if to == start {
				end = name
				break
			}
			if _, ok := prev[to]; !ok {
				prev[to] = name
				queue = append(queue, to)
			}
		}
	}
	path := []string{start}
	for n := end; n != start; n = prev[n] {
		path = append(path, n)
	}
	for i, j := 1, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	path = append(path, start)
	return problem(CodeRecursive, fmt.Sprintf(
		"the schema is recursive: it refers back to itself through $ref (grammar rules %s), and a regular expression cannot nest without bound"+bound,
		strings.Join(path, " -> ")))
}

// anyValueRule reports whether name is the compiler's any-value rule or one
// of its parts (value, value-object, value-array): names the compiler
// reserves, which no schema path produces.
func anyValueRule(name string) bool {
	return name == "value" || name == "value-object" || name == "value-array"
}

// build returns the node for the whole grammar.
func (b *builder) build() (*node, *subsetcheck.Problem) {
	if slices.Contains(b.linear, false) && b.maxDepth <= 0 {
		return nil, b.recursionProblem()
	}
	n := b.ref("root", 0)
	if b.err != nil {
		return nil, b.err
	}
	return n, nil
}

// ref builds the rule name. A recursive rule already open maxDepth times
// matches nothing: that is where unrolling stops.
func (b *builder) ref(name string, depth int) *node {
	comp, recursive := b.component[name]
	if recursive && b.linear[comp] {
		if _, ok := b.memo[name]; !ok {
			b.solveLinear(comp, depth)
		}
		if b.err != nil {
			return noneNode
		}
		return b.memo[name]
	}
	key := name
	if recursive {
		if b.open[name] >= b.maxDepth {
			return noneNode
		}
		// The key costs one entry per rule of the cycle: charge it to the
		// node budget so a huge cycle cannot make the work unbounded.
		b.nodes += len(b.members[comp]) / 16
		if b.nodes > b.maxNodes {
			b.err = problem(CodeTooLarge, fmt.Sprintf("unrolling takes more than %d nodes, so the regex would be longer than %d bytes (-max-regex-bytes, regex.Options.MaxBytes); lower -max-depth, or raise the limit", b.maxNodes, b.maxNodes))
			return noneNode
		}
		var k strings.Builder
		k.WriteString(name)
		for _, m := range b.members[comp] {
			k.WriteByte('\x00')
			k.WriteString(strconv.Itoa(b.open[m]))
		}
		key = k.String()
	}
	if n, ok := b.memo[key]; ok {
		return n
	}
	b.open[name]++
	n := b.expr(b.rules[name].Expr, depth+1)
	b.open[name]--
	b.memo[key] = n
	return n
}

// expr builds one expression of a rule body.
func (b *builder) expr(e gbnf.Expr, depth int) *node {
	if b.err != nil {
		return noneNode
	}
	if depth > buildDepthLimit {
		b.err = problem(CodeTooDeep, fmt.Sprintf("the grammar nests more than %d expressions and rules deep, more than the regex builder takes (a fixed bound that keeps its stack small); use the GBNF grammar", buildDepthLimit))
		return noneNode
	}
	b.nodes++
	if b.nodes > b.maxNodes {
		b.err = problem(CodeTooLarge, fmt.Sprintf("building the regex takes more than %d nodes, so it would be longer than %d bytes (-max-regex-bytes, regex.Options.MaxBytes); use the GBNF grammar, or raise the limit", b.maxNodes, b.maxNodes))
		return noneNode
	}
	switch e := e.(type) {
	case *gbnf.Alt:
		alts := make([]*node, len(e.Alts))
		for i, a := range e.Alts {
			alts[i] = b.expr(a, depth+1)
		}
		return newAlt(alts...)
	case *gbnf.Seq:
		items := make([]*node, len(e.Items))
		for i, a := range e.Items {
			items[i] = b.expr(a, depth+1)
			if items[i].op == opNone {
				return noneNode
			}
		}
		return newConcat(items...)
	case *gbnf.Lit:
		return newLit([]rune(e.Text))
	case *gbnf.Class:
		return newClass(e.Ranges, e.Negated)
	case *gbnf.Any:
		return newClass(nil, true)
	case *gbnf.Ref:
		return b.ref(e.Name, depth+1)
	case *gbnf.Repeat:
		return newRepeat(b.expr(e.Expr, depth+1), e.Min, e.Max)
	}
	return noneNode // unreachable: ruleRefs checked every expression
}

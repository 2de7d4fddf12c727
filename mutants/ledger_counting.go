package main

// countingMutations are bugs in the counting keywords: member counts and
// dependencies (compile/count.go, dependencies.go), multipleOf
// (multipleof.go), contains (contains.go), uniqueItems (items.go), their
// complements under not (countnot.go) and their meets (count.go).
var countingMutations = []mutation{
	// minProperties, maxProperties (compile/count.go).
	{
		ID: "props-max-forgotten-early", File: "compile/count.go",
		Old:  "k+len(c.members)-i <= c.hi)",
		New:  "k+len(c.members)-i <= c.hi+1)",
		Bug:  "the member count is forgotten one member early: maxProperties over declared members takes one more",
		Pkgs: []string{compilePkg}, Run: "^TestMemberCounts$",
	},
	{
		ID: "props-min-end", File: "compile/count.go",
		Old:  "(k < 0 || k >= c.lo)",
		New:  "(k < 0 || k >= c.lo-1)",
		Bug:  "an object may end one member short of minProperties",
		Pkgs: []string{compilePkg}, Run: "^TestMemberCounts$",
	},
	{
		ID: "props-max-declared", File: "compile/count.go",
		Old:  "if c.failed || c.hi >= 0 && k >= c.hi ||",
		New:  "if c.failed || c.hi >= 0 && k > c.hi ||",
		Bug:  "a declared member may come past maxProperties",
		Pkgs: []string{compilePkg}, Run: "^TestMemberCounts$",
	},
	{
		ID: "props-extra-max", File: "compile/count.go",
		Old:  "hi = c.hi - k",
		New:  "hi = c.hi - k + 1",
		Bug:  "extra members are counted to maxProperties+1",
		Pkgs: []string{compilePkg}, Run: "^TestMemberCounts$",
	},
	{
		ID: "props-extra-uncounted", File: "compile/count.go",
		Old:  "if m, ok := c.more(i, nk, 0, true); ok {",
		New:  "if m, ok := c.more(i, k, 0, true); ok {",
		Bug:  "the first extra member after the declared ones is not counted",
		Pkgs: []string{compilePkg}, Run: "^TestMemberCounts$",
	},
	{
		ID: "props-hold-absent-additional", File: "compile/count.go",
		Old:  "if ap := p.AdditionalProperties; ap == nil || !ap.False && cp.schemaRef(ap) != nil",
		New:  "if ap := p.AdditionalProperties; ap != nil && !ap.False && cp.schemaRef(ap) != nil",
		Bug:  "additionalProperties absent: extra members are not counted against maxProperties",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$", Args: noEngine,
	},
	{
		ID: "props-meet-min", File: "compile/count.go",
		Old:  "m.MinProperties = max(a.MinProperties, b.MinProperties)",
		New:  "m.MinProperties = min(a.MinProperties, b.MinProperties)",
		Bug:  "a meet (allOf, $ref beside keywords) keeps the smaller minProperties",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$", Args: noEngine,
	},
	{
		ID: "counts-meet-max", File: "compile/count.go",
		Old:  "case *b < *a:\n\t\treturn b",
		New:  "case *b > *a:\n\t\treturn b",
		Bug:  "a meet keeps the larger maxProperties and maxContains",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$", Args: noEngine,
	},

	{
		ID: "validate-max-properties", File: "compile/validate.go",
		Old:  "n < s.MinProperties || s.MaxProperties != nil && n > *s.MaxProperties {",
		New:  "n < s.MinProperties || s.MaxProperties != nil && n > *s.MaxProperties+1 {",
		Bug:  "the compiler's own validator (Canonical, the witnesses) takes one member past maxProperties",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$", Args: noEngine,
	},

	// Dependencies (compile/dependencies.go, the names owed in count.go).
	{
		ID: "deps-names-dropped", File: "compile/dependencies.go",
		Old:  "p.Required = append([]string{d.Name}, d.Required...)",
		New:  "p.Required = []string{d.Name}",
		Bug:  "a trigger split by cases brings in none of its names (those before the trigger are ignored)",
		Pkgs: []string{compilePkg}, Run: "^TestDependencies$",
	},
	{
		ID: "deps-schema-not-met", File: "compile/dependencies.go",
		Old:  "p.Ref = d.Schema\n\treturn []alternative{{opaque: p}}",
		New:  "return []alternative{{plain: p}}",
		Bug:  "dependentSchemas: the trigger present, its schema is not met",
		Pkgs: []string{compilePkg}, Run: "^TestDependencies$",
	},
	{
		ID: "deps-absent-case-open", File: "compile/dependencies.go",
		Old:  "absent.Properties = []subsetcheck.Property{{Name: d.Name, Schema: &subsetcheck.Schema{Pointer: s.Pointer, Node: s.Node, False: true}}}",
		New:  "absent.Properties = []subsetcheck.Property{{Name: d.Name, Schema: trueSchema(s)}}",
		Bug:  "the case of a trigger absent lets the trigger in, free of what it brings in",
		Pkgs: []string{compilePkg}, Run: "^TestDependencies$",
	},
	{
		ID: "deps-non-objects-dropped", File: "compile/dependencies.go",
		Old:  "return append(alts, others...), true",
		New:  "return append(alts, others[:0]...), true",
		Bug:  "a schema with dependencies and no type rejects every value that is not an object",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$", Args: noEngine,
	},
	{
		ID: "deps-owed-skipped", File: "compile/count.go",
		Old:  "if !m.required && owed&bit == 0 {",
		New:  "if !m.required {",
		Bug:  "a name owed to a trigger before it may be skipped",
		Pkgs: []string{compilePkg}, Run: "^TestDependencies$",
	},
	{
		ID: "deps-end-owing", File: "compile/count.go",
		Old:  "endOK := c.req[i] == 0 && owed == 0 &&",
		New:  "endOK := c.req[i] == 0 &&",
		Bug:  "an object may end owing a name its trigger brings in",
		Pkgs: []string{compilePkg}, Run: "^TestDependencies$",
	},

	// multipleOf (compile/multipleof.go).
	{
		ID: "multipleof-remainder", File: "compile/multipleof.go",
		Old:  "if st.r == 0 && (a.s == 0 || st.last) {",
		New:  "if st.r <= 1 && (a.s == 0 || st.last) {",
		Bug:  "a number one past a multiple is accepted (remainder 1 taken for 0)",
		Pkgs: []string{compilePkg}, Run: "^TestMultipleOfIntegers$",
	},
	{
		ID: "multipleof-decimal-scale", File: "compile/multipleof.go",
		Old:  "s = len(frac)\n",
		New:  "s = max(0, len(frac)-1)\n",
		Bug:  "a decimal step is scaled by one power of ten too few: multipleOf 0.25 reads as 2.5",
		Pkgs: []string{compilePkg}, Run: "^TestMultipleOfDecimals$",
	},
	{
		ID: "multipleof-trailing-zeros", File: "compile/multipleof.go",
		Old:  "seq(m, lit(strings.Repeat(\"0\", a.zeros)))",
		New:  "seq(m, lit(strings.Repeat(\"0\", a.zeros-1)))",
		Bug:  "a whole step's trailing zeros are written one short: multipleOf 1000 takes 100",
		Pkgs: []string{compilePkg}, Run: "^TestMultipleOfIntegers$",
	},
	{
		ID: "multipleof-meet-product", File: "compile/multipleof.go",
		Old:  "num := new(big.Int).Mul(a.Num(), new(big.Int).Quo(b.Num(), g))",
		New:  "num := new(big.Int).Mul(a.Num(), b.Num())\n\t_ = g",
		Bug:  "the meet of two multipleOf is their product, not their least common multiple: 2 and 4 keep multiples of 8",
		Pkgs: []string{equivPkg}, Run: "^TestEquivSchemas$", Args: noEngine,
	},

	// contains, minContains, maxContains (compile/contains.go).
	{
		ID: "contains-min-one-short", File: "compile/contains.go",
		Old:  "return s.n >= p.MinItems && s.k >= minC }",
		New:  "return s.n >= p.MinItems && s.k >= minC-1 }",
		Bug:  "contains counts one too few: minContains 2 takes one matching item",
		Pkgs: []string{compilePkg}, Run: "^TestContains$",
	},
	{
		ID: "contains-max-one-more", File: "compile/contains.go",
		Old:  "maxC >= 0 && e.to.k > maxC {",
		New:  "maxC >= 0 && e.to.k > maxC+1 {",
		Bug:  "maxContains takes one matching item more",
		Pkgs: []string{compilePkg}, Run: "^TestContains$",
	},
	{
		ID: "contains-listed-swapped", File: "compile/contains.go",
		Old:  "return literals(in), literals(out), true",
		New:  "return literals(out), literals(in), true",
		Bug:  "listed items: those contains rejects are counted as matching",
		Pkgs: []string{compilePkg}, Run: "^TestContains$",
	},
	{
		ID: "contains-other-not-negated", File: "compile/contains.go",
		Old:  "n, ok := cp.conj(s, cp.negation(c))",
		New:  "n, ok := cp.conj(s, c)",
		Bug:  "the items that do not match contains are taken from those that do",
		Pkgs: []string{compilePkg}, Run: "^TestContains$",
	},

	// uniqueItems (compile/items.go).
	{
		ID: "unique-one-repeat", File: "compile/items.go",
		Old:  "if used&(1<<j) != 0 {",
		New:  "if used&(1<<j) != 0 && n > 1 {",
		Bug:  "the second item may repeat the first",
		Pkgs: []string{compilePkg}, Run: "^TestUniqueItems$",
	},
	{
		ID: "unique-two-items-free", File: "compile/items.go",
		Old:  "if q.UniqueItems && maxN >= 0 && maxN <= 1 {",
		New:  "if q.UniqueItems && maxN >= 0 && maxN <= 2 {",
		Bug:  "an array of at most two items is taken as unconstrained by uniqueItems: [1,1] passes",
		Pkgs: []string{compilePkg}, Run: "^TestUniqueItems$",
	},
	{
		ID: "unique-range-last", File: "compile/items.go",
		Old:  "i.Cmp(hi) <= 0; i.Add(i, big.NewInt(1)) {",
		New:  "i.Cmp(hi) < 0; i.Add(i, big.NewInt(1)) {",
		Bug:  "an integer range is listed without its last value: unique items of 1 to 3 reject 3",
		Pkgs: []string{compilePkg}, Run: "^TestUniqueItems$",
	},

	// The counting keywords under not (compile/countnot.go).
	{
		ID: "countnot-min-properties", File: "compile/countnot.go",
		Old:  "m := p.MinProperties - 1",
		New:  "m := p.MinProperties",
		Bug:  "not of minProperties 2 takes two members",
		Pkgs: []string{compilePkg}, Run: "^TestCountsComplement$",
	},
	{
		ID: "countnot-max-properties", File: "compile/countnot.go",
		Old:  "s.MinProperties = *p.MaxProperties + 1",
		New:  "s.MinProperties = *p.MaxProperties",
		Bug:  "not of maxProperties 2 takes two members",
		Pkgs: []string{compilePkg}, Run: "^TestCountsComplement$",
	},
	{
		ID: "countnot-min-contains", File: "compile/countnot.go",
		Old:  "m := p.MinContains - 1",
		New:  "m := p.MinContains",
		Bug:  "not of minContains 2 takes two matching items",
		Pkgs: []string{compilePkg}, Run: "^TestCountsComplement$",
	},
	{
		ID: "countnot-dependency-trigger", File: "compile/countnot.go",
		Old:  "s.Required = []string{d.Name}\n\t\t\t\ts.Properties",
		New:  "s.Required = nil\n\t\t\t\ts.Properties",
		Bug:  "not of dependentRequired takes objects without the trigger",
		Pkgs: []string{compilePkg}, Run: "^TestCountsComplement$",
	},
}

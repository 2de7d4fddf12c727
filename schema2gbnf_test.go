package schema2gbnf_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/compile"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

const ticket = `{"type":"object","properties":{"id":{"type":"integer","minimum":1},"tags":{"type":"array","items":{"enum":["a","b"]}}},"required":["id"]}`

func TestCompileAcceptsAndRejects(t *testing.T) {
	g, err := schema2gbnf.Compile([]byte(ticket), schema2gbnf.Options{})
	require.NoError(t, err)
	m, err := gbnf.NewMatcher(g.Rules)
	require.NoError(t, err)
	assert.True(t, m.Accepts(`{"id":7,"tags":["a","b"]}`))
	assert.False(t, m.Accepts(`{"id":0}`))

	// The printed text is the same grammar as the value.
	parsed, err := gbnf.Parse(g.GBNF)
	require.NoError(t, err)
	pm, err := gbnf.NewMatcher(parsed)
	require.NoError(t, err)
	assert.True(t, pm.Accepts(`{"id":7}`))
	assert.False(t, pm.Accepts(`{"tags":[]}`))
}

func TestProblemsAreInspectable(t *testing.T) {
	_, err := schema2gbnf.Compile([]byte(`{"properties":{"a":{"unevaluatedProperties":false},"b":{"$dynamicRef":"#x"}}}`), schema2gbnf.Options{Name: "s.json"})
	var problems subsetcheck.ErrorList
	require.True(t, errors.As(err, &problems), "%v", err)
	require.Len(t, problems, 2, "every problem is reported at once")
	assert.Equal(t, "/properties/a/unevaluatedProperties", problems[0].Pointer)
	assert.Equal(t, subsetcheck.CodeRefusedKeyword, problems[0].Code)
	assert.Equal(t, "s.json", problems[0].File)
	assert.Equal(t, 1, problems[0].Line)
}

func TestProvenance(t *testing.T) {
	g, err := schema2gbnf.Compile([]byte(ticket), schema2gbnf.Options{Whitespace: compile.Compact})
	require.NoError(t, err)
	p, ok := schema2gbnf.ReadProvenance(g.GBNF)
	require.True(t, ok)
	assert.Equal(t, schema2gbnf.Provenance{
		Version:    schema2gbnf.Version,
		Profile:    "exact",
		Whitespace: "compact",
		Draft:      "2020-12",
		Format:     "annotation",
		Schema:     schema2gbnf.SchemaHash([]byte(ticket)),
	}, p)
	assert.Equal(t, p, g.Provenance)
	_, ok = schema2gbnf.ReadProvenance("root ::= \"x\"\n")
	assert.False(t, ok)
}

// Same schema, same bytes: across calls and across goroutines.
func TestDeterministicAndConcurrent(t *testing.T) {
	first, err := schema2gbnf.Compile([]byte(ticket), schema2gbnf.Options{})
	require.NoError(t, err)
	var wg sync.WaitGroup
	out := make([]string, 16)
	for i := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g, err := schema2gbnf.Compile([]byte(ticket), schema2gbnf.Options{})
			if err == nil {
				out[i] = g.GBNF
			}
		}()
	}
	wg.Wait()
	for _, s := range out {
		assert.Equal(t, first.GBNF, s)
	}
}

// TestPortableADRSchema compiles a whole schema written by the portable
// profile's authoring rules (seed 001's ADR: draft-07, the release's $id at
// the root, a closed root, a map of operations whose values $ref a
// definition, an optional nullable description, an enum with a type,
// bounded integers): it passes the portable profile and compiles to the
// grammar the exact profile gives, byte for byte below the provenance line.
func TestPortableADRSchema(t *testing.T) {
	schema, err := os.ReadFile(filepath.Join("testdata", "portable", "dictionary.schema.json"))
	require.NoError(t, err)
	portable, err := schema2gbnf.Compile(schema, schema2gbnf.Options{Profile: subsetcheck.Portable})
	require.NoError(t, err, "the ADR's schema must pass the portable profile")
	exact, err := schema2gbnf.Compile(schema, schema2gbnf.Options{})
	require.NoError(t, err)
	assert.Empty(t, portable.Warnings)
	assert.Equal(t, "portable", portable.Provenance.Profile)
	_, pBody, _ := strings.Cut(portable.GBNF, "\n")
	_, eBody, _ := strings.Cut(exact.GBNF, "\n")
	assert.Equal(t, eBody, pBody, "portable and exact grammars differ")

	m, err := gbnf.NewMatcher(portable.Rules)
	require.NoError(t, err)
	assert.True(t, m.Accepts(`{"name":"petstore","description":null,"operations":{"getPet":{"method":"GET","weight":5,"parameters":{"id":["1","2"]}}}}`))
	assert.True(t, m.Accepts(`{"name":"p","operations":{}}`))
	assert.False(t, m.Accepts(`{"name":"p","operations":{"getPet":{"weight":0,"parameters":{}}}}`), "weight below its minimum")
	assert.False(t, m.Accepts(`{"name":"p","operations":{"getPet":{"method":"Get","parameters":{}}}}`), "a method not in the enum")
	assert.False(t, m.Accepts(`{"name":"p","operations":{"getPet":{"parameters":{"id":[]}}}}`), "no values")
	assert.False(t, m.Accepts(`{"name":"p","operations":{},"extra":1}`), "a member the closed root does not name")
}

// TestLenientProfile: the lenient profile compiles what the exact profile
// refuses, says so in the provenance line (profile=lenient relaxed=N) and
// the warnings, and accepts what the relaxed constraints no longer hold;
// a schema the exact profile admits gets its grammar, byte for byte below
// the provenance line, with relaxed=0.
func TestLenientProfile(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"id":{"type":"string","pattern":"^(?=[a-z])[a-z]*$"},"n":{"oneOf":[{"type":"integer"},{"type":"array","unevaluatedItems":false}]}},"required":["id"]}`)
	_, err := schema2gbnf.Compile(schema, schema2gbnf.Options{})
	require.Error(t, err, "the exact profile refuses a lookahead (S211) and unevaluatedItems")
	g, err := schema2gbnf.Compile(schema, schema2gbnf.Options{Profile: subsetcheck.Lenient, Whitespace: compile.Compact})
	require.NoError(t, err)
	assert.Equal(t, "lenient", g.Provenance.Profile)
	assert.Equal(t, 3, g.Provenance.Relaxed)
	assert.Contains(t, g.GBNF, " profile=lenient relaxed=3 ")
	back, ok := schema2gbnf.ReadProvenance(g.GBNF)
	require.True(t, ok)
	assert.Equal(t, g.Provenance, back)
	require.Len(t, g.Relaxed, 3)
	assert.Equal(t, subsetcheck.CodeRelaxedKeyword, g.Relaxed[0].Code)
	assert.Equal(t, "/properties/id/pattern", g.Relaxed[0].Pointer)
	assert.Equal(t, subsetcheck.CodeRelaxedOneOf, g.Relaxed[1].Code, "a relaxation inside a branch: oneOf as anyOf")
	assert.Equal(t, "/properties/n/oneOf/1/unevaluatedItems", g.Relaxed[2].Pointer)
	m, err := gbnf.NewMatcher(g.Rules)
	require.NoError(t, err)
	assert.True(t, m.Accepts(`{"id":"abc","n":1}`), "valid")
	assert.True(t, m.Accepts(`{"id":"ABC"}`), "breaks the relaxed pattern")
	assert.False(t, m.Accepts(`{"n":1}`), "breaks required, which is enforced")

	admitted := []byte(`{"type":"object","properties":{"a":{"type":"integer","maximum":9}}}`)
	exact, err := schema2gbnf.Compile(admitted, schema2gbnf.Options{})
	require.NoError(t, err)
	same, err := schema2gbnf.Compile(admitted, schema2gbnf.Options{Profile: subsetcheck.Lenient})
	require.NoError(t, err)
	assert.Contains(t, same.GBNF, " profile=lenient relaxed=0 ")
	_, eBody, _ := strings.Cut(exact.GBNF, "\n")
	_, lBody, _ := strings.Cut(same.GBNF, "\n")
	assert.Equal(t, eBody, lBody)
	assert.NotContains(t, exact.GBNF, "relaxed=", "the exact profile's line is as before")
}

package schema2gbnf_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/schema2gbnf/schema2gbnf"
	"github.com/schema2gbnf/schema2gbnf/gbnf"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// codesOf lists the codes of a compile error, in order.
func codesOf(t *testing.T, err error) []subsetcheck.Code {
	t.Helper()
	var list subsetcheck.ErrorList
	require.True(t, errors.As(err, &list), "want an ErrorList, got %v", err)
	var out []subsetcheck.Code
	for _, p := range list {
		out = append(out, p.Code)
	}
	return out
}

// TestRefsFromLocalDocuments: a $ref to another document is refused
// without the option (S206), and followed with it, from a map of
// documents or a folder, matched by the referring document's base URI and
// the target's $id; the grammar holds the other document's constraints.
func TestRefsFromLocalDocuments(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"a":{"$ref":"defs/item.json"},"b":{"$ref":"http://example.test/n.json#/$defs/small"}},"required":["a"]}`)
	_, err := schema2gbnf.Compile(schema, schema2gbnf.Options{})
	assert.Equal(t, []subsetcheck.Code{subsetcheck.CodeRemoteRef, subsetcheck.CodeRemoteRef}, codesOf(t, err))

	folder := fstest.MapFS{
		"defs/item.json": {Data: []byte(`{"type":"string","maxLength":2}`)},
		"other.json":     {Data: []byte(`{"$id":"http://example.test/n.json","$defs":{"small":{"type":"integer","minimum":0,"maximum":3}}}`)},
	}
	opts := schema2gbnf.Options{Whitespace: "compact", BaseURI: "file:///main.json",
		Refs:      []schema2gbnf.RefSource{{Prefix: "file:///", FS: folder}},
		Documents: map[string][]byte{"http://example.test/n.json": folder["other.json"].Data}}
	g, err := schema2gbnf.Compile(schema, opts)
	require.NoError(t, err)
	m, err := gbnf.NewMatcher(g.Rules)
	require.NoError(t, err)
	assert.True(t, m.Accepts(`{"a":"xy","b":3}`))
	assert.False(t, m.Accepts(`{"a":"xyz"}`), "item.json's maxLength")
	assert.False(t, m.Accepts(`{"a":"x","b":4}`), "n.json's maximum")
}

// TestRefPathsStayInTheFolder: a URI that maps outside the folder is
// refused (S212) before anything is opened: .., its percent-encoding, an
// absolute path; and a symlink out of an os.Root folder.
func TestRefPathsStayInTheFolder(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret.json"), []byte(`{"type":"integer"}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ok.json"), []byte(`{"type":"integer"}`), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(dir, "link.json")))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "out")))
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	defer root.Close()
	opts := schema2gbnf.Options{BaseURI: "file:///sub/main.json", Refs: []schema2gbnf.RefSource{{Prefix: "file:///", FS: root.FS()}}}
	for ref, want := range map[string]subsetcheck.Code{
		"../ok.json":                 "",                        // file:///ok.json: inside
		"../../" + "secret.json":     subsetcheck.CodeRemoteRef, // resolves to file:///secret.json, not in the folder
		"../link.json":               subsetcheck.CodeRefPath,
		"../out/secret.json":         subsetcheck.CodeRefPath,
		"file:///%2e%2e/secret.json": subsetcheck.CodeRefPath,
		"file:////etc/passwd":        subsetcheck.CodeRefPath,
		"file:///a//b.json":          subsetcheck.CodeRefPath,
		"file:///sub":                subsetcheck.CodeRemoteRef,
	} {
		_, err := schema2gbnf.Compile([]byte(`{"$ref":"`+ref+`"}`), opts)
		if want == "" {
			assert.NoError(t, err, ref)
			continue
		}
		if assert.Error(t, err, ref) {
			assert.Contains(t, codesOf(t, err), want, "%s: %v", ref, err)
		}
	}
}

// TestRefLimits: the documents $refs name are bounded in number (L507)
// and in bytes (L508); a chain of a million tiny documents ends at the
// first limit, fast.
func TestRefLimits(t *testing.T) {
	start := time.Now()
	_, err := schema2gbnf.Compile([]byte(`{"$ref":"d0.json"}`), schema2gbnf.Options{Refs: []schema2gbnf.RefSource{{Prefix: "file:///", FS: chainFS(1_000_000)}}})
	assert.Equal(t, []subsetcheck.Code{subsetcheck.CodeTooManyRefDocs}, codesOf(t, err))
	t.Logf("a chain of a million documents refused in %v", time.Since(start).Round(time.Millisecond))

	_, err = schema2gbnf.Compile([]byte(`{"$ref":"d0.json"}`), schema2gbnf.Options{Refs: []schema2gbnf.RefSource{{Prefix: "file:///", FS: chainFS(1_000_000)}},
		Limits: subsetcheck.Limits{MaxRefDocuments: 5}})
	assert.Equal(t, []subsetcheck.Code{subsetcheck.CodeTooManyRefDocs}, codesOf(t, err))

	_, err = schema2gbnf.Compile([]byte(`{"$ref":"d0.json"}`), schema2gbnf.Options{Refs: []schema2gbnf.RefSource{{Prefix: "file:///", FS: chainFS(20)}},
		Limits: subsetcheck.Limits{MaxRefBytes: 100}})
	assert.Equal(t, []subsetcheck.Code{subsetcheck.CodeRefBytes}, codesOf(t, err))

	g, err := schema2gbnf.Compile([]byte(`{"$ref":"d0.json"}`), schema2gbnf.Options{Refs: []schema2gbnf.RefSource{{Prefix: "file:///", FS: chainFS(20)}}})
	require.NoError(t, err, "a chain within the limits")
	assert.True(t, g.Rules != nil)
}

// TestRefCycleAcrossFiles: recursion across documents that never consumes
// input is refused (S207); through a property it compiles.
func TestRefCycleAcrossFiles(t *testing.T) {
	folder := fstest.MapFS{
		"a.json": {Data: []byte(`{"$ref":"b.json"}`)},
		"b.json": {Data: []byte(`{"anyOf":[{"type":"null"},{"$ref":"a.json"}]}`)},
		"c.json": {Data: []byte(`{"type":"object","properties":{"next":{"$ref":"d.json"}},"additionalProperties":false}`)},
		"d.json": {Data: []byte(`{"anyOf":[{"type":"null"},{"$ref":"c.json"}]}`)},
	}
	opts := schema2gbnf.Options{Whitespace: "compact", Refs: []schema2gbnf.RefSource{{Prefix: "file:///", FS: folder}}}
	_, err := schema2gbnf.Compile([]byte(`{"$ref":"a.json"}`), opts)
	assert.Contains(t, codesOf(t, err), subsetcheck.CodeRefCycle)
	g, err := schema2gbnf.Compile([]byte(`{"$ref":"c.json"}`), opts)
	require.NoError(t, err)
	m, err := gbnf.NewMatcher(g.Rules)
	require.NoError(t, err)
	assert.True(t, m.Accepts(`{"next":{"next":{"next":null}}}`))
	assert.False(t, m.Accepts(`{"next":{"x":1}}`))
}

// TestRefProblemsNameTheirDocument: a problem in another document is
// placed in it: its name (the URI), line and column.
func TestRefProblemsNameTheirDocument(t *testing.T) {
	folder := fstest.MapFS{"x.json": {Data: []byte("{\n  \"type\": \"strin\"\n}")}}
	_, err := schema2gbnf.Compile([]byte(`{"$ref":"x.json"}`), schema2gbnf.Options{Refs: []schema2gbnf.RefSource{{Prefix: "file:///", FS: folder}}})
	var list subsetcheck.ErrorList
	require.True(t, errors.As(err, &list))
	require.Len(t, list, 1)
	assert.Equal(t, subsetcheck.CodeBadKeywordValue, list[0].Code)
	assert.Equal(t, "file:///x.json", list[0].File)
	assert.Equal(t, 2, list[0].Line)
	assert.Equal(t, "/type", list[0].Pointer)
}

// chainFS serves n documents d0.json ... d(n-1).json, each a $ref to the
// next, without storing them.
type chainFS int

func (c chainFS) Open(name string) (fs.File, error) {
	var i int
	if _, err := fmt.Sscanf(name, "d%d.json", &i); err != nil || i < 0 || i >= int(c) || name != fmt.Sprintf("d%d.json", i) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	body := fmt.Sprintf(`{"$ref":"d%d.json"}`, i+1)
	if i == int(c)-1 {
		body = `{"type":"integer"}`
	}
	return &memFile{name: name, r: strings.NewReader(body), size: int64(len(body))}, nil
}

type memFile struct {
	name string
	r    *strings.Reader
	size int64
}

func (f *memFile) Read(p []byte) (int, error) { return f.r.Read(p) }
func (f *memFile) Close() error               { return nil }
func (f *memFile) Stat() (fs.FileInfo, error) { return memInfo{f.name, f.size}, nil }

type memInfo struct {
	name string
	size int64
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }

// TestPortableKeepsRefsInside: the portable profile refuses a $ref to
// another document even when it is handed in: engines read one document.
func TestPortableKeepsRefsInside(t *testing.T) {
	folder := fstest.MapFS{"x.json": {Data: []byte(`{"type":"integer"}`)}}
	_, err := schema2gbnf.Compile([]byte(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","additionalProperties":false,"properties":{"a":{"$ref":"x.json"}}}`),
		schema2gbnf.Options{Profile: subsetcheck.Portable, Refs: []schema2gbnf.RefSource{{Prefix: "file:///", FS: folder}}})
	assert.Contains(t, codesOf(t, err), subsetcheck.CodePortableRule)
}

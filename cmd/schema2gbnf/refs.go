package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/schema2gbnf/schema2gbnf"
)

// refFlags hand in the documents $refs to other documents name, from
// local files only (schema2gbnf.Options.Refs and Documents).
type refFlags struct {
	dir   string    // -refs DIR
	pairs pairFlags // -ref URI=PATH, repeated
}

// pairFlags is a repeatable URI=PATH flag.
type pairFlags []string

func (p *pairFlags) String() string { return strings.Join(*p, ",") }

func (p *pairFlags) Set(v string) error {
	if uri, path, ok := strings.Cut(v, "="); !ok || uri == "" || path == "" {
		return fmt.Errorf("want URI=PATH, got %q", v)
	}
	*p = append(*p, v)
	return nil
}

const refsUsage = "read the documents a $ref to another document names from the folder `DIR`, and nowhere else: the schema stands at its path inside DIR (or at its file name when outside), a relative $ref resolves against it, and the document at file:///p is DIR/p; paths that leave DIR (.., absolute, a symlink out) are refused (S212)"

const refUsage = "the document at `URI` is the file at PATH (URI=PATH; repeat the flag for more); a URI ending in / and a folder map every URI under it to the files under the folder (e.g. http://localhost:1234/=remotes/), only inside it"

// apply opens the folders and reads the files into opts; the folders are
// os.Root's, which refuse a path that leaves them, symlinks included.
func (r *refFlags) apply(opts *schema2gbnf.Options) error {
	if r.dir != "" {
		root, err := os.OpenRoot(r.dir)
		if err != nil {
			return fmt.Errorf("-refs: %w", err)
		}
		opts.Refs = append(opts.Refs, schema2gbnf.RefSource{Prefix: "file:///", FS: root.FS()})
	}
	for _, pair := range r.pairs {
		uri, path, _ := strings.Cut(pair, "=")
		st, err := os.Stat(path)
		if err != nil {
			return fmt.Errorf("-ref %s: %w", pair, err)
		}
		if st.IsDir() {
			if !strings.HasSuffix(uri, "/") {
				return fmt.Errorf("-ref %s: a folder maps a URI prefix, which ends in /", pair)
			}
			root, err := os.OpenRoot(path)
			if err != nil {
				return fmt.Errorf("-ref %s: %w", pair, err)
			}
			opts.Refs = append(opts.Refs, schema2gbnf.RefSource{Prefix: uri, FS: root.FS()})
			continue
		}
		data, _, err := readSchema(path, nil, opts.Limits.MaxInputBytes)
		if err != nil {
			return fmt.Errorf("-ref %s: %w", pair, err)
		}
		if opts.Documents == nil {
			opts.Documents = map[string][]byte{}
		}
		opts.Documents[uri] = data
	}
	return nil
}

// baseURI is the retrieval URI of the schema at path: its path inside the
// -refs folder, else its file name, under file:///; "" (the library's
// default) without refs, or for stdin.
func (r *refFlags) baseURI(path string) string {
	if r.dir == "" && len(r.pairs) == 0 || path == "" || path == "-" {
		return ""
	}
	if r.dir != "" {
		if abs, err := filepath.Abs(path); err == nil {
			if dir, err := filepath.Abs(r.dir); err == nil {
				if rel, err := filepath.Rel(dir, abs); err == nil && filepath.IsLocal(rel) {
					return "file:///" + filepath.ToSlash(rel)
				}
			}
		}
	}
	return "file:///" + filepath.Base(path)
}

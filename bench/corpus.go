// Package bench measures schema2gbnf on real schemas: which ones it compiles
// or refuses (coverage), how fast, how big the grammars are, and how they
// compare with a peer converter. The commands live in bench/coverage,
// bench/peer and bench/report; the Go benchmarks in this package's tests.
package bench

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Schema is one schema file of a corpus.
type Schema struct {
	Path   string // as found under the directory given
	Subset string // the name of the directory holding the file
	Size   int64  // bytes
}

// FindSchemas lists every *.json file under dirs, sorted by path so that
// every run visits them in the same order.
func FindSchemas(dirs ...string) ([]Schema, error) {
	var out []Schema
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.HasSuffix(d.Name(), ".json") {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			out = append(out, Schema{
				Path:   path,
				Subset: filepath.Base(filepath.Dir(path)),
				Size:   info.Size(),
			})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// ReadSchema reads one schema file.
func ReadSchema(s Schema) ([]byte, error) { return os.ReadFile(s.Path) }

// StderrIsTerminal reports whether progress lines are welcome: only on a
// terminal, never in a pipe or a log file.
func StderrIsTerminal() bool {
	info, err := os.Stderr.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// PublicCommand is a command line as published tables show it: a path into
// the JSONSchemaBench corpus is written from the corpus on, after
// $JSONSCHEMABENCH (where the reader keeps their copy), and no other
// absolute path of the machine that ran it is kept.
func PublicCommand(cmd string) string {
	fields := strings.Fields(cmd)
	for i, f := range fields {
		if !filepath.IsAbs(f) {
			continue
		}
		if j := strings.Index(f, "/jsonschemabench"); j >= 0 {
			fields[i] = "$JSONSCHEMABENCH" + f[j+len("/jsonschemabench"):]
		} else {
			fields[i] = filepath.Base(f)
		}
	}
	return strings.Join(fields, " ")
}

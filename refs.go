package schema2gbnf

import (
	"errors"
	"io"
	"io/fs"
	"net/url"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// RefSource is a folder of local files that stands for a URI prefix, for
// $refs to other documents: the document at URI Prefix+p is the file p of
// FS. Only paths inside the folder are opened: a URI whose path climbs out
// (..), is absolute or does not spell a plain path is refused (S212); so
// is a symlink that leads out, when FS is an os.Root's (os.OpenRoot), as
// the command's -refs is.
type RefSource struct {
	Prefix string // an absolute URI ending in "/", such as "file:///" or "http://localhost:1234/"
	FS     fs.FS
}

// refsLoader reads the documents $refs name from opts.Documents, then from
// the source with the longest prefix the URI starts with.
func refsLoader(opts Options) subsetcheck.Loader {
	maxBytes := opts.Limits.MaxInputBytes
	if maxBytes <= 0 {
		maxBytes = subsetcheck.DefaultLimits.MaxInputBytes
	}
	return func(uri string) (string, []byte, error) {
		if data, ok := opts.Documents[uri]; ok {
			return uri, data, nil
		}
		var src *RefSource
		for i := range opts.Refs {
			r := &opts.Refs[i]
			if strings.HasPrefix(uri, r.Prefix) && strings.HasSuffix(r.Prefix, "/") && (src == nil || len(r.Prefix) > len(src.Prefix)) {
				src = r
			}
		}
		if src == nil {
			return "", nil, subsetcheck.ErrNotHandedIn
		}
		rest := uri[len(src.Prefix):]
		p, err := url.PathUnescape(rest)
		if err != nil || strings.ContainsAny(rest, "?#") || !fs.ValidPath(p) || p == "." || strings.Contains(p, `\`) {
			return "", nil, subsetcheck.RefPathError("%q maps to the path %q under %s, which is not a plain path inside the folder (no .., no absolute path, no empty or . segment); refs are read from the folder only", uri, p, src.Prefix)
		}
		f, err := src.FS.Open(p)
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil, subsetcheck.ErrNotHandedIn
		}
		if err != nil {
			return "", nil, subsetcheck.RefPathError("%q maps to %q under %s, which cannot be opened inside the folder: %v (a symlink that leads out of the folder is refused)", uri, p, src.Prefix, err)
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && st.IsDir() {
			return "", nil, subsetcheck.RefPathError("%q maps to %q under %s, which is a folder", uri, p, src.Prefix)
		}
		data, err := io.ReadAll(io.LimitReader(f, int64(maxBytes)+1))
		if err != nil {
			return "", nil, subsetcheck.RefPathError("%q maps to %q under %s, which cannot be read: %v", uri, p, src.Prefix, err)
		}
		if len(data) > maxBytes {
			return "", nil, subsetcheck.InputTooLarge(uri, -1, maxBytes)
		}
		return uri, data, nil
	}
}

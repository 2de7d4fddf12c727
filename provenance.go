package schema2gbnf

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// Provenance says how a grammar was made. Every grammar Compile emits starts
// with it as a GBNF comment, so a grammar found in a pipeline can be traced to
// the tool, the options and the exact schema bytes it came from.
type Provenance struct {
	Version    string `json:"version"`           // the tool's version
	Profile    string `json:"profile"`           // exact, lenient or portable
	Whitespace string `json:"whitespace"`        // bounded or compact
	Draft      string `json:"draft"`             // the schema's draft, e.g. 2020-12
	Format     string `json:"format"`            // annotation, or asserted (Options.AssertFormat)
	Objects    string `json:"objects,omitempty"` // "closed" under Options.ClosedObjects; "" (left out of the line) otherwise
	Relaxed    int    `json:"relaxed,omitempty"` // lenient profile: the constraints relaxed (the line says relaxed=N under that profile only)
	Schema     string `json:"schema"`            // "sha256:" and the hex SHA-256 of the schema's bytes
}

const provenancePrefix = "# schema2gbnf "

// String is the comment line, without its newline.
func (p Provenance) String() string {
	objects, relaxed := "", ""
	if p.Objects != "" {
		objects = " objects=" + p.Objects
	}
	if p.Profile == string(subsetcheck.Lenient) {
		relaxed = " relaxed=" + strconv.Itoa(p.Relaxed)
	}
	return provenancePrefix + p.Version + " profile=" + p.Profile + relaxed + " whitespace=" + p.Whitespace +
		" draft=" + p.Draft + " format=" + p.Format + objects + " schema=" + p.Schema
}

// SchemaHash is the Provenance.Schema value for schema bytes.
func SchemaHash(schema []byte) string {
	sum := sha256.Sum256(schema)
	var b [len("sha256:") + 2*sha256.Size]byte // one allocation: the string
	copy(b[:], "sha256:")
	hex.Encode(b[len("sha256:"):], sum[:])
	return string(b[:])
}

// ReadProvenance reads the provenance comment on a grammar's first line.
func ReadProvenance(grammar string) (Provenance, bool) {
	line, _, _ := strings.Cut(grammar, "\n")
	rest, ok := strings.CutPrefix(line, provenancePrefix)
	if !ok {
		return Provenance{}, false
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 {
		return Provenance{}, false
	}
	p := Provenance{Version: fields[0]}
	for _, f := range fields[1:] {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "profile":
			p.Profile = v
		case "whitespace":
			p.Whitespace = v
		case "draft":
			p.Draft = v
		case "format":
			p.Format = v
		case "objects":
			p.Objects = v
		case "relaxed":
			p.Relaxed, _ = strconv.Atoi(v)
		case "schema":
			p.Schema = v
		}
	}
	return p, true
}

package subsetcheck

import (
	"bytes"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/schema2gbnf/schema2gbnf/internal/regexp2ecma"
)

// oracleCompiles reports whether the oracle validator accepts the schema
// (its meta-schema check included), with the same default draft as Check.
func oracleCompiles(data []byte) error {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseRegexpEngine(func(s string) (jsonschema.Regexp, error) {
		re, err := regexp2ecma.New(s)
		if err != nil {
			return nil, err
		}
		return re, nil
	})
	if err := c.AddResource("file:///schema.json", doc); err != nil {
		return err
	}
	_, err = c.Compile("file:///schema.json")
	return err
}

// TestOracleAgreesOnSchemaValidity: every schema Check admits compiles in the
// oracle, and every schema Check refuses only for a bad keyword value (S203)
// is refused by the oracle too.
func TestOracleAgreesOnSchemaValidity(t *testing.T) {
	for _, tt := range checkCases {
		if tt.profile != "" {
			continue
		}
		err := oracleCompiles([]byte(tt.schema))
		onlyS203 := tt.errs != "" && strings.Trim(strings.ReplaceAll(tt.errs, "S203", ""), " ") == ""
		switch {
		case tt.errs == "" && err != nil:
			t.Errorf("Check admits %s, the oracle refuses it: %v", tt.schema, err)
		case onlyS203 && err == nil:
			t.Errorf("Check refuses %s with S203, the oracle accepts it", tt.schema)
		}
	}
}

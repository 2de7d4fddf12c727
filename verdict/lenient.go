package verdict

import (
	"errors"
	"fmt"

	"github.com/schema2gbnf/schema2gbnf/internal/validate"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// A lenient grammar (subsetcheck.Lenient) enforces its schema only in part:
// what the exact profile refuses is relaxed, and the grammar accepts every
// valid value and some invalid ones. A text such a grammar accepts is then
// validated against the whole schema by a real validator (internal/validate:
// santhosh-tekuri/jsonschema, patterns read as ECMA-262, nothing fetched),
// and a value that breaks a relaxed constraint is SCHEMA_INVALID, with the
// failing keyword, its pointer in the schema and the value's pointer. A
// rejection that no relaxation explains is GRAMMAR_MISMATCH: the grammar
// accepts what even its relaxed schema should not.

// validateAfter sets up the validation after decoding for a lenient
// schema; the schema's other documents must have been handed in.
func (j *Judge) validateAfter() error {
	if j.schema.Profile != subsetcheck.Lenient {
		return nil
	}
	v, err := validate.New(j.schema, validate.Options{})
	if err != nil {
		return fmt.Errorf("verdict: a lenient grammar's output is validated against the whole schema, and the validator cannot read it: %w", err)
	}
	j.full = v
	return nil
}

// afterDecoding is the verdict on a text a lenient grammar accepted, read
// (readErr: why the strict reader refused it) and found valid by the
// relaxed schema: ok is the verdict when the whole schema accepts it too.
func (j *Judge) afterDecoding(text []byte, readErr error, ok Verdict) Verdict {
	var list subsetcheck.ErrorList
	if errors.As(readErr, &list) {
		for _, p := range list {
			if p.Code[0] == 'L' {
				v := j.at(LimitExceeded, text, len(text))
				v.Message = "the grammar accepts the text, but it is beyond the reader's limits (" + p.Message + "), so the whole schema cannot be checked after decoding"
				v.Problems = problems(list)
				return v
			}
		}
	}
	res, err := j.full.Validate(text)
	if err != nil {
		v := j.at(LimitExceeded, text, len(text))
		v.Message = "the grammar accepts the text, and the validator cannot judge it: " + err.Error()
		return v
	}
	if res.Valid() {
		ok.Message = "the grammar accepts the whole text, and the whole schema accepts its value"
		return ok
	}
	f, relaxed := res.Explain(j.schema.Relaxed)
	if !relaxed {
		v := j.at(GrammarMismatch, text, len(text))
		v.Message = "the lenient grammar accepts the text but the schema rejects it for a constraint it did not relax (" + f.Error() + "): the grammar was not compiled from this schema"
		v.Keyword, v.SchemaPointer, v.InstancePointer = f.Keyword, f.SchemaPointer, f.InstancePointer
		return v
	}
	v := j.at(SchemaInvalid, text, len(text))
	v.Message = "the value breaks a constraint the lenient grammar does not enforce: " + f.Error()
	v.Keyword, v.SchemaPointer, v.InstancePointer = f.Keyword, f.SchemaPointer, f.InstancePointer
	return v
}

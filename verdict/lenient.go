package verdict

import (
	"fmt"

	"github.com/schema2gbnf/schema2gbnf/internal/validate"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

// A lenient grammar (subsetcheck.Lenient) enforces its schema only in part:
// what the exact profile refuses is relaxed, and the grammar accepts every
// valid value and some invalid ones. A value such a grammar took is then
// validated against the whole schema by a real validator (internal/validate:
// santhosh-tekuri/jsonschema, patterns read as ECMA-262, nothing fetched),
// through the schema gate's validator hook (WithValidator), and one that
// breaks a relaxed constraint is SCHEMA_INVALID, with the failing keyword,
// its pointer in the schema and the value's pointer. A rejection that no
// relaxation explains is GRAMMAR_MISMATCH: the grammar takes what even its
// relaxed schema should not.

// validateAfter gives a judge of a lenient schema its validation after
// decoding; the schema's other documents must have been handed in.
func (j *Judge) validateAfter() (*Judge, error) {
	if j.schema.Profile != subsetcheck.Lenient {
		return j, nil
	}
	full, err := validate.New(j.schema, validate.Options{})
	if err != nil {
		return nil, fmt.Errorf("verdict: a lenient grammar's output is validated against the whole schema, and the validator cannot read it: %w", err)
	}
	relaxed := j.schema.Relaxed
	return j.WithValidator(func(text []byte, _ *subsetcheck.Value) error {
		res, err := full.Validate(text)
		if err != nil {
			return fmt.Errorf("the validator cannot judge the value: %w", err)
		}
		if res.Valid() {
			return nil
		}
		f, explained := res.Explain(relaxed)
		return &relaxedFailure{f: f, explained: explained}
	}), nil
}

// relaxedFailure is the whole schema's rejection of a value a lenient
// grammar took: explained when the failing keyword is one the grammar
// relaxed (or lies under one).
type relaxedFailure struct {
	f         *validate.Failure
	explained bool
}

func (e *relaxedFailure) Error() string { return e.f.Error() }

// relaxedVerdict is the schema gate's verdict on such a value.
func (j *Judge) relaxedVerdict(text []byte, rf *relaxedFailure) Verdict {
	f := rf.f
	if !rf.explained {
		v := j.at(GrammarMismatch, GateSchema, text, len(text))
		v.Message = "the lenient grammar accepts the text but the schema rejects it for a constraint it did not relax (" + f.Error() + "): the grammar was not compiled from this schema"
		v.Keyword, v.SchemaPointer, v.InstancePointer = f.Keyword, f.SchemaPointer, f.InstancePointer
		return v
	}
	v := j.at(SchemaInvalid, GateSchema, text, len(text))
	v.Message = "the value breaks a constraint the lenient grammar does not enforce: " + f.Error()
	v.Keyword, v.SchemaPointer, v.InstancePointer = f.Keyword, f.SchemaPointer, f.InstancePointer
	return v
}

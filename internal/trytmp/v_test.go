package try

import (
	"fmt"
	"os"
	"testing"

	"github.com/schema2gbnf/schema2gbnf/internal/validate"
	"github.com/schema2gbnf/schema2gbnf/subsetcheck"
)

func TestV(t *testing.T) {
	for _, f := range []string{"Github_medium/o9805.json", "Github_easy/o10012.json", "Github_medium/o69099.json"} {
		data, _ := os.ReadFile("/work/shared/corpus/jsonschemabench/" + f)
		doc, _ := subsetcheck.Read(f, data, subsetcheck.Limits{})
		c, err := subsetcheck.Check(doc, subsetcheck.Options{Profile: subsetcheck.Lenient})
		if err != nil {
			t.Fatal(err)
		}
		_, err = validate.New(c, validate.Options{})
		fmt.Printf("%s: %v\n\n", f, err)
	}
}

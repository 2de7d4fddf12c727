package gbnf

import (
	"sync"
	"testing"
)

// TestValidateReuse: Validate keeps its working state in a pool, so its
// verdict on a grammar must not depend on what it validated before, nor on
// other goroutines validating at the same time (run with -race).
func TestValidateReuse(t *testing.T) {
	alone := make([]string, len(validateCases))
	for i, c := range validateCases {
		alone[i] = errString(Validate(c.g))
	}
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for round := range 20 {
				for k := range validateCases {
					i := (k*7 + w + round) % len(validateCases) // a different order each time
					if got := errString(Validate(validateCases[i].g)); got != alone[i] {
						t.Errorf("case %d after others: %q, alone: %q", i, got, alone[i])
						return
					}
				}
			}
		})
	}
	wg.Wait()
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

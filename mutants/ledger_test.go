package main

import (
	"path/filepath"
	"testing"
)

// TestLedger: every anchor of the ledger is found exactly once and every
// mutated file still parses, so the ledger cannot rot as the code moves,
// even between runs of the (long) mutation check itself.
func TestLedger(t *testing.T) {
	if len(ledger) < 140 {
		t.Errorf("the ledger has %d mutations, want at least 140", len(ledger))
	}
	for _, p := range checkLedger(filepath.Join("..", ""), ledger) {
		t.Error(p)
	}
}

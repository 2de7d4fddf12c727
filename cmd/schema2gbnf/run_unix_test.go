//go:build unix

package main

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOutputNamedPipe: -o to a named pipe (as to /dev/null) writes into it
// and leaves it a pipe, never a file renamed over it.
func TestOutputNamedPipe(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	read := make(chan []byte)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			read <- nil
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		read <- b
	}()
	code, _, stderr := cli(t, `{"type":"null"}`, "-o", fifo)
	require.Equal(t, exitOK, code, stderr)
	assert.True(t, accepts(t, string(<-read), "null"))
	fi, err := os.Lstat(fifo)
	require.NoError(t, err)
	assert.True(t, fi.Mode()&os.ModeNamedPipe != 0, "the pipe was replaced by %v", fi.Mode())
}

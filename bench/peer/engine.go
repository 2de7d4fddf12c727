package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"time"
)

// engine drives llama.mjs: one node process, one JSON request per line. A
// request that takes longer than timeout, or a node process that dies,
// ends the process; the next call starts a fresh one (loaded grammars are
// lost, so callers load what they use in the same schema's turn).
type engine struct {
	script  string
	timeout time.Duration
	cmd     *exec.Cmd
	in      io.WriteCloser
	out     *bufio.Reader
	restart int // how many times node was started again after a crash or timeout
}

var errEngineDied = errors.New("llama.cpp engine died or timed out")

func (e *engine) start() error {
	cmd := exec.Command("node", e.script)
	cmd.Stderr = nil // the peer's and llama.cpp's own messages: not ours to show
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting node %s: %w", e.script, err)
	}
	e.cmd, e.in, e.out = cmd, in, bufio.NewReaderSize(out, 1<<20)
	return nil
}

// stop ends the node process this engine started.
func (e *engine) stop() {
	if e.cmd == nil {
		return
	}
	e.in.Close()
	done := make(chan struct{})
	go func() { e.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		e.cmd.Process.Kill()
		<-done
	}
	e.cmd = nil
}

func (e *engine) kill() {
	if e.cmd == nil {
		return
	}
	e.cmd.Process.Kill()
	e.cmd.Wait()
	e.cmd = nil
}

// call sends req and decodes the answer into resp.
func (e *engine) call(req, resp any) error {
	if e.cmd == nil {
		if err := e.start(); err != nil {
			return err
		}
		e.restart++
	}
	line, err := json.Marshal(req)
	if err != nil {
		return err
	}
	type answer struct {
		data []byte
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		if _, err := e.in.Write(append(line, '\n')); err != nil {
			got <- answer{nil, err}
			return
		}
		data, err := e.out.ReadBytes('\n')
		got <- answer{data, err}
	}()
	select {
	case a := <-got:
		if a.err != nil {
			e.kill()
			return errEngineDied
		}
		return json.Unmarshal(a.data, resp)
	case <-time.After(e.timeout):
		e.kill()
		<-got // the reader ends once the process is gone
		return errEngineDied
	}
}

func findScript() string {
	for _, p := range []string{"bench/peer/llama.mjs", "llama.mjs", "../bench/peer/llama.mjs"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return "bench/peer/llama.mjs"
}

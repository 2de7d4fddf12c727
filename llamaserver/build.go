// Package llamaserver runs llama.cpp's own HTTP server, llama-server, as a
// user would: built from the llama.cpp sources node-llama-cpp 3.21.1 ships
// (a git bundle, so the server and the engine the interop tests use are one
// release), started on 127.0.0.1 with the tiny random-weight model package
// decode writes, and stopped with the test. Its test runs the README's
// pipeline against it, verbatim, and the server's own json_schema route
// beside it.
//
// It is a package of its own, not a part of decode, because what it owns is
// different: a C++ build with a cache, an HTTP process with a port and a
// lifetime, and the shell pipeline a user copies; decode owns the model and
// sampling inside node. It shares decode's model and sampling bias.
package llamaserver

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// BundlePath is where node-llama-cpp keeps its llama.cpp sources, below the
// interop folder.
const BundlePath = "node_modules/node-llama-cpp/llama/gitRelease.bundle"

// cmakeOptions build llama-server alone, CPU only, with nothing fetched:
// no OpenSSL or TLS library (HTTPS is for downloading models, which the
// tests never do), no web UI (a prebuilt one would be downloaded), no
// tests, examples or other tools, static libraries so the binary stands
// alone, and FetchContent forbidden to reach the network. GGML_NATIVE is
// off so a cached binary runs on any x86-64 CPU with AVX2 (or the
// platform's baseline).
var cmakeOptions = []string{
	"-DCMAKE_BUILD_TYPE=Release",
	"-DBUILD_SHARED_LIBS=OFF",
	"-DGGML_NATIVE=OFF",
	"-DGGML_CCACHE=OFF",
	"-DGGML_OPENMP=OFF",
	"-DLLAMA_OPENSSL=OFF",
	"-DLLAMA_BUILD_TESTS=OFF",
	"-DLLAMA_BUILD_EXAMPLES=OFF",
	"-DLLAMA_BUILD_APP=OFF",
	"-DLLAMA_BUILD_TOOLS=ON",
	"-DLLAMA_BUILD_SERVER=ON",
	"-DLLAMA_BUILD_UI=OFF",
	"-DLLAMA_USE_PREBUILT_UI=OFF",
	"-DLLAMA_BUILD_NUMBER=0",
	"-DFETCHCONTENT_FULLY_DISCONNECTED=ON",
}

// Tools lists the programs a build needs.
var Tools = []string{"git", "cmake", "c++", "make"}

// MissingTool names the first of Tools not in PATH, or "".
func MissingTool() string {
	for _, t := range Tools {
		if _, err := exec.LookPath(t); err != nil {
			return t
		}
	}
	return ""
}

// CacheKey identifies a build: the bundle's SHA-256 and the build's
// options, so a changed bundle or option builds anew.
func CacheKey(bundle string) (string, error) {
	f, err := os.Open(bundle)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	fmt.Fprintf(h, "\n%s %s/%s", strings.Join(cmakeOptions, " "), runtime.GOOS, runtime.GOARCH)
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// CacheDir is where builds are kept: the user's cache folder (outside the
// repository), or SCHEMA2GBNF_CACHE when set.
func CacheDir() (string, error) {
	if d := os.Getenv("SCHEMA2GBNF_CACHE"); d != "" {
		return filepath.Join(d, "llama-server"), nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "schema2gbnf", "llama-server"), nil
}

// Build is a finished build.
type Build struct {
	Binary  string        // the llama-server executable
	Cached  bool          // it was there already
	Took    time.Duration // how long the build took (0 when cached)
	Key     string
	Version string // what llama-server --version prints
}

// Cached returns the cached llama-server for bundle, if it was built.
func Cached(bundle string) (*Build, bool) {
	key, err := CacheKey(bundle)
	if err != nil {
		return nil, false
	}
	cache, err := CacheDir()
	if err != nil {
		return nil, false
	}
	return cached(filepath.Join(cache, key, "llama-server"), key)
}

// Built returns the cached llama-server for bundle, building it first when
// the cache has none: git clone from the bundle, cmake, cmake --build of
// the llama-server target alone. Concurrent callers wait for one build. The
// build's output goes to log (and a file beside the binary).
func Built(bundle string, log io.Writer) (*Build, error) {
	key, err := CacheKey(bundle)
	if err != nil {
		return nil, fmt.Errorf("llamaserver: %w", err)
	}
	cache, err := CacheDir()
	if err != nil {
		return nil, fmt.Errorf("llamaserver: no cache folder: %w", err)
	}
	dir := filepath.Join(cache, key)
	bin := filepath.Join(dir, "llama-server")
	if b, ok := cached(bin, key); ok {
		return b, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("llamaserver: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, "build.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("llamaserver: build lock: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return nil, fmt.Errorf("llamaserver: build lock: %w", err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if b, ok := cached(bin, key); ok { // built while we waited
		return b, nil
	}
	start := time.Now()
	if err := build(bundle, dir, bin, log); err != nil {
		return nil, err
	}
	b, ok := cached(bin, key)
	if !ok {
		return nil, fmt.Errorf("llamaserver: the build left no working %s", bin)
	}
	b.Cached, b.Took = false, time.Since(start)
	return b, nil
}

// cached reports a working binary at bin.
func cached(bin, key string) (*Build, bool) {
	if _, err := os.Stat(bin); err != nil {
		return nil, false
	}
	out, err := exec.Command(bin, "--version").CombinedOutput()
	if err != nil {
		return nil, false
	}
	version := ""
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "version:") {
			version = strings.TrimSpace(strings.TrimPrefix(l, "version:"))
		}
	}
	return &Build{Binary: bin, Cached: true, Key: key, Version: version}, true
}

func build(bundle, dir, bin string, log io.Writer) error {
	// Work folders of builds that were killed (a test timed out) go first;
	// the lock says none is in use.
	if old, _ := filepath.Glob(filepath.Join(dir, "work-*")); len(old) > 0 {
		for _, w := range old {
			os.RemoveAll(w)
		}
	}
	work, err := os.MkdirTemp(dir, "work-")
	if err != nil {
		return fmt.Errorf("llamaserver: %w", err)
	}
	defer os.RemoveAll(work)
	logFile, err := os.Create(filepath.Join(dir, "build.log"))
	if err != nil {
		return fmt.Errorf("llamaserver: %w", err)
	}
	defer logFile.Close()
	var tail tailBuffer
	out := io.MultiWriter(logFile, log, &tail)
	src, obj := filepath.Join(work, "src"), filepath.Join(work, "build")
	jobs := strconv.Itoa(max(1, runtime.NumCPU()))
	steps := [][]string{
		{"git", "clone", "--quiet", bundle, src},
		append([]string{"cmake", "-S", src, "-B", obj}, cmakeOptions...),
		{"cmake", "--build", obj, "--target", "llama-server", "-j", jobs},
	}
	for _, s := range steps {
		fmt.Fprintf(out, "llamaserver: $ %s\n", strings.Join(s, " "))
		cmd := exec.Command(s[0], s[1:]...)
		cmd.Stdout, cmd.Stderr = out, out
		cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0")
		cmd.SysProcAttr = dieWithParent()
		if err := runLocked(cmd); err != nil {
			return fmt.Errorf("llamaserver: %s: %w (log in %s)\n%s", strings.Join(s[:2], " "), err, logFile.Name(), tail.String())
		}
	}
	tmp := bin + ".tmp"
	if err := copyFile(filepath.Join(obj, "bin", "llama-server"), tmp); err != nil {
		return fmt.Errorf("llamaserver: %w", err)
	}
	return os.Rename(tmp, bin)
}

// runLocked runs cmd from one locked OS thread: the parent-death signal is
// tied to the thread that started the child.
func runLocked(cmd *exec.Cmd) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	return cmd.Run()
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// tailBuffer keeps the last 4 KB written to it.
type tailBuffer struct{ b []byte }

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if len(t.b) > 4096 {
		t.b = t.b[len(t.b)-4096:]
	}
	return len(p), nil
}

func (t *tailBuffer) String() string { return string(t.b) }

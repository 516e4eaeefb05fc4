package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

var (
	binaryOnce sync.Once
	binaryDir  string // removed by TestMain
	binaryPath string
	binaryErr  error
)

// builtBinary is this package built as a user builds it (`go build`, no
// race detector): for the tests and benchmarks that run kubeloom as a
// process, as `bin/kubeloom run` runs (virtual time needs a process of its
// own: internal/bubble). Built once per test binary.
func builtBinary(tb testing.TB) string {
	tb.Helper()
	binaryOnce.Do(func() {
		binaryDir, binaryErr = os.MkdirTemp("", "kubeloom-bin-")
		if binaryErr != nil {
			return
		}
		binaryPath = filepath.Join(binaryDir, "kubeloom")
		if out, err := exec.Command("go", "build", "-o", binaryPath, ".").CombinedOutput(); err != nil {
			binaryErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binaryErr != nil {
		tb.Fatal(binaryErr)
	}
	return binaryPath
}

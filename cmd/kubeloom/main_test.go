package main

import (
	"flag"
	"os"
	"testing"

	"go.uber.org/goleak"
)

// update rewrites what the tests that run compare with: the generated docs
// (docs/cli.md, docs/goroutines.md and their docs/zh/ versions: `make
// docs`) and the golden summaries (testdata/*.summary.golden, see
// TestRunSummaryGolden).
var update = flag.Bool("update", false, "rewrite the generated docs (docs/cli.md, docs/goroutines.md, docs/zh/) and the golden summaries (testdata/*.summary.golden) of the tests that run")

func TestMain(m *testing.M) {
	quietOTel() // as main does
	goleak.VerifyTestMain(m, goleak.Cleanup(func(int) {
		if binaryDir != "" {
			os.RemoveAll(binaryDir)
		}
	}))
}

package docs

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

// TestMain checks that the docs' runs leave no goroutine behind, and
// removes the kubeloom the tests built.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		if binaryDir != "" {
			os.RemoveAll(binaryDir)
		}
		os.Exit(code)
	}))
}

package timeline_test

import (
	"testing"

	"go.uber.org/goleak"
)

// Build spreads a large recording over goroutines (parallel.go), which
// must all have returned when it does.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

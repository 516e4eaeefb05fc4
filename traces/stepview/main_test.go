package stepview_test

import (
	"testing"

	"go.uber.org/goleak"
)

// Run starts a bubbletea program, whose goroutines must all end with it.
func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

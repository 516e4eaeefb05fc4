package main

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	quietOTel() // as main does
	goleak.VerifyTestMain(m)
}

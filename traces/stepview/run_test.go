package stepview_test

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/sim/catalog/locale"
	"github.com/kubeloom/kubeloom/traces/stepview"
)

// TestRun drives the real bubbletea program with typed keys, the way a
// terminal would send them.
func TestRun(t *testing.T) {
	var out bytes.Buffer
	m := newModel(t, stepview.Options{Width: 100, Height: 30})
	if err := stepview.Run(context.Background(), m, strings.NewReader("nn/container-gc\rlq"), &out); err != nil {
		t.Fatalf("Run: %v", err)
	}
	// l switches to the next language: its heading shows.
	for _, want := range []string{"kubelet/container-gc", locale.Get(stepview.English).Next().Text("stepview.what")} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the program's output lacks %q", want)
		}
	}
}

// TestRunEndsWithItsContext: an interrupt from outside ends the program
// quietly.
func TestRunEndsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, w := io.Pipe() // a terminal that sends nothing
	defer w.Close()
	if err := stepview.Run(ctx, newModel(t, stepview.Options{}), r, &bytes.Buffer{}); err != nil {
		t.Errorf("Run with a cancelled context: %v", err)
	}
}

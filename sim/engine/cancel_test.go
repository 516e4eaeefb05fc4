package engine

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kubeloom/kubeloom/internal/memnet"
)

// TestCancelAtAnyMoment interrupts runs (Ctrl-C) at moments all through
// their start-up: every goroutine still stops, and the run reports none
// left over.
func TestCancelAtAnyMoment(t *testing.T) {
	for _, name := range []string{"kubelet-startup", "cm-startup", "cluster-basics"} {
		for _, at := range []time.Duration{0, time.Microsecond, 50 * time.Microsecond, 200 * time.Microsecond, time.Millisecond, 3 * time.Millisecond, 10 * time.Millisecond, 50 * time.Millisecond} {
			t.Run(fmt.Sprintf("%s/%s", name, at), func(t *testing.T) {
				sc := builtin(t, name)
				synctest.Test(t, func(t *testing.T) {
					ctx, cancel := context.WithCancel(context.Background())
					n := memnet.New()
					done := make(chan *Summary)
					go func() {
						var rec bytes.Buffer
						sum, err := Run(ctx, Options{Scenario: sc, Recording: &rec, Listen: n.Listen, Dial: n.Dial})
						if err != nil {
							t.Errorf("Run: %v", err)
						}
						done <- sum
					}()
					time.Sleep(at) // virtual: the run's clock is at speed × at
					cancel()
					if sum := <-done; sum != nil && len(sum.Leftovers) > 0 {
						t.Errorf("cancelled at %s (real, virtual): leftovers %v", at, sum.Leftovers)
					}
				})
			})
		}
	}
}

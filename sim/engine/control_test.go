package engine

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// controlled starts sc in virtual time under a Control driven from outside
// the run's bubble, as kubeloom serve drives it: the run in a synctest
// bubble of its own goroutine, the test's goroutine outside it.
func controlled(t *testing.T, sc *scenarios.Scenario) (*Control, *Watch, func() (*Summary, []traces.Span)) {
	t.Helper()
	c, w := NewControl(), &Watch{}
	var rec bytes.Buffer
	var sum *Summary
	var err error
	var wg sync.WaitGroup
	wg.Go(func() {
		sum, err = RunVirtual(context.Background(), Options{Scenario: sc, Recording: &rec, Control: c, Watch: w, Serial: true,
			Bubble: func(f func()) error { synctest.Test(t, func(*testing.T) { f() }); return nil }})
	})
	t.Cleanup(func() { c.Stop(); wg.Wait() })
	return c, w, func() (*Summary, []traces.Span) {
		t.Helper()
		wg.Wait()
		if err != nil {
			t.Fatal(err)
		}
		spans, rerr := traces.Read(&rec, "recording")
		if rerr != nil {
			t.Fatal(rerr)
		}
		return sum, spans
	}
}

func TestControlPausesStepsAndActs(t *testing.T) {
	ctx := context.Background()
	sc := builtin(t, "cm-leader-failover")
	c, w, finish := controlled(t, sc)

	r, err := c.Advance(ctx, 10*time.Second)
	if err != nil || r.Elapsed != 10*time.Second || r.End {
		t.Fatalf("Advance(10s) = %+v, %v; want at 10s, not the end", r, err)
	}
	// Paused means paused: the clock stands still and no span ends while
	// real time passes, however long.
	time.Sleep(200 * time.Millisecond)
	after, _ := w.Snapshot()
	if after.Spans != r.Spans {
		t.Errorf("paused at 10s with %d spans ended, %d more ended in 200 ms of real time", r.Spans, after.Spans-r.Spans)
	}

	r, err = c.Step(ctx)
	if err != nil || r.Elapsed <= 10*time.Second {
		t.Fatalf("Step from 10s = %+v, %v; want a later instant", r, err)
	}
	stepped, _ := w.Snapshot()
	if stepped.Spans <= after.Spans {
		t.Errorf("Step moved to %v and no span ended", r.Elapsed)
	}

	if r, err = c.Advance(ctx, 20*time.Second-r.Elapsed); err != nil || r.Elapsed != 20*time.Second {
		t.Fatalf("Advance to 20s = %+v, %v", r, err)
	}
	kill, err := scenarios.ParseAction("page", []byte("killLeader: {}"), &sc.Spec, 0)
	if err != nil {
		t.Fatal(err)
	}
	r, failed, err := c.Act(ctx, kill)
	if err != nil || len(failed) > 0 || r.Elapsed != 20*time.Second {
		t.Fatalf("Act(killLeader) at 20s = %+v, %v, %v; want applied at 20s", r, failed, err)
	}
	// Act returns once what the kill set off at this instant (the process
	// ending, its goroutines stopping) has run its course.
	time.Sleep(100 * time.Millisecond)
	if now, _ := w.Snapshot(); now.Spans != r.Spans {
		t.Errorf("Act returned with %d spans ended, and %d more ended after it", r.Spans, now.Spans-r.Spans)
	}
	gone, err := scenarios.ParseAction("page", []byte("delete: {apiVersion: v1, kind: Pod, namespace: default, name: nope}"), &sc.Spec, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, failed, err = c.Act(ctx, gone); err != nil || len(failed) != 2 || !strings.Contains(failed[0].Err.Error(), "not found") {
		t.Errorf("deleting a pod that is not there: failures %v, %v; want one per era, saying why", failed, err)
	}

	if r, err = c.Advance(ctx, time.Hour); err != nil || !r.End || r.Elapsed != sc.Spec.Duration {
		t.Fatalf("Advance(1h) = %+v, %v; want the end at %v", r, err, sc.Spec.Duration)
	}
	if _, err := c.Advance(ctx, time.Second); !errors.Is(err, ErrRunEnded) {
		t.Errorf("Advance after the end: %v, want ErrRunEnded", err)
	}
	sum, spans := finish()
	if sum.Actions != 4 { // two given at 20s, the scenario's own at 60s and 120s
		t.Errorf("%d actions ran, want 4", sum.Actions)
	}
	if len(sum.Failures) != 2 {
		t.Errorf("the summary lists %d failures, want the delete's 2", len(sum.Failures))
	}
	// The clicked action is recorded like a scheduled one: its span, at
	// its instant, linked from the takeover it caused.
	effects := causedBy(spans)
	found := 0
	for _, s := range spans {
		if _, live := s.Attributes[catalog.AttrActionLive]; live && s.Name == "action/killLeader" {
			if at, _ := s.Attributes.Float(catalog.AttrActionAt); at == 60 {
				t.Errorf("the scenario's own killLeader at 60s is marked %s", catalog.AttrActionLive)
			}
		}
		if at, _ := s.Attributes.Float(catalog.AttrActionAt); s.Name != "action/killLeader" || at != 20 {
			continue
		}
		found++ // one per era
		if live, _ := s.Attributes[catalog.AttrActionLive].(bool); !live {
			t.Errorf("the killLeader given at 20s is not marked %s", catalog.AttrActionLive)
		}
		if len(effects[s.SpanID]) == 0 {
			t.Errorf("the killLeader given at 20s in %s has no effects linked to it", s.Resource.String(catalog.AttrServiceInstanceID))
		}
	}
	if found != 2 {
		t.Errorf("%d action/killLeader spans at 20s, want one per era", found)
	}
}

// Stopping a run under control ends it at once, with a valid recording.
func TestControlStop(t *testing.T) {
	c, _, finish := controlled(t, builtin(t, "informer-basics"))
	r, err := c.Advance(context.Background(), 3*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	c.Stop()
	sum, spans := finish()
	if sum.Duration != r.Elapsed || len(spans) == 0 {
		t.Errorf("stopped at %v: ran %v, %d spans", r.Elapsed, sum.Duration, len(spans))
	}
}

package htmlview

import (
	"bytes"
	"context"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/kubeloom/kubeloom/internal/memnet"
	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/engine"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// recordings holds the built-ins recorded by recordBuiltin, once per test
// binary: several tests open the same scenario at several window sizes.
var recordings struct {
	sync.Mutex
	tl    map[string]*timeline.Timeline
	spans map[string][]traces.Span
}

// recordBuiltin runs a built-in scenario whole, in a synctest bubble with
// its servers on an in-memory network, as docs/docsrun_test.go does: the
// bubble's virtual clock makes ten simulated minutes of cm-leader-failover
// take a few real seconds, and the run is the simulated components' own
// timing, not the machine's. A browser cannot run in a bubble (its
// goroutines block on real sockets), so tests record first and then drive
// Chromium outside it.
func recordBuiltin(t *testing.T, name string) *timeline.Timeline {
	t.Helper()
	spans := recordSpans(t, name)
	recordings.Lock()
	defer recordings.Unlock()
	if tl, ok := recordings.tl[name]; ok {
		return tl
	}
	tl := timeline.Build(spans)
	if recordings.tl == nil {
		recordings.tl = map[string]*timeline.Timeline{}
	}
	recordings.tl[name] = tl
	return tl
}

// recordSpans is recordBuiltin's recording, as spans.
func recordSpans(t *testing.T, name string) []traces.Span {
	t.Helper()
	recordings.Lock()
	defer recordings.Unlock()
	if spans, ok := recordings.spans[name]; ok {
		return spans
	}
	sc, err := scenarios.Builtin(name)
	if err != nil {
		t.Fatal(err)
	}
	var rec bytes.Buffer
	// In turns, as `kubeloom run` records a built-in (--cores 1): the
	// pictures' figures are a run's the docs state (TestPictureIsCurrent).
	synctest.Test(t, func(t *testing.T) {
		n := memnet.New()
		if _, err := engine.Run(context.Background(), engine.Options{Scenario: sc, Recording: &rec, Listen: n.Listen, Dial: n.Dial, Serial: true}); err != nil {
			t.Fatalf("running %s: %v", name, err)
		}
	})
	spans, err := traces.Read(&rec, name+".jsonl")
	if err != nil {
		t.Fatalf("reading the recording of %s: %v", name, err)
	}
	if recordings.spans == nil {
		recordings.spans = map[string][]traces.Span{}
	}
	recordings.spans[name] = spans
	return spans
}

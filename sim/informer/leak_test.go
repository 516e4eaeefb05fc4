package informer

import (
	"context"
	"fmt"
	"sort"
	"testing"
	"testing/synctest"
	"time"

	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// The pre-1.5 reflector leaves one resync goroutine behind per re-list
// (kubernetes#35015); v1.5's cancelCh (kubernetes#35672) ends each with its
// call. Counted alive after every broken watch, and marked leaked at the end.
func TestPre15ReflectorLeaksOneResyncGoroutinePerRelist(t *testing.T) {
	const breaks = 4
	for _, refl := range []Reflector{ReflectorV14, ReflectorV15} {
		t.Run(string(refl), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w := newWorld(t)
				w.create(t, pod("a"))
				inf, err := New(Config{Resource: podsGVR(), Kind: podGVK(), Era: Classic, Reflector: refl, Source: w.cluster})
				if err != nil {
					t.Fatal(err)
				}
				inf.AddHandler(w.ctx, &recorder{name: "h"})
				inf.Run(w.ctx)
				rt := goroutine.RuntimeFrom(w.ctx)
				w.clk.Sleep(5 * time.Second)
				for k := 1; k <= breaks; k++ {
					if n := w.cluster.BreakWatches(context.Background(), podsGVR()); n != 1 {
						t.Fatalf("break %d: broke %d watches, want 1", k, n)
					}
					w.clk.Sleep(5 * time.Second) // the re-list comes 1s later
					leaked := 0
					if refl == ReflectorV14 {
						leaked = k
					}
					if got := rt.Live()["reflector/resync-timer"]; got != 1+leaked {
						t.Errorf("after re-list %d: %d resync goroutines alive, want %d (the current call's and %d leaked)", k, got, 1+leaked, leaked)
					}
					if got := inf.Leaked(); got != leaked {
						t.Errorf("after re-list %d: Leaked() = %d, want %d", k, got, leaked)
					}
				}
				spans := w.stop(t)
				want := 0
				if refl == ReflectorV14 {
					want = breaks
				}
				if got := len(leakedTimers(spans)); got != want {
					t.Errorf("%d resync goroutines marked %s, want %d", got, catalog.AttrLeaked, want)
				}
				if n := count(spans, "pods.List"); n != breaks+1 {
					t.Errorf("pods.List = %d, want %d", n, breaks+1)
				}
			})
		})
	}
}

// A leaked goroutine does what the era's code does: if its call ended
// before its first resync, the call's deferred cleanup stopped its timer and
// it waits for good; if it had resynced, its own later timer keeps firing
// and it resyncs the informer's FIFO every period, beside the current
// call's goroutine.
func TestLeakedResyncGoroutineKeepsResyncingOnlyAfterItsFirstResync(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t)
		w.create(t, pod("a"))
		inf, err := New(Config{Resource: podsGVR(), Kind: podGVK(), Era: Classic, Reflector: ReflectorV14, Resync: 10 * time.Second, Source: w.cluster})
		if err != nil {
			t.Fatal(err)
		}
		inf.Run(w.ctx)
		w.clk.Sleep(25 * time.Second) // call 1 resyncs at 10s and 20s
		w.cluster.BreakWatches(context.Background(), podsGVR())
		w.clk.Sleep(3 * time.Second) // call 2 lists at 26s and breaks at 28s, before its first resync (36s)
		w.cluster.BreakWatches(context.Background(), podsGVR())
		w.clk.Sleep(17 * time.Second) // call 3 from 29s resyncs at 39s; call 1's goes on at 30s and 40s
		spans := w.stop(t)

		var timers []tracetest.SpanStub
		for _, s := range spans {
			if s.Name == "reflector/resync-timer" {
				timers = append(timers, s)
			}
		}
		sort.Slice(timers, func(i, j int) bool { return timers[i].StartTime.Before(timers[j].StartTime) })
		var got []string
		for _, tm := range timers {
			resyncs := 0
			for _, s := range spans {
				if s.Name == "Resync" && s.Parent.SpanID() == tm.SpanContext.SpanID() {
					resyncs++
				}
			}
			got = append(got, fmt.Sprintf("leaked=%v resyncs=%d", isLeaked(tm), resyncs))
		}
		want := []string{"leaked=true resyncs=4", "leaked=true resyncs=0", "leaked=false resyncs=1"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("resync goroutines:\n got %v\nwant %v", got, want)
		}
		if n := count(spans, "DeltaFIFO.Resync"); n != 5 {
			t.Errorf("DeltaFIFO.Resync = %d, want 5 (4 by the leaked goroutine, 1 by the current one)", n)
		}
	})
}

func TestPre15ReflectorIsClassicOnly(t *testing.T) {
	w := newWorld(t)
	defer w.stop(t)
	for _, c := range []struct {
		era  Era
		refl Reflector
		ok   bool
	}{{Classic, ReflectorV14, true}, {Classic, "", true}, {Modern, ReflectorV15, true}, {Modern, ReflectorV14, false}, {Classic, "v1.6", false}} {
		_, err := New(Config{Resource: podsGVR(), Kind: podGVK(), Era: c.era, Reflector: c.refl, Source: w.cluster})
		if (err == nil) != c.ok {
			t.Errorf("era %s, reflector %q: err = %v, want ok=%v", c.era, c.refl, err, c.ok)
		}
	}
}

func leakedTimers(spans tracetest.SpanStubs) []tracetest.SpanStub {
	var out []tracetest.SpanStub
	for _, s := range spans {
		if s.Name == "reflector/resync-timer" && isLeaked(s) {
			out = append(out, s)
		}
	}
	return out
}

// isLeaked reports whether a resync goroutine's lifetime span says it was
// left behind, with the attribute and the event both.
func isLeaked(s tracetest.SpanStub) bool {
	attr := false
	for _, kv := range s.Attributes {
		if string(kv.Key) == catalog.AttrLeaked && kv.Value.AsBool() {
			attr = true
		}
	}
	event := false
	for _, e := range s.Events {
		if e.Name == catalog.EventLeaked {
			event = true
		}
	}
	return attr && event
}

package timeline

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// randomRecording is a recording with what makes Build's work hard: many
// instances and goroutines, iterations, calls, events and links, spans that
// start at the same instant, zero times, spans that share their IDs (in
// one trace and across traces), and parents lost to a recording cut short.
func randomRecording(seed uint64, n int) []traces.Span {
	rng := rand.New(rand.NewPCG(seed, 1))
	r := tt.New("random")
	for len(r.Spans()) < n {
		r.Instance([]string{"kubelet", "kube-controller-manager", "informers"}[rng.IntN(3)], fmt.Sprintf("node-%d", rng.IntN(4)))
		run := r.Span(tt.Root, "run", 0, 100)
		for range 3 {
			name := fmt.Sprintf("g/%d", rng.IntN(6))
			from := float64(rng.IntN(50))
			g := r.Goroutine(run, name, catalog.KindUntil, from, 100, catalog.AttrGoroutinePeriod, 1.0, catalog.AttrHandler, fmt.Sprint(rng.IntN(2)))
			for it := range 20 {
				at := from + float64(it)*float64(rng.IntN(3)) // repeats: same start times
				i := r.Iteration(g, name, "tick", it+1, at, at+0.5, catalog.AttrSkipped, rng.IntN(3))
				c := r.Span(i, "call", at, at+0.1, catalog.AttrObjectKey, "default/x")
				if rng.IntN(4) == 0 {
					r.Event(c, "e", at+0.05)
				}
				if rng.IntN(3) == 0 {
					r.Link(c, run)
				}
			}
		}
	}
	spans := r.Spans()
	for i := range spans {
		switch rng.IntN(40) {
		case 0:
			spans[i].TraceID = trace.TraceID{0xff, 0xff, 0xff, 0xff} // an ID in two traces
		case 1:
			spans[i].SpanID = spans[rng.IntN(len(spans))].SpanID // an ID two spans of a trace share
		case 2:
			spans[i].ParentSpanID = trace.SpanID{0x0a, 0xbc} // lost
		case 3:
			spans[i].Start, spans[i].End = time.Time{}, time.Time{}
		case 4:
			spans[i].Start = spans[i].Start.In(time.FixedZone("X", 3600)) // the same instant elsewhere
		}
	}
	// Exact duplicates.
	for range n / 50 {
		spans = append(spans, spans[rng.IntN(len(spans))])
	}
	rng.Shuffle(len(spans), func(i, j int) { spans[i], spans[j] = spans[j], spans[i] })
	return spans
}

// TestBuildLargeSameAsSmall: the paths Build takes for large recordings
// (on several goroutines, with the sharded index and the keyed sort) give
// what the simple ones give.
func TestBuildLargeSameAsSmall(t *testing.T) {
	for seed := range uint64(4) {
		spans := randomRecording(seed, 3000)
		want, _ := build(context.Background(), slices.Clone(spans), options{marks: true, perGoroutine: 1 << 30})
		for _, per := range []int{1, 100, 700} {
			if got, _ := build(context.Background(), slices.Clone(spans), options{marks: true, perGoroutine: per}); !reflect.DeepEqual(got, want) {
				t.Errorf("seed %d, %d spans per goroutine: Build differs from the simple path", seed, per)
			}
		}
	}
}

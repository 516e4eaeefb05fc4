package timeline

import (
	"context"
	"encoding/binary"
	"errors"
	"testing"

	"go.opentelemetry.io/otel/trace"

	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// A chain of spans, each the parent of the next, and a cycle of them took
// Build time in the square of their number (80,000 spans: 17 s and 35 s):
// each span walked up to the root. At 200,000 that would be minutes; in
// linear time it is a fraction of a second.
func TestLongChainsOfParents(t *testing.T) {
	const n = 200_000
	// A chain of plain spans: all on the instance's main lane.
	r := tt.New("chains").Instance("kube-controller-manager", "cm-0")
	parent := tt.Root
	for range n {
		parent = r.Span(parent, "call", 0, 1)
	}
	tl := Build(r.Spans())
	if len(tl.Instances) != 1 || len(tl.Instances[0].Lanes) != 1 || tl.Instances[0].Lanes[0].Label != MainLane || tl.Orphans != 0 {
		t.Errorf("a chain of %d spans: %d instances, orphans %d, want one main lane", n, len(tl.Instances), tl.Orphans)
	}

	// A chain of goroutines, each started by the last, under a controller:
	// each lane's spawner is the one before, its owner the controller.
	r = tt.New("chains").Instance("kube-controller-manager", "cm-0")
	parent = r.Span(tt.Root, "controller", 0, 1, "kubeloom.controller.id", "replicaset")
	for range n / 10 {
		parent = r.Goroutine(parent, "worker", "loop", 0, 1)
	}
	tl = Build(r.Spans())
	lanes := tl.Instances[0].Lanes
	if len(lanes) != n/10+1 {
		t.Fatalf("%d lanes, want %d", len(lanes), n/10+1)
	}
	spawned := 0
	for _, l := range lanes {
		if l.spawner != nil {
			spawned++
		}
		if l.SpanID.IsValid() && l.owner != "replicaset" {
			t.Fatalf("lane %s: owner %q, want replicaset", l.Label, l.owner)
		}
	}
	if spawned != n/10-1 {
		t.Errorf("%d lanes with a spawner, want %d", spawned, n/10-1)
	}

	// A cycle: every span's parent is in the recording, none is a root;
	// they belong to no lane.
	r = tt.New("chains").Instance("kube-controller-manager", "cm-0")
	for range n {
		r.Span(tt.Root, "call", 0, 1)
	}
	spans := r.Spans()
	for i := range spans {
		var p trace.SpanID
		binary.BigEndian.PutUint64(p[:], uint64((i+n-1)%n+1))
		spans[i].ParentSpanID = p
	}
	if tl := Build(spans); tl.Orphans != n {
		t.Errorf("a cycle of %d spans: %d orphans, want all", n, tl.Orphans)
	}
}

// BuildContext and OutlineContext stop when their context is done, with its
// cause.
func TestBuildContextStops(t *testing.T) {
	r := tt.New("stop").Instance("kubelet", "node-1")
	r.Goroutine(tt.Root, "worker", "loop", 0, 1)
	cause := errors.New("terminated signal received")
	ctx, cancel := context.WithCancelCause(context.Background())
	if tl, err := BuildContext(ctx, r.Spans()); err != nil || len(tl.Instances) != 1 {
		t.Fatalf("before: %v", err)
	}
	cancel(cause)
	if tl, err := BuildContext(ctx, r.Spans()); tl != nil || err != cause {
		t.Errorf("BuildContext after cancel: %v, %v; want nil and the cause", tl, err)
	}
	if tl, err := OutlineContext(ctx, r.Spans()); tl != nil || err != cause {
		t.Errorf("OutlineContext after cancel: %v, %v; want nil and the cause", tl, err)
	}
}

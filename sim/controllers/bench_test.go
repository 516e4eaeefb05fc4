package controllers

import (
	"context"
	"io"
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/cluster"
	"github.com/kubeloom/kubeloom/sim/events"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/tracing"
)

func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchSync measures one pass of a worker through the replica set
// controller — take a key from the workqueue, syncReplicaSet (list the
// pods, compare, nothing to write), Forget — in steady state, with tracer
// recording the spans.
func benchSync(b *testing.B, tracer trace.Tracer, flush func()) {
	clk, _ := clock.NewScaled(1)
	reg := goroutine.NewRegistry(clk)
	rt := goroutine.NewRuntime("cm-0", tracer, clk, reg)
	ctx, cancel := context.WithCancel(rt.Context(context.Background()))
	c := cluster.New(cluster.WithClock(clk))
	var pl *events.Pipeline // no logging or sink: the sync's own cost
	cc := &Context{Config: NewConfig(), Era: informer.Classic, Client: c.Client, API: c,
		Informers: informer.NewFactory(c, informer.Classic, 12*time.Hour), APIEnabled: func(string) bool { return true },
		NewEvents: func(ctx context.Context, component string, logging, sink bool) *events.Pipeline {
			pl = events.Start(ctx, events.Options{Prefix: "cm", Component: component})
			return pl
		}, Rand: rand.New(rand.NewPCG(1, 1))}
	rsc := newReplicaSetController(ctx, cc)
	rs, _ := c.Client.AppsV1().ReplicaSets("default").Create(ctx, &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To[int32](3), Selector: selector("web"), Template: template("web")}}, metav1.CreateOptions{})
	cc.Informers.Start(ctx)
	if !informer.WaitForCacheSync(ctx, cc.Era, "bench", rsc.rsInf.HasSynced, rsc.pods.HasSynced) {
		b.Fatal("caches did not sync")
	}
	key := keyOf(rs)
	// Reach steady state: the pods exist, the caches have them, the status
	// is written. This runs on the real clock: poll the condition.
	steady := func() bool {
		cur, ok := get[*appsv1.ReplicaSet](rsc.rsInf, key)
		return ok && cur.Status.Replicas == 3 && len(podsIn(rsc.pods, "default", nil)) == 3 && rsc.exp.satisfied(key)
	}
	for tries := 0; !steady(); tries++ {
		if tries == 2000 {
			b.Fatal("the replica set never reached its steady state")
		}
		rsc.queue.Add(ctx, key)
		rsc.queue.ProcessNext(ctx, "syncReplicaSet", rsc.sync)
		time.Sleep(time.Millisecond)
	}
	var worker context.Context
	done := make(chan struct{})
	rt.Go(ctx, "controller/replicaset/worker", func(ctx context.Context) { worker = ctx; close(done); <-ctx.Done() },
		goroutine.WithAttributes(attribute.Int(catalog.AttrWorker, 1)))
	<-done
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime(b)
	for range b.N {
		rsc.queue.Add(worker, key)
		rsc.queue.ProcessNext(worker, "syncReplicaSet", rsc.sync)
	}
	flush()
	b.ReportMetric(float64((cpuTime(b)-cpu0).Nanoseconds())/float64(b.N), "cpu-ns/sync")
	b.StopTimer()
	cancel()
	pl.Shutdown()
	reg.Stop(time.Second)
}

// BenchmarkSyncReplicaSet is one controller sync, recorded: a span for the
// sync (linked to the span that enqueued it), a workqueue.Add event, into
// the JSON Lines recorder.
func BenchmarkSyncReplicaSet(b *testing.B) {
	tr, err := tracing.New(context.Background(), tracing.Options{Recording: io.Discard})
	if err != nil {
		b.Fatal(err)
	}
	tp := tr.Provider(attribute.String(catalog.AttrServiceName, "kube-controller-manager"), attribute.String(catalog.AttrServiceInstanceID, "cm-0"))
	benchSync(b, tracing.Tracer(tp), func() { tr.Shutdown(context.Background()) })
}

// BenchmarkSyncReplicaSetNoop is the same sync with a tracer that records
// nothing: the difference is the cost of tracing it.
func BenchmarkSyncReplicaSetNoop(b *testing.B) {
	benchSync(b, noop.NewTracerProvider().Tracer("noop"), func() {})
}

package events

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.uber.org/goleak"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/cluster"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestEventsReachTheApiserverThroughRecordedGoroutines(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		clk, _ := clock.NewScaled(1)
		exp := tracetest.NewInMemoryExporter()
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
		reg := goroutine.NewRegistry(clk)
		ctx := goroutine.NewRuntime("cm-0", tp.Tracer("t"), clk, reg).Context(context.Background())
		c := cluster.New(cluster.WithClock(clk))
		p := Start(ctx, Options{Prefix: "cm", Component: "replication-controller", Logging: true, Sink: c.Client.CoreV1()})
		rec := p.Recorder(ctx)
		rc := &corev1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "u1"}}
		for _, name := range []string{"web-1", "web-2", "web-3"} { // one instant, one object: the same event name
			rec.Eventf(ctx, rc, corev1.EventTypeNormal, "SuccessfulCreate", "Created pod: %s", name)
		}
		clk.Sleep(time.Second)
		list, err := c.Client.CoreV1().Events("default").List(ctx, metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(list.Items) != 3 {
			t.Errorf("events in the apiserver = %d, want 3", len(list.Items))
		}
		for _, e := range list.Items {
			if e.Source.Component != "replication-controller" || e.InvolvedObject.Name != "web" || e.Reason != "SuccessfulCreate" {
				t.Errorf("event %+v", e)
			}
		}
		if live := reg.Live(); len(live) != 3 {
			t.Errorf("live goroutines = %v, want the loop and two watchers", live)
		}
		p.Shutdown()
		if left := reg.Stop(time.Second); len(left) != 0 {
			t.Errorf("leftovers: %v", left)
		}
		spans := exp.GetSpans()
		tp.Shutdown(context.Background())
		count := map[string]int{}
		for _, s := range spans {
			count[s.Name]++
		}
		for name, want := range map[string]int{"cm/event-broadcast-loop": 1, "cm/event-log-watcher": 1, "cm/event-sink-watcher": 1,
			"distribute": 3, "log": 3, "recordToSink": 3, "events.Create": 3} {
			if count[name] != want {
				t.Errorf("%s spans = %d, want %d", name, count[name], want)
			}
		}
	})
}

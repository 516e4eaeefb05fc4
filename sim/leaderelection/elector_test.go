package leaderelection

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.uber.org/goleak"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	rl "k8s.io/client-go/tools/leaderelection/resourcelock"

	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/cluster"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// candidate runs one elector on its own goroutine, recording when it led.
type candidate struct {
	id      string
	cancel  context.CancelFunc
	done    chan struct{}
	mu      sync.Mutex
	started []time.Time
	stopped []time.Time
	lost    bool
}

func (c *candidate) leading() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.started) > len(c.stopped)
}

func runCandidate(t *testing.T, ctx context.Context, clk *clock.Scaled, cl *cluster.Cluster, id string, classic bool) *candidate {
	t.Helper()
	c := &candidate{id: id, done: make(chan struct{})}
	meta := metav1.ObjectMeta{Namespace: "kube-system", Name: "kube-controller-manager"}
	cfg := rl.ResourceLockConfig{Identity: id}
	var lock rl.Interface = &EndpointsLock{EndpointsMeta: meta, Client: cl.Client.CoreV1(), LockConfig: cfg}
	resource := "endpoints"
	if !classic {
		lock, resource = &rl.LeaseLock{LeaseMeta: meta, Client: cl.Client.CoordinationV1(), LockConfig: cfg}, "leases"
	}
	le, err := New(Config{Lock: lock, Resource: resource, Classic: classic,
		LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second,
		OnStartedLeading: func(ctx context.Context) {
			c.mu.Lock()
			c.started = append(c.started, clk.Now())
			c.mu.Unlock()
			<-ctx.Done()
		},
		OnStoppedLeading: func(lost bool) {
			c.mu.Lock()
			if len(c.started) > len(c.stopped) {
				c.stopped = append(c.stopped, clk.Now())
			}
			c.lost = lost
			c.mu.Unlock()
		},
		AcquireName: "cm/leader-acquire", RenewName: "cm/leader-renew", LeadingName: "cm/controllers-main", PollName: "cm/leader-poll-ticker",
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, c.cancel = context.WithCancel(ctx)
	go func() {
		defer close(c.done)
		le.Run(ctx)
	}()
	return c
}

func world(t *testing.T) (context.Context, *clock.Scaled, *cluster.Cluster, *goroutine.Registry, *sdktrace.TracerProvider, *tracetest.InMemoryExporter) {
	clk, _ := clock.NewScaled(1)
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	reg := goroutine.NewRegistry(clk)
	rt := goroutine.NewRuntime("cm", tp.Tracer("t"), clk, reg, goroutine.WithSeed(1))
	return rt.Context(context.Background()), clk, cluster.New(cluster.WithClock(clk)), reg, tp, exp
}

func TestOneLeaderThenTakeoverAfterTheLease(t *testing.T) {
	for _, classic := range []bool{true, false} {
		name := map[bool]string{true: "classic", false: "modern"}[classic]
		t.Run(name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				ctx, clk, cl, reg, tp, exp := world(t)
				cs := []*candidate{runCandidate(t, ctx, clk, cl, "cm-0", classic), runCandidate(t, ctx, clk, cl, "cm-1", classic), runCandidate(t, ctx, clk, cl, "cm-2", classic)}
				var leader *candidate
				for range 60 { // a minute: at most one leads at any time
					clk.Sleep(time.Second)
					n := 0
					for _, c := range cs {
						if c.leading() {
							n++
							leader = c
						}
					}
					if n != 1 {
						t.Fatalf("%d leaders at %s", n, clk.Elapsed())
					}
				}
				// Kill the leader: no release; another waits out the lease.
				killed := clk.Now()
				leader.cancel()
				<-leader.done
				var next *candidate
				var at time.Time
				for range 40 {
					clk.Sleep(500 * time.Millisecond)
					for _, c := range cs {
						if c != leader && c.leading() && next == nil {
							next, at = c, clk.Now()
						}
					}
				}
				if next == nil {
					t.Fatal("nobody took over")
				}
				if d := at.Sub(killed); d < 13*time.Second || d > 15*time.Second+3*4400*time.Millisecond {
					t.Errorf("takeover %s after the kill, want about the lease (15s) plus up to a few retries", d)
				}
				if rec := holder(t, cl, classic); rec.HolderIdentity != next.id || rec.LeaderTransitions == 0 && !classic {
					t.Errorf("lock record = %+v, want held by %s", rec, next.id)
				}
				for _, c := range cs {
					c.cancel()
					<-c.done
				}
				if left := reg.Stop(time.Second); len(left) != 0 {
					t.Errorf("leftovers: %v", left)
				}
				spans := exp.GetSpans() // before Shutdown, which empties the exporter
				tp.Shutdown(context.Background())
				events := 0
				for _, s := range spans {
					for _, e := range s.Events {
						if e.Name == "became leader" {
							events++
						}
					}
				}
				if events < 2 { // on the successful acquire iteration of each leader
					t.Errorf("became leader events = %d", events)
				}
			})
		})
	}
}

func holder(t *testing.T, cl *cluster.Cluster, classic bool) rl.LeaderElectionRecord {
	t.Helper()
	ctx := context.Background()
	if classic {
		ep, err := cl.Client.CoreV1().Endpoints("kube-system").Get(ctx, "kube-controller-manager", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var r rl.LeaderElectionRecord
		if err := json.Unmarshal([]byte(ep.Annotations[LeaderAnnotation]), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	lease, err := cl.Client.CoordinationV1().Leases("kube-system").Get(ctx, "kube-controller-manager", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return *rl.LeaseSpecToLeaderElectionRecord(&lease.Spec)
}

func TestALeaderThatCannotRenewStopsLeading(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, clk, cl, reg, tp, _ := world(t)
		c := runCandidate(t, ctx, clk, cl, "cm-0", true)
		clk.Sleep(5 * time.Second)
		if !c.leading() {
			t.Fatal("cm-0 does not lead")
		}
		// Someone else writes the lock: cm-0's renewals now conflict... and
		// the record says cm-9 holds it, so cm-0 cannot renew until it expires.
		ep, _ := cl.Client.CoreV1().Endpoints("kube-system").Get(context.Background(), "kube-controller-manager", metav1.GetOptions{})
		rec, _ := json.Marshal(map[string]any{"holderIdentity": "cm-9", "leaseDurationSeconds": 15, "acquireTime": clk.Now(), "renewTime": clk.Now()})
		ep.Annotations[LeaderAnnotation] = string(rec)
		cl.Client.CoreV1().Endpoints("kube-system").Update(context.Background(), ep, metav1.UpdateOptions{})
		clk.Sleep(15 * time.Second)
		<-c.done
		c.mu.Lock()
		lost := c.lost
		c.mu.Unlock()
		if !lost || c.leading() {
			t.Errorf("lost = %v, leading = %v: want the lease lost after the renew deadline", lost, c.leading())
		}
		c.cancel()
		reg.Stop(time.Second)
		tp.Shutdown(context.Background())
	})
}

func TestConfigIsChecked(t *testing.T) {
	base := Config{Lock: &EndpointsLock{}, LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second,
		OnStartedLeading: func(context.Context) {}, OnStoppedLeading: func(bool) {}}
	if _, err := New(base); err != nil {
		t.Errorf("defaults refused: %v", err)
	}
	bad := base
	bad.RenewDeadline = 20 * time.Second
	if _, err := New(bad); err == nil {
		t.Error("a renew deadline above the lease was accepted")
	}
	bad = base
	bad.RetryPeriod = 9 * time.Second
	if _, err := New(bad); err == nil {
		t.Error("a retry period above renewDeadline/1.2 was accepted")
	}
}

package informer

import (
	"testing"
	"testing/synctest"
	"time"

	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestPrivateInformerCallsHandlersOnItsProcessLoop(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t)
		w.create(t, pod("a"))
		inf, err := New(Config{Resource: podsGVR(), Kind: podGVK(), Source: w.cluster, Mode: Private, Resync: 30 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		h := &recorder{name: "endpoint-controller"}
		inf.AddHandler(w.ctx, h)
		inf.Run(w.ctx)
		w.clk.Sleep(time.Second)
		w.create(t, pod("b"))
		w.clk.Sleep(31 * time.Second) // one resync: an update for each pod
		spans := w.stop(t)
		sortedEq(t, "handler", h.got(), []string{"add default/a initial=true", "add default/b initial=false",
			"update default/a (resync)", "update default/b (resync)"})
		if n := count(spans, "informer/private"); n != 1 {
			t.Errorf("informer/private goroutines = %d, want 1", n)
		}
		if n := count(spans, "informer/listener-run") + count(spans, "informer/run"); n != 0 {
			t.Errorf("a private informer started %d listener or shared-informer goroutines", n)
		}
		// The handler span is a child of HandleDeltas, on the process loop.
		byID := map[string]string{}
		for _, s := range spans {
			byID[s.SpanContext.SpanID().String()] = s.Name
		}
		for _, s := range spans {
			if s.Name == "OnAdd" && byID[s.Parent.SpanID().String()] != "HandleDeltas" {
				t.Errorf("OnAdd's parent is %q, want HandleDeltas", byID[s.Parent.SpanID().String()])
			}
		}
	})
}

func TestReflectorOnlyStoresIntoItsCache(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t)
		r, _ := LookupResource("storageclasses")
		w.cluster.Create(w.ctx, r.GVR, &storagev1.StorageClass{ObjectMeta: metav1.ObjectMeta{Name: "fast"}, Provisioner: "example.com/ssd"})
		inf, err := New(Config{Name: "storageclasses", Resource: r.GVR, Kind: r.GVK, Source: w.cluster, Mode: ReflectorOnly})
		if err != nil {
			t.Fatal(err)
		}
		inf.Run(w.ctx)
		w.clk.Sleep(time.Second)
		if !inf.HasSynced() || len(inf.Indexer().List()) != 1 {
			t.Errorf("synced %v, cache %v", inf.HasSynced(), inf.Indexer().ListKeys())
		}
		spans := w.stop(t)
		if count(spans, "Store.Replace") != 1 || count(spans, "reflector/list-watch") != 1 || count(spans, "informer/private")+count(spans, "informer/run") != 0 {
			t.Errorf("a bare reflector records its store writes and runs no process loop")
		}
	})
}

func TestFactorySharesAndStartsInOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t)
		f := NewFactory(w.cluster, Classic, 12*time.Hour)
		pods, nodes := f.Informer("pods"), f.Informer("nodes")
		if f.Informer("pods") != pods {
			t.Error("the factory made a second pods informer")
		}
		pods.AddHandler(w.ctx, &recorder{name: "a"})
		nodes.AddHandler(w.ctx, &recorder{name: "b"})
		f.Start(w.ctx)
		f.Start(w.ctx) // started informers are not started again
		ok := WaitForCacheSync(w.ctx, Classic, "pods, nodes", pods.HasSynced, nodes.HasSynced)
		spans := w.stop(t)
		if !ok {
			t.Error("the caches never synced")
		}
		if n := count(spans, "informer/run"); n != 2 {
			t.Errorf("informer/run goroutines = %d, want 2", n)
		}
		if count(spans, "WaitForCacheSync") != 1 || count(spans, "informer/cache-sync-poller") != 1 {
			t.Errorf("want one WaitForCacheSync span and its poller goroutine")
		}
	})
}

// WaitForCacheSync's poller: v1.5's PollUntil gives it the caller's stop
// channel, so it ticks on after the caches synced, until the stop; today's
// PollImmediateUntil checks at once and stops its poller on return.
func TestCacheSyncPollerLifetimeByEra(t *testing.T) {
	for _, era := range []Era{Classic, Modern} {
		synctest.Test(t, func(t *testing.T) {
			w := newWorld(t)
			f := NewFactory(w.cluster, era, 12*time.Hour)
			pods := f.Informer("pods")
			f.Start(w.ctx)
			var checks []time.Duration // when the condition ran, from the call
			start := w.clk.Now()
			synced := func() bool {
				checks = append(checks, w.clk.Since(start))
				return pods.HasSynced()
			}
			if !WaitForCacheSync(w.ctx, era, "pods", synced) {
				t.Fatal("the cache never synced")
			}
			w.clk.Sleep(10 * time.Second)
			spans := w.stop(t)
			var wait, poller time.Duration
			for _, s := range spans {
				switch s.Name {
				case "WaitForCacheSync":
					wait = s.EndTime.Sub(s.StartTime)
				case "informer/cache-sync-poller":
					poller = s.EndTime.Sub(s.StartTime)
				}
			}
			switch {
			case era == Classic && (wait != 100*time.Millisecond || poller < 10*time.Second):
				t.Errorf("classic: the wait took %s and its poller lived %s; want the first check at 100ms, and the poller living on to the stop", wait, poller)
			case era == Modern && poller > wait:
				t.Errorf("modern: the poller lived %s, longer than the wait (%s)", poller, wait)
			case era == Classic && (len(checks) == 0 || checks[0] != 100*time.Millisecond):
				t.Errorf("classic: the caches were checked at %v; want the first check one period in (PollUntil)", checks)
			case era == Modern && (len(checks) == 0 || checks[0] != 0):
				t.Errorf("modern: the caches were checked at %v; want the first check at once (PollImmediateUntil)", checks)
			case era == Modern && len(checks) > 1 && (count(spans, "informer/cache-sync-poller") != 1 || poller != wait):
				t.Errorf("modern: a first check that failed starts one poller, which stops when the wait returns; got %d living %s for a %s wait",
					count(spans, "informer/cache-sync-poller"), poller, wait)
			}
		})
	}
}

func TestDummyControllerReturnsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t)
		inf, _ := New(Config{Resource: podsGVR(), Kind: podGVK(), Source: w.cluster})
		inf.RunDummy(w.ctx)
		w.clk.Sleep(time.Millisecond)
		if live := w.reg.Live(); len(live) != 0 {
			t.Errorf("live = %v", live)
		}
		spans := w.stop(t)
		if count(spans, "informer/dummy-controller-run") != 1 {
			t.Error("no dummy-controller-run goroutine")
		}
	})
}

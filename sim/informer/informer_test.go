package informer

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/cluster"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

func podsGVR() schema.GroupVersionResource { return corev1.SchemeGroupVersion.WithResource("pods") }

func podGVK() schema.GroupVersionKind { return corev1.SchemeGroupVersion.WithKind("Pod") }

func pod(name string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}}
}

// recorder is a handler that remembers its calls.
type recorder struct {
	name  string
	mu    sync.Mutex
	calls []string
}

func (r *recorder) Name() string { return r.name }
func (r *recorder) OnAdd(_ context.Context, obj any, initial bool) {
	r.add(fmt.Sprintf("add %s initial=%v", keyOf(obj), initial))
}
func (r *recorder) OnUpdate(_ context.Context, old, obj any) {
	r.add("update " + keyOf(obj) + map[bool]string{true: " (resync)", false: ""}[sameVersion(old, obj)])
}
func (r *recorder) OnDelete(_ context.Context, obj any) { r.add("delete " + keyOf(obj)) }
func (r *recorder) add(s string) {
	r.mu.Lock()
	r.calls = append(r.calls, s)
	r.mu.Unlock()
}
func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.calls...)
}

type world struct {
	ctx     context.Context
	cancel  context.CancelFunc
	clk     *clock.Scaled
	reg     *goroutine.Registry
	tp      *sdktrace.TracerProvider
	exp     *tracetest.InMemoryExporter
	cluster *cluster.Cluster
}

func newWorld(t *testing.T) *world {
	clk, _ := clock.NewScaled(1)
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	reg := goroutine.NewRegistry(clk)
	rt := goroutine.NewRuntime("t", tp.Tracer("t"), clk, reg)
	ctx, cancel := context.WithCancel(rt.Context(context.Background()))
	return &world{ctx: ctx, cancel: cancel, clk: clk, reg: reg, tp: tp, exp: exp, cluster: cluster.New()}
}

func (w *world) create(t *testing.T, p *corev1.Pod) {
	if _, err := w.cluster.Create(w.ctx, podsGVR(), p); err != nil {
		t.Fatal(err)
	}
}

func (w *world) stop(t *testing.T) tracetest.SpanStubs {
	w.cancel()
	if left := w.reg.Stop(time.Second); len(left) > 0 {
		t.Errorf("leftovers: %v", left)
	}
	spans := w.exp.GetSpans()
	w.tp.Shutdown(context.Background())
	return spans
}

func count(spans tracetest.SpanStubs, name string) int {
	n := 0
	for _, s := range spans {
		if s.Name == name {
			n++
		}
	}
	return n
}

func TestLateHandlerGetsTheCache(t *testing.T) {
	for _, era := range []Era{Classic, Modern} {
		t.Run(string(era), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w := newWorld(t)
				w.create(t, pod("a"))
				w.create(t, pod("b"))
				inf, err := New(Config{Resource: podsGVR(), Kind: podGVK(), Era: era, Source: w.cluster})
				if err != nil {
					t.Fatal(err)
				}
				early := &recorder{name: "early"}
				inf.AddHandler(w.ctx, early)
				inf.Run(w.ctx)
				w.clk.Sleep(time.Second)
				late := &recorder{name: "late"}
				inf.AddHandler(w.ctx, late)
				w.create(t, pod("c"))
				w.clk.Sleep(time.Second)
				spans := w.stop(t)

				sortedEq(t, "early", early.got(), []string{"add default/a initial=true", "add default/b initial=true", "add default/c initial=false"})
				sortedEq(t, "late", late.got(), []string{"add default/a initial=true", "add default/b initial=true", "add default/c initial=false"})
				if n := count(spans, "informer/listener-pop"); n != 2 {
					t.Errorf("listener-pop goroutines = %d, want 2", n)
				}
				if n := count(spans, "AddEventHandler"); n != 1 {
					t.Errorf("AddEventHandler spans = %d, want 1 (the late one)", n)
				}
			})
		})
	}
}

func TestResyncReachesHandlersAsUpdates(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t)
		w.create(t, pod("a"))
		inf, _ := New(Config{Resource: podsGVR(), Kind: podGVK(), Era: Classic, Resync: 10 * time.Second, Source: w.cluster})
		h := &recorder{name: "h"}
		inf.AddHandler(w.ctx, h)
		inf.Run(w.ctx)
		w.clk.Sleep(25 * time.Second)
		spans := w.stop(t)
		sortedEq(t, "calls", h.got(), []string{"add default/a initial=true", "update default/a (resync)", "update default/a (resync)"})
		if n := count(spans, "reflector/resync-timer"); n != 1 {
			t.Errorf("resync-timer goroutines = %d, want 1", n)
		}
		if n := count(spans, "DeltaFIFO.Resync"); n != 2 {
			t.Errorf("DeltaFIFO.Resync spans = %d, want 2", n)
		}
	})
}

func TestBreakWatchesRelistsAndClosedWatchOnlyReopens(t *testing.T) {
	for _, era := range []Era{Classic, Modern} {
		t.Run(string(era), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				w := newWorld(t)
				w.create(t, pod("a"))
				inf, _ := New(Config{Resource: podsGVR(), Kind: podGVK(), Era: era, Source: w.cluster})
				h := &recorder{name: "h"}
				inf.AddHandler(w.ctx, h)
				inf.Run(w.ctx)
				w.clk.Sleep(time.Second)
				if n := w.cluster.BreakWatches(context.Background(), podsGVR()); n != 1 {
					t.Fatalf("broke %d watches, want 1", n)
				}
				w.clk.Sleep(40 * time.Second) // longer than any backoff
				if n := w.cluster.OpenWatches(podsGVR()); n != 1 {
					t.Errorf("open watches after the re-list = %d, want 1", n)
				}
				w.create(t, pod("b"))
				w.clk.Sleep(time.Second)
				spans := w.stop(t)
				if n := count(spans, "pods.List"); n != 2 {
					t.Errorf("pods.List = %d, want 2", n)
				}
				// The re-list finds a unchanged: v1.5 tells every handler
				// anyway (OnUpdate, old == new); today nobody with resync 0.
				want := []string{"add default/a initial=true", "add default/b initial=false"}
				if era == Classic {
					want = append(want, "update default/a (resync)")
				}
				sortedEq(t, "calls", h.got(), want)
			})
		})
	}
}

func TestHandlerSpansCarryTheirCause(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t)
		inf, _ := New(Config{Resource: podsGVR(), Kind: podGVK(), Source: w.cluster})
		inf.AddHandler(w.ctx, Observer("h"))
		inf.Run(w.ctx)
		w.clk.Sleep(time.Second)
		// A scenario action's write: its watch event names the action.
		actx, action := goroutine.Start(w.ctx, "action/create")
		if _, err := w.cluster.Create(cluster.WithCause(actx, action.SpanContext()), podsGVR(), pod("x")); err != nil {
			t.Fatal(err)
		}
		action.End()
		w.clk.Sleep(time.Second)
		spans := w.stop(t)
		byID := map[string]tracetest.SpanStub{}
		for _, s := range spans {
			byID[s.SpanContext.SpanID().String()] = s
		}
		var chain []string
		for _, s := range spans {
			if s.Name != "OnAdd" {
				continue
			}
			for cur, ok := s, true; ok; {
				chain = append(chain, cur.Name)
				if len(cur.Links) == 0 {
					break
				}
				l := cur.Links[0]
				if v := linkAttr(l, catalog.AttrLink); v != catalog.LinkCause {
					t.Errorf("%s link kind = %q", cur.Name, v)
				}
				if v := linkAttr(l, catalog.AttrObjectKey); v != "default/x" {
					t.Errorf("%s link key = %q", cur.Name, v)
				}
				cur, ok = byID[l.SpanContext.SpanID().String()]
			}
		}
		want := "[OnAdd pop Pop DeltaFIFO.Add receive action/create]"
		if fmt.Sprint(chain) != want {
			t.Errorf("cause chain = %v, want %s", chain, want)
		}
	})
}

func linkAttr(l sdktrace.Link, key string) string {
	for _, kv := range l.Attributes {
		if string(kv.Key) == key {
			return kv.Value.AsString()
		}
	}
	return ""
}

func sortedEq(t *testing.T, what string, got, want []string) {
	t.Helper()
	sort.Strings(got)
	sort.Strings(want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%s = %q, want %q", what, got, want)
	}
}

// Every ListAndWatch call starts its resync goroutine right after its LIST
// is stored, whatever the resync period: with 0 it never fires and ends
// with the call (pkg/client/cache/reflector.go, ListAndWatch; client-go
// today: watchWithResync → go r.startResync).
func TestEveryListAndWatchStartsItsResyncGoroutineAfterTheList(t *testing.T) {
	for _, era := range []Era{Classic, Modern} {
		for _, mode := range []Mode{Shared, Private, ReflectorOnly} {
			t.Run(fmt.Sprintf("%s/mode%d", era, mode), func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					w := newWorld(t)
					w.create(t, pod("a"))
					inf, err := New(Config{Resource: podsGVR(), Kind: podGVK(), Era: era, Mode: mode, Source: w.cluster})
					if err != nil {
						t.Fatal(err)
					}
					inf.Run(w.ctx)
					w.clk.Sleep(time.Second)
					w.cluster.BreakWatches(context.Background(), podsGVR())
					w.clk.Sleep(40 * time.Second) // longer than any backoff
					spans := w.stop(t)

					var replaces, timers []tracetest.SpanStub
					for _, s := range spans {
						switch {
						case s.Name == "reflector/resync-timer":
							timers = append(timers, s)
						case strings.HasSuffix(s.Name, ".Replace"):
							replaces = append(replaces, s)
						}
					}
					byStart := func(ss []tracetest.SpanStub) {
						sort.Slice(ss, func(i, j int) bool { return ss[i].StartTime.Before(ss[j].StartTime) })
					}
					byStart(replaces)
					byStart(timers)
					if len(replaces) != 2 || len(timers) != 2 {
						t.Fatalf("%d Replace spans and %d resync goroutines, want one of each per ListAndWatch call (2)", len(replaces), len(timers))
					}
					for i, tm := range timers {
						if tm.StartTime.Before(replaces[i].EndTime) {
							t.Errorf("resync goroutine %d starts at %s, before its LIST is stored (%s)", i+1, tm.StartTime, replaces[i].EndTime)
						}
						if tm.Parent.SpanID() == replaces[i].SpanContext.SpanID() {
							t.Errorf("resync goroutine %d hangs under %s; it is started by ListAndWatch, after it", i+1, replaces[i].Name)
						}
					}
					if !timers[0].EndTime.Before(replaces[1].StartTime) {
						t.Errorf("the first call's resync goroutine ends at %s, after the re-list (%s): cancelCh ends it with its call", timers[0].EndTime, replaces[1].StartTime)
					}
					if n := count(spans, "Resync"); n != 0 {
						t.Errorf("%d Resync iterations with a resync period of 0, want none", n)
					}
				})
			})
		}
	}
}

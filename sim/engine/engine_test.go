package engine

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/synctest"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

func byInstance(spans []traces.Span) map[string][]traces.Span {
	out := map[string][]traces.Span{}
	for _, s := range spans {
		id := s.Resource.String(catalog.AttrServiceInstanceID)
		out[id] = append(out[id], s)
	}
	return out
}

// goroutineNames is the set of catalog names of the lifetime spans.
func goroutineNames(spans []traces.Span) []string {
	set := map[string]bool{}
	for _, s := range spans {
		if s.Attributes.String(catalog.AttrGoroutineKind) != "" {
			set[s.Attributes.String(catalog.AttrGoroutineName)] = true
		}
	}
	var out []string
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// handlerCalls counts "handler OnX key" per handler call.
func handlerCalls(spans []traces.Span) map[string]int {
	out := map[string]int{}
	for _, s := range spans {
		switch s.Name {
		case "OnAdd", "OnUpdate", "OnDelete":
			name := s.Name
			if resync, _ := s.Attributes[catalog.AttrResync].(bool); resync {
				name += "(resync)"
			}
			out[s.Attributes.String(catalog.AttrHandler)+" "+name]++
		}
	}
	return out
}

// origin follows cause links from s back to the span that brought the
// object in: a List or a watch event received by watch/stream-receive.
func origin(s traces.Span, byID map[trace.SpanID]traces.Span) (traces.Span, []string, bool) {
	var path []string
	for range 20 {
		path = append(path, s.Name)
		if strings.HasSuffix(s.Name, ".List") || s.Name == "receive" {
			return s, path, true
		}
		var next trace.SpanID
		for _, l := range s.Links {
			if l.Attributes.String(catalog.AttrLink) == catalog.LinkCause {
				next = l.SpanID
				break
			}
		}
		p, ok := byID[next]
		if !ok {
			return s, path, false
		}
		s = p
	}
	return s, path, false
}

// checkInformerBasics checks the lesson's shape. Each handler sees the
// scenario's 4 adds (3 listed + 1 created), 1 update and 1 delete. The
// re-list after the broken watch finds the 3 remaining pods unchanged: in
// v1.5 (classic) every handler still gets OnUpdate(old == new) for each,
// since 1.6 (modern) handlers without a resync period get nothing.
func checkInformerBasics(t *testing.T, spans []traces.Span, era string) {
	t.Helper()
	// reflector/resync-timer too: every ListAndWatch starts one, even with
	// a resync period of 0 (it then never fires).
	want := []string{"informer/listener-pop", "informer/listener-run", "informer/run", "reflector/list-watch", "reflector/resync-timer", "watch/stream-receive"}
	if got := goroutineNames(spans); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("goroutines = %v, want %v", got, want)
	}
	lists := 0
	for _, s := range spans {
		if s.Name == "pods.List" {
			lists++
		}
	}
	if lists != 2 {
		t.Errorf("pods.List spans = %d, want 2 (initial list + re-list after the broken watch)", lists)
	}
	// One watch per list, each with its receive goroutine; stopping the
	// simulation must not look like a closed watch that is re-opened.
	watches, receivers := 0, 0
	for _, s := range spans {
		switch s.Name {
		case "pods.Watch":
			watches++
		case "watch/stream-receive":
			receivers++
		}
	}
	if watches != 2 || receivers != 2 {
		t.Errorf("pods.Watch spans = %d, stream-receive goroutines = %d, want 2 and 2", watches, receivers)
	}
	wantCalls := map[string]int{
		"handler-1 OnAdd": 4, "handler-1 OnUpdate": 1, "handler-1 OnDelete": 1,
		"handler-2 OnAdd": 4, "handler-2 OnUpdate": 1, "handler-2 OnDelete": 1,
	}
	if era == "classic" {
		wantCalls["handler-1 OnUpdate(resync)"] = 3
		wantCalls["handler-2 OnUpdate(resync)"] = 3
	}
	if got := handlerCalls(spans); fmt.Sprint(got) != fmt.Sprint(wantCalls) {
		t.Errorf("handler calls = %v, want %v", got, wantCalls)
	}
	byID := map[trace.SpanID]traces.Span{}
	for _, s := range spans {
		byID[s.SpanID] = s
	}
	for _, s := range spans {
		switch s.Name {
		case "OnAdd", "OnUpdate", "OnDelete":
		default:
			continue
		}
		o, path, ok := origin(s, byID)
		if !ok {
			t.Errorf("%s %s (line %d) is not linked back to a list or watch event: %v", s.Name, s.Attributes.String(catalog.AttrObjectKey), s.Line, path)
			continue
		}
		if resync, _ := s.Attributes[catalog.AttrResync].(bool); resync {
			if o.Name != "pods.List" {
				t.Errorf("resync %s %s came from %s, want the re-list", s.Name, s.Attributes.String(catalog.AttrObjectKey), o.Name)
			}
		} else if s.Name != "OnAdd" && o.Name != "receive" {
			t.Errorf("%s %s came from %s, want a watch event: %v", s.Name, s.Attributes.String(catalog.AttrObjectKey), o.Name, path)
		}
	}
}

func TestInformerBasics(t *testing.T) {
	sum, spans := runScenario(t, builtin(t, "informer-basics"), nil)
	if sum.Actions != 4 {
		t.Errorf("actions run = %d, want 4", sum.Actions)
	}
	if ids := byInstance(spans); len(ids) != 2 || ids["informers"] == nil || ids["scenario"] == nil {
		t.Errorf("instances = %v, want informers and scenario (the driver of the actions)", keys(ids))
	}
	checkInformerBasics(t, spans, "classic")
}

func TestInformerEras(t *testing.T) {
	_, spans := runScenario(t, builtin(t, "informer-eras"), nil)
	all := byInstance(spans)
	if len(all) != 4 {
		t.Errorf("instances = %v, want an informers and a scenario instance per era", keys(all))
	}
	insts := map[string][]traces.Span{"classic": all["classic/informers"], "modern": all["modern/informers"]}
	for era, ss := range insts {
		if len(ss) == 0 {
			t.Fatalf("no spans of %s/informers", era)
		}
		t.Run(era, func(t *testing.T) { checkInformerBasics(t, ss, era) })
	}
	queue := func(ss []traces.Span) string {
		for _, s := range ss {
			if strings.HasSuffix(s.Name, ".Replace") {
				return strings.TrimSuffix(s.Name, ".Replace")
			}
		}
		return ""
	}
	if q := queue(insts["classic"]); q != "DeltaFIFO" {
		t.Errorf("classic queue = %q, want DeltaFIFO", q)
	}
	if q := queue(insts["modern"]); q != "RealFIFO" {
		t.Errorf("modern queue = %q, want RealFIFO", q)
	}
	// Both eras deliver the same notifications of real changes, object by
	// object (they differ only in the resyncs of the re-list, checked above).
	calls := func(ss []traces.Span) []string {
		var out []string
		for _, s := range ss {
			if resync, _ := s.Attributes[catalog.AttrResync].(bool); resync {
				continue
			}
			switch s.Name {
			case "OnAdd", "OnUpdate", "OnDelete":
				out = append(out, s.Attributes.String(catalog.AttrHandler)+" "+s.Name+" "+s.Attributes.String(catalog.AttrObjectKey))
			}
		}
		sort.Strings(out)
		return out
	}
	if c, m := calls(insts["classic"]), calls(insts["modern"]); fmt.Sprint(c) != fmt.Sprint(m) {
		t.Errorf("eras deliver different notifications:\nclassic %v\nmodern  %v", c, m)
	}
}

func keys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// TestGoroutineLeak: a hung handler's listener-run outlives the informer,
// is reported as a leftover, and has no lifetime span in the recording,
// while its listener-pop buffers what it cannot deliver. Run returns all
// the same, and leaves nothing running (goleak checks the package).
func TestGoroutineLeak(t *testing.T) {
	sc := builtin(t, "goroutine-leak")
	var rec bytes.Buffer
	var sum *Summary
	synctest.Test(t, func(t *testing.T) {
		var err error
		sum, err = Run(context.Background(), Options{Scenario: sc, Recording: &rec})
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	})
	if len(sum.Leftovers) != 1 || sum.Leftovers[0].Name != "informer/listener-run" || sum.Leftovers[0].N != 1 {
		t.Fatalf("leftovers = %+v, want one informer/listener-run", sum.Leftovers)
	}
	spans, err := traces.Read(&rec, "goroutine-leak.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	checkStartupStories(t, spans)
	lifetimes := map[string]int{} // goroutine name + handler → lifetime spans
	maxPending := map[string]int64{}
	onAdds := map[string]int{}
	for _, s := range spans {
		name, handler := s.Attributes.String(catalog.AttrGoroutineName), s.Attributes.String(catalog.AttrHandler)
		if s.Attributes.String(catalog.AttrGoroutineKind) != "" {
			lifetimes[name+" "+handler]++
		}
		for _, e := range s.Events {
			if p, ok := e.Attributes.Int("pending"); ok && e.Name == "buffered" {
				maxPending[handler] = max(maxPending[handler], p)
			}
		}
		if s.Name == "OnAdd" {
			onAdds[handler]++
		}
	}
	if lifetimes["informer/listener-run handler-1"] != 1 || lifetimes["informer/listener-run handler-2"] != 0 || lifetimes["informer/listener-pop handler-2"] != 1 {
		t.Errorf("lifetime spans = %v; want handler-1's listener-run and handler-2's listener-pop, not handler-2's listener-run", lifetimes)
	}
	// web-0 at start, web-1 and web-2: handler 1 handles all three; handler
	// 2 returns from web-0 only (web-1's OnAdd never ends).
	if onAdds["handler-1"] != 3 || onAdds["handler-2"] != 1 {
		t.Errorf("OnAdd spans per handler = %v, want handler-1: 3, handler-2: 1", onAdds)
	}
	if maxPending["handler-2"] != 2 || maxPending["handler-1"] != 0 {
		t.Errorf("largest pending buffer per handler = %v; want handler-2's to reach 2 (web-0's update, web-2's delete, behind web-2's add) and handler-1's to stay empty", maxPending)
	}
}

// checkStartupStories fails unless every call on an instance's main line
// (a startup step, a scenario action) has its story in the catalog, in
// English and Chinese: the step-through tells it.
func checkStartupStories(t *testing.T, spans []traces.Span) {
	t.Helper()
	missing := map[string]bool{}
	for _, s := range timeline.Steps(timeline.Build(spans)) {
		if s.Kind != timeline.StepCall || s.Lane.Goroutine != timeline.MainLane {
			continue
		}
		if !s.HasStartup || s.Startup.Story("en").Summary == "" || s.Startup.Story("zh").Summary == "" {
			missing[s.Instance.Service+" "+s.Mark.Name] = true
		}
	}
	if len(missing) > 0 {
		t.Errorf("main-line calls without a story in sim/catalog (steps): %v", slices.Sorted(maps.Keys(missing)))
	}
}

package export_test

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/export"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

func chromeJSON(t *testing.T, spans []traces.Span) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := export.Chrome(&b, spans); err != nil {
		t.Fatalf("Chrome: %v", err)
	}
	return b.Bytes()
}

func decodeChrome(t *testing.T, data []byte) export.ChromeTrace {
	t.Helper()
	var ct export.ChromeTrace
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ct); err != nil {
		t.Fatalf("the Chrome JSON does not decode: %v\n%.2000s", err, data)
	}
	return ct
}

func TestChromeShape(t *testing.T) {
	data := chromeJSON(t, lesson())
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	if _, ok := raw["traceEvents"].([]any); !ok || raw["displayTimeUnit"] != "ms" {
		t.Errorf("top level: traceEvents %T, displayTimeUnit %v", raw["traceEvents"], raw["displayTimeUnit"])
	}
	for _, e := range raw["traceEvents"].([]any) {
		ev := e.(map[string]any)
		for _, k := range []string{"name", "ph", "pid"} {
			if _, ok := ev[k]; !ok {
				t.Errorf("event lacks %q: %v", k, ev)
			}
		}
		switch ev["ph"] {
		case "X":
			_, hasTs := ev["ts"].(float64)
			_, hasDur := ev["dur"].(float64)
			if !hasTs || !hasDur || ev["tid"] == nil {
				t.Errorf("complete event without a numeric ts, dur or a tid: %v", ev)
			}
		case "i":
			if ev["s"] != "t" {
				t.Errorf("instant event not thread-scoped: %v", ev)
			}
		case "s", "f":
			if ev["id"] == nil || ev["cat"] != export.CatLink {
				t.Errorf("flow event without an id or category: %v", ev)
			}
		}
	}
}

// checkChrome checks a Chrome trace against the recording and its
// timeline: a process per instance, a named thread per lane, every span a
// slice once, slices nested on each thread, every event an instant, and
// flows in pairs.
func checkChrome(t *testing.T, spans []traces.Span, ct export.ChromeTrace) {
	t.Helper()
	tl := timeline.Build(spans)
	procs := map[int]string{}
	threads := map[[2]int]string{}
	slicesOf := map[int][]export.ChromeEvent{}
	spanSlices := map[string]int{}
	instants := 0
	flows := map[int][]export.ChromeEvent{}
	for _, e := range ct.TraceEvents {
		switch e.Ph {
		case "M":
			name, _ := e.Args["name"].(string)
			switch e.Name {
			case "process_name":
				procs[e.Pid] = name
			case "thread_name":
				threads[[2]int{e.Pid, e.Tid}] = name
			}
		case "X":
			slicesOf[e.Tid] = append(slicesOf[e.Tid], e)
			id, _ := e.Args["span_id"].(string)
			spanSlices[id]++
			if threads[[2]int{e.Pid, e.Tid}] == "" {
				t.Errorf("slice %s on thread %d of process %d, which has no thread_name", e.Name, e.Tid, e.Pid)
			}
		case "i":
			instants++
		case "s", "f":
			flows[e.ID] = append(flows[e.ID], e)
		default:
			t.Errorf("unexpected phase %q", e.Ph)
		}
	}

	// Processes and threads.
	names := map[string]bool{}
	for _, n := range procs {
		names[n] = true
	}
	labels := map[string]int{}
	for _, l := range threads {
		labels[l]++
	}
	events := 0
	for _, in := range tl.Instances {
		if !names[in.Name()] {
			t.Errorf("no process named %q (processes: %v)", in.Name(), procs)
		}
		for _, l := range in.Lanes {
			if labels[l.Label] == 0 {
				t.Errorf("lane %q of %s has no thread_name", l.Label, in.Name())
			}
			events += len(l.Events)
		}
	}

	// Every span once.
	for _, s := range spans {
		if spanSlices[s.SpanID.String()] != 1 {
			t.Errorf("span %s %q is %d slices", s.SpanID, s.Name, spanSlices[s.SpanID.String()])
		}
	}
	if len(spanSlices) != len(spans) {
		t.Errorf("%d slices for %d spans", len(spanSlices), len(spans))
	}
	if instants < events {
		t.Errorf("%d instant events, the timeline has %d span events", instants, events)
	}

	// Slices nest on every thread (Perfetto drops those that do not).
	for tid, sl := range slicesOf {
		var stack []int64
		for _, e := range sl {
			start, end := ns(t, e.Ts), ns(t, e.Ts)+ns(t, e.Dur)
			if start < 0 {
				t.Errorf("slice %s starts before the recording (ts %s)", e.Name, e.Ts)
			}
			for len(stack) > 0 && stack[len(stack)-1] <= start {
				stack = stack[:len(stack)-1]
			}
			if len(stack) > 0 && end > stack[len(stack)-1] {
				t.Errorf("thread %d: slice %s [%d, %d] overlaps its enclosing slice ending at %d", tid, e.Name, start, end, stack[len(stack)-1])
			}
			stack = append(stack, end)
		}
	}

	// Flows: pairs of s and f with the same name, s first in the file
	// and in time.
	for id, pair := range flows {
		if len(pair) != 2 || pair[0].Ph != "s" || pair[1].Ph != "f" || pair[0].Name != pair[1].Name || pair[1].BP != "e" {
			t.Errorf("flow %d is %+v, want an s then an f (bp e) with the same name", id, pair)
			continue
		}
		if ns(t, pair[0].Ts) > ns(t, pair[1].Ts) {
			t.Errorf("flow %d ends before it starts: %+v", id, pair)
		}
	}

	// Replay the events as Perfetto does: each thread has a stack of open
	// slices, closed when a later slice starts after their end; a flow's
	// "s" binds to the top slice of its thread, and so does an "f" with
	// bp "e". The s must bind to the linked span, the f to the linking
	// span or one of its descendants.
	parent := map[string]string{}
	linked := map[[2]string]bool{}
	for _, s := range spans {
		if s.ParentSpanID.IsValid() {
			parent[s.SpanID.String()] = s.ParentSpanID.String()
		}
		for _, l := range s.Links {
			linked[[2]string{s.SpanID.String(), l.SpanID.String()}] = true
		}
	}
	type open struct {
		span string
		end  int64
	}
	stacks := map[int][]open{}
	from := map[int]string{}
	for _, e := range ct.TraceEvents {
		switch e.Ph {
		case "X":
			st := stacks[e.Tid]
			start := ns(t, e.Ts)
			for len(st) > 0 && st[len(st)-1].end <= start {
				st = st[:len(st)-1]
			}
			stacks[e.Tid] = append(st, open{e.Args["span_id"].(string), start + ns(t, e.Dur)})
		case "s":
			if st := stacks[e.Tid]; len(st) > 0 {
				from[e.ID] = st[len(st)-1].span
			}
		case "f":
			st := stacks[e.Tid]
			if len(st) == 0 || from[e.ID] == "" {
				t.Errorf("flow %d: nothing to bind to", e.ID)
				continue
			}
			ok := false
			for sp := st[len(st)-1].span; sp != "" && !ok; sp = parent[sp] {
				ok = linked[[2]string{sp, from[e.ID]}]
			}
			if !ok {
				t.Errorf("flow %d binds %s to %s, which is neither the linking span nor inside it", e.ID, from[e.ID], st[len(st)-1].span)
			}
		}
	}

	// Events after the metadata are in time order.
	last := int64(-1)
	for _, e := range ct.TraceEvents {
		if e.Ph == "M" {
			if last >= 0 {
				t.Errorf("metadata event %s after timed events", e.Name)
			}
			continue
		}
		if at := ns(t, e.Ts); at < last {
			t.Errorf("event %s %s at %d after one at %d", e.Ph, e.Name, at, last)
		} else {
			last = at
		}
	}
}

// ns converts a ts or dur (microseconds with up to three decimals) to nanoseconds.
func ns(t *testing.T, n json.Number) int64 {
	t.Helper()
	us, frac, _ := strings.Cut(string(n), ".")
	v, err := strconv.ParseInt(us, 10, 64)
	if err != nil {
		t.Fatalf("bad time %q", n)
	}
	v *= 1000
	if frac != "" {
		f, err := strconv.ParseInt((frac + "00")[:3], 10, 64)
		if err != nil || len(frac) > 3 {
			t.Fatalf("bad time %q", n)
		}
		v += f
	}
	return v
}

func TestChromeLayout(t *testing.T) {
	spans := lesson()
	data := chromeJSON(t, spans)
	ct := decodeChrome(t, data)
	checkChrome(t, spans, ct)

	threads := map[string]int{}
	var flows []export.ChromeEvent
	for _, e := range ct.TraceEvents {
		if e.Name == "thread_name" {
			threads[e.Args["name"].(string)] = e.Tid
		}
		if e.Ph == "s" || e.Ph == "f" {
			flows = append(flows, e)
		}
	}
	// The watch outlives its iteration: it is on an extra thread.
	if threads["reflector/list-watch (overlapping)"] == 0 {
		t.Errorf("no overlapping thread for the watch; threads: %v", threads)
	}
	// Three causal links: action → watch, watch → two handler calls.
	if len(flows) != 6 || flows[0].Name != "cause" {
		t.Errorf("flows = %+v, want 3 pairs named cause", flows)
	}
	// Times are simulated microseconds since the first span.
	for _, e := range ct.TraceEvents {
		if e.Name == "action/create" && (e.Ts != "10000000" || e.Dur != "0") {
			t.Errorf("action/create at ts %s dur %s, want 10000000 and 0", e.Ts, e.Dur)
		}
		if e.Name == "OnAdd" && e.Ts != "10002000" {
			t.Errorf("OnAdd at ts %s, want 10002000", e.Ts)
		}
	}
	if ct.OtherData["scenario"] != "export-lesson" {
		t.Errorf("otherData = %v", ct.OtherData)
	}

	shuffled := slices.Clone(spans)
	rand.New(rand.NewPCG(3, 4)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	if again := chromeJSON(t, shuffled); !bytes.Equal(again, data) {
		t.Error("the output depends on the order of the spans")
	}
}

// TestChromeOrphans: spans whose parent is missing still appear, on a
// thread of their instance.
func TestChromeOrphans(t *testing.T) {
	r := tt.New("cut-short").Instance("kubelet", "node-1")
	run := r.Span(tt.Root, "run", 0, 10)
	g := r.Goroutine(run, "kubelet/pod-worker", catalog.KindGo, 1, 10)
	it := r.Span(g, "syncPod", 2, 3) // no goroutine.name: an orphan once g is gone
	r.Span(it, "pods.Get", 2, 2.5)
	r.Event(it, "killed", 2.8)
	r.Drop(run, g)
	spans := r.Spans()
	ct := decodeChrome(t, chromeJSON(t, spans))
	checkChrome(t, spans, ct)
	found := false
	for _, e := range ct.TraceEvents {
		if e.Name == "thread_name" && e.Args["name"] == "spans without a goroutine" {
			found = true
		}
	}
	if !found {
		t.Error("no thread for the spans without a goroutine")
	}
}

func TestChromeEmpty(t *testing.T) {
	ct := decodeChrome(t, chromeJSON(t, nil))
	if len(ct.TraceEvents) != 0 || ct.DisplayTimeUnit != "ms" {
		t.Errorf("empty recording: %+v", ct)
	}
}

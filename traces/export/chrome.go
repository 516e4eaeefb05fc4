package export

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// ChromeTrace is a trace in the Chrome trace event format (JSON object
// form), which Perfetto UI (ui.perfetto.dev) and chrome://tracing open.
type ChromeTrace struct {
	TraceEvents     []ChromeEvent     `json:"traceEvents"`
	DisplayTimeUnit string            `json:"displayTimeUnit"`
	OtherData       map[string]string `json:"otherData,omitempty"`
}

// ChromeEvent is one trace event. Ts and Dur are microseconds, written with
// up to three decimals (nanoseconds).
type ChromeEvent struct {
	Name  string         `json:"name"`
	Cat   string         `json:"cat,omitempty"`
	Ph    string         `json:"ph"`
	Ts    json.Number    `json:"ts,omitempty"`
	Dur   json.Number    `json:"dur,omitempty"`
	Pid   int            `json:"pid"`
	Tid   int            `json:"tid,omitempty"`
	ID    int            `json:"id,omitempty"`
	BP    string         `json:"bp,omitempty"`
	Scope string         `json:"s,omitempty"`
	Args  map[string]any `json:"args,omitempty"`
}

// Event categories (ChromeEvent.Cat) that Chrome writes.
const (
	CatGoroutine = "goroutine" // a goroutine's lifetime span
	CatIteration = "iteration" // a loop iteration
	CatCall      = "call"      // any other span: a call, a start-up step, a scenario action
	CatEvent     = "event"     // a span event
	CatLink      = "link"      // a flow from a linked span to the span that links it
)

// OverlapSuffix ends the name of the extra thread that holds a lane's spans
// that do not nest in its other spans.
const OverlapSuffix = " (overlapping)"

// NoLaneThread names the thread of an instance's spans that belong to no
// goroutine lane.
const NoLaneThread = "spans without a goroutine"

// Chrome writes spans in the Chrome/Perfetto trace event format:
// {"traceEvents":[...],"displayTimeUnit":"ms",...}. The layout is the
// timeline's (traces/timeline): each instance is a process named
// "service id", each goroutine lane a thread named after the lane's label,
// in the timeline's order. On its thread a goroutine's lifetime span, its
// iterations and its other spans are complete ("X") slices, nested as they
// ran; span events are thread-scoped instant ("i") events; each link whose
// spans are both in the recording is a flow, an "s" event bound to the
// linked span and an "f" event bound to the linking one, named "cause" for
// kubeloom's causal links. Times (ts, dur) are microseconds of simulated
// time since the start of the recording, to the nanosecond.
//
// Slices of one thread must nest, or Perfetto drops them. A span that
// overlaps another of its lane without nesting in it (a watch stopped after
// the ListAndWatch that opened it returned) goes to an extra thread of the
// same process, named after the lane with OverlapSuffix. Spans that belong
// to no lane (their parent is missing from a recording cut short) go to a
// thread NoLaneThread of their instance. So every span is exactly one slice.
//
// Events are written in time order (metadata first), a flow's "s" right
// after the slice it binds to and before its "f", so that a reader that
// binds flow events to the slice open at their time, as Perfetto does,
// binds them to the right ones. The output does not depend on the order of
// spans.
func Chrome(w io.Writer, spans []traces.Span) error {
	tl := timeline.Build(spans)
	b := &chromeBuilder{
		tl:     tl,
		spans:  make(map[trace.SpanID]*traces.Span, len(spans)),
		places: make(map[trace.SpanID]place, len(spans)),
	}
	for i := range spans {
		if _, dup := b.spans[spans[i].SpanID]; !dup {
			b.spans[spans[i].SpanID] = &spans[i]
		}
	}
	b.layout(spans)
	b.order()
	b.flows(spans)
	slices.SortFunc(b.events, func(x, y keyed) int {
		return cmp.Or(cmp.Compare(x.at, y.at), cmp.Compare(x.class, y.class), cmp.Compare(x.seq, y.seq))
	})

	bw := bufio.NewWriterSize(w, 64<<10)
	var line bytes.Buffer
	enc := json.NewEncoder(&line)
	enc.SetEscapeHTML(false)
	bw.WriteString(`{"traceEvents":[`)
	sep := "\n"
	// One event per line, so that the file diffs and greps well.
	emit := func(e any) error {
		line.Reset()
		if err := enc.Encode(e); err != nil {
			return err
		}
		bw.WriteString(sep)
		bw.Write(bytes.TrimSuffix(line.Bytes(), []byte("\n")))
		sep = ",\n"
		return nil
	}
	for i := range b.meta {
		if err := emit(&b.meta[i]); err != nil {
			return err
		}
	}
	for i := range b.events {
		if err := emit(b.event(&b.events[i])); err != nil {
			return err
		}
	}
	other := map[string]string{
		"generator": "kubeloom",
		"time":      "simulated time since the start of the recording",
	}
	if tl.Scenario != "" {
		other["scenario"] = tl.Scenario
	}
	if !tl.Start.IsZero() {
		other["start"] = tl.Start.Format(time.RFC3339Nano)
	}
	sep = "\n"
	line.Reset()
	if err := enc.Encode(other); err != nil {
		return err
	}
	fmt.Fprintf(bw, "\n],\n\"displayTimeUnit\":\"ms\",\n\"otherData\":%s}\n", bytes.TrimSuffix(line.Bytes(), []byte("\n")))
	return bw.Flush()
}

// A slice is a span drawn on a thread.
type slice struct {
	name, cat  string
	start, end time.Time
	spanID     trace.SpanID
	attrs      traces.Attributes
}

type thread struct {
	pid, tid int
	label    string
	slices   []slice
	stack    []time.Time // ends of the open slices, while laying out
	instants []instant
}

type instant struct {
	at time.Time
	ev ChromeEvent
}

// place is where a span was drawn: its thread, and its slice's place in
// the order of slices.
type place struct {
	th         *thread
	start, end time.Time
	seq        int
}

// keyed is an event with its place in the output: by time, then class (a
// slice and the flow starts bound to it before the instants and flow ends
// at the same time), then sequence.
type keyed struct {
	at    time.Duration
	class int
	seq   int
	ev    *ChromeEvent // nil for a slice
	th    *thread
	sl    *slice
}

type chromeBuilder struct {
	tl      *timeline.Timeline
	spans   map[trace.SpanID]*traces.Span
	places  map[trace.SpanID]place
	meta    []ChromeEvent
	threads []*thread
	events  []keyed
	seq     int
}

func (b *chromeBuilder) offset(t time.Time) time.Duration { return t.Sub(b.tl.Start) }

func (b *chromeBuilder) ts(t time.Time) json.Number { return json.Number(micros(b.offset(t))) }

func (b *chromeBuilder) process(pid int, name string) {
	b.meta = append(b.meta,
		ChromeEvent{Name: "process_name", Ph: "M", Pid: pid, Args: map[string]any{"name": name}},
		ChromeEvent{Name: "process_sort_index", Ph: "M", Pid: pid, Args: map[string]any{"sort_index": pid}})
}

func (b *chromeBuilder) thread(pid int, label string) *thread {
	th := &thread{pid: pid, tid: len(b.threads) + 1, label: label}
	b.threads = append(b.threads, th)
	b.meta = append(b.meta,
		ChromeEvent{Name: "thread_name", Ph: "M", Pid: pid, Tid: th.tid, Args: map[string]any{"name": label}},
		ChromeEvent{Name: "thread_sort_index", Ph: "M", Pid: pid, Tid: th.tid, Args: map[string]any{"sort_index": th.tid}})
	return th
}

// layout assigns every span to a thread, and every span event to the
// thread of its span.
func (b *chromeBuilder) layout(spans []traces.Span) {
	type instKey struct{ service, id string }
	pids := map[instKey]int{}
	for i, in := range b.tl.Instances {
		pid := i + 1
		pids[instKey{in.Service, in.ID}] = pid
		b.process(pid, in.Name())
		for _, l := range in.Lanes {
			sl := make([]slice, 0, 1+len(l.Iterations)+len(l.Calls))
			if l.SpanID.IsValid() {
				name := l.Goroutine
				if s := b.spans[l.SpanID]; s != nil {
					name = s.Name
				}
				sl = append(sl, slice{name: name, cat: CatGoroutine, start: l.Start, end: l.End, spanID: l.SpanID, attrs: l.Attributes})
			}
			for _, m := range l.Iterations {
				sl = append(sl, slice{name: m.Name, cat: CatIteration, start: m.Start, end: m.End, spanID: m.SpanID, attrs: m.Attributes})
			}
			for _, m := range l.Calls {
				sl = append(sl, slice{name: m.Name, cat: CatCall, start: m.Start, end: m.End, spanID: m.SpanID, attrs: m.Attributes})
			}
			lane := b.thread(pid, l.Label)
			b.place(lane, sl)
			for _, m := range l.Events {
				th := lane
				if p, ok := b.places[m.SpanID]; ok {
					th = p.th
				}
				b.instant(th, m.Name, m.Start, m.Attributes, m.SpanID)
			}
		}
	}

	// Spans on no lane: on their instance's thread of spans without a goroutine.
	orphans := map[instKey][]slice{}
	var order []instKey
	for i := range spans {
		s := &spans[i]
		if _, placed := b.places[s.SpanID]; placed || b.spans[s.SpanID] != s {
			continue
		}
		k := instKey{s.Resource.String(catalog.AttrServiceName), s.Resource.String(catalog.AttrServiceInstanceID)}
		if orphans[k] == nil {
			order = append(order, k)
		}
		orphans[k] = append(orphans[k], slice{name: s.Name, cat: CatCall, start: s.Start, end: latest(s.End, s.Start), spanID: s.SpanID, attrs: s.Attributes})
	}
	slices.SortFunc(order, func(a, b instKey) int {
		return cmp.Or(cmp.Compare(a.service, b.service), cmp.Compare(a.id, b.id))
	})
	for _, k := range order {
		pid, ok := pids[k]
		if !ok {
			pid = len(pids) + 1
			pids[k] = pid
			b.process(pid, (&timeline.Instance{Service: k.service, ID: k.id}).Name())
		}
		b.place(b.thread(pid, NoLaneThread), orphans[k])
		for _, sl := range orphans[k] {
			s := b.spans[sl.spanID]
			for _, e := range s.Events {
				b.instant(b.places[s.SpanID].th, e.Name, e.Time, e.Attributes, s.SpanID)
			}
		}
	}
}

func (b *chromeBuilder) instant(th *thread, name string, at time.Time, attrs traces.Attributes, spanID trace.SpanID) {
	th.instants = append(th.instants, instant{at: at, ev: ChromeEvent{
		Name: name, Cat: CatEvent, Ph: "i", Scope: "t", Ts: b.ts(at),
		Pid: th.pid, Tid: th.tid, Args: args(attrs, spanID, nil),
	}})
}

// place lays slices out on lane, and on extra threads for those that would
// not nest.
func (b *chromeBuilder) place(lane *thread, sl []slice) {
	slices.SortStableFunc(sl, func(a, b slice) int {
		if c := a.start.Compare(b.start); c != 0 {
			return c
		}
		if c := b.end.Compare(a.end); c != 0 { // the enclosing one first
			return c
		}
		return bytes.Compare(a.spanID[:], b.spanID[:])
	})
	ths := []*thread{lane}
	for _, s := range sl {
		var th *thread
		for _, t := range ths {
			for len(t.stack) > 0 && !t.stack[len(t.stack)-1].After(s.start) {
				t.stack = t.stack[:len(t.stack)-1]
			}
			if len(t.stack) == 0 || !s.end.After(t.stack[len(t.stack)-1]) {
				th = t
				break
			}
		}
		if th == nil {
			th = b.thread(lane.pid, lane.label+OverlapSuffix)
			ths = append(ths, th)
		}
		th.stack = append(th.stack, s.end)
		th.slices = append(th.slices, s)
		if _, dup := b.places[s.spanID]; !dup {
			b.places[s.spanID] = place{th: th, start: s.start, end: s.end}
		}
	}
	for _, t := range ths {
		t.stack = nil
	}
}

// order puts slices and instants on the output's time line. Slices of a
// thread keep their layout order (enclosing ones first).
func (b *chromeBuilder) order() {
	for _, th := range b.threads {
		for i := range th.slices {
			sl := &th.slices[i]
			b.seq += 2
			b.events = append(b.events, keyed{at: b.offset(sl.start), seq: b.seq, th: th, sl: sl})
			if p := b.places[sl.spanID]; p.th == th && p.seq == 0 {
				p.seq = b.seq
				b.places[sl.spanID] = p
			}
		}
		for i := range th.instants {
			in := &th.instants[i]
			b.seq += 2
			b.events = append(b.events, keyed{at: b.offset(in.at), class: 1, seq: b.seq, ev: &in.ev})
		}
	}
}

// flows turns links into flow events.
func (b *chromeBuilder) flows(spans []traces.Span) {
	ordered := make([]*traces.Span, 0)
	for i := range spans {
		if len(spans[i].Links) > 0 {
			ordered = append(ordered, &spans[i])
		}
	}
	slices.SortFunc(ordered, compareSpans)
	id := 0
	for _, s := range ordered {
		effect, ok := b.places[s.SpanID]
		if !ok || b.spans[s.SpanID] != s {
			continue
		}
		for _, l := range s.Links {
			cause, ok := b.places[l.SpanID]
			if !ok {
				continue
			}
			// The flow leaves the linked span where it starts and enters
			// the linking span no earlier: a reader binds each end to the
			// slice open on its thread at that time.
			at := latest(effect.start, cause.start)
			if at.After(effect.end) {
				continue // the cause began after its effect ended: no arrow to draw
			}
			id++
			name := "link"
			if l.Attributes.String(catalog.AttrLink) == catalog.LinkCause {
				name = "cause"
			}
			start := &ChromeEvent{Name: name, Cat: CatLink, Ph: "s", ID: id, Ts: b.ts(cause.start), Pid: cause.th.pid, Tid: cause.th.tid}
			end := &ChromeEvent{Name: name, Cat: CatLink, Ph: "f", BP: "e", ID: id, Ts: b.ts(at), Pid: effect.th.pid, Tid: effect.th.tid,
				Args: args(l.Attributes, trace.SpanID{}, nil)}
			// Right after the linked span's slice.
			b.events = append(b.events, keyed{at: b.offset(cause.start), seq: cause.seq + 1, ev: start})
			if at.After(cause.start) && at.Equal(effect.start) {
				// Right after the linking span's slice.
				b.events = append(b.events, keyed{at: b.offset(at), seq: effect.seq + 1, ev: end})
			} else {
				// After everything that starts at that time, the flow's start included.
				b.seq += 2
				b.events = append(b.events, keyed{at: b.offset(at), class: 1, seq: b.seq, ev: end})
			}
		}
	}
}

func (b *chromeBuilder) event(k *keyed) *ChromeEvent {
	if k.ev != nil {
		return k.ev
	}
	sl := k.sl
	return &ChromeEvent{
		Name: sl.name, Cat: sl.cat, Ph: "X",
		Ts: b.ts(sl.start), Dur: json.Number(micros(sl.end.Sub(sl.start))),
		Pid: k.th.pid, Tid: k.th.tid,
		Args: args(sl.attrs, sl.spanID, b.spans[sl.spanID]),
	}
}

// args are a slice's or an event's arguments: the attributes, the span ID,
// and the span's status when it is not Unset.
func args(attrs traces.Attributes, spanID trace.SpanID, s *traces.Span) map[string]any {
	if len(attrs) == 0 && !spanID.IsValid() {
		return nil
	}
	a := make(map[string]any, len(attrs)+3)
	for k, v := range attrs {
		a[k] = plainValue(v)
	}
	if spanID.IsValid() {
		a["span_id"] = spanID.String()
	}
	if s != nil && s.StatusCode != "" && s.StatusCode != "Unset" {
		a["otel.status_code"] = s.StatusCode
		if s.StatusDesc != "" {
			a["otel.status_description"] = s.StatusDesc
		}
	}
	return a
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

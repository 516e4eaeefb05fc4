package export_test

import (
	"math"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// lesson is a small recording shaped like kubeloom's: a scenario instance
// whose action causes a watch event on an informer's reflector, a handler
// call linked to it, a failed call, and a second trace for a kubelet.
func lesson() []traces.Span {
	r := tt.New("export-lesson")
	r.Instance("kubeloom", "scenario")
	run := r.Span(tt.Root, "run", 0, 30)
	create := r.Span(run, "action/create", 10, 10, catalog.AttrObjectKey, "default/web-0")

	r.Instance("informers", "classic")
	main := r.Span(tt.Root, "StartInformers", 0, 30)
	lw := r.Goroutine(main, "reflector/list-watch", catalog.KindUntil, 0.1, 30.5,
		catalog.AttrGoroutinePeriod, 1.0, catalog.AttrResource, "pods")
	it := r.Iteration(lw, "reflector/list-watch", "ListAndWatch", 1, 0.1, 30)
	r.Span(it, "pods.List", 0.1, 0.3)
	// The watch is stopped after ListAndWatch returns: it outlives the
	// iteration that opened it, and cannot nest in it.
	watch := r.Span(it, "pods.Watch", 0.3, 30.2)
	r.Event(watch, "watch event", 10.001, catalog.AttrEventType, "ADDED", catalog.AttrObjectKey, "default/web-0")
	r.Link(watch, create)
	for _, h := range []string{"handler-1", "handler-2"} {
		run := r.Goroutine(main, "informer/listener-run", catalog.KindGo, 0.2, 30, catalog.AttrHandler, h)
		r.Iteration(run, "informer/listener-run", "run", 1, 0.25, 0.26)
		it := r.Iteration(run, "informer/listener-run", "run", 2, 10.002, 10.0035)
		on := r.Span(it, "OnAdd", 10.002, 10.003, catalog.AttrObjectKey, "default/web-0")
		r.Link(on, watch)
	}

	r.Instance("kubelet", "node-1")
	krun := r.Span(tt.Root, "run", 0, 20)
	failed := r.Span(krun, "pods.UpdateStatus", 5, 5.5,
		"http.status_code", 409, "retry", true, "ratio", 0.25, "nan", math.NaN(),
		"names", []string{"a", "b"}, "raw", []byte("hi"))

	spans := r.Spans()
	for i := range spans {
		s := &spans[i]
		if s.SpanID == failed {
			s.StatusCode, s.StatusDesc, s.Kind = "Error", "the object has been modified", 3 // client
		}
		if s.Resource.String(catalog.AttrServiceName) == "kubelet" {
			s.TraceID = trace.TraceID{0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10}
		}
	}
	return spans
}

package events

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// Options describe one pipeline.
type Options struct {
	// Prefix of the goroutine names: "cm" gives cm/event-broadcast-loop,
	// cm/event-log-watcher and cm/event-sink-watcher.
	Prefix string
	// Component is the recorder's event source ("controller-manager").
	Component string
	// Host is the event source's host (the kubelet's node name).
	Host string
	// Logging starts the logging watcher (StartLogging(glog.Infof)).
	Logging bool
	// Sink, if set, starts the watcher that writes events to the apiserver
	// (StartRecordingToSink).
	Sink typedcorev1.EventsGetter
	// RecorderFirst makes the recorder right after the broadcaster, before
	// the watchers, as the kubelet's RunKubelet does
	// (cmd/kubelet/app/server.go); the controller manager's Run makes it last.
	RecorderFirst bool
}

// Pipeline is one started record.EventBroadcaster.
type Pipeline struct {
	broadcaster record.EventBroadcaster
	recorder    record.EventRecorder
	loop        *goroutine.Adopted
	logger      *goroutine.Adopted
	sink        *goroutine.Adopted

	clock      clock.Clock
	turnPrefix string // "<instance> <goroutine prefix> <component>"
	logged     int    // events the log watcher has handled (its goroutine only)
	sunk       int    // writes of the sink watcher (its goroutine only)
}

// turn makes a watcher's n-th event wait for its turn (clock.TakeTurn):
// client-go's broadcaster hands each event to its watchers in map order,
// so the log and the sink watchers would handle an event in either order,
// half the runs each.
func (p *Pipeline) turn(watcher string, n int) {
	clock.TakeTurn(p.clock, p.turnPrefix+" "+watcher+" "+strconv.Itoa(n))
}

// Start builds a broadcaster and starts its watchers, as a component's Run
// (or a 1.5 controller's constructor) does:
//
//	eventBroadcaster := record.NewBroadcaster()
//	eventBroadcaster.StartLogging(glog.Infof)
//	eventBroadcaster.StartRecordingToSink(&unversionedcore.EventSinkImpl{…})
//	recorder := eventBroadcaster.NewRecorder(api.EventSource{Component: "controller-manager"})
//
// (or with NewRecorder second: Options.RecorderFirst). ctx must carry a
// goroutine.Runtime; the steps are spans of ctx's span.
func Start(ctx context.Context, o Options) *Pipeline {
	rt := goroutine.RuntimeFrom(ctx)
	attrs := goroutine.WithAttributes(attribute.String(catalog.AttrEventComponent, o.Component))
	p := &Pipeline{clock: rt.Clock(), turnPrefix: rt.Instance() + " " + o.Prefix + " " + o.Component}

	sctx, sp := goroutine.Start(ctx, "NewBroadcaster", trace.WithAttributes(attribute.String(catalog.AttrEventComponent, o.Component)))
	// The correlator's spam filter and aggregation run on the simulation
	// clock; the recorder stamps events with the real clock (client-go
	// offers no option), see docs/design.md.
	p.broadcaster = record.NewBroadcaster(record.WithCorrelatorOptions(record.CorrelatorOptions{Clock: rt.Clock()}))
	p.loop = rt.Adopt(sctx, o.Prefix+"/event-broadcast-loop", catalog.KindGo, attrs, goroutine.WithIterationName("distribute"))
	sp.End()

	newRecorder := func() {
		_, sp := goroutine.Start(ctx, "NewRecorder", trace.WithAttributes(attribute.String(catalog.AttrEventComponent, o.Component)))
		p.recorder = p.broadcaster.NewRecorder(scheme.Scheme, corev1.EventSource{Component: o.Component, Host: o.Host})
		sp.End()
	}
	if o.RecorderFirst {
		newRecorder()
	}
	if o.Logging {
		sctx, sp := goroutine.Start(ctx, "StartLogging")
		p.logger = rt.Adopt(sctx, o.Prefix+"/event-log-watcher", catalog.KindGo, attrs)
		p.broadcaster.StartLogging(p.log)
		sp.End()
	}
	if o.Sink != nil {
		sctx, sp := goroutine.Start(ctx, "StartRecordingToSink")
		p.sink = rt.Adopt(sctx, o.Prefix+"/event-sink-watcher", catalog.KindGo, attrs)
		p.broadcaster.StartRecordingToSink(&sink{inner: &typedcorev1.EventSinkImpl{Interface: o.Sink.Events("")}, p: p})
		sp.End()
	}
	if !o.RecorderFirst {
		newRecorder()
	}
	return p
}

// Recorder records events through the pipeline. The broadcast loop's
// iteration for each event is recorded when the event is handed to it,
// linked to the span that recorded it.
func (p *Pipeline) Recorder(ctx context.Context) Recorder { return Recorder{p: p, ctx: ctx} }

// Shutdown stops the broadcaster and its watchers.
func (p *Pipeline) Shutdown() {
	p.broadcaster.Shutdown()
	for _, a := range []*goroutine.Adopted{p.sink, p.logger, p.loop} {
		if a != nil {
			a.End()
		}
	}
}

func (p *Pipeline) log(format string, args ...any) {
	p.logged++
	p.turn("log", p.logged)
	_, sp := p.logger.Iterate("log", trace.WithAttributes(attribute.String("log.message", fmt.Sprintf(format, args...))))
	sp.End()
}

// Recorder is record.EventRecorder with the caller's context, so that the
// event's way through the broadcaster starts with a link to the span that
// recorded it.
type Recorder struct {
	p   *Pipeline
	ctx context.Context
}

// Eventf records an event about obj (record.EventRecorder.Eventf) on
// behalf of the code running with ctx.
func (r Recorder) Eventf(ctx context.Context, obj runtime.Object, eventType, reason, messageFmt string, args ...any) {
	if ctx.Err() != nil {
		// The process is stopping: its broadcaster may be shut down already,
		// and client-go would only log that it cannot record.
		return
	}
	msg := fmt.Sprintf(messageFmt, args...)
	key, _ := cache.MetaNamespaceKeyFunc(obj)
	_, sp := r.p.loop.Iterate("distribute",
		trace.WithLinks(goroutine.Cause(trace.SpanContextFromContext(ctx), key)),
		trace.WithAttributes(attribute.String("k8s.event.reason", reason), attribute.String("k8s.event.type", eventType),
			attribute.String(catalog.AttrObjectKey, key), attribute.String("k8s.event.message", msg)))
	r.p.recorder.Event(obj, eventType, reason, msg)
	sp.End()
}

// AsEventRecorder is the recorder for code that records events without a
// context (client-go's resource locks): their events are linked to the
// context given to Recorder.
func (r Recorder) AsEventRecorder() interface {
	Eventf(obj runtime.Object, eventType, reason, messageFmt string, args ...any)
} {
	return contextless(r)
}

type contextless Recorder

func (c contextless) Eventf(obj runtime.Object, eventType, reason, messageFmt string, args ...any) {
	Recorder(c).Eventf(c.ctx, obj, eventType, reason, messageFmt, args...)
}

// sink writes events to the apiserver, each write an iteration of the
// sink watcher with the request as a child span.
type sink struct {
	inner record.EventSink
	p     *Pipeline
}

func (s *sink) write(verb string, e *corev1.Event, do func() (*corev1.Event, error)) (*corev1.Event, error) {
	s.p.sunk++
	s.p.turn("sink", s.p.sunk)
	key := cache.NewObjectName(e.InvolvedObject.Namespace, e.InvolvedObject.Name).String()
	ctx, it := s.p.sink.Iterate("recordToSink", trace.WithAttributes(
		attribute.String("k8s.event.reason", e.Reason), attribute.String(catalog.AttrObjectKey, key), attribute.Int("k8s.event.count", int(e.Count))))
	defer it.End()
	_, sp := goroutine.Start(ctx, "events."+verb, trace.WithAttributes(attribute.String("k8s.event.name", e.Namespace+"/"+e.Name)))
	defer sp.End()
	out, err := do()
	if err != nil {
		sp.RecordError(err)
	}
	return out, err
}

func (s *sink) Create(e *corev1.Event) (*corev1.Event, error) {
	return s.write("Create", e, func() (*corev1.Event, error) {
		out, err := s.inner.Create(e)
		// The recorder names an event "<object>.<nanoseconds, hex>" from
		// the real clock, which does not move inside a test's bubble:
		// two events about one object at one instant get one name. Such
		// an event takes the next free nanosecond, as it would have had.
		for try := 0; apierrors.IsAlreadyExists(err) && try < 100; try++ {
			next, ok := nextName(e.Name)
			if !ok {
				break
			}
			e.Name = next
			out, err = s.inner.Create(e)
		}
		return out, err
	})
}

func nextName(name string) (string, bool) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return "", false
	}
	n, err := strconv.ParseUint(name[i+1:], 16, 64)
	if err != nil {
		return "", false
	}
	return fmt.Sprintf("%s.%x", name[:i], n+1), true
}

func (s *sink) Update(e *corev1.Event) (*corev1.Event, error) {
	return s.write("Update", e, func() (*corev1.Event, error) { return s.inner.Update(e) })
}

func (s *sink) Patch(e *corev1.Event, data []byte) (*corev1.Event, error) {
	return s.write("Patch", e, func() (*corev1.Event, error) { return s.inner.Patch(e, data) })
}

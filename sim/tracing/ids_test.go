package tracing

import (
	"context"
	"io"
	"testing"
)

// TestProcessIsOneTrace: the roots started from one process's context
// (glog.init, then main) share a trace; another process of the same
// instance (a kubelet started again) and a context of no process get
// traces of their own.
func TestProcessIsOneTrace(t *testing.T) {
	tr, err := New(context.Background(), Options{Recording: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Shutdown(context.Background())
	tracer := Tracer(tr.Provider())
	root := func(ctx context.Context, name string) string {
		_, s := tracer.Start(ctx, name)
		defer s.End()
		return s.SpanContext().TraceID().String()
	}
	first := Process(context.Background())
	initTrace, mainTrace := root(first, "glog.init"), root(first, "main")
	if initTrace != mainTrace {
		t.Errorf("one process: glog.init in %s, main in %s; want one trace", initTrace, mainTrace)
	}
	again := root(Process(context.Background()), "main")
	if again == mainTrace {
		t.Errorf("a process started again shares the first one's trace %s", again)
	}
	if none := root(context.Background(), "scenario"); none == mainTrace || none == again {
		t.Errorf("a root of no process shares a process's trace %s", none)
	}
}

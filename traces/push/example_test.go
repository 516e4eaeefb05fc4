package push_test

import (
	"fmt"
	"strings"

	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/push"
)

// A recorded span becomes an SDK span again, with its own IDs, parent,
// links and resource, ready for any exporter.
func ExampleStubs() {
	const recording = `{"Name":"OnAdd","SpanContext":{"TraceID":"0af7651916cd43dd8448eb211c80319c","SpanID":"00f067aa0ba902b7"},` +
		`"Parent":{"TraceID":"0af7651916cd43dd8448eb211c80319c","SpanID":"b7ad6b7169203331"},"SpanKind":1,` +
		`"StartTime":"2026-12-02T10:15:01.5Z","EndTime":"2026-12-02T10:15:01.6Z",` +
		`"Links":[{"SpanContext":{"TraceID":"4bf92f3577b34da6a3ce929d0e0e4736","SpanID":"53995c3f42cd8ad8"},` +
		`"Attributes":[{"Key":"kubeloom.link","Value":{"Type":"STRING","Value":"cause"}}]}],` +
		`"Resource":[{"Key":"service.name","Value":{"Type":"STRING","Value":"informers"}}],"InstrumentationScope":{"Name":"github.com/kubeloom/kubeloom/sim"}}`
	spans, err := traces.Read(strings.NewReader(recording), "example.jsonl")
	if err != nil {
		panic(err)
	}
	stubs, err := push.Stubs(spans)
	if err != nil {
		panic(err)
	}
	s := stubs.Snapshots()[0]
	fmt.Println(s.Name(), s.SpanContext().SpanID(), "child of", s.Parent().SpanID())
	fmt.Println("link to", s.Links()[0].SpanContext.SpanID(), s.Links()[0].Attributes[0].Value.String())
	service, _ := s.Resource().Set().Value("service.name")
	fmt.Println("service", service.String(), "lasting", s.EndTime().Sub(s.StartTime()))
	// Output:
	// OnAdd 00f067aa0ba902b7 child of b7ad6b7169203331
	// link to 53995c3f42cd8ad8 cause
	// service informers lasting 100ms
}

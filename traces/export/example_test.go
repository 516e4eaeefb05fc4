package export_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/export"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

func ExampleJaeger() {
	r := tt.New("example").Instance("kubelet", "node-1")
	run := r.Span(tt.Root, "run", 0, 120)
	gc := r.Goroutine(run, "kubelet/container-gc", catalog.KindUntil, 0, 120)
	r.Loop(gc, "kubelet/container-gc", "Containers/GarbageCollect", 0, 120, 60, 0.5)

	var b bytes.Buffer
	if err := export.Jaeger(&b, r.Spans()); err != nil {
		fmt.Println(err)
		return
	}
	var resp export.JaegerResponse
	json.Unmarshal(b.Bytes(), &resp)
	tr := resp.Data[0]
	fmt.Println(tr.Processes["p1"].ServiceName, len(tr.Spans), "spans")
	for _, s := range tr.Spans {
		fmt.Println(s.OperationName, s.Duration, s.References)
	}
	// Output:
	// kubelet 4 spans
	// run 120000000 []
	// kubelet/container-gc 120000000 [{CHILD_OF 0123456789abcdef0123456789abcdef 0000000000000001}]
	// Containers/GarbageCollect 500000 [{CHILD_OF 0123456789abcdef0123456789abcdef 0000000000000002}]
	// Containers/GarbageCollect 500000 [{CHILD_OF 0123456789abcdef0123456789abcdef 0000000000000002}]
}

func ExampleChrome() {
	r := tt.New("example").Instance("kubelet", "node-1")
	run := r.Span(tt.Root, "run", 0, 2)
	pleg := r.Goroutine(run, "kubelet/pleg-relist", catalog.KindUntil, 0.5, 2)
	r.Loop(pleg, "kubelet/pleg-relist", "relist", 0.5, 2, 1, 0.001)

	export.Chrome(os.Stdout, r.Spans())
	// Output:
	// {"traceEvents":[
	// {"name":"process_name","ph":"M","pid":1,"args":{"name":"kubelet node-1"}},
	// {"name":"process_sort_index","ph":"M","pid":1,"args":{"sort_index":1}},
	// {"name":"thread_name","ph":"M","pid":1,"tid":1,"args":{"name":"main"}},
	// {"name":"thread_sort_index","ph":"M","pid":1,"tid":1,"args":{"sort_index":1}},
	// {"name":"thread_name","ph":"M","pid":1,"tid":2,"args":{"name":"kubelet/pleg-relist"}},
	// {"name":"thread_sort_index","ph":"M","pid":1,"tid":2,"args":{"sort_index":2}},
	// {"name":"run","cat":"call","ph":"X","ts":0,"dur":2000000,"pid":1,"tid":1,"args":{"span_id":"0000000000000001"}},
	// {"name":"kubelet/pleg-relist","cat":"goroutine","ph":"X","ts":500000,"dur":1500000,"pid":1,"tid":2,"args":{"goroutine.kind":"until","goroutine.name":"kubelet/pleg-relist","span_id":"0000000000000002"}},
	// {"name":"relist","cat":"iteration","ph":"X","ts":500000,"dur":1000,"pid":1,"tid":2,"args":{"goroutine.name":"kubelet/pleg-relist","iteration":1,"span_id":"0000000000000003"}},
	// {"name":"relist","cat":"iteration","ph":"X","ts":1500000,"dur":1000,"pid":1,"tid":2,"args":{"goroutine.name":"kubelet/pleg-relist","iteration":2,"span_id":"0000000000000004"}}
	// ],
	// "displayTimeUnit":"ms",
	// "otherData":{"generator":"kubeloom","scenario":"example","start":"2026-01-01T00:00:00Z","time":"simulated time since the start of the recording"}}
}

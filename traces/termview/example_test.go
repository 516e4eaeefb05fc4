package termview_test

import (
	"os"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/termview"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

func ExampleRender() {
	r := tt.New("example").Instance("kubelet", "node-1")
	run := r.Span(tt.Root, "run", 0, 120)
	gc := r.Goroutine(run, "kubelet/container-gc", catalog.KindUntil, 0, 120, catalog.AttrGoroutinePeriod, 60.0)
	r.Loop(gc, "kubelet/container-gc", "Containers/GarbageCollect", 0, 120, 60, 0.5)
	ns := r.Goroutine(run, "kubelet/node-status", catalog.KindUntil, 0, 120, catalog.AttrGoroutinePeriod, 10.0)
	r.Loop(ns, "kubelet/node-status", "syncNodeStatus", 0, 120, 10, 0.2)

	termview.Render(os.Stdout, timeline.Build(r.Spans()), termview.Options{Width: 64, ASCII: true})
	// Output:
	// example | 2m simulated | 1 instance | 3 lanes | 17 spans
	//     simulated time +0s--------+30s-------+1m--------+1m30s-----+
	// kubelet node-1
	//   main             .-------------------------------------------]
	//   container-gc  1m |---------------------|---------------------]
	//   node-status  10s |--|---|---|---|--|---|---|---|--|---|---|--]
	// legend: [ start  ] end  > still running at the end
	//         o lived within one column
	//         | ! # 1, 2-4, 5+ iterations per column
	//         = iteration running  . call  * event  @ scenario action
	//         1 column ~ 2.67s  after a label: loop period
}

package timeline_test

import (
	"fmt"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

func ExampleBuild() {
	r := tt.New("example").Instance("kubelet", "node-1")
	run := r.Span(tt.Root, "run", 0, 120)
	gc := r.Goroutine(run, "kubelet/container-gc", catalog.KindUntil, 1, 120, catalog.AttrGoroutinePeriod, 60.0)
	r.Loop(gc, "kubelet/container-gc", "Containers/GarbageCollect", 1, 120, 60, 0.2)

	tl := timeline.Build(r.Spans())
	for _, in := range tl.Instances {
		fmt.Println(in.Name())
		for _, l := range in.Lanes {
			fmt.Printf("  %s from %v, period %v, %d iterations\n", l.Label, tl.Offset(l.Start), l.Period, len(l.Iterations))
		}
	}
	// Output:
	// kubelet node-1
	//   main from 0s, period 0s, 0 iterations
	//   kubelet/container-gc from 1s, period 1m0s, 2 iterations
}

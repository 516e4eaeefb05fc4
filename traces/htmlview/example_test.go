package htmlview_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/htmlview"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

func ExampleWrite() {
	// A recording: here a synthetic one; kubeloom export reads a file with
	// traces.Read.
	r := tt.New("example").Instance("kubelet", "node-1")
	run := r.Span(tt.Root, "run", 0, 120)
	gc := r.Goroutine(run, "kubelet/container-gc", catalog.KindUntil, 1, 120, catalog.AttrGoroutinePeriod, 60.0)
	r.Loop(gc, "kubelet/container-gc", "Containers/GarbageCollect", 1, 120, 60, 0.2)

	var page bytes.Buffer // an *os.File in practice: the page is one file
	if err := htmlview.Write(&page, timeline.Build(r.Spans())); err != nil {
		fmt.Println(err)
		return
	}
	html := page.String()
	fmt.Println(strings.HasPrefix(html, "<!DOCTYPE html>"))
	fmt.Println(strings.Contains(html, "<title>example — kubeloom</title>"))
	// Output:
	// true
	// true
}

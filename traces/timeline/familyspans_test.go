package timeline_test

import (
	"testing"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/timeline"
	"github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// familyRun is two workers of one queue and an informer: which worker took
// which key is the argument swap; how many syncs there were is more.
func familyRun(swap bool, extraSync bool) map[string]string {
	r := timelinetest.New("families")
	root := r.Span(timelinetest.Root, "main", 0, 10)
	w1 := r.Goroutine(root, "controller/replicaset/worker", catalog.KindUntil, 1, 10, catalog.AttrWorker, 1)
	w2 := r.Goroutine(root, "controller/replicaset/worker", catalog.KindUntil, 1, 10, catalog.AttrWorker, 2)
	first, second := w1, w2
	if swap {
		first, second = w2, w1
	}
	r.Span(first, "syncReplicaSet", 2, 2.1, catalog.AttrObjectKey, "default/a")
	r.Span(second, "syncReplicaSet", 2, 2.1, catalog.AttrObjectKey, "default/b")
	if extraSync {
		r.Span(second, "syncReplicaSet", 3, 3.1, catalog.AttrObjectKey, "default/b")
	}
	pop := r.Goroutine(root, "informer/listener-pop", catalog.KindGo, 1, 10)
	r.Event(pop, "buffered", 2)
	return timeline.FamilySpans(timeline.Build(r.Spans()))
}

func TestFamilySpans(t *testing.T) {
	a := familyRun(false, false)
	if got, want := a["kube-controller-manager cm-0 | controller/replicaset/worker"], "lanes ×2, syncReplicaSet ×2"; got != want {
		t.Errorf("the workers' family is %q, want %q", got, want)
	}
	if got, want := a["kube-controller-manager cm-0 | informer/listener-pop"], "buffered ×1, lanes ×1"; got != want {
		t.Errorf("the listener's family is %q, want %q", got, want)
	}
	// Which worker of a queue took which key is not part of it.
	if d := timeline.DiffFamilySpans(a, familyRun(true, false)); len(d) != 0 {
		t.Errorf("swapping the workers' keys makes a difference: %v", d)
	}
	// One sync more is.
	d := timeline.DiffFamilySpans(a, familyRun(false, true))
	if len(d) != 1 || d[0].Family != "kube-controller-manager cm-0 | controller/replicaset/worker" || d[0].B != "lanes ×2, syncReplicaSet ×3" {
		t.Errorf("one more sync: %+v", d)
	}
	// A family in one run only is told as (none) in the other.
	b := familyRun(false, false)
	delete(b, "kube-controller-manager cm-0 | informer/listener-pop")
	if d := timeline.DiffFamilySpans(a, b); len(d) != 1 || d[0].B != "(none)" {
		t.Errorf("a missing family: %+v", d)
	}
}

package timeline_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/timeline"
	tt "github.com/kubeloom/kubeloom/traces/timeline/timelinetest"
)

// groups describes an instance's grouping: one line per component, its
// families in brackets, and each lane's short label.
func groups(in *timeline.Instance) []string {
	var out []string
	for _, c := range in.Groups() {
		var fams []string
		for _, f := range c.Groups {
			fams = append(fams, fmt.Sprintf("%s(%d)", f.Name, len(f.Lanes)))
		}
		var shorts []string
		for _, l := range c.Lanes {
			shorts = append(shorts, l.Short)
		}
		out = append(out, fmt.Sprintf("%s %v: %s", c.Key, fams, strings.Join(shorts, ", ")))
	}
	return out
}

// TestGroupsFollowWhoStartedWhat records a controller manager the way the
// simulation does: the controllers-main goroutine starts each controller
// under a "start <Name>" span, the controller's run goroutine starts its
// private informer (with its reflector) and its workers, and the shared
// informers are started outside any controller.
func TestGroupsFollowWhoStartedWhat(t *testing.T) {
	r := tt.New("groups")
	root := r.Span(tt.Root, "run", 0, 100)
	r.Goroutine(root, "cm/log-flush", catalog.KindUntil, 0, 100, catalog.AttrGoroutinePeriod, 5.0)
	main := r.Goroutine(root, "cm/controllers-main", catalog.KindGo, 1, 100)
	start := r.Span(main, "start ReplicaSetController", 2, 2.1, catalog.AttrControllerID, "replicaset")
	nb := r.Span(start, "NewBroadcaster", 2, 2.01)
	r.Goroutine(nb, "cm/event-broadcast-loop", catalog.KindGo, 2, 100, catalog.AttrEventComponent, "replicaset-controller")
	r.Goroutine(nb, "cm/event-sink-watcher", catalog.KindGo, 2, 100, catalog.AttrEventComponent, "replicaset-controller")
	run := r.Goroutine(start, "controller/replicaset/run", catalog.KindGo, 2.05, 100)
	for w := 1; w <= 2; w++ {
		r.Goroutine(run, "controller/replicaset/worker", catalog.KindUntil, 3, 100, catalog.AttrWorker, int64(w))
	}
	priv := r.Goroutine(run, "informer/private", catalog.KindUntil, 2.5, 100, catalog.AttrInformer, "replicasets")
	r.Goroutine(priv, "reflector/list-watch", catalog.KindUntil, 2.5, 100, catalog.AttrInformer, "replicasets")
	// The shared informer of pods, outside every controller, with two
	// handlers' listeners.
	sh := r.Span(main, "sharedInformers.Start", 5, 5.1)
	inf := r.Goroutine(sh, "informer/run", catalog.KindUntil, 5, 100, catalog.AttrInformer, "pods")
	for _, h := range []string{"replicaset-controller", "job-controller"} {
		r.Goroutine(inf, "informer/listener-run", catalog.KindGo, 5, 100, catalog.AttrInformer, "pods", catalog.AttrHandler, h)
	}
	r.Goroutine(inf, "reflector/list-watch", catalog.KindUntil, 5, 100, catalog.AttrInformer, "pods")

	tl := timeline.Build(r.Spans())
	got := groups(tl.Instance("kube-controller-manager", "cm-0"))
	want := []string{
		"cm-0/main []: main",
		"cm-0/controller-manager []: log-flush, controllers-main",
		"cm-0/controller/replicaset [events replicaset-controller(2) informer replicasets(2) worker(2)]: " +
			"event-broadcast-loop, event-sink-watcher, run, informer/private, reflector/list-watch, worker 1, worker 2",
		"cm-0/informers []: informer/listener-run pods job-controller, informer/listener-run pods replicaset-controller, informer/run pods, reflector/list-watch pods",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("groups:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	in := tl.Instance("kube-controller-manager", "cm-0")
	// Display order is component by component; every lane appears once.
	if len(in.Display()) != len(in.Lanes) {
		t.Errorf("Display has %d lanes, the instance %d", len(in.Display()), len(in.Lanes))
	}
	// The reflectors of two informers share a goroutine name, not a
	// component.
	var cs []*timeline.Group
	for _, l := range in.Lanes {
		if l.Goroutine == "reflector/list-watch" {
			cs = append(cs, l.Component())
		}
	}
	if len(cs) != 2 || cs[0] == cs[1] {
		t.Errorf("the reflectors' components: %v, want two different ones", cs)
	}
}

func TestGroupMatch(t *testing.T) {
	g := &timeline.Group{Key: "cm-0/controller/replicaset", Name: "controller/replicaset"}
	f := &timeline.Group{Key: "cm-0/informers/informer pods", Name: "informer pods"}
	for _, c := range []struct {
		g       *timeline.Group
		pattern string
		want    bool
	}{
		{g, "replicaset", true},
		{g, "controller/replicaset", true},
		{g, "cm-0/controller/replicaset", true},
		{g, "controller/*", true},
		{g, "cm-1/*", false},
		{g, "set", false},
		{f, "pods", true},
		{f, "informer pods", true},
		{f, "*/informers/*", true},
		{f, "informers", false},
	} {
		if got := c.g.Match(c.pattern); got != c.want {
			t.Errorf("%q.Match(%q) = %v, want %v", c.g.Key, c.pattern, got, c.want)
		}
	}
	if err := timeline.ValidPattern("[a-"); err == nil || !strings.Contains(err.Error(), `--expand "[a-"`) {
		t.Errorf("ValidPattern([a-) = %v, want an error naming --expand", err)
	}
}

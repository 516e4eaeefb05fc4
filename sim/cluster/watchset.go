package cluster

import (
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// watchSet is the open watches of one resource, kept as the 1.5 cacher
// keeps them (pkg/storage/cacher.go, indexedWatchers): a watch whose field
// selector names one value of the resource's trigger field (pods:
// spec.nodeName, registry/core/pod/etcd NodeNameTriggerFunc) is filed
// under that value, every other watch in all. An event then goes to the
// watches of its object's value, of the value its previous version had,
// and to all — not to every kubelet's pod watch: with a thousand nodes a
// pod write would otherwise test a thousand selectors.
type watchSet struct {
	trigger trigger               // the zero trigger if the resource has none
	all     []*watcher            // allWatchers
	byValue map[string][]*watcher // valueWatchers
	last    map[string]string     // object key → the trigger value of its latest event (the cacher's PrevObject), since the cluster's start
}

// trigger is a field by whose value the cacher indexes a resource's
// watches (storage.TriggerPublisherFunc).
type trigger struct {
	field string                      // as a field selector names it
	value func(runtime.Object) string // the object's value of it
}

// triggerOf is the trigger by which the cacher indexes a resource's
// watches; the zero trigger for a resource whose watches it does not index.
func triggerOf(gr schema.GroupResource) trigger {
	if gr == (schema.GroupResource{Resource: "pods"}) {
		return trigger{field: "spec.nodeName", value: podNodeName}
	}
	return trigger{}
}

func podNodeName(obj runtime.Object) string {
	if p, ok := obj.(*corev1.Pod); ok {
		return p.Spec.NodeName
	}
	return ""
}

func newWatchSet(gvr schema.GroupVersionResource) *watchSet {
	s := &watchSet{trigger: triggerOf(gvr.GroupResource())}
	if s.trigger.value != nil {
		s.byValue = map[string][]*watcher{}
		s.last = map[string]string{}
	}
	return s
}

// add files w, dropping the stopped watches first (a stopped watch's
// queue would only grow).
func (s *watchSet) add(w *watcher) {
	s.prune()
	if v, ok := s.indexValue(w.sel); ok {
		s.byValue[v] = append(s.byValue[v], w)
		return
	}
	s.all = append(s.all, w)
}

func (s *watchSet) indexValue(sel fields.Selector) (string, bool) {
	if s.trigger.value == nil || sel == nil {
		return "", false
	}
	return sel.RequiresExactMatch(s.trigger.field)
}

func (s *watchSet) prune() {
	s.all = alive(s.all)
	for v, ws := range s.byValue {
		if ws = alive(ws); len(ws) == 0 {
			delete(s.byValue, v)
		} else {
			s.byValue[v] = ws
		}
	}
}

// clear forgets every watch (they were ended); what it knows of the
// objects stays, for the next watches.
func (s *watchSet) clear() {
	s.all = nil
	if s.byValue != nil {
		s.byValue = map[string][]*watcher{}
	}
}

// each calls f with every open watch, the indexed ones by value, in value
// order, not map order: so that a run repeats.
func (s *watchSet) each(f func(*watcher)) {
	for _, w := range s.all {
		f(w)
	}
	for _, v := range slices.Sorted(maps.Keys(s.byValue)) {
		for _, w := range s.byValue[v] {
			f(w)
		}
	}
}

// len is the number of watches filed, stopped ones included until pruned.
func (s *watchSet) len() int {
	n := len(s.all)
	for _, ws := range s.byValue {
		n += len(ws)
	}
	return n
}

// recipients calls f with the watches an event of obj concerns: those of
// its trigger value and its previous one, and all the others
// (Cacher.dispatchEvent). A deleted object is forgotten.
func (s *watchSet) recipients(obj runtime.Object, deleted bool, f func(*watcher)) {
	if s.trigger.value != nil {
		key := ""
		if m, err := meta.Accessor(obj); err == nil {
			key = objectKey(m)
		}
		now := s.trigger.value(obj)
		prev, seen := s.last[key]
		if deleted {
			delete(s.last, key)
		} else {
			s.last[key] = now
		}
		s.deliverTo(now, f)
		if seen && prev != now {
			s.deliverTo(prev, f)
		}
	}
	s.all = deliver(s.all, f)
}

func (s *watchSet) deliverTo(value string, f func(*watcher)) {
	if ws, ok := s.byValue[value]; ok {
		if ws = deliver(ws, f); len(ws) == 0 {
			delete(s.byValue, value)
		} else {
			s.byValue[value] = ws
		}
	}
}

// deliver calls f with each open watch of ws and returns ws without the
// stopped ones.
func deliver(ws []*watcher, f func(*watcher)) []*watcher {
	open := ws[:0]
	for _, w := range ws {
		if !w.stopped() {
			f(w)
			open = append(open, w)
		}
	}
	clear(ws[len(open):])
	return open
}

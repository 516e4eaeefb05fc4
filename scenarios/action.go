package scenarios

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
)

// actionFields are the fields of an action: at and the verbs.
var (
	actionFields = append([]string{"at"}, Verbs()...)
	verbList     = strings.Join(Verbs(), ", ")
)

// pendingAction is a decoded action with the fields that the checks against the rest of the
// spec point at.
type pendingAction struct {
	Action
	at   *field // the at field
	verb *field // the verb field; nil when the verb is wrong (already reported)
	on   target // what the verb acts on
}

// target is what an action acts on that the rest of the spec has to provide. A verb's decode
// notes it with verbDecoder's helpers (node, informer, needsLeader, …); checkAction and
// checkHandlers look it up. A verb acting on something no verb acted on before adds it here,
// with its check.
type target struct {
	leader       bool   // the controller-manager's leader (killLeader)
	node         *field // the node field of a verb acting on a kubelet
	nodeName     string
	informer     *field // the informer field of a verb acting on an informer
	informerName string
	addsHandler  bool   // the action adds a handler to informerName
	handler      *field // the handler number of informerName the action acts on
	handlerNum   int
}

// actions decodes spec.actions, checks each against the rest of the spec and returns them
// sorted stably by time.
func (d *decoder) actions(fl *field, sp *Spec, durationOK bool) []Action {
	items, _ := d.sequence(fl.val, fl.path, "a list of actions, each with at and one verb")
	var pending []pendingAction
	for i, item := range items {
		path := index(fl.path, i)
		item, ok := d.value(item, path)
		if !ok {
			continue
		}
		pa := d.action(item, path)
		d.checkAction(sp, pa, durationOK)
		pending = append(pending, pa)
	}
	slices.SortStableFunc(pending, func(a, b pendingAction) int { return cmp.Compare(a.At, b.At) })
	d.checkHandlers(sp, pending)
	var acts []Action
	for _, pa := range pending {
		acts = append(acts, pa.Action)
	}
	return acts
}

// action decodes one action: at and exactly one verb.
func (d *decoder) action(n ast.Node, path string) pendingAction {
	pa := pendingAction{Action: Action{Pos: d.pos(n)}}
	// The action is returned even when it is wrong, so that its time is still checked against
	// the duration; pa.verb is set only when the verb decoded.
	f, ok := d.mapping(n, path, "an action: a mapping with at and one verb ("+verbList+")", actionFields)
	if !ok {
		return pa
	}
	// An at out of range is kept: it is also checked against spec.duration.
	at := f.required("at", "a time ≥ 0 since the start, such as 5s or 1m30s")
	pa.At, _ = at.duration(0, MaxDuration)
	pa.at = at.fl
	d.verb(&pa, f, n, path)
	return pa
}

// verb decodes the one verb of an action's fields f (the mapping n at path) into pa.
func (d *decoder) verb(pa *pendingAction, f *fields, n ast.Node, path string) {
	var name string
	for _, field := range f.order {
		if field == "at" {
			continue
		}
		if name != "" {
			d.errorf(f.m[field].key, f.m[field].path, "an action has exactly one verb and this one already has %s; split it into two actions", name)
			continue
		}
		name = field
	}
	if name == "" {
		d.errorf(n, path, "an action needs a verb; expected one of %s", verbList)
		return
	}
	fl, ok := f.get(name)
	if !ok {
		return // unusable value, already reported
	}
	k, _ := lookupVerb(name) // the mapping took only verbs' names
	vd := &verbDecoder{decoder: d, fl: fl}
	pa.Verb = k.new()
	ok = pa.Verb.decode(vd)
	pa.on = vd.on
	if ok {
		pa.verb = fl
	}
}

// verbDecoder is what a verb's decode works with: the decoder, the verb's field, and what the
// action acts on, noted for the checks against the rest of the spec.
type verbDecoder struct {
	*decoder
	fl *field // the verb's field: verb: value
	on target // filled in by node, informer, needsLeader, …
}

// args returns the verb's value as a mapping with the fields known (none: {}). A null value
// is an empty mapping, so that killLeader: with nothing after it is killLeader: {}.
func (vd *verbDecoder) args(what string, known ...string) (*fields, bool) {
	return vd.mapping(vd.fl.val, vd.fl.path, what, known)
}

// objectArg decodes the verb's value as a Kubernetes object (create, update).
func (vd *verbDecoder) objectArg() (Object, bool) {
	o, ok := vd.object(vd.fl.val, vd.fl.path)
	if !ok {
		return Object{}, false
	}
	return *o, true
}

// nodeWant is what the node field of the kubelet verbs expects.
const nodeWant = "a node name such as node-1"

// node decodes the required node field of a verb that acts on a node's kubelet: the action
// needs spec.kubelets and that node.
func (vd *verbDecoder) node(f *fields) (string, bool) {
	fv := f.required("node", nodeWant)
	name, ok := fv.str(nonEmpty)
	vd.on.node, vd.on.nodeName = fv.fl, name
	return name, ok
}

// informer decodes the required informer field of a verb that acts on a stand-alone informer:
// the action needs an informer of that name in spec.informers.
func (vd *verbDecoder) informer(f *fields) (string, bool) {
	fv := f.required("informer", "the name of an informer in spec.informers")
	name, ok := fv.str(nonEmpty)
	vd.on.informer, vd.on.informerName = fv.fl, name
	return name, ok
}

// needsLeader notes that the action acts on the controller-manager's leader.
func (vd *verbDecoder) needsLeader() { vd.on.leader = true }

// addsHandler notes that the action adds a handler to its informer, for the handlers that
// later actions can name.
func (vd *verbDecoder) addsHandler() { vd.on.addsHandler = true }

// handler notes the handler of its informer the action acts on: n, written at fv. It is
// checked against the handlers the informer has by the action's time even when n is out of
// range, which says how many there are.
func (vd *verbDecoder) handler(fv fieldValue, n int) { vd.on.handler, vd.on.handlerNum = fv.fl, n }

// checkAction checks an action against the rest of the spec: its time against the duration,
// and that what it acts on exists.
func (d *decoder) checkAction(sp *Spec, pa pendingAction, durationOK bool) {
	if durationOK && pa.at != nil && pa.At > sp.Duration {
		d.expected(pa.at.val, pa.at.path, fmt.Sprintf("a time ≤ spec.duration (%s)", sp.Duration))
	}
	if pa.verb == nil {
		return // the verb itself is wrong, already reported
	}
	on := &pa.on
	if on.leader {
		switch cm := sp.ControllerManager; {
		case cm == nil:
			d.errorf(pa.verb.key, pa.verb.path, "needs spec.controllerManager: there is no controller-manager whose leader could stop")
		case !cm.LeaderElect:
			d.errorf(pa.verb.key, pa.verb.path, "needs spec.controllerManager.leaderElect: true; without leader election there is no leader")
		}
	}
	if on.node != nil {
		switch k := sp.Kubelets; {
		case k == nil:
			d.errorf(pa.verb.key, pa.verb.path, "needs spec.kubelets: there is no kubelet on any node")
		case !validNode(on.nodeName, k.Count):
			want := "node-1 (spec.kubelets.count is 1)"
			if k.Count > 1 {
				want = fmt.Sprintf("a node from node-1 to node-%d (spec.kubelets.count is %d)", k.Count, k.Count)
			}
			d.expected(on.node.val, on.node.path, want)
		}
	}
	if on.informer != nil {
		d.checkInformer(sp, pa)
	}
}

// checkInformer checks that the informer an action acts on is in spec.informers.
func (d *decoder) checkInformer(sp *Spec, pa pendingAction) {
	name, fl := pa.on.informerName, pa.on.informer
	var names []string
	for _, inf := range sp.Informers {
		if inf.Name == name {
			return
		}
		names = append(names, inf.Name)
	}
	if len(names) == 0 {
		d.errorf(fl.val, fl.path, "no informer is named %s: spec.informers is empty; add an informer for %s to act on", quote(name), pa.Verb.Name())
		return
	}
	d.expected(fl.val, fl.path, "the name of an informer in spec.informers ("+strings.Join(names, ", ")+")")
}

// checkHandlers checks, in time order, that each action acting on a handler of an informer
// names one the informer has by then: the spec's, then those that earlier actions added.
func (d *decoder) checkHandlers(sp *Spec, sorted []pendingAction) {
	handlers := map[string]int{}
	for _, inf := range sp.Informers {
		handlers[inf.Name] = inf.Handlers
	}
	for _, pa := range sorted {
		on := &pa.on
		switch {
		case on.addsHandler:
			handlers[on.informerName]++
		case on.handler != nil:
			n, known := handlers[on.informerName]
			if known && on.handlerNum > n {
				d.expected(on.handler.val, on.handler.path, fmt.Sprintf("a handler from 1 to %d: informer %s has %d handlers at %s", n, on.informerName, n, pa.At))
			}
		}
	}
}

func validNode(name string, count int) bool {
	for i := 1; i <= count; i++ {
		if name == nodeName(i) {
			return true
		}
	}
	return false
}

package scenarios

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"k8s.io/apimachinery/pkg/util/validation"
)

// pendingAction is a decoded action with the nodes that checks against the rest of the spec
// point at.
type pendingAction struct {
	Action
	at   *field // the at field
	verb *field // the verb field
	node *field // the kubelet verbs (stopKubelet, startKubelet, …): the node field
	inf  *field // addHandler, hangHandler: the informer field
	hnd  *field // hangHandler: the handler field
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
	f, ok := d.mapping(n, path, "an action: a mapping with at and one verb ("+strings.Join(verbs, ", ")+")", actionFields)
	if !ok {
		return pa
	}
	const atWant = "a time ≥ 0 since the start, such as 5s or 1m30s"
	if fl, ok := f.get("at"); ok {
		v, ok := duration(fl.val)
		if !ok || v < 0 || v > MaxDuration {
			d.badDuration(fl.val, fl.path, atWant)
		}
		pa.At, pa.at = v, fl
	} else if !f.has("at") {
		d.required(f, "at", atWant)
	}
	var verb string
	for _, name := range f.order {
		if name == "at" {
			continue
		}
		if verb != "" {
			d.errorf(f.m[name].key, f.m[name].path, "an action has exactly one verb and this one already has %s; split it into two actions", verb)
			continue
		}
		verb = name
	}
	if verb == "" {
		d.errorf(n, path, "an action needs a verb; expected one of %s", strings.Join(verbs, ", "))
		return pa
	}
	fl, ok := f.get(verb)
	if !ok {
		return pa // unusable value, already reported
	}
	if !d.verb(&pa, verb, fl) {
		return pa
	}
	pa.verb = fl
	return pa
}

func (d *decoder) verb(pa *pendingAction, verb string, fl *field) bool {
	switch verb {
	case verbCreate:
		obj, ok := d.object(fl.val, fl.path)
		pa.Create = obj
		return ok
	case verbUpdate:
		obj, ok := d.object(fl.val, fl.path)
		pa.Update = obj
		return ok
	case verbDelete:
		ref, ok := d.deleteRef(fl)
		pa.Delete = ref
		return ok
	case verbBreakWatches:
		f, ok := d.mapping(fl.val, fl.path, "a mapping with the resource whose watches end, such as {resource: pods}", breakWatchesFields)
		if !ok {
			return false
		}
		r, ok := d.requiredResource(f)
		pa.BreakWatches = &BreakWatches{Resource: r}
		return ok
	case verbRestartAPIServer:
		if _, ok := d.mapping(fl.val, fl.path, "{} (restartAPIServer has no fields)", nil); !ok {
			return false
		}
		pa.RestartAPIServer = &RestartAPIServer{}
		return true
	case verbAddHandler:
		f, ok := d.mapping(fl.val, fl.path, "a mapping with the informer to add a handler to, such as {informer: pods}", addHandlerFields)
		if !ok {
			return false
		}
		name, inf, ok := d.requiredString(f, "informer", "the name of an informer in spec.informers")
		pa.AddHandler, pa.inf = &AddHandler{Informer: name}, inf
		return ok
	case verbHangHandler:
		f, ok := d.mapping(fl.val, fl.path, "a mapping with the informer and the number of its handler, such as {informer: pods, handler: 2}", hangHandlerFields)
		if !ok {
			return false
		}
		name, inf, ok := d.requiredString(f, "informer", "the name of an informer in spec.informers")
		pa.HangHandler, pa.inf = &HangHandler{Informer: name}, inf
		const want = "the number of one of the informer's handlers, 1 for the first"
		if hf, has := f.get("handler"); has {
			v, isInt := integer(hf.val)
			if !isInt || v < 1 || v > MaxHandlers {
				d.expected(hf.val, hf.path, want)
				ok = false
			}
			pa.HangHandler.Handler, pa.hnd = int(v), hf
		} else {
			if !f.has("handler") {
				d.required(f, "handler", want)
			}
			ok = false
		}
		return ok
	case verbKillLeader:
		if _, ok := d.mapping(fl.val, fl.path, "{} (killLeader has no fields)", nil); !ok {
			return false
		}
		pa.KillLeader = &KillLeader{}
		return true
	case verbStopKubelet:
		f, ok := d.mapping(fl.val, fl.path, "a mapping with the node whose kubelet stops, such as {node: node-1}", stopKubeletFields)
		if !ok {
			return false
		}
		node, nf, ok := d.requiredString(f, "node", nodeWant)
		pa.StopKubelet, pa.node = &StopKubelet{Node: node}, nf
		return ok
	case verbStartKubelet:
		f, ok := d.mapping(fl.val, fl.path, "a mapping with the node whose kubelet starts again, such as {node: node-1}", startKubeletFields)
		if !ok {
			return false
		}
		node, nf, ok := d.requiredString(f, "node", nodeWant)
		pa.StartKubelet, pa.node = &StartKubelet{Node: node}, nf
		return ok
	case verbSetImageFSUsage:
		f, ok := d.mapping(fl.val, fl.path, "a mapping with node and percent, such as {node: node-1, percent: 95}", setImageFSUsageFields)
		if !ok {
			return false
		}
		node, nf, ok := d.requiredString(f, "node", nodeWant)
		pa.SetImageFSUsage, pa.node = &SetImageFSUsage{Node: node}, nf
		const want = "an integer percentage from 0 to 100"
		if pf, has := f.get("percent"); has {
			v, isInt := integer(pf.val)
			if !isInt || v < 0 || v > 100 {
				d.expected(pf.val, pf.path, want)
				ok = false
			}
			pa.SetImageFSUsage.Percent = int(v)
		} else {
			if !f.has("percent") {
				d.required(f, "percent", want)
			}
			ok = false
		}
		return ok
	case verbInjectOOM:
		f, ok := d.mapping(fl.val, fl.path, "a mapping with node, and optionally pod and container, such as {node: node-1} or {node: node-1, pod: default/web-0, container: web}", injectOOMFields)
		if !ok {
			return false
		}
		oom, nf, ok := d.injectOOM(f)
		pa.InjectOOM, pa.node = oom, nf
		return ok
	case verbTakePort:
		f, ok := d.mapping(fl.val, fl.path, "a mapping with node, server and for, such as {node: node-1, server: healthz, for: 30s}", takePortFields)
		if !ok {
			return false
		}
		tp, nf, ok := d.takePort(f)
		pa.TakePort, pa.node = tp, nf
		return ok
	}
	return false
}

// nodeWant is what the node field of the kubelet verbs expects.
const nodeWant = "a node name such as node-1"

// injectOOM decodes injectOOM's fields; it also returns the node field.
func (d *decoder) injectOOM(f *fields) (*InjectOOM, *field, bool) {
	node, nf, ok := d.requiredString(f, "node", nodeWant)
	oom := &InjectOOM{Node: node}
	if pf, has := f.get("pod"); has {
		ns, name, good := d.podRef(pf)
		oom.Namespace, oom.Pod = ns, name
		ok = ok && good
	} else if f.has("pod") {
		ok = false // unusable value, already reported
	}
	if cf, has := f.get("container"); has {
		switch v, isStr := str(cf.val); {
		case !f.has("pod"):
			d.errorf(cf.key, cf.path, "only allowed together with pod: name the pod whose container the OOM killer kills, such as pod: default/web-0; without pod, injectOOM kills a process outside any pod (a system OOM)")
			ok = false
		case !isStr || len(validation.IsDNS1123Label(v)) > 0:
			d.expected(cf.val, cf.path, "a container name of lower-case letters, digits and '-', such as web")
			ok = false
		default:
			oom.Container = v
		}
	} else if f.has("container") {
		ok = false
	}
	return oom, nf, ok
}

// podRef decodes a pod written "name" or "namespace/name"; a bare name is in the default
// namespace, as kubectl takes it.
func (d *decoder) podRef(fl *field) (namespace, name string, ok bool) {
	v, isStr := str(fl.val)
	namespace, name, qualified := strings.Cut(v, "/")
	if !qualified {
		namespace, name = defaultNamespace, v
	}
	if !isStr || len(validation.IsDNS1123Label(namespace)) > 0 || len(validation.IsDNS1123Subdomain(name)) > 0 {
		d.expected(fl.val, fl.path, "a pod as name or namespace/name in lower case, such as web-0 or kube-system/etcd-node-1")
		return "", "", false
	}
	return namespace, name, true
}

// takePort decodes takePort's fields, filling in the defaults; it also returns the node field.
func (d *decoder) takePort(f *fields) (*TakePort, *field, bool) {
	node, nf, ok := d.requiredString(f, "node", nodeWant)
	tp := &TakePort{Node: node, Server: ServerHealthz}
	const serverWant = "healthz, server or readonly (the kubelet's healthz, main or read-only server)"
	if sf, has := f.get("server"); has {
		v, isStr := str(sf.val)
		switch {
		case isStr && slices.Contains(kubeletServers, v):
			tp.Server = v
		case isStr:
			if c, near := closest(v, kubeletServers); near {
				d.errorf(sf.val, sf.path, "expected %s, got %s; did you mean %s?", serverWant, describe(sf.val), c)
			} else {
				d.expected(sf.val, sf.path, serverWant)
			}
			ok = false
		default:
			d.expected(sf.val, sf.path, serverWant)
			ok = false
		}
	} else if f.has("server") {
		ok = false
	}
	if ff, has := f.get("for"); has {
		v, isDur := duration(ff.val)
		if !isDur || v < 0 || v > MaxDuration {
			d.badDuration(ff.val, ff.path, "a duration ≥ 0 and ≤ 24h for which the port is held, such as 30s (0s: until the scenario ends)")
			ok = false
		} else {
			tp.For = v
		}
	} else if f.has("for") {
		ok = false
	}
	return tp, nf, ok
}

func (d *decoder) deleteRef(fl *field) (*ObjectRef, bool) {
	f, ok := d.mapping(fl.val, fl.path, "a mapping with apiVersion, kind, namespace and name, such as {kind: Pod, name: web-0}", deleteFields)
	if !ok {
		return nil, false
	}
	ref := &ObjectRef{}
	good := true
	kf, hasKind := f.get("kind")
	if !hasKind {
		if !f.has("kind") {
			d.required(f, "kind", "a kind such as Pod")
		}
		good = false
	}
	var avNode ast.Node // nil: the default, v1
	avPath := join(fl.path, "apiVersion")
	if af, ok := f.get("apiVersion"); ok {
		avNode = af.val
	} else if f.has("apiVersion") {
		good = false
	}
	if hasKind {
		r, ok := d.kindResource(avNode, avPath, kf.val, kf.path)
		ref.Resource = r
		good = good && ok
	}
	name, _, ok := d.requiredString(f, "name", "the object's name")
	ref.Name = name
	good = good && ok
	if nf, ok := f.get("namespace"); ok {
		v, isStr := str(nf.val)
		switch {
		case !isStr:
			d.expected(nf.val, nf.path, "a namespace name such as default")
			good = false
		case ref.Resource.Name != "" && !ref.Resource.Namespaced && v != "":
			d.errorf(nf.val, nf.path, "%s are cluster-scoped, not in a namespace; remove the namespace", ref.Resource.Name)
			good = false
		}
		ref.Namespace = v
	}
	if ref.Resource.Namespaced && ref.Namespace == "" {
		ref.Namespace = defaultNamespace
	}
	return ref, good
}

func (d *decoder) requiredResource(f *fields) (Resource, bool) {
	if fl, ok := f.get("resource"); ok {
		return d.resource(fl.val, fl.path)
	}
	if !f.has("resource") {
		d.required(f, "resource", "a resource name such as pods")
	}
	return Resource{}, false
}

// requiredString returns a required, non-empty string field.
func (d *decoder) requiredString(f *fields, name, want string) (string, *field, bool) {
	fl, ok := f.get(name)
	if !ok {
		if !f.has(name) {
			d.required(f, name, want)
		}
		return "", nil, false
	}
	v, ok := str(fl.val)
	if !ok || v == "" {
		d.expected(fl.val, fl.path, want)
		return "", fl, false
	}
	return v, fl, true
}

// checkAction checks an action against the rest of the spec: its time against the duration,
// and that the component or informer it acts on exists.
func (d *decoder) checkAction(sp *Spec, pa pendingAction, durationOK bool) {
	if durationOK && pa.at != nil && pa.At > sp.Duration {
		d.expected(pa.at.val, pa.at.path, fmt.Sprintf("a time ≤ spec.duration (%s)", sp.Duration))
	}
	if pa.verb == nil {
		return // the verb itself is wrong, already reported
	}
	verbPath, verbKey := pa.verb.path, pa.verb.key
	switch {
	case pa.KillLeader != nil:
		switch cm := sp.ControllerManager; {
		case cm == nil:
			d.errorf(verbKey, verbPath, "needs spec.controllerManager: there is no controller-manager whose leader could stop")
		case !cm.LeaderElect:
			d.errorf(verbKey, verbPath, "needs spec.controllerManager.leaderElect: true; without leader election there is no leader")
		}
	case pa.kubeletVerb():
		switch k, node := sp.Kubelets, pa.kubeletNode(); {
		case k == nil:
			d.errorf(verbKey, verbPath, "needs spec.kubelets: there is no kubelet on any node")
		case pa.node != nil && !validNode(node, k.Count):
			want := "node-1 (spec.kubelets.count is 1)"
			if k.Count > 1 {
				want = fmt.Sprintf("a node from node-1 to node-%d (spec.kubelets.count is %d)", k.Count, k.Count)
			}
			d.expected(pa.node.val, pa.node.path, want)
		}
	case pa.inf != nil:
		name := pa.informer()
		var names []string
		for _, inf := range sp.Informers {
			if inf.Name == name {
				return
			}
			names = append(names, inf.Name)
		}
		if len(names) == 0 {
			d.errorf(pa.inf.val, pa.inf.path, "no informer is named %s: spec.informers is empty; add an informer for %s to act on", quote(name), pa.Verb())
			return
		}
		d.expected(pa.inf.val, pa.inf.path, "the name of an informer in spec.informers ("+strings.Join(names, ", ")+")")
	}
}

// informer is the informer an addHandler or hangHandler action acts on.
func (a Action) informer() string {
	switch {
	case a.AddHandler != nil:
		return a.AddHandler.Informer
	case a.HangHandler != nil:
		return a.HangHandler.Informer
	}
	return ""
}

// checkHandlers checks, in time order, that each hangHandler names a
// handler its informer has by then: the spec's, then those addHandler
// actions added.
func (d *decoder) checkHandlers(sp *Spec, sorted []pendingAction) {
	handlers := map[string]int{}
	for _, inf := range sp.Informers {
		handlers[inf.Name] = inf.Handlers
	}
	for _, pa := range sorted {
		switch {
		case pa.AddHandler != nil:
			handlers[pa.AddHandler.Informer]++
		case pa.HangHandler != nil && pa.hnd != nil:
			n, known := handlers[pa.HangHandler.Informer]
			if known && pa.HangHandler.Handler > n {
				d.expected(pa.hnd.val, pa.hnd.path, fmt.Sprintf("a handler from 1 to %d: informer %s has %d handlers at %s", n, pa.HangHandler.Informer, n, pa.At))
			}
		}
	}
}

// kubeletVerb reports whether the action acts on a node's kubelet, and so needs spec.kubelets
// and a node.
func (a Action) kubeletVerb() bool {
	return a.StopKubelet != nil || a.StartKubelet != nil || a.SetImageFSUsage != nil || a.InjectOOM != nil || a.TakePort != nil
}

// kubeletNode returns the node a kubelet verb acts on ("" for other verbs).
func (a Action) kubeletNode() string {
	switch {
	case a.StopKubelet != nil:
		return a.StopKubelet.Node
	case a.StartKubelet != nil:
		return a.StartKubelet.Node
	case a.SetImageFSUsage != nil:
		return a.SetImageFSUsage.Node
	case a.InjectOOM != nil:
		return a.InjectOOM.Node
	case a.TakePort != nil:
		return a.TakePort.Node
	}
	return ""
}

func validNode(name string, count int) bool {
	for i := 1; i <= count; i++ {
		if name == nodeName(i) {
			return true
		}
	}
	return false
}

package scenarios

import (
	"slices"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"k8s.io/apimachinery/pkg/util/validation"
)

func (d *decoder) controllerManager(fl *field) *ControllerManager {
	cm := &ControllerManager{Replicas: 1, LeaderElect: true, Controllers: []string{"*"}, Flags: map[string]string{}, FlagPos: map[string]Position{}}
	f, ok := d.mapping(fl.val, fl.path, "a mapping with replicas, leaderElect, controllers and flags", controllerMgrFields)
	if !ok {
		return cm
	}
	if v, ok := f.count("replicas", MaxReplicas); ok {
		cm.Replicas = v
	}
	// A wrong leaderElect reads as false, so a killLeader action is told that it needs it true.
	if le := f.optional("leaderElect", "true or false"); le.set() {
		cm.LeaderElect, _ = le.boolean()
	}
	if fl, ok := f.get("controllers"); ok {
		const want = `a list of controller names, such as ["*"], ["*", "-garbagecollector"] or [endpoint, replicationcontroller]`
		if items, ok := d.sequence(fl.val, fl.path, want); ok {
			if len(items) == 0 {
				d.expected(fl.val, fl.path, want)
			}
			cm.Controllers, cm.ControllerPos = nil, nil
			for i, item := range items {
				path := index(fl.path, i)
				item, ok := d.value(item, path)
				if !ok {
					continue
				}
				v, ok := str(item)
				if !ok || !validController(v) {
					d.expected(item, path, `"*", a controller name, or -name to disable one`)
					continue
				}
				cm.Controllers = append(cm.Controllers, v)
				cm.ControllerPos = append(cm.ControllerPos, d.pos(item))
			}
		}
	}
	if fl, ok := f.get("flags"); ok {
		d.flags(fl, cm.Flags, cm.FlagPos)
	}
	return cm
}

// apiServer decodes spec.apiServer.
func (d *decoder) apiServer(fl *field) *APIServer {
	as := &APIServer{RuntimeConfig: map[string]bool{}}
	f, ok := d.mapping(fl.val, fl.path, "a mapping with runtimeConfig", apiServerFields)
	if !ok {
		return as
	}
	fl, ok = f.get("runtimeConfig")
	if !ok {
		return as
	}
	const want = `a mapping of API group/versions to true or false, such as {"batch/v2alpha1": true}`
	m, isMap := fl.val.(*ast.MappingNode)
	if !isMap {
		if _, null := fl.val.(*ast.NullNode); !null {
			d.expected(fl.val, fl.path, want)
		}
		return as
	}
	for _, mv := range m.Values {
		if mv == nil || mv.Key == nil {
			continue
		}
		gv, ok := keyName(mv.Key)
		if !ok || !validGroupVersion(gv) {
			d.expected(mv.Key, fl.path, `an API group/version such as batch/v2alpha1, or v1`)
			continue
		}
		path := fl.path + "." + gv
		if _, dup := as.RuntimeConfig[gv]; dup {
			d.errorf(mv.Key, path, "duplicate group/version; each may appear only once")
			continue
		}
		val, ok := d.value(mv.Value, path)
		if !ok {
			continue
		}
		on, ok := boolean(val)
		if !ok {
			d.expected(val, path, "true or false")
			continue
		}
		as.RuntimeConfig[gv] = on
	}
	return as
}

// validGroupVersion accepts "v1" and "group/version" with a DNS subdomain group.
func validGroupVersion(s string) bool {
	if s == "v1" {
		return true
	}
	group, version, ok := strings.Cut(s, "/")
	return ok && len(validation.IsDNS1123Subdomain(group)) == 0 && len(validation.IsDNS1123Label(version)) == 0
}

func validController(s string) bool {
	if s == "*" {
		return true
	}
	s = strings.TrimPrefix(s, "-")
	return s != "" && len(validation.IsDNS1123Label(s)) == 0
}

// flags decodes command-line flags: keys start with --, values are scalars.
func (d *decoder) flags(fl *field, into map[string]string, pos map[string]Position) {
	m, ok := fl.val.(*ast.MappingNode)
	if !ok {
		if _, null := fl.val.(*ast.NullNode); !null {
			d.expected(fl.val, fl.path, `a mapping of flags to values, such as {"--concurrent-endpoint-syncs": "5"}`)
		}
		return
	}
	seen := map[string]ast.Node{}
	for _, mv := range m.Values {
		if mv == nil || mv.Key == nil {
			continue
		}
		name, ok := keyName(mv.Key)
		if !ok || !validFlag(name) {
			d.expected(mv.Key, fl.path, `a flag name such as --concurrent-endpoint-syncs`)
			continue
		}
		path := fl.path + "." + name
		// The binaries' flag sets take _ for - (v1.5 still registers
		// --concurrent_rc_syncs): both spellings are one flag.
		canonical := strings.ReplaceAll(name, "_", "-")
		if prev, dup := seen[canonical]; dup {
			p := d.pos(prev)
			d.errorf(mv.Key, path, "duplicate flag (first set at line %d, column %d); a flag may appear only once", p.Line, p.Column)
			continue
		}
		seen[canonical] = mv.Key
		switch canonical {
		case "--leader-elect":
			d.errorf(mv.Key, path, "set this with spec.controllerManager.leaderElect")
			continue
		case "--controllers":
			d.errorf(mv.Key, path, "set this with spec.controllerManager.controllers")
			continue
		}
		val, ok := d.value(mv.Value, path)
		if !ok {
			continue
		}
		v, ok := scalarText(val)
		if !ok {
			d.expected(val, path, "a flag value (a string, number or true/false)")
			continue
		}
		into[name] = v
		pos[name] = d.pos(val)
	}
}

func validFlag(s string) bool {
	rest, ok := strings.CutPrefix(s, "--")
	return ok && rest != "" && len(validation.IsDNS1123Label(strings.ReplaceAll(rest, "_", "-"))) == 0
}

func (d *decoder) kubelets(fl *field) *Kubelets {
	k := &Kubelets{Count: 1}
	f, ok := d.mapping(fl.val, fl.path, "a mapping with count, manifestDir and manifestURL", kubeletsFields)
	if !ok {
		return k
	}
	if v, ok := f.count("count", MaxKubelets); ok {
		k.Count = v
	}
	if dir := f.optional("manifestDir", "a directory path, such as manifests/"); dir.set() {
		k.ManifestDir, _ = dir.str(nil)
		k.ManifestDirPos = d.pos(dir.fl.val)
	}
	k.ManifestURL, _ = f.optional("manifestURL", "true or false").boolean()
	return k
}

// informers decodes spec.informers; names must be unique.
func (d *decoder) informers(fl *field, eras []Era) []Informer {
	items, _ := d.sequence(fl.val, fl.path, "a list of informers, such as [{resource: pods}]")
	var infs []Informer
	first := map[string]string{} // informer name → path of the first informer with it
	for i, item := range items {
		path := index(fl.path, i)
		item, ok := d.value(item, path)
		if !ok {
			continue
		}
		inf, named, ok := d.informer(item, path, eras)
		if !ok {
			continue
		}
		if prev, dup := first[inf.Name]; dup {
			d.errorf(named.val, named.path, "two informers are named %s (the first is %s); give each a distinct name", quote(inf.Name), prev)
			continue
		}
		first[inf.Name] = path
		infs = append(infs, inf)
	}
	return infs
}

// informer decodes one informer; it also returns the field that gives it its name. eras are
// the eras the scenario runs in, which the reflector must fit.
func (d *decoder) informer(n ast.Node, path string, eras []Era) (Informer, *field, bool) {
	inf := Informer{Handlers: 1, Reflector: ReflectorV15}
	f, ok := d.mapping(n, path, "an informer: a mapping with name, resource, namespace, handlers, resync and reflector", informerFields)
	if !ok {
		return inf, nil, false
	}
	named := &field{val: n, path: path} // where errors about the informer's name point
	if fl, ok := f.get("resource"); ok {
		named = fl
	}
	var good bool
	inf.Resource, good = d.requiredResource(f)
	inf.Name = inf.Resource.String()
	// A wrong name, namespace, handlers or resync leaves the informer out of spec.informers; an
	// unusable one (an alias, already reported) keeps the default, and the informer stays in, so
	// that actions naming it are not told that it is missing.
	if name := f.optional("name", "an informer name of lower-case letters, digits, '-' and '.', such as pods"); name.set() {
		named = name.fl
		var ok bool
		inf.Name, ok = name.str(isDNSSubdomain)
		good = good && ok
	}
	if ns := f.optional("namespace", `a namespace name such as default, or "" for all namespaces`); ns.set() {
		v, ok := ns.str(func(s string) bool { return s == "" || isDNSLabel(s) })
		if ok && v != "" && inf.Resource.Name != "" && !inf.Resource.Namespaced {
			d.errorf(ns.fl.val, ns.fl.path, `%s are cluster-scoped, not in a namespace; remove the namespace or set it to ""`, inf.Resource.Name)
			ok = false
		}
		inf.Namespace, good = v, good && ok
	}
	if v, ok := f.count("handlers", MaxHandlers); ok {
		inf.Handlers = v
	} else if f.usable("handlers") {
		good = false
	}
	if v, ok := f.optional("resync", "a duration ≥ 0 and ≤ 24h, such as 0s (no resync) or 30s").duration(0, MaxDuration); ok {
		inf.Resync = v
	} else if f.usable("resync") {
		good = false
	}
	refl := f.optional("reflector", "v1.5 (the default) or v1.4 (before kubernetes#35672: every re-list leaks a resync goroutine)")
	if v, ok := refl.oneOf(reflectors); ok {
		inf.Reflector = Reflector(v)
		if inf.Reflector == ReflectorV14 && slices.Contains(eras, EraModern) {
			// Today's client-go has had cancelCh since it was split out of Kubernetes.
			d.errorf(refl.fl.val, refl.fl.path, "reflector v1.4 runs only in the classic era, and this scenario runs in era modern (spec.era or spec.eras); run it in classic, or remove the reflector")
			good = false
		}
	} else if f.usable("reflector") {
		good = false
	}
	return inf, named, good
}

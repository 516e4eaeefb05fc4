package scenarios

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// The fields each mapping of a scenario file may have, in the order the documentation lists
// them. A verb's fields are in its file (verb_*.go).
var (
	topFields           = []string{"apiVersion", "kind", "metadata", "spec"}
	metadataFields      = []string{"name", "description", "watchFor", "zh"}
	textFields          = []string{"description", "watchFor"}
	specFields          = []string{"duration", "speed", "seed", "era", "eras", "apiServer", "controllerManager", "kubelets", "informers", "objects", "actions"}
	apiServerFields     = []string{"runtimeConfig"}
	controllerMgrFields = []string{"replicas", "leaderElect", "controllers", "flags"}
	kubeletsFields      = []string{"count", "manifestDir", "manifestURL"}
	informerFields      = []string{"name", "resource", "namespace", "handlers", "resync", "reflector"}
)

// Parse decodes and validates a scenario file. file names the file in error messages and
// becomes the Scenario's Source. Every problem found is reported, sorted by position, as
// *Error values joined with errors.Join; the first line of the error is the first problem.
// A file over MaxFileSize or MaxDepth is refused before it is parsed.
func Parse(file string, data []byte) (*Scenario, error) {
	d := &decoder{file: file}
	if !d.checkLimits(data) {
		return nil, d.errs.err()
	}
	root, ok := d.document(data)
	if !ok {
		return nil, d.errs.err()
	}
	s := d.scenario(root)
	if err := d.errs.err(); err != nil {
		return nil, err
	}
	s.Source = file
	return s, nil
}

// document parses the YAML text and returns the body of its only document.
func (d *decoder) document(data []byte) (ast.Node, bool) {
	// Duplicate keys are allowed here and reported by the decoder, with the field path and
	// alongside every other problem.
	f, err := parser.ParseBytes(data, 0, parser.AllowDuplicateMapKey())
	if err != nil {
		pos, msg := Position{File: d.file, Line: 1, Column: 1}, err.Error()
		var yerr yaml.Error
		if errors.As(err, &yerr) {
			msg = yerr.GetMessage()
			if tk := yerr.GetToken(); tk != nil && tk.Position != nil {
				pos.Line, pos.Column = tk.Position.Line, tk.Position.Column
			}
		}
		d.errs.add(pos, "", "invalid YAML: %s", msg)
		return nil, false
	}
	var bodies []*ast.DocumentNode
	for _, doc := range f.Docs {
		if doc == nil || doc.Body == nil {
			continue // an empty document, e.g. after a trailing ---
		}
		if _, ok := doc.Body.(*ast.DirectiveNode); ok {
			continue // %YAML 1.2
		}
		bodies = append(bodies, doc)
	}
	switch len(bodies) {
	case 0:
		d.errs.add(Position{File: d.file, Line: 1, Column: 1}, "",
			"the file is empty; expected a scenario (apiVersion: %s, kind: %s, metadata, spec)", APIVersion, Kind)
		return nil, false
	case 1:
		return bodies[0].Body, true
	}
	second := bodies[1]
	pos := d.pos(second.Body)
	if tk := second.Start; tk != nil && tk.Position != nil { // the --- line
		pos.Line, pos.Column = tk.Position.Line, tk.Position.Column
	}
	d.errs.add(pos, "", "a second YAML document starts here; a scenario file holds exactly one scenario")
	return nil, false
}

func (d *decoder) scenario(root ast.Node) *Scenario {
	s := &Scenario{APIVersion: APIVersion, Kind: Kind}
	root, ok := d.value(root, "")
	if !ok {
		return s
	}
	f, ok := d.mapping(root, "", "a scenario: a mapping with apiVersion, kind, metadata and spec", topFields)
	if !ok {
		return s
	}
	f.required("apiVersion", quote(APIVersion)).str(is(APIVersion))
	f.required("kind", quote(Kind)).str(is(Kind))
	if fl, ok := f.need("metadata", "a mapping with the scenario's name and description"); ok {
		s.Metadata = d.metadata(fl)
	}
	if fl, ok := f.need("spec", "a mapping with at least duration"); ok {
		s.Spec = d.spec(fl)
	}
	return s
}

func (d *decoder) metadata(fl *field) Metadata {
	var m Metadata
	f, ok := d.mapping(fl.val, fl.path, "a mapping with name and description", metadataFields)
	if !ok {
		return m
	}
	m.Name, _ = f.required("name", "a name of lower-case letters, digits and '-', at most 63 characters, such as informer-basics").str(isDNSLabel)
	t := d.text(f)
	m.Description, m.WatchFor = t.Description, t.WatchFor
	if fl, ok := f.get("zh"); ok {
		if zf, ok := d.mapping(fl.val, fl.path, "a mapping with the description and watchFor in Chinese", textFields); ok {
			m.ZH = d.text(zf)
		}
	}
	return m
}

// text decodes description and watchFor of metadata or metadata.zh.
func (d *decoder) text(f *fields) Text {
	var t Text
	t.Description, _ = f.optional("description", "a string").str(nil)
	if fl, ok := f.get("watchFor"); ok {
		const want = "a list of sentences, each a thing to look at in the recording"
		items, _ := d.sequence(fl.val, fl.path, want)
		for i, item := range items {
			v, ok := str(item)
			if !ok || strings.TrimSpace(v) == "" {
				d.expected(item, index(fl.path, i), "a non-empty sentence, a thing to look at in the recording")
				continue
			}
			t.WatchFor = append(t.WatchFor, v)
		}
	}
	return t
}

// spec decodes the spec mapping, then checks what depends on several fields (action times
// against the duration, actions against the components and informers they need).
func (d *decoder) spec(fl *field) Spec {
	sp := Spec{Speed: 1, Seed: 1, Era: EraClassic}
	f, ok := d.mapping(fl.val, fl.path, "a mapping with duration, speed, seed, era, apiServer, controllerManager, kubelets, informers, objects and actions", specFields)
	if !ok {
		return sp
	}
	// duration > 0: the shortest duration is 1ns.
	dur, durationOK := f.required("duration", "a duration > 0 and ≤ 24h, such as 30s or 10m").duration(time.Nanosecond, MaxDuration)
	if durationOK {
		sp.Duration = dur
	}
	// speed > 0: the smallest float64 above 0 is math.SmallestNonzeroFloat64.
	speedWant := fmt.Sprintf("a number > 0 and ≤ %d (simulated seconds per real second)", MaxSpeed)
	if v, ok := f.optional("speed", speedWant).number(math.SmallestNonzeroFloat64, MaxSpeed); ok {
		sp.Speed = v
	}
	if v, ok := f.optional("seed", "an integer").integer(math.MinInt64, math.MaxInt64); ok {
		sp.Seed = v
	}
	if fl, ok := f.get("era"); ok {
		if e, ok := d.era(fl.val, fl.path); ok {
			sp.Era = e
		}
	}
	if fl, ok := f.get("eras"); ok {
		if f.has("era") {
			d.errorf(fl.key, fl.path, "cannot be used together with spec.era; set era for one run, or eras to run the scenario once per era")
		} else {
			sp.Eras = d.eras(fl)
			sp.Era = ""
		}
	}
	if fl, ok := f.get("apiServer"); ok {
		sp.APIServer = d.apiServer(fl)
	}
	if fl, ok := f.get("controllerManager"); ok {
		sp.ControllerManager = d.controllerManager(fl)
	}
	if fl, ok := f.get("kubelets"); ok {
		sp.Kubelets = d.kubelets(fl)
	}
	if fl, ok := f.get("informers"); ok {
		sp.Informers = d.informers(fl, sp.RunEras())
	}
	if fl, ok := f.get("objects"); ok {
		sp.Objects = d.objects(fl)
	}
	if fl, ok := f.get("actions"); ok {
		sp.Actions = d.actions(fl, &sp, durationOK)
	}
	return sp
}

func (d *decoder) era(n ast.Node, path string) (Era, bool) {
	v, ok := str(n)
	if ok && slices.Contains(allEras, Era(v)) {
		return Era(v), true
	}
	d.expected(n, path, "classic or modern")
	return "", false
}

func (d *decoder) eras(fl *field) []Era {
	const want = "a list of at least two distinct eras, such as [classic, modern] (for one era, use era)"
	items, ok := d.sequence(fl.val, fl.path, want)
	if !ok {
		return nil
	}
	var eras []Era
	var bad bool
	for i, item := range items {
		path := index(fl.path, i)
		item, ok := d.value(item, path)
		if !ok {
			bad = true
			continue
		}
		e, ok := d.era(item, path)
		if !ok {
			bad = true
			continue
		}
		if slices.Contains(eras, e) {
			d.errorf(item, path, "era %s is listed twice; each era runs once", e)
			bad = true
			continue
		}
		eras = append(eras, e)
	}
	switch {
	case bad:
	case len(eras) == 1:
		d.errorf(fl.val, fl.path, "expected at least two distinct eras, such as [classic, modern], got only %s; for one era, write era: %s", eras[0], eras[0])
	case len(eras) == 0:
		d.expected(fl.val, fl.path, want)
	}
	return eras
}

// objectKey identifies an object in the fake apiserver.
type objectKey struct {
	groupResource   string
	namespace, name string
}

// objects decodes spec.objects; an object may be defined only once.
func (d *decoder) objects(fl *field) []Object {
	items, _ := d.sequence(fl.val, fl.path, "a list of Kubernetes objects, each with apiVersion, kind and metadata")
	var objs []Object
	first := map[objectKey]string{} // → path of the first object with the key
	for i, item := range items {
		path := index(fl.path, i)
		item, ok := d.value(item, path)
		if !ok {
			continue
		}
		obj, ok := d.object(item, path)
		if !ok {
			continue
		}
		ref := obj.Ref()
		k := objectKey{ref.Resource.GVR.GroupResource().String(), ref.Namespace, ref.Name}
		if prev, dup := first[k]; dup {
			d.errs.add(obj.Pos, path, "%s %s is already defined by %s; each object is preloaded once", ref.Resource.GVK.Kind, ref.Key(), prev)
			continue
		}
		first[k] = path
		objs = append(objs, *obj)
	}
	return objs
}

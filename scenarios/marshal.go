package scenarios

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/goccy/go-yaml"
	"k8s.io/apimachinery/pkg/runtime"
)

// marshalText writes the description and watchFor of metadata or metadata.zh.
func marshalText(description string, watchFor []string) yaml.MapSlice {
	var m yaml.MapSlice
	if description != "" {
		m = append(m, yaml.MapItem{Key: "description", Value: description})
	}
	if len(watchFor) > 0 {
		m = append(m, yaml.MapItem{Key: "watchFor", Value: watchFor})
	}
	return m
}

// Marshal writes s in the scenario file format, every default written out: what the simulator
// will actually run. Parsing the result gives back the same scenario, apart from positions and
// Source. Comments of the original file are not kept; BuiltinSource has those.
func Marshal(s *Scenario) ([]byte, error) {
	metadata := yaml.MapSlice{{Key: "name", Value: s.Metadata.Name}}
	metadata = append(metadata, marshalText(s.Metadata.Description, s.Metadata.WatchFor)...)
	if zh := marshalText(s.Metadata.ZH.Description, s.Metadata.ZH.WatchFor); len(zh) > 0 {
		metadata = append(metadata, yaml.MapItem{Key: "zh", Value: zh})
	}
	sp := &s.Spec
	spec := yaml.MapSlice{
		{Key: "duration", Value: sp.Duration.String()},
		{Key: "speed", Value: speedValue(sp.Speed)},
		{Key: "seed", Value: sp.Seed},
	}
	if len(sp.Eras) > 0 {
		eras := make([]string, len(sp.Eras))
		for i, e := range sp.Eras {
			eras[i] = string(e)
		}
		spec = append(spec, yaml.MapItem{Key: "eras", Value: eras})
	} else {
		spec = append(spec, yaml.MapItem{Key: "era", Value: string(sp.Era)})
	}
	if as := sp.APIServer; as != nil {
		rc := yaml.MapSlice{}
		for _, k := range slices.Sorted(maps.Keys(as.RuntimeConfig)) {
			rc = append(rc, yaml.MapItem{Key: k, Value: as.RuntimeConfig[k]})
		}
		spec = append(spec, yaml.MapItem{Key: "apiServer", Value: yaml.MapSlice{{Key: "runtimeConfig", Value: rc}}})
	}
	if cm := sp.ControllerManager; cm != nil {
		m := yaml.MapSlice{
			{Key: "replicas", Value: cm.Replicas},
			{Key: "leaderElect", Value: cm.LeaderElect},
			{Key: "controllers", Value: cm.Controllers},
		}
		if len(cm.Flags) > 0 {
			flags := yaml.MapSlice{}
			for _, k := range slices.Sorted(maps.Keys(cm.Flags)) {
				flags = append(flags, yaml.MapItem{Key: k, Value: cm.Flags[k]})
			}
			m = append(m, yaml.MapItem{Key: "flags", Value: flags})
		}
		spec = append(spec, yaml.MapItem{Key: "controllerManager", Value: m})
	}
	if k := sp.Kubelets; k != nil {
		m := yaml.MapSlice{{Key: "count", Value: k.Count}}
		if k.ManifestDir != "" {
			m = append(m, yaml.MapItem{Key: "manifestDir", Value: k.ManifestDir})
		}
		m = append(m, yaml.MapItem{Key: "manifestURL", Value: k.ManifestURL})
		spec = append(spec, yaml.MapItem{Key: "kubelets", Value: m})
	}
	if len(sp.Informers) > 0 {
		var infs []yaml.MapSlice
		for _, inf := range sp.Informers {
			m := yaml.MapSlice{
				{Key: "name", Value: inf.Name},
				{Key: "resource", Value: inf.Resource.String()},
				{Key: "namespace", Value: inf.Namespace},
				{Key: "handlers", Value: inf.Handlers},
				{Key: "resync", Value: inf.Resync.String()},
			}
			// Only a reflector other than the default is written: scenarios (and the
			// recordings that embed them) from before the field read as they did.
			if inf.Reflector != "" && inf.Reflector != ReflectorV15 {
				m = append(m, yaml.MapItem{Key: "reflector", Value: string(inf.Reflector)})
			}
			infs = append(infs, m)
		}
		spec = append(spec, yaml.MapItem{Key: "informers", Value: infs})
	}
	if len(sp.Objects) > 0 {
		var objs []any
		for _, o := range sp.Objects {
			m, err := objectMap(o.Object)
			if err != nil {
				return nil, err
			}
			objs = append(objs, m)
		}
		spec = append(spec, yaml.MapItem{Key: "objects", Value: objs})
	}
	if len(sp.Actions) > 0 {
		var acts []yaml.MapSlice
		for _, a := range sp.Actions {
			if a.Verb == nil {
				return nil, fmt.Errorf("action at %s has no verb", a.At)
			}
			v, err := a.Verb.args()
			if err != nil {
				return nil, err
			}
			acts = append(acts, yaml.MapSlice{{Key: "at", Value: a.At.String()}, {Key: a.Verb.Name(), Value: v}})
		}
		spec = append(spec, yaml.MapItem{Key: "actions", Value: acts})
	}
	doc := yaml.MapSlice{
		{Key: "apiVersion", Value: APIVersion},
		{Key: "kind", Value: Kind},
		{Key: "metadata", Value: metadata},
		{Key: "spec", Value: spec},
	}
	out, err := yaml.MarshalWithOptions(escapeStrings(doc), yaml.IndentSequence(true))
	if err != nil {
		return nil, fmt.Errorf("failed to encode scenario %s: %w", s.Metadata.Name, err)
	}
	return out, nil
}

// objectMap returns an object as the JSON-shaped map kubectl would show, without the nulls
// and the empty status that Go's zero values add.
func objectMap(obj runtime.Object) (map[string]any, error) {
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, fmt.Errorf("failed to encode %T: %w", obj, err)
	}
	if st, ok := m["status"].(map[string]any); ok && len(st) == 0 {
		delete(m, "status")
	}
	pruneNulls(m)
	return m, nil
}

func pruneNulls(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
				continue
			}
			pruneNulls(e)
		}
	case []any:
		for _, e := range x {
			pruneNulls(e)
		}
	}
}

// speedValue writes a whole speed as an integer (10, not 10.0).
func speedValue(v float64) any {
	if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return int64(v)
	}
	return v
}

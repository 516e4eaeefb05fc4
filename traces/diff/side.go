package diff

import (
	"strings"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// Side is one side of a comparison: a timeline, and which of its instances
// take part.
type Side struct {
	TL *timeline.Timeline
	// Select is an instance ID or an era ("classic" stands for every
	// instance whose ID starts with "classic/"); "" takes them all.
	Select string
}

// InTurns says whether the side's recording ran in turns on one core, so
// that a run of the same scenario and seed repeats it exactly; false for
// a run on every core or a live one, and for a recording that does not say
// (made before kubeloom recorded it: catalog.AttrRunInTurns).
func (s Side) InTurns() bool {
	for _, in := range s.TL.Instances {
		if in.Service != catalog.ServiceScenario {
			continue
		}
		for _, l := range in.Lanes {
			for _, m := range l.Calls {
				if v, ok := m.Attributes[catalog.AttrRunInTurns].(bool); ok {
					return v
				}
			}
		}
	}
	return false
}

// instances are the side's instances that take part, each with its role
// (Role).
func (s Side) instances() []roled {
	var out []roled
	for _, in := range s.TL.Instances {
		if r, ok := s.Role(in); ok {
			out = append(out, roled{in: in, role: r})
		}
	}
	return out
}

// Role returns in's role, if it takes part in the side: the instance's
// service and ID without its era, which pairs it with the other side's
// ("classic/cm-0" and "modern/cm-0" are both "kube-controller-manager
// cm-0"). kubeloom step --against pairs its steps by it too.
func (s Side) Role(in *timeline.Instance) (string, bool) {
	id := in.ID
	switch {
	case s.Select == "":
	case id == s.Select:
		id = ""
	case strings.HasPrefix(id, s.Select+"/"):
		id = strings.TrimPrefix(id, s.Select+"/")
	default:
		return "", false
	}
	return role(in.Service, id), true
}

// roled is an instance and its role.
type roled struct {
	in   *timeline.Instance
	role string
}

// role is an instance's service and ID without its era (the part before
// the first "/", which the runs of a recording with several eras put in
// front of every ID).
func role(service, id string) string {
	if _, rest, ok := strings.Cut(id, "/"); ok {
		id = rest
	}
	if id == "" || id == service {
		return service
	}
	return service + " " + id
}

// Instances returns the side's instances that take part and each one's
// role, in the timeline's order: what the HTML page of a comparison
// (htmlview.WriteDiff) pairs its instances by, so that it pairs them as
// the report does.
func (s Side) Instances() ([]*timeline.Instance, []string) {
	rs := s.instances()
	ins, roles := make([]*timeline.Instance, len(rs)), make([]string, len(rs))
	for i, r := range rs {
		ins[i], roles[i] = r.in, r.role
	}
	return ins, roles
}

package diff

import (
	"fmt"
	"strings"
	"time"

	"github.com/kubeloom/kubeloom/traces/timeline"
)

// step is one call on a role's main lane: a startup step (NewCMServer,
// RunOrDie, start EndpointController …), or a scenario action.
type step struct {
	role, name string
	n          int // its occurrence among the role's calls of that name, from 1
	order      int // its place among the role's steps, from 1
	at         time.Duration
	span       timeline.Mark
}

// label names a step for a reader: "RunOrDie", the second "start X" #2.
func (s step) label() string {
	if s.n > 1 {
		return fmt.Sprintf("%s #%d", s.name, s.n)
	}
	return s.name
}

// mainSteps are the calls on the main lane of each of the side's
// instances, in order, actions apart.
func mainSteps(tl *timeline.Timeline, ins []roled) (steps, actions []step) {
	for _, r := range ins {
		seen := map[string]int{}
		order := 0
		for _, l := range r.in.Lanes {
			if l.Goroutine != timeline.MainLane {
				continue
			}
			for _, m := range l.Calls {
				seen[m.Name]++
				s := step{role: r.role, name: m.Name, n: seen[m.Name], at: tl.Offset(m.Start), span: m}
				if strings.HasPrefix(m.Name, "action/") {
					actions = append(actions, s)
					continue
				}
				order++
				s.order = order
				steps = append(steps, s)
			}
		}
	}
	return steps, actions
}

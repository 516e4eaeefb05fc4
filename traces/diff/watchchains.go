package diff

import (
	"fmt"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// watchEvents are the watch events of the side's instances as steps (a
// receive iteration of a watch/stream-receive lane, named "watch TYPE
// namespace/name" and paired by it and its occurrence), each with how long
// after it the first handler call it led to came: the first OnAdd,
// OnUpdate or OnDelete reached by following the causal links from it
// (receive → DeltaFIFO.Add → Pop → pop → OnAdd), -1 if none.
func watchEvents(tl *timeline.Timeline, ins []roled) (events []step, handlerAfter map[stepKey]time.Duration) {
	byCause := map[trace.SpanID][]*timeline.Mark{}
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			for _, marks := range [][]timeline.Mark{l.Iterations, l.Calls} {
				for i := range marks {
					for _, c := range marks[i].Causes {
						byCause[c] = append(byCause[c], &marks[i])
					}
				}
			}
		}
	}
	handlerAfter = map[stepKey]time.Duration{}
	for _, r := range ins {
		seen := map[string]int{}
		for _, l := range r.in.Lanes {
			if l.Goroutine != "watch/stream-receive" {
				continue
			}
			for _, m := range l.Iterations {
				typ := m.Attributes.String(catalog.AttrEventType)
				if typ == "" {
					continue
				}
				name := strings.TrimSpace(fmt.Sprintf("watch %s %s", typ, m.Attributes.String(catalog.AttrObjectKey)))
				seen[name]++
				s := step{role: r.role, name: name, n: seen[name], at: tl.Offset(m.Start), span: m}
				events = append(events, s)
				handlerAfter[s.key()] = firstHandler(m, byCause, tl)
			}
		}
	}
	return events, handlerAfter
}

// firstHandler follows the causal links from m, breadth first, and returns
// how long after m the earliest handler call among them started, or -1.
func firstHandler(m timeline.Mark, byCause map[trace.SpanID][]*timeline.Mark, tl *timeline.Timeline) time.Duration {
	first := time.Duration(-1)
	seen := map[trace.SpanID]bool{m.SpanID: true}
	next := []trace.SpanID{m.SpanID}
	for len(next) > 0 {
		id := next[0]
		next = next[1:]
		for _, e := range byCause[id] {
			if seen[e.SpanID] {
				continue
			}
			seen[e.SpanID] = true
			if isHandler(e.Name) {
				if d := e.Start.Sub(m.Start); d >= 0 && (first < 0 || d < first) {
					first = d
				}
				continue
			}
			next = append(next, e.SpanID)
		}
	}
	return first
}

func isHandler(name string) bool {
	return name == "OnAdd" || name == "OnUpdate" || name == "OnDelete"
}

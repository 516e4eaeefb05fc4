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
// (receive → DeltaFIFO.Add → Pop → pop → OnAdd; effects' index), -1 if
// none.
func watchEvents(tl *timeline.Timeline, ins []roled, byCause map[trace.SpanID][]span) (events []step, handlerAfter map[stepKey]time.Duration) {
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
				handlerAfter[s.key()] = firstHandler(m.SpanID, s.at, byCause)
			}
		}
	}
	return events, handlerAfter
}

// firstHandler follows the causal links from the span id, which started
// at at, breadth first, and returns how long after it the earliest handler
// call among them started, or -1.
func firstHandler(id trace.SpanID, at time.Duration, byCause map[trace.SpanID][]span) time.Duration {
	first := time.Duration(-1)
	seen := map[trace.SpanID]bool{id: true}
	next := []trace.SpanID{id}
	for len(next) > 0 {
		cause := next[0]
		next = next[1:]
		for _, e := range byCause[cause] {
			if seen[e.id] {
				continue
			}
			seen[e.id] = true
			if isHandler(e.name) {
				if d := e.start - at; d >= 0 && (first < 0 || d < first) {
					first = d
				}
				continue
			}
			next = append(next, e.id)
		}
	}
	return first
}

func isHandler(name string) bool {
	return name == "OnAdd" || name == "OnUpdate" || name == "OnDelete"
}

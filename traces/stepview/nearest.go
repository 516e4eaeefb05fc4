package stepview

import "go.opentelemetry.io/otel/trace"

// nearestOwned returns a function that finds the nearest span at or above
// a span, by parentOf, for which has is true, and whether there is one
// (none: the path ends, or goes round a cycle without one). It remembers
// the answer for every span it passes, so that each span is walked once:
// walking up from each goroutine took time in the square of a chain's
// length (a cycle of 40,000 spans under 40,000 goroutines: 16 s).
func nearestOwned(parentOf map[trace.SpanID]trace.SpanID, has func(trace.SpanID) bool) func(trace.SpanID) (trace.SpanID, bool) {
	const (
		onPath   = 1
		answered = 2
	)
	state := map[trace.SpanID]uint8{}
	found := map[trace.SpanID]trace.SpanID{} // the zero ID: none
	var path []trace.SpanID
	return func(start trace.SpanID) (trace.SpanID, bool) {
		path = path[:0]
		var answer trace.SpanID
		for cur := start; cur.IsValid(); cur = parentOf[cur] {
			if st := state[cur]; st == answered {
				answer = found[cur]
				break
			} else if st == onPath {
				break // a cycle without one
			}
			if has(cur) {
				state[cur], found[cur] = answered, cur
				answer = cur
				break
			}
			state[cur] = onPath
			path = append(path, cur)
		}
		for _, id := range path {
			state[id], found[id] = answered, answer
		}
		return answer, answer.IsValid()
	}
}

package timeline

// nearestUp finds, for every span at once, the first span on its path up
// through its parents that has a property, in time linear in the number
// of spans. Walking up from each span instead took time in the square of
// a chain's length (a recording of 80,000 spans, each the parent of the
// next, took 17 s; a cycle of them 35 s).

const (
	unvisited int32 = -2
	onPath    int32 = -3
)

// nearestUp returns, for each of n spans, the first of i, up(i),
// up(up(i)), ... for which has is true, or -1 if the path ends (up returns
// a negative index) or goes round a cycle without one. up and has are
// called at most once for each span.
func nearestUp(n int, up func(i int32) int32, has func(i int32) bool) []int32 {
	f := newUpFinder(n, up, has)
	for i := range int32(n) {
		f.find(i)
	}
	return f.found
}

// upFinder is nearestUp one span at a time, for a few spans of many:
// each span is visited once, whichever find visits it first.
type upFinder struct {
	found []int32 // the answer for each span visited, or unvisited
	path  []int32
	up    func(i int32) int32
	has   func(i int32) bool
}

func newUpFinder(n int, up func(i int32) int32, has func(i int32) bool) *upFinder {
	f := &upFinder{found: make([]int32, n), up: up, has: has}
	for i := range f.found {
		f.found[i] = unvisited
	}
	return f
}

// find is nearestUp's answer for span start.
func (f *upFinder) find(start int32) int32 {
	found := f.found
	if found[start] != unvisited {
		return found[start]
	}
	// Walk up until a span that has it, the end, a span already answered,
	// or a span of this walk (a cycle: it has none, or the walk would have
	// stopped there).
	path := f.path[:0]
	answer := int32(-1)
	for cur := start; ; {
		if f.has(cur) {
			found[cur] = cur
			answer = cur
			break
		}
		found[cur] = onPath
		path = append(path, cur)
		p := f.up(cur)
		if p < 0 || found[p] == onPath {
			break
		}
		if found[p] != unvisited {
			answer = found[p]
			break
		}
		cur = p
	}
	for _, i := range path {
		found[i] = answer
	}
	f.path = path
	return answer
}

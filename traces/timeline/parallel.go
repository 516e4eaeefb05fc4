package timeline

import (
	"runtime"
	"sync"
)

// How Build's passes share the CPUs: a pass over n items is split into
// ranges, one per goroutine, by the one function parallel. The passes
// cannot fail and need nothing cancelled, so they take no errgroup; what
// they need is the index of their range (each part of a pass fills in its
// own accumulator) and the same split for the same n and number of parts
// (the instances a part of the reading pass numbered are renumbered by the
// part that reads the same spans).

// defaultPerGoroutine is the fewest spans worth another goroutine: below
// it, starting one and merging what it made costs more than it saves.
const defaultPerGoroutine = 32 << 10

// spansPerGoroutine is the fewest spans worth another goroutine.
func (o options) spansPerGoroutine() int {
	if o.perGoroutine > 0 {
		return o.perGoroutine
	}
	return defaultPerGoroutine
}

// workers is how many goroutines to give a pass over n spans.
func (o options) workers(n int) int {
	return max(1, min(runtime.GOMAXPROCS(0), n/o.spansPerGoroutine()))
}

// parallel calls f(part, lo, hi) for each of the parts ranges that split
// [0, n), each on its own goroutine (part 0 on the caller's), and returns
// when all have returned.
func parallel(n, parts int, f func(part, lo, hi int)) {
	if parts <= 1 {
		f(0, 0, n)
		return
	}
	var wg sync.WaitGroup
	for p := 1; p < parts; p++ {
		wg.Go(func() { f(p, n*p/parts, n*(p+1)/parts) })
	}
	f(0, 0, n/parts)
	wg.Wait()
}

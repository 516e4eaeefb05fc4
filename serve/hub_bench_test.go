package serve

import (
	"fmt"
	"testing"
)

// BenchmarkPublishSnapshot: what the session's side pays to hand a
// snapshot of cluster-basics' size (~700 KB) to every page: framing it
// once, then a pointer per viewer, whatever the viewers do with it.
func BenchmarkPublishSnapshot(b *testing.B) {
	data := make([]byte, 700<<10)
	for _, viewers := range []int{1, 30, 300} {
		b.Run(fmt.Sprintf("viewers=%d", viewers), func(b *testing.B) {
			h := newHub()
			for range viewers {
				h.join() // never taken: the slowest viewer there is
			}
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				h.publish(nil, frame("snapshot", uint64(i), data))
			}
		})
	}
}

package timeline

import (
	"math/rand/v2"
	"testing"
)

// nearestUp finds what walking up from each span finds, on chains, trees,
// cycles and paths into cycles, calling up and has once a span.
func TestNearestUp(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 500 {
		n := 1 + rng.IntN(40)
		parent := make([]int32, n)
		mark := make([]bool, n)
		for i := range parent {
			parent[i] = int32(rng.IntN(n+3)) - 3 // some roots (-3..-1), some cycles
			mark[i] = rng.IntN(5) == 0
		}
		calls := make([]int, n)
		got := nearestUp(n, func(i int32) int32 { calls[i]++; return parent[i] }, func(i int32) bool { return mark[i] })
		for i := range n {
			want := int32(-1)
			cur := int32(i)
			for range n + 1 {
				if mark[cur] {
					want = cur
					break
				}
				if cur = parent[cur]; cur < 0 {
					break
				}
			}
			if got[i] != want {
				t.Fatalf("round %d: parents %v, marked %v: span %d found %d, want %d", round, parent, mark, i, got[i], want)
			}
			if calls[i] > 1 {
				t.Fatalf("round %d: up called %d times for span %d", round, calls[i], i)
			}
		}
	}
}

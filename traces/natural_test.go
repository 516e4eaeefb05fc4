package traces

import "testing"

func TestNaturalCompare(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"node-2", "node-10", -1},
		{"node-10", "node-2", 1},
		{"node-1", "node-01", -1},
		{"node-1", "node-1", 0},
		{"node-1", "node-1a", -1},
		{"cm-9/worker", "cm-9/w", 1},
		{"a9b", "a10a", -1},
		{"", "0", -1},
	} {
		if got := NaturalCompare(c.a, c.b); got != c.want {
			t.Errorf("NaturalCompare(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// Package uuid makes version-4 UUIDs from a seeded source, so that the
// UIDs and identities of a run are reproducible.
package uuid

import (
	"fmt"
	"math/rand/v2"
)

// New returns a random version-4 UUID drawn from r.
func New(r *rand.Rand) string {
	var b [16]byte
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

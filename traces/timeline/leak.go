package timeline

import (
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
)

// Leaked reports whether the lane is a goroutine its starter left behind:
// a pre-1.5 reflector's resync goroutine whose ListAndWatch call returned
// without stopping it (catalog.AttrLeaked, kubernetes#35015). It still
// runs; nothing will stop it but the process's end.
func (l *Lane) Leaked() bool {
	leaked, _ := l.Attributes[catalog.AttrLeaked].(bool)
	return leaked
}

// LeakedAt is when the lane was left behind: its catalog.EventLeaked
// event. ok is false for a lane that was not, or in an Outline, which has
// no events.
func (l *Lane) LeakedAt() (at time.Time, ok bool) {
	if !l.Leaked() {
		return time.Time{}, false
	}
	for _, e := range l.Events {
		if e.Name == catalog.EventLeaked && e.SpanID == l.SpanID {
			return e.Start, true
		}
	}
	return time.Time{}, false
}

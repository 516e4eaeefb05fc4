package session

import (
	"bytes"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kubeloom/kubeloom/sim/clock"
	"github.com/kubeloom/kubeloom/traces/htmlview"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// builder builds snapshots in a goroutine of its own, from moments the
// pacer gathers while the run is quiet: the run goes on while a snapshot
// is built. Only the latest moment not yet built is kept (the spans that
// ended by it include those of any older one), so a builder slower than
// the run skips moments and never queues them.
type builder struct {
	s    *Session
	wake chan struct{}
	done chan struct{}
	cost atomic.Int64 // the last build's, in ns: the pacer spaces moments by it

	mu   sync.Mutex
	next *moment
	seq  uint64
}

func newBuilder(s *Session) *builder {
	return &builder{s: s, wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// offer hands the builder a moment to build, replacing any not yet built.
func (b *builder) offer(m moment) {
	b.mu.Lock()
	b.next = &m
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// run builds what is offered until quit, then the last moment offered.
func (b *builder) run(quit <-chan struct{}) {
	defer close(b.done)
	for {
		select {
		case <-b.wake:
			b.build()
		case <-quit:
			b.build()
			return
		}
	}
}

func (b *builder) build() {
	b.mu.Lock()
	m := b.next
	b.next = nil
	b.mu.Unlock()
	if m == nil {
		return
	}
	start := time.Now()
	spans, err := b.s.live.assemble(*m)
	var data bytes.Buffer
	if err == nil {
		err = htmlview.WriteData(&data, timeline.Build(spans))
	}
	b.cost.Store(int64(time.Since(start)))
	if err != nil {
		b.s.publish(func(st *State) { st.Err = "the live view failed: " + err.Error() }, nil, nil)
		return
	}
	b.seq++
	b.s.publish(func(st *State) { st.SnapshotUS = m.now.Sub(clock.Epoch()).Microseconds() },
		&Snapshot{Seq: b.seq, Data: data.Bytes()}, spans)
}

package serve

import (
	"sync"
)

// A hub hands the latest state and the latest snapshot to every viewer
// (every open /api/events stream) without ever waiting for one: publishing
// replaces what a viewer has not sent yet, so a slow browser gets fewer,
// newer messages and the simulation never waits for it. The messages are
// framed once and shared: each viewer holds at most two references to
// them, so memory stays the latest two messages whatever the number of
// viewers and however slow they are.
type hub struct {
	mu      sync.Mutex
	state   []byte // the latest state message, framed; nil before the first
	snap    []byte // the latest snapshot message, framed
	viewers map[*viewer]struct{}
}

// A viewer is one event stream's slot: at most one pending state and one
// pending snapshot, and a wake-up for its writer.
type viewer struct {
	mu          sync.Mutex
	state, snap []byte // pending; nil when sent
	wake        chan struct{}
}

func newHub() *hub { return &hub{viewers: map[*viewer]struct{}{}} }

// join adds a viewer that catches up: its first messages are the latest
// state and snapshot.
func (h *hub) join() *viewer {
	v := &viewer{wake: make(chan struct{}, 1)}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.viewers[v] = struct{}{}
	v.offer(h.state, h.snap)
	return v
}

func (h *hub) leave(v *viewer) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.viewers, v)
}

// publish makes state and snap, those that are not nil, the latest: every
// viewer sends them next, instead of any it has not sent yet.
func (h *hub) publish(state, snap []byte) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if state != nil {
		h.state = state
	}
	if snap != nil {
		h.snap = snap
	}
	for v := range h.viewers {
		v.offer(state, snap)
	}
}

// count is how many viewers are connected.
func (h *hub) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.viewers)
}

// offer replaces the pending messages that are not nil and wakes the
// writer; it never blocks.
func (v *viewer) offer(state, snap []byte) {
	if state == nil && snap == nil {
		return
	}
	v.mu.Lock()
	if state != nil {
		v.state = state
	}
	if snap != nil {
		v.snap = snap
	}
	v.mu.Unlock()
	select {
	case v.wake <- struct{}{}:
	default: // a wake-up is already pending
	}
}

// take returns the pending messages, snapshot first (a state names the
// snapshot it goes with, so the page has the snapshot when it reads the
// state), and empties the slot.
func (v *viewer) take() (msgs [][]byte) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.snap != nil {
		msgs = append(msgs, v.snap)
	}
	if v.state != nil {
		msgs = append(msgs, v.state)
	}
	v.state, v.snap = nil, nil
	return msgs
}

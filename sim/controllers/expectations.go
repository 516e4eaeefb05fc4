package controllers

import (
	"sync"
	"time"
)

// expectations is ControllerExpectations: how many creations and
// deletions a controller still expects to see in its pod informer. Until
// they are seen (or 5 minutes pass), a sync does not act on the pod count,
// which the informer has not caught up with yet — otherwise a controller
// would create its pods twice.
type expectations struct {
	now func() time.Time

	mu sync.Mutex
	m  map[string]*expectation
}

type expectation struct {
	add, del  int
	timestamp time.Time
}

// expectationsTimeout is ExpectationsTimeout (5m).
const expectationsTimeout = 5 * time.Minute

func newExpectations(now func() time.Time) *expectations {
	return &expectations{now: now, m: map[string]*expectation{}}
}

// satisfied reports whether the controller may sync the key.
func (e *expectations) satisfied(key string) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	x, ok := e.m[key]
	if !ok {
		return true
	}
	return x.add <= 0 && x.del <= 0 || e.now().Sub(x.timestamp) > expectationsTimeout
}

// expect records creations and deletions about to be made.
func (e *expectations) expect(key string, add, del int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.m[key] = &expectation{add: add, del: del, timestamp: e.now()}
}

func (e *expectations) observed(key string, add, del int) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if x, ok := e.m[key]; ok {
		x.add -= add
		x.del -= del
	}
}

func (e *expectations) forget(key string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.m, key)
}

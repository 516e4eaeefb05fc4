package kubelet

import (
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// backoff is the crash-loop back-off, flowcontrol.Backoff as v1.5's
// dockertools uses it (doBackOff): a dead container may restart once
// backoff has passed since it finished; each restart doubles the back-off,
// from 10s (backOffPeriod) up to 5m (MaxContainerBackOff); an entry not
// updated for twice the maximum starts over.
type backoff struct {
	mu      sync.Mutex
	entries map[string]backoffEntry
}

type backoffEntry struct {
	delay      time.Duration
	lastUpdate time.Time
}

const maxContainerBackOff = 5 * time.Minute

// inBackOff is IsInBackOffSince(key, finished): whether a container that
// finished at finished must still wait, and until when.
func (b *backoff) inBackOff(uid types.UID, name string, finished, now time.Time) (bool, time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.entries[string(uid)+"/"+name]
	if !ok || finished.Sub(e.lastUpdate) > 2*maxContainerBackOff {
		return false, time.Time{}
	}
	until := finished.Add(e.delay)
	return now.Before(until), until
}

// next is Next(key, finished), called as the container is restarted.
func (b *backoff) next(uid types.UID, name string, finished time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.entries == nil {
		b.entries = map[string]backoffEntry{}
	}
	key := string(uid) + "/" + name
	e, ok := b.entries[key]
	if !ok || finished.Sub(e.lastUpdate) > 2*maxContainerBackOff {
		e.delay = backOffPeriod
	} else {
		e.delay = min(2*e.delay, maxContainerBackOff)
	}
	e.lastUpdate = finished
	b.entries[key] = e
}

// gc forgets entries not updated for twice the maximum (the kubelet's
// housekeeping calls backOff.GC()).
func (b *backoff) gc(now time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for k, e := range b.entries {
		if now.Sub(e.lastUpdate) > 2*maxContainerBackOff {
			delete(b.entries, k)
		}
	}
}

package informer

import (
	"sync"

	"go.opentelemetry.io/otel/trace"
)

// causes follows objects across goroutines. The reflector and FIFO are
// client-go code that passes bare objects, so the span that last touched an
// object is remembered here and picked up by the next hop:
// list/watch event → queue operation → Pop → listener pop → handler call.
type causes struct {
	mu sync.Mutex
	// origin: the List or watch-event span of an object version (key@rv).
	origin map[string]trace.SpanContext
	// queued: the queue-operation spans of a key not yet popped, oldest first.
	queued map[string][]trace.SpanContext
}

func newCauses() causes {
	return causes{origin: map[string]trace.SpanContext{}, queued: map[string][]trace.SpanContext{}}
}

func (c *causes) setOrigin(keyAtRV string, sc trace.SpanContext) {
	c.mu.Lock()
	c.origin[keyAtRV] = sc
	c.mu.Unlock()
}

func (c *causes) takeOrigin(keyAtRV string) trace.SpanContext {
	c.mu.Lock()
	defer c.mu.Unlock()
	sc := c.origin[keyAtRV]
	delete(c.origin, keyAtRV)
	return sc
}

func (c *causes) queue(key string, sc trace.SpanContext) {
	c.mu.Lock()
	c.queued[key] = append(c.queued[key], sc)
	c.mu.Unlock()
}

// pop takes up to n queued causes of key (n < 0: all of them).
func (c *causes) pop(key string, n int) []trace.SpanContext {
	c.mu.Lock()
	defer c.mu.Unlock()
	q := c.queued[key]
	if n < 0 || n > len(q) {
		n = len(q)
	}
	out := q[:n:n]
	if n == len(q) {
		delete(c.queued, key)
	} else {
		c.queued[key] = q[n:]
	}
	return out
}

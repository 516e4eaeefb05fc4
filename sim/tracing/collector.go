package tracing

import (
	"context"
	"errors"
	"sync"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// collector is the recording's span processor. Ended spans are appended to
// a slice under a mutex and handed to the exporter in batches by one
// goroutine, woken once per batch. The SDK's BatchSpanProcessor sends every
// span over a channel and wakes its goroutine for each, which on this
// 2-core machine costs more than encoding the span; and it drops spans when
// its queue is full, which a recording must never do: here a producer waits
// instead (back-pressure), so the recording is complete by construction.
//
// In virtual time the engine makes the Tracing, and so the collector,
// outside the run's bubble, so that its goroutine encodes and writes the
// file outside it: a bubble's goroutines then only append spans, and a producer
// that waits for room waits on a channel of the writer's, which does not
// let the bubble's clock move, so how fast the disk is cannot change what
// the simulation does.
type collector struct {
	exp       sdktrace.SpanExporter
	batchSize int
	maxQueued int
	interval  time.Duration // real time between exports of a partial batch

	mu      sync.Mutex
	drained chan struct{} // closed (and replaced) when the writer takes the queue
	queue   []sdktrace.ReadOnlySpan
	stopped bool
	err     error // first export error

	kick    chan struct{}   // a batch is ready
	flushes chan chan error // ForceFlush requests
	done    chan struct{}
	wg      sync.WaitGroup
}

var _ sdktrace.SpanProcessor = (*collector)(nil)

func newCollector(exp sdktrace.SpanExporter) *collector {
	c := &collector{
		exp: exp, batchSize: 1024, maxQueued: 16 * 1024, interval: 200 * time.Millisecond,
		kick: make(chan struct{}, 1), flushes: make(chan chan error), done: make(chan struct{}),
		drained: make(chan struct{}),
	}
	c.wg.Add(1)
	go c.run()
	return c
}

func (c *collector) OnStart(context.Context, sdktrace.ReadWriteSpan) {}

func (c *collector) OnEnd(s sdktrace.ReadOnlySpan) {
	c.mu.Lock()
	for len(c.queue) >= c.maxQueued && !c.stopped {
		drained := c.drained
		c.mu.Unlock()
		select {
		case c.kick <- struct{}{}:
		default:
		}
		<-drained
		c.mu.Lock()
	}
	if c.stopped {
		c.mu.Unlock()
		return
	}
	c.queue = append(c.queue, s)
	full := len(c.queue) == c.batchSize
	c.mu.Unlock()
	if full {
		select {
		case c.kick <- struct{}{}:
		default:
		}
	}
}

// run exports a batch whenever one is full, every interval, on a flush
// request, and a last time at shutdown.
func (c *collector) run() {
	defer c.wg.Done()
	t := time.NewTicker(c.interval) // real time: this paces file writes, not the simulation
	defer t.Stop()
	var spare []sdktrace.ReadOnlySpan
	for {
		var reply chan error
		select {
		case <-c.kick:
		case <-t.C:
		case reply = <-c.flushes:
		case <-c.done:
			c.export(spare)
			return
		}
		spare = c.export(spare)
		if reply != nil {
			reply <- c.exportErr()
		}
	}
}

// export hands everything queued to the exporter; it returns the emptied
// slice for reuse.
func (c *collector) export(spare []sdktrace.ReadOnlySpan) []sdktrace.ReadOnlySpan {
	for {
		c.mu.Lock()
		batch := c.queue
		c.queue = spare[:0]
		c.drain()
		c.mu.Unlock()
		if len(batch) == 0 {
			return batch
		}
		if err := c.exp.ExportSpans(context.Background(), batch); err != nil {
			c.mu.Lock()
			if c.err == nil {
				c.err = err
			}
			c.mu.Unlock()
		}
		clear(batch) // let the spans be collected
		spare = batch
	}
}

// drain wakes the producers waiting for room (c.mu held). Only the
// writer's goroutine calls it, as only it may close a channel it made
// outside a bubble.
func (c *collector) drain() {
	close(c.drained)
	c.drained = make(chan struct{})
}

func (c *collector) exportErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// ForceFlush exports everything ended so far.
func (c *collector) ForceFlush(ctx context.Context) error {
	reply := make(chan error, 1)
	select {
	case c.flushes <- reply:
	case <-c.done:
		return c.exportErr()
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-reply:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Shutdown exports what is left and shuts the exporter down. Spans ended
// afterwards are not recorded.
func (c *collector) Shutdown(ctx context.Context) error {
	c.mu.Lock()
	if c.stopped {
		c.mu.Unlock()
		return nil
	}
	c.stopped = true // the writer's last export wakes the producers waiting for room
	c.mu.Unlock()
	close(c.done)
	c.wg.Wait()
	return errors.Join(c.exportErr(), c.exp.Shutdown(ctx))
}

// Package workqueue is what every simulated controller processes its keys
// with, as Kubernetes' controllers share client-go's util/workqueue: the
// rate-limited workqueue on the simulation clock, and a pool of workers
// that each loop `for processNextWorkItem() {}` under wait.Until. Span
// links carry the cause of each sync from the handler that enqueued its
// key to the worker that processes it.
package workqueue

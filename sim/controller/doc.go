// Package controller is the machinery every simulated controller is built
// from, as Kubernetes' controllers share it: client-go's rate-limited
// workqueue on the simulation clock, a pool of workers that each loop
// `for processNextWorkItem() {}` under wait.Until, and traced requests to
// the apiserver. Span links carry the cause of each sync from the handler
// that enqueued its key to the worker that processes it.
package controller

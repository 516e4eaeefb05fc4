// Package goroutine starts the simulated goroutines: each one by its catalog
// name, as Kubernetes starts it (a plain go statement, wait.Until,
// wait.JitterUntil, wait.Forever), wrapped in a lifetime span with a child
// span per loop iteration, pprof labels and a runtime/trace region. A
// Registry knows every live goroutine, so that stopping a simulation can
// name the ones that did not stop.
package goroutine

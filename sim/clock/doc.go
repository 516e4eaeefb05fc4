// Package clock is the one clock of a simulation: simulated time runs at a
// fixed multiple (the speed) of real time, so that Kubernetes' real periods
// (container GC every minute, image GC every five) appear in the trace while a
// run takes seconds. It implements k8s.io/utils/clock's WithTicker interface
// so that client-go's reflector and workqueues can run on it directly.
package clock

// Package clock is the one clock of a simulation, in either of kubeloom's
// two modes. Virtual (the default) reads a testing/synctest bubble's clock:
// simulated time moves only when every simulated goroutine waits, so a run
// is as fast as the CPU allows and keeps every period exactly. Scaled (live
// mode, --speed N) runs simulated time N times faster than the real clock,
// for what needs the wall clock. Either way Kubernetes' real periods
// (container GC every minute, image GC every five) appear in the trace. Both
// implement k8s.io/utils/clock's WithTicker interface, so that client-go's
// reflector and workqueues run on them directly.
package clock

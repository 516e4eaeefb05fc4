// Package engine wires a scenario to the simulated parts: it sets up
// tracing and the clock, builds one world per era — a fake cluster and the
// instances on it (the scenario's driver, stand-alone informers,
// kube-controller-manager replicas) — plays the scenario's timed actions,
// stops everything and reports what ran. It is the top of sim/: components
// never import it.
package engine

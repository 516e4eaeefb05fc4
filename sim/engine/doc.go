// Package engine wires a scenario to the simulated parts: it sets up
// tracing and the clock, builds one instance per era (a fake cluster and the
// components on it), plays the scenario's timed actions, stops everything
// and reports what ran. It is the top of sim/: components never import it.
package engine

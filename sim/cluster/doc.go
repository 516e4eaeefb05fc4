// Package cluster is the simulated apiserver: client-go's fake clientset,
// plus what a real apiserver does that the fake does not — resource versions
// on every stored object, and breaking watches the way a restarted apiserver
// does (410 Gone), so that reflectors re-list. Scenarios act on it.
package cluster

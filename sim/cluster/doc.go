// Package cluster is the simulated apiserver: client-go's fake clientset,
// plus what a real apiserver does that the fake does not — resource versions
// and optimistic concurrency on every write, object metadata (UIDs, creation
// times, generated names, generations), finalizers and graceful deletion,
// namespace termination, watches that never overflow and can be broken the
// way a restarted apiserver breaks them (410 Gone), and discovery of the
// resources it serves. Components and scenarios act on it through the
// fake's typed clients.
package cluster

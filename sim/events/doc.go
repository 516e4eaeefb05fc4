// Package events is a component's event pipeline: client-go's real
// record.EventBroadcaster (its fan-out loop, the logging watcher and the
// watcher that writes events to the apiserver), with the three goroutines
// it starts recorded as lanes, an iteration per event, and every write to
// the apiserver as an events.Create or events.Patch span.
//
// Kubernetes source modelled: pkg/client/record/event.go and
// pkg/watch/mux.go (v1.5); k8s.io/client-go/tools/record today.
package events

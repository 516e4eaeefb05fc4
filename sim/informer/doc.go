// Package informer is a shared index informer assembled from client-go's
// exported parts — a ListWatch, a Reflector on the simulation clock, a
// DeltaFIFO (era classic) or RealFIFO (era modern), an indexer — with its own
// shared processor modelled on client-go's processorListener, so that every
// goroutine inside it (reflector/list-watch, informer/run,
// informer/listener-pop, informer/listener-run, watch/stream-receive,
// reflector/resync-timer) is visible as spans, and span links follow each
// object from its list or watch event to the handler call.
//
// Kubernetes source modelled: pkg/client/cache/{shared_informer,controller,
// reflector,delta_fifo}.go (v1.5) and k8s.io/client-go/tools/cache today.
package informer

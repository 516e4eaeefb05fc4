// Package kubelet is the simulated kubelet of one node: the startup path of
// cmd/kubelet/app/server.go (v1.3, as the second article reads it) and every
// goroutine the article names, doing real work against a simulated
// container runtime (sim/containerruntime) and the fake apiserver
// (sim/cluster). Each goroutine is started through sim/goroutine under its
// catalog name; era classic follows v1.3, era modern today's kubelet where
// the goroutine catalog's "then vs now" says they differ.
package kubelet

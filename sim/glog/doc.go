// Package glog is what github.com/golang/glog runs of its own in every
// Kubernetes binary of the articles' era: its package init starts
// `go logging.flushDaemon()`, which flushes the log buffers every
// flushInterval (30s) for the life of the process. The kube-controller-
// manager and the kubelet call Init before their main, as Go runs a
// package's init before main.
package glog

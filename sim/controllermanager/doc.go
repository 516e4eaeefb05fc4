// Package controllermanager is the simulated kube-controller-manager
// process, step by step as the article reads it (v1.5): main, NewCMServer,
// AddFlags on a real pflag FlagSet, InitLogs, Run — configz, clients, the
// HTTP server (/healthz, /configz, /metrics, /debug/pprof/ on 127.0.0.1),
// the event broadcaster, leader election — and, once leading,
// StartControllers and the shared informers. Every step is a span, every
// goroutine it starts a lane.
//
// Kubernetes source modelled: cmd/kube-controller-manager/controller-manager.go
// and cmd/kube-controller-manager/app/{controllermanager.go,options/options.go} (v1.5).
package controllermanager

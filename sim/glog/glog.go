package glog

import (
	"context"
	"time"

	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// FlushInterval is glog's flushInterval (glog.go: const flushInterval =
// 30 * time.Second), the period of its flush daemon. It is a constant: no
// flag sets it, which is why Kubernetes' logs.InitLogs adds a loop of its
// own at --log-flush-frequency (5s), calling the interval "frighteningly
// long".
const FlushInterval = 30 * time.Second

// Init is glog's package init, recorded as a "glog.init" span on the main
// goroutine (Go runs package inits on it, before main.main):
//
//	func init() {
//		…
//		logging.setVState(0, nil, false)
//		go logging.flushDaemon()
//	}
//
// It starts the flush daemon as the catalog entry name (cm/glog-flush-daemon,
// kubelet/glog-flush-daemon), which runs until the process ends:
//
//	func (l *loggingT) flushDaemon() {
//		for _ = range time.NewTicker(flushInterval).C {
//			l.lockAndFlushAll()
//		}
//	}
//
// The first flush is one interval after init, as a ticker's first tick is.
func Init(ctx context.Context, name string) {
	rt := goroutine.RuntimeFrom(ctx)
	ictx, sp := goroutine.Start(ctx, "glog.init")
	defer sp.End()
	rt.Go(ictx, name, func(ctx context.Context) {
		ticker := rt.Clock().NewTicker(FlushInterval)
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-ticker.C():
				goroutine.Tick(ctx, "lockAndFlushAll", FlushInterval, func(context.Context) {})
			}
		}
	}, goroutine.WithPeriod(FlushInterval))
}

package catalog

import "time"

// The kube-controller-manager's process-level goroutines, catalog §1.
func init() {
	register(
		Entry{
			Name: "cm/glog-flush-daemon", Component: "kube-controller-manager", Kind: KindGo, Period: 30 * time.Second,
			PeriodFrom: "flushInterval, a constant in github.com/golang/glog (glog.go)",
			Function:   "glog's init → go logging.flushDaemon() → for _ = range time.NewTicker(flushInterval).C { l.lockAndFlushAll() }",
			File:       "vendor/github.com/golang/glog/glog.go",
		},
		Entry{
			Name: "cm/log-flush", Component: "kube-controller-manager", Kind: KindUntil, Period: 5 * time.Second,
			PeriodFrom: "--log-flush-frequency, the default of logFlushFreq in pkg/util/logs",
			Function:   "logs.InitLogs → go wait.Until(glog.Flush, *logFlushFreq, wait.NeverStop)",
			File:       "pkg/util/logs/logs.go",
			Article:    articleCM + " §1 main",
		},
		Entry{
			Name: "cm/http-server", Component: "kube-controller-manager", Kind: KindGo,
			Function: "controllermanager.Run → go func(){ …; glog.Fatal(server.ListenAndServe()) }()",
			File:     "cmd/kube-controller-manager/app/controllermanager.go",
			Article:  articleCM + " §2 Run",
		},
		Entry{
			Name: "cm/event-broadcast-loop", Component: "kube-controller-manager", Kind: KindGo,
			Function: "record.NewBroadcaster → watch.NewBroadcaster → go m.loop()",
			File:     "pkg/watch/mux.go",
			Article:  articleCM + " §2 Run (record.NewBroadcaster)",
		},
		Entry{
			Name: "cm/event-log-watcher", Component: "kube-controller-manager", Kind: KindGo,
			Function: "EventBroadcaster.StartLogging → StartEventWatcher → go func(){ for ev := range watcher.ResultChan() … }()",
			File:     "pkg/client/record/event.go",
			Article:  articleCM + " §2 Run (StartLogging)",
		},
		Entry{
			Name: "cm/event-sink-watcher", Component: "kube-controller-manager", Kind: KindGo,
			Function: "EventBroadcaster.StartRecordingToSink → StartEventWatcher → go func(){ … recordToSink … }()",
			File:     "pkg/client/record/event.go",
			Article:  articleCM + " §2 Run (StartRecordingToSink)",
		},
		Entry{
			Name: "cm/leader-acquire", Component: "kube-controller-manager", Kind: KindMain, Period: 2 * time.Second,
			PeriodFrom: "--leader-elect-retry-period, the default of LeaderElectionConfiguration.RetryPeriod, jittered by JitterFactor 1.2",
			Function:   "LeaderElector.acquire → wait.JitterUntil(tryAcquireOrRenew…, RetryPeriod, JitterFactor=1.2, true, stop)",
			File:       "pkg/client/leaderelection/leaderelection.go",
			Article:    articleCM + " §2 Run (leaderelection.RunOrDie)",
		},
		Entry{
			Name: "cm/leader-renew", Component: "kube-controller-manager", Kind: KindMain, Period: 2 * time.Second,
			PeriodFrom: "--leader-elect-retry-period, the default of LeaderElectionConfiguration.RetryPeriod, the interval of renew's wait.Poll",
			Function:   "LeaderElector.renew → wait.Until(func(){ wait.Poll(RetryPeriod, RenewDeadline, tryAcquireOrRenew) }, 0, stop)",
			File:       "pkg/client/leaderelection/leaderelection.go",
			Article:    articleCM + " §2 Run (leaderelection.RunOrDie, OnStoppedLeading)",
		},
		Entry{
			Name: "cm/leader-poll-ticker", Component: "kube-controller-manager", Kind: KindGo, Period: 2 * time.Second,
			PeriodFrom: "--leader-elect-retry-period, the default of LeaderElectionConfiguration.RetryPeriod, the interval renew passes to wait.Poll",
			Function:   "LeaderElector.renew → wait.Poll(RetryPeriod, RenewDeadline, …) → pollInternal → WaitFor → poller: go func(){ tick := time.NewTicker(interval); … }()",
			File:       "pkg/util/wait/wait.go",
			PerCall:    true,
		},
		Entry{
			Name: "cm/controllers-main", Component: "kube-controller-manager", Kind: KindGo,
			Function: "LeaderElector.Run → go le.config.Callbacks.OnStartedLeading(stop) → run → StartControllers",
			File:     "pkg/client/leaderelection/leaderelection.go",
			Article:  articleCM + " §2 Run (OnStartedLeading: run)",
		},
	)
}

package catalog

import "time"

// The kube-controller-manager's process-level goroutines, catalog §1.
func init() {
	register(
		Entry{
			Name: "cm/log-flush", Component: "kube-controller-manager", Kind: KindUntil, Period: 5 * time.Second,
			PeriodFrom: "--log-flush-frequency, the default of logFlushFreq in pkg/util/logs",
			Function:   "logs.InitLogs → go wait.Until(glog.Flush, *logFlushFreq, wait.NeverStop)",
			File:       "pkg/util/logs/logs.go",
			Article:    articleCM + " §1 main",
			Summary: "Started by logs.InitLogs in main, right after the flags are parsed. Every --log-flush-frequency (5s) " +
				"it calls glog.Flush so that buffered log lines reach their destination, which bounds how much " +
				"logging a crash can lose. It runs until the process exits; main's deferred logs.FlushLogs flushes one last time.",
			SummaryZH: "由 main 里的 logs.InitLogs 在解析完参数后启动，是进程最早的协程之一。每隔 --log-flush-frequency（5 秒）调用一次 glog.Flush，" +
				"把缓冲中的日志真正写出去，这样进程崩溃时最多丢失几秒的日志。它一直运行到进程退出；main 中 defer 的 logs.FlushLogs 会在最后再刷一次。",
			Quote:   "logs.InitLogs()defer logs.FlushLogs()",
			QuoteEN: "logs.InitLogs()defer logs.FlushLogs()",
			Now:     "glog became klog, set up by k8s.io/component-base/logs; the flush loop remains and --log-flush-frequency is still 5s.",
			NowZH:   "glog 已改为 klog，由 k8s.io/component-base/logs 负责初始化；刷新循环依然存在，--log-flush-frequency 仍是 5 秒。",
		},
		Entry{
			Name: "cm/http-server", Component: "kube-controller-manager", Kind: KindGo,
			Function: "controllermanager.Run → go func(){ …; glog.Fatal(server.ListenAndServe()) }()",
			File:     "cmd/kube-controller-manager/app/controllermanager.go",
			Article:  articleCM + " §2 Run",
			Summary: "The controller manager's own HTTP endpoint, started in Run before leader election, so a standby " +
				"instance answers too. It blocks in ListenAndServe serving /healthz, /configz, /metrics and, with --profiling " +
				"(default true), /debug/pprof/, on --address:--port (0.0.0.0:10252 in 1.5); if the server ever returns, " +
				"glog.Fatal ends the process. kubeloom binds it to 127.0.0.1 on an ephemeral port.",
			SummaryZH: "controller manager 自己的 HTTP 服务，在 Run 中、选主之前就启动了，所以备用实例同样能响应。" +
				"它阻塞在 ListenAndServe 上，在 --address:--port（1.5 为 0.0.0.0:10252）提供 /healthz、/configz、/metrics，" +
				"开启 --profiling（默认开启）时还有 /debug/pprof/；服务一旦返回，glog.Fatal 就让进程退出。kubeloom 把它绑定在 127.0.0.1 的临时端口上。",
			Quote:   "//开启服务go func() {mux := http.NewServeMux()healthz.InstallHandler(mux)",
			QuoteEN: "//start the server go func() {mux := http.NewServeMux()healthz.InstallHandler(mux)",
			Now:     "Today kube-controller-manager serves over HTTPS on the secure port 10257; the insecure port 10252 was removed (around 1.20).",
			NowZH:   "如今 kube-controller-manager 通过 HTTPS 在安全端口 10257 上提供服务；非安全端口 10252 已被移除（大约在 1.20）。",
		},
		Entry{
			Name: "cm/event-broadcast-loop", Component: "kube-controller-manager", Kind: KindGo,
			Function: "record.NewBroadcaster → watch.NewBroadcaster → go m.loop()",
			File:     "pkg/watch/mux.go",
			Article:  articleCM + " §2 Run (record.NewBroadcaster)",
			Summary: "The fan-out goroutine of an event pipeline: an iteration takes one event from the broadcaster's incoming " +
				"channel and copies it to every watcher (the log and sink watchers), each with a queue of 1000 that drops " +
				"events when full. Besides the controller manager's own, 13 controllers build one in 1.5 (ReplicationManager, " +
				"NodeController, DaemonSets, Job, Deployment, ReplicaSet, PetSet, ScheduledJob, Certificate, HPA, " +
				"Disruption, PV, Service; the AttachDetachController records with the controller manager's, as StartControllers " +
				"passes it, and builds its own only since 1.6), told apart by the attribute event.component; the service controller (no cloud provider) " +
				"and, without its CA files, the certificate controller then fail to start, so theirs run on for nothing. " +
				"kubeloom uses client-go's real broadcaster and records its life from outside: from start to Shutdown, one iteration per event.",
			SummaryZH: "事件管道的分发协程：每次迭代从 broadcaster 的 incoming 通道取一个事件，复制给每个 watcher（日志 watcher 和 sink watcher），" +
				"每个 watcher 的队列容量 1000，满了就丢弃。除了 controller manager 自己的一个，1.5 中还有 13 个控制器各建一个" +
				"（ReplicationManager、NodeController、DaemonSets、Job、Deployment、ReplicaSet、PetSet、ScheduledJob、Certificate、" +
				"HPA、Disruption、PV、Service；AttachDetachController 用的是 StartControllers 传给它的 controller manager 的 recorder，1.6 起才自己建一个），用属性 event.component 区分；service 控制器（没有云厂商）和缺少 CA 文件时的 certificate 控制器随后启动失败，它们的这些协程就白白运行。kubeloom 使用 client-go 真实的 broadcaster，从外部记录它的生命周期：从启动到 Shutdown，每个事件一次迭代。",
			Quote:   "//事件播音员 Broadcaster发送事件到EventSink，EventSink存储事件eventBroadcaster := record.NewBroadcaster()",
			QuoteEN: "//event announcer Broadcaster sends events to the EventSink, the EventSink stores the events eventBroadcaster := record.NewBroadcaster()",
			Now:     "Same shape in client-go's tools/record (which gained Shutdown); an events.k8s.io/v1 broadcaster also exists in client-go/tools/events.",
			NowZH: "client-go 的 tools/record 中结构相同（新增了 Shutdown）；" +
				"client-go/tools/events 中还有一个 events.k8s.io/v1 的 broadcaster。",
		},
		Entry{
			Name: "cm/event-log-watcher", Component: "kube-controller-manager", Kind: KindGo,
			Function: "EventBroadcaster.StartLogging → StartEventWatcher → go func(){ for ev := range watcher.ResultChan() … }()",
			File:     "pkg/client/record/event.go",
			Article:  articleCM + " §2 Run (StartLogging)",
			Summary: "Started by StartLogging(glog.Infof): an iteration receives one event from its broadcaster and writes it " +
				"to the log with glog.Infof, which is why events also show up in the controller manager's log. There is one " +
				"per pipeline that logs; the HPA, Disruption, PV and Service pipelines are sink-only and have none. kubeloom " +
				"records it from outside client-go's broadcaster, one iteration per event.",
			SummaryZH: "由 StartLogging(glog.Infof) 启动：每次迭代从 broadcaster 收到一个事件，用 glog.Infof 写进日志，" +
				"所以事件也会出现在 controller manager 的日志里。每个要打日志的管道有一个；HPA、Disruption、PV 和 Service 的管道只写 sink，没有它。" +
				"kubeloom 从 client-go 的 broadcaster 外部记录它，每个事件一次迭代。",
			Quote:   "eventBroadcaster.StartLogging(glog.Infof)",
			QuoteEN: "eventBroadcaster.StartLogging(glog.Infof)",
			Now:     "Still in client-go's tools/record, where StartStructuredLogging is the structured-logging form.",
			NowZH:   "仍在 client-go 的 tools/record 中，StartStructuredLogging 是它的结构化日志版本。",
		},
		Entry{
			Name: "cm/event-sink-watcher", Component: "kube-controller-manager", Kind: KindGo,
			Function: "EventBroadcaster.StartRecordingToSink → StartEventWatcher → go func(){ … recordToSink … }()",
			File:     "pkg/client/record/event.go",
			Article:  articleCM + " §2 Run (StartRecordingToSink)",
			Summary: "Started by StartRecordingToSink: an iteration takes one event, passes it through the EventCorrelator " +
				"(aggregation and spam filter) and writes it to the apiserver, a POST for a new event or a PATCH that bumps " +
				"the count of a repeat, retrying up to 12 times 10s apart. This is where events become visible to kubectl get events. " +
				"Every pipeline has one; kubeloom records it from outside client-go's broadcaster, one iteration per event.",
			SummaryZH: "由 StartRecordingToSink 启动：每次迭代取一个事件，经过 EventCorrelator（聚合与防刷屏过滤）后写到 apiserver，" +
				"新事件用 POST，重复事件用 PATCH 增加计数，失败最多重试 12 次、每次间隔 10 秒。事件正是在这里变得能被 kubectl get events 看到。" +
				"每个管道都有一个；kubeloom 从 client-go 的 broadcaster 外部记录它，每个事件一次迭代。",
			Quote:   "eventBroadcaster.StartRecordingToSink(&unversionedcore.EventSinkImpl{Interface: kubeClient.Core().Events(\"\")})",
			QuoteEN: "eventBroadcaster.StartRecordingToSink(&unversionedcore.EventSinkImpl{Interface: kubeClient.Core().Events(\"\")})",
			Now:     "Same in client-go's tools/record; the events.k8s.io/v1 broadcaster in client-go/tools/events is the newer alternative.",
			NowZH: "client-go 的 tools/record 中依然如此；" +
				"client-go/tools/events 中 events.k8s.io/v1 的 broadcaster 是较新的替代方案。",
		},
		Entry{
			Name: "cm/leader-acquire", Component: "kube-controller-manager", Kind: KindMain, Period: 2 * time.Second,
			PeriodFrom: "--leader-elect-retry-period, the default of LeaderElectionConfiguration.RetryPeriod, jittered by JitterFactor 1.2",
			Function:   "LeaderElector.acquire → wait.JitterUntil(tryAcquireOrRenew…, RetryPeriod, JitterFactor=1.2, true, stop)",
			File:       "pkg/client/leaderelection/leaderelection.go",
			Article:    articleCM + " §2 Run (leaderelection.RunOrDie)",
			Summary: "Runs on the main goroutine (no go): RunOrDie blocks here until this process is the leader. Each try " +
				"GETs the lock, the Endpoints object kube-system/kube-controller-manager with the annotation " +
				"control-plane.alpha.kubernetes.io/leader, creates it if it is missing, and takes it over with a PUT only if " +
				"the record has not changed for this candidate's own LeaseDuration (15s); the record's leaseDurationSeconds is " +
				"written but never read. Tries come every RetryPeriod (2s) stretched by up to 1.2× jitter, the first at once; " +
				"success records a \"became leader\" event and ends the loop.",
			SummaryZH: "运行在主协程上（没有 go）：RunOrDie 在这里阻塞，直到本进程成为 leader。每次尝试先 GET 锁，即带有注解 " +
				"control-plane.alpha.kubernetes.io/leader 的 Endpoints 对象 kube-system/kube-controller-manager，不存在就创建；" +
				"只有当记录在本候选者自己的 LeaseDuration（15 秒）内都没有变化时，才用 PUT 把锁抢过来。记录里的 leaseDurationSeconds 会被写入，但从不被读取。" +
				"每隔 RetryPeriod（2 秒）尝试一次，并加上最多 1.2 倍的抖动，第一次立即进行；成功后记录 \"became leader\" 事件并结束循环。",
			Quote:   "//根据配置选举leader，以及选举 失败/成功对应的执行方法leaderelection.RunOrDie(leaderelection.LeaderElectionConfig{",
			QuoteEN: "//elect the leader according to the configuration, and the methods to run on election failure/success leaderelection.RunOrDie(leaderelection.LeaderElectionConfig{",
			Now: "The lock is now a Lease (coordination.k8s.io), the default since 1.20; the Endpoints and ConfigMap locks were " +
				"removed in 1.24, and candidates use the record's leaseDurationSeconds. The 15s/10s/2s timings and the 1.2 jitter are unchanged.",
			NowZH: "锁现在是 Lease（coordination.k8s.io），自 1.20 起为默认；Endpoints 锁和 ConfigMap 锁已在 1.24 中移除，" +
				"候选者会使用记录里的 leaseDurationSeconds。15 秒/10 秒/2 秒的时间参数和 1.2 倍的抖动都没有变。",
		},
		Entry{
			Name: "cm/leader-renew", Component: "kube-controller-manager", Kind: KindMain, Period: 2 * time.Second,
			PeriodFrom: "--leader-elect-retry-period, the default of LeaderElectionConfiguration.RetryPeriod, the interval of renew's wait.Poll",
			Function:   "LeaderElector.renew → wait.Until(func(){ wait.Poll(RetryPeriod, RenewDeadline, tryAcquireOrRenew) }, 0, stop)",
			File:       "pkg/client/leaderelection/leaderelection.go",
			Article:    articleCM + " §2 Run (leaderelection.RunOrDie, OnStoppedLeading)",
			Summary: "Once leader, the main goroutine stays here. An iteration is one wait.Poll: wait a RetryPeriod (2s), then " +
				"GET and PUT the Endpoints lock with a fresh renewTime, retrying every 2s for up to RenewDeadline (10s); the " +
				"period of the outer loop is 0, so a success starts the next iteration at once and the lock is renewed about " +
				"every 2s. If 10s pass without a renewal it records a \"stopped leading\" event and OnStoppedLeading calls " +
				"glog.Fatalf(\"leaderelection lost\"): losing the lease kills the process. Each wait.Poll starts a short-lived " +
				"ticker goroutine (cm/leader-poll-ticker) that kubeloom does not draw as its own lane.",
			SummaryZH: "成为 leader 之后，主协程就停留在这里。每次迭代是一次 wait.Poll：先等一个 RetryPeriod（2 秒），再 GET 并 PUT Endpoints 锁、" +
				"刷新 renewTime，失败则每 2 秒重试，最长到 RenewDeadline（10 秒）；外层循环周期为 0，成功后立即开始下一次迭代，所以大约每 2 秒续约一次。" +
				"若 10 秒内都没续约成功，就记录 \"stopped leading\" 事件，OnStoppedLeading 调用 glog.Fatalf(\"leaderelection lost\")：丢了租约，进程就退出。" +
				"每次 wait.Poll 还会启动一个短命的 ticker 协程（cm/leader-poll-ticker），kubeloom 不为它单独画一条泳道。",
			Quote:   "//根据配置选举leader，以及选举 失败/成功对应的执行方法leaderelection.RunOrDie(leaderelection.LeaderElectionConfig{",
			QuoteEN: "//elect the leader according to the configuration, and the methods to run on election failure/success leaderelection.RunOrDie(leaderelection.LeaderElectionConfig{",
			Now: "Renewal now updates a coordination.k8s.io Lease (the default since 1.20) instead of an Endpoints annotation; " +
				"the 10s renew deadline and 2s retry period are unchanged.",
			NowZH: "续约现在更新的是 coordination.k8s.io 的 Lease（自 1.20 起为默认），" +
				"而不是 Endpoints 注解；10 秒的续约期限和 2 秒的重试周期都没有变。",
		},
		Entry{
			Name: "cm/controllers-main", Component: "kube-controller-manager", Kind: KindGo,
			Function: "LeaderElector.Run → go le.config.Callbacks.OnStartedLeading(stop) → run → StartControllers",
			File:     "pkg/client/leaderelection/leaderelection.go",
			Article:  articleCM + " §2 Run (OnStartedLeading: run)",
			Summary: "Started by LeaderElector.Run as soon as this process becomes leader: OnStartedLeading is Run's run closure, " +
				"which calls StartControllers. That starts the 21 controllers one after another, then sharedInformers.Start(stop) " +
				"starts every shared informer they asked for, and the goroutine blocks forever in select {}; the controllers' " +
				"lanes are its children. With --leader-elect=false, run(nil) is called on the main goroutine instead.",
			SummaryZH: "本进程一成为 leader，LeaderElector.Run 就启动它：OnStartedLeading 就是 Run 里的 run 闭包，它调用 StartControllers。" +
				"StartControllers 依次启动 21 个控制器，再用 sharedInformers.Start(stop) 启动它们申请的所有共享 informer，然后永久阻塞在 select {} 上；" +
				"各控制器的泳道都是它的子协程。若 --leader-elect=false，则直接在主协程上调用 run(nil)。",
			Quote:   "OnStartedLeading: run；在run方法中实际上调用了sharedInformers",
			QuoteEN: "OnStartedLeading: run … The run method in fact calls sharedInformers",
			Now: "Controllers are now started from an init-function map (selectable with --controllers), each as Run(ctx, workers), " +
				"the shared informers are started after all of them, and OnStartedLeading receives a context.",
			NowZH: "现在各控制器通过一个初始化函数表启动（可用 --controllers 选择），每个都以 Run(ctx, workers) 的形式运行，" +
				"共享 informer 在所有控制器都启动之后才启动，OnStartedLeading 会收到一个 context。",
		},
	)
}

package catalog

import "time"

// The kubelet's goroutines, catalog §4, in the order a kubelet starts them.
const articleKubelet = "kubelet-goroutines.zh.txt"

func init() {
	const kubelet = "kubelet"
	runSection := articleKubelet + " (3) Kubelet Run"
	register(
		// main → app.Run → run → RunKubelet.
		Entry{
			Name: "kubelet/log-flush", Component: kubelet, Kind: KindUntil, Period: 5 * time.Second,
			PeriodFrom: "--log-flush-frequency, the default of logFlushFreq in pkg/util/logs",
			Function:   "logs.InitLogs → go wait.Until(glog.Flush, *logFlushFreq, wait.NeverStop)",
			File:       "pkg/util/logs/logs.go",
			Article:    articleKubelet + " (5) 日志flush",
			Summary: "Started by logs.InitLogs in the kubelet's main (util.InitLogs in the article's v1.3), before anything " +
				"else runs. Every --log-flush-frequency (5s) it calls glog.Flush so that buffered log lines are written out; " +
				"the comment in InitLogs notes that glog's own 30-second flush interval is \"frighteningly long\". It makes no " +
				"apiserver calls and runs until the process exits.",
			SummaryZH: "由 kubelet main 中的 logs.InitLogs（文章的 v1.3 里是 util.InitLogs）启动，比其他一切都早。" +
				"每隔 --log-flush-frequency（5 秒）调用一次 glog.Flush，把缓冲中的日志写出去；InitLogs 的注释说 glog 自带的 30 秒刷新间隔" +
				"\"长得吓人\"。它不调用 apiserver，一直运行到进程退出。",
			Quote:   "main函数中： util.InitLogs()；go wait.Until(glog.Flush, *logFlushFreq, wait.NeverStop)",
			QuoteEN: "In the main function: util.InitLogs() … go wait.Until(glog.Flush, *logFlushFreq, wait.NeverStop)",
			Now:     "glog became klog, set up by k8s.io/component-base/logs; the flush loop remains and --log-flush-frequency is still 5s.",
			NowZH:   "glog 已改为 klog，由 k8s.io/component-base/logs 负责初始化；刷新循环依然存在，--log-flush-frequency 仍是 5 秒。",
		},
		Entry{
			Name: "kubelet/healthz-server", Component: kubelet, Kind: KindUntil, Period: 5 * time.Second,
			PeriodFrom: "5*time.Second, a literal in cmd/kubelet/app/server.go",
			Function:   "run → go wait.Until(func(){ http.ListenAndServe(healthzAddr, nil) }, 5*time.Second, wait.NeverStop)",
			File:       "cmd/kubelet/app/server.go",
			Article:    articleKubelet + " (4) server.go run",
			Summary: "The kubelet's health endpoint, started in server.go's run right after RunKubelet returns, so every other " +
				"kubelet goroutine already exists when it begins. It serves /healthz (a plain ping registered by " +
				"healthz.DefaultHealthz on the default ServeMux) on --healthz-bind-address:--healthz-port, 127.0.0.1:10248. " +
				"ListenAndServe normally never returns; if it does (the port is taken, say) the error is logged and wait.Until " +
				"tries again 5s later, so one iteration is one attempt to serve. kubeloom binds it to 127.0.0.1 on an ephemeral port.",
			SummaryZH: "kubelet 的健康检查端点，在 server.go 的 run 中、RunKubelet 返回之后启动，所以它开始时 kubelet 的其他协程都已存在。" +
				"它在 --healthz-bind-address:--healthz-port（127.0.0.1:10248）上提供 /healthz（由 healthz.DefaultHealthz 注册在默认 ServeMux 上的简单 ping）。" +
				"ListenAndServe 通常不会返回；一旦返回（比如端口被占用），记录错误后 wait.Until 在 5 秒后重试，所以一次迭代就是一次提供服务的尝试。" +
				"kubeloom 把它绑定在 127.0.0.1 的临时端口上。",
			Quote:   "err := http.ListenAndServe(net.JoinHostPort(s.HealthzBindAddress, strconv.Itoa(int(s.HealthzPort))), nil)；}, 5*time.Second, wait.NeverStop)",
			QuoteEN: "err := http.ListenAndServe(net.JoinHostPort(s.HealthzBindAddress, strconv.Itoa(int(s.HealthzPort))), nil) … }, 5*time.Second, wait.NeverStop)",
			Now: "Still started after RunKubelet and retried every 5s, now as go wait.UntilWithContext(ctx, …, 5*time.Second) " +
				"on a dedicated ServeMux (healthz.InstallHandler) instead of the default one.",
			NowZH: "仍在 RunKubelet 之后启动、每 5 秒重试，现在写作 go wait.UntilWithContext(ctx, …, 5*time.Second)，" +
				"使用专门的 ServeMux（healthz.InstallHandler），而不是默认的 ServeMux。",
		},
		Entry{
			Name: "kubelet/event-broadcast-loop", Component: kubelet, Kind: KindGo,
			Function: "RunKubelet → record.NewBroadcaster → watch.NewBroadcaster → go m.loop()",
			File:     "pkg/watch/mux.go",
			Summary: "The fan-out goroutine of the kubelet's event pipeline, built at the top of RunKubelet with the event " +
				"source {Component: \"kubelet\", Host: <node name>}. An iteration takes one event from the broadcaster's incoming " +
				"channel and copies it to the log and sink watchers, each with a queue of 1000 that drops events when full. " +
				"Everything the kubelet reports goes through it: \"Starting kubelet.\" from BirthCry, node conditions, image " +
				"pulls, container starts and kills, probe failures. kubeloom uses client-go's real broadcaster and records its " +
				"life from outside, one iteration per event.",
			SummaryZH: "kubelet 事件管道的分发协程，在 RunKubelet 开头以事件来源 {Component: \"kubelet\", Host: <节点名>} 建立。" +
				"每次迭代从 broadcaster 的 incoming 通道取一个事件，复制给日志 watcher 和 sink watcher，每个 watcher 的队列容量 1000，满了就丢弃。" +
				"kubelet 报告的一切都经过它：BirthCry 的 \"Starting kubelet.\"、节点状况、镜像拉取、容器启动和终止、探针失败。" +
				"kubeloom 使用 client-go 真实的 broadcaster，从外部记录它的生命周期，每个事件一次迭代。",
			Now: "Same three goroutines from client-go's tools/record, set up by makeEventRecorder with " +
				"record.NewBroadcaster(record.WithContext(ctx)); the kubelet still writes core/v1 Events.",
			NowZH: "仍是 client-go 的 tools/record 中的那三个协程，" +
				"由 makeEventRecorder 通过 record.NewBroadcaster(record.WithContext(ctx)) 建立；kubelet 写的仍是 core/v1 的 Event。",
		},
		Entry{
			Name: "kubelet/event-log-watcher", Component: kubelet, Kind: KindGo,
			Function: "RunKubelet → eventBroadcaster.StartLogging(glog.V(3).Infof) → StartEventWatcher → go func(){ for ev := range watcher.ResultChan() … }()",
			File:     "pkg/client/record/event.go",
			Summary: "Started by StartLogging(glog.V(3).Infof) in RunKubelet: an iteration receives one event from the " +
				"kubelet's broadcaster and writes it to the log, but only at verbosity 3 or higher, so with the default -v " +
				"nothing is printed. It makes no apiserver calls. kubeloom records it from outside client-go's broadcaster, " +
				"one iteration per event.",
			SummaryZH: "由 RunKubelet 中的 StartLogging(glog.V(3).Infof) 启动：每次迭代从 kubelet 的 broadcaster 收到一个事件并写进日志，" +
				"但只在日志级别不低于 3 时才输出，所以默认的 -v 下什么也不打印。它不调用 apiserver。" +
				"kubeloom 从 client-go 的 broadcaster 外部记录它，每个事件一次迭代。",
			Now:   "Still in client-go's tools/record; the kubelet now calls StartStructuredLogging(3).",
			NowZH: "仍在 client-go 的 tools/record 中；kubelet 现在调用 StartStructuredLogging(3)。",
		},
		Entry{
			Name: "kubelet/event-sink-watcher", Component: kubelet, Kind: KindGo,
			Function: "RunKubelet → eventBroadcaster.StartRecordingToSink(&v1core.EventSinkImpl{Interface: kubeDeps.EventClient.Events(\"\")}) → StartEventWatcher → go func(){ … recordToSink … }()",
			File:     "pkg/client/record/event.go",
			Summary: "Started by StartRecordingToSink, only when the kubelet has an event client (without an apiserver it " +
				"logs \"No api server defined - no events will be sent to API server.\"). An iteration takes one event, passes " +
				"it through the EventCorrelator (aggregation and spam filter) and writes it: a POST for a new event, a PATCH " +
				"that bumps the count of a repeat, retrying up to 12 times 10s apart. The event client has its own rate limit, " +
				"--event-qps 5 and --event-burst 10. kubeloom records it from outside client-go's broadcaster, one iteration per event.",
			SummaryZH: "由 StartRecordingToSink 启动，只有 kubelet 有事件客户端时才会启动（没有 apiserver 时会打印 " +
				"\"No api server defined - no events will be sent to API server.\"）。每次迭代取一个事件，经过 EventCorrelator（聚合与防刷屏过滤）后写出：" +
				"新事件用 POST，重复事件用 PATCH 增加计数，失败最多重试 12 次、每次间隔 10 秒。事件客户端有自己的限流：--event-qps 5、--event-burst 10。" +
				"kubeloom 从 client-go 的 broadcaster 外部记录它，每个事件一次迭代。",
			Now:   "Same in client-go's tools/record; a separate event client with its own QPS and burst is still built.",
			NowZH: "client-go 的 tools/record 中依然如此；kubelet 仍会单独建一个有自己 QPS 和 burst 的事件客户端。",
		},

		// RunKubelet → CreateAndInitKubelet → makePodSourceConfig: the pod sources.
		Entry{
			Name: "kubelet/source-file", Component: kubelet, Kind: KindUntil, Period: 20 * time.Second,
			PeriodFrom: "--file-check-frequency, the default of FileCheckFrequency",
			Function:   "makePodSourceConfig → config.NewSourceFile → go wait.Until(config.run, period, wait.NeverStop)",
			File:       "pkg/kubelet/config/file.go",
			Article:    articleKubelet + " (6) SourceFile",
			Summary: "The static-pod file source, started only when --pod-manifest-path (or --config) names a file or " +
				"directory. Every --file-check-frequency (20s) an iteration reads the manifests, gives each pod a name suffixed " +
				"with the node name, a UID hashed from its content and the node's name as spec.nodeName, and sends the whole " +
				"list as one SET update (source \"file\") to its config-mux channel. It makes no apiserver calls: the kubelet " +
				"runs these pods itself and only creates mirror pods for them later. In the article's v1.3 makePodSourceConfig " +
				"lives in server.go's CreateAndInitKubelet; in 1.5 NewMainKubelet calls it.",
			SummaryZH: "静态 pod 的文件源，只有 --pod-manifest-path（或 --config）指定了文件或目录时才启动。每隔 --file-check-frequency（20 秒）" +
				"读一次清单，给每个 pod 的名字加上节点名后缀、用内容计算 UID、把 spec.nodeName 设为本节点，再把整个列表作为一个 SET 更新" +
				"（来源 \"file\"）发到它的 config-mux 通道。它不调用 apiserver：这些 pod 由 kubelet 自己运行，之后才为它们创建镜像 pod。" +
				"在文章的 v1.3 中 makePodSourceConfig 位于 server.go 的 CreateAndInitKubelet；1.5 中由 NewMainKubelet 调用。",
			Quote:   "go wait.Until(config.run, period, wait.NeverStop)；调用链为run->\u00a0RunKubelet -> CreateAndInitKubelet ->makePodSourceConfig->NewSourceFile",
			QuoteEN: "go wait.Until(config.run, period, wait.NeverStop) … The call chain is run-> RunKubelet -> CreateAndInitKubelet ->makePodSourceConfig->NewSourceFile",
			Now: "Still a 20s re-list (staticPodPath, fileCheckFrequency); on Linux the file source also watches the path " +
				"with inotify, so changes arrive sooner.",
			NowZH: "仍是每 20 秒重新读取一次（staticPodPath、fileCheckFrequency）；在 Linux 上文件源还会用 inotify 监视该路径，所以变化能更快到达。",
		},
		Entry{
			Name: "kubelet/source-url", Component: kubelet, Kind: KindUntil, Period: 20 * time.Second,
			PeriodFrom: "--http-check-frequency, the default of HTTPCheckFrequency",
			Function:   "makePodSourceConfig → config.NewSourceURL → go wait.Until(config.run, period, wait.NeverStop)",
			File:       "pkg/kubelet/config/http.go",
			Article:    articleKubelet + " (7) SourceURL",
			Summary: "The static-pod HTTP source, started only with --manifest-url. Every --http-check-frequency (20s) an " +
				"iteration GETs the URL with a 10-second client timeout and, if the body changed since the last poll, decodes " +
				"one pod or a pod list and sends it as a SET update (source \"http\") to its config-mux channel. It talks to that " +
				"URL, never to the apiserver. kubeloom serves the manifests itself over HTTP on 127.0.0.1.",
			SummaryZH: "静态 pod 的 HTTP 源，只有指定 --manifest-url 时才启动。每隔 --http-check-frequency（20 秒）以 10 秒超时的客户端 GET 一次该 URL，" +
				"若内容与上次不同，就解码出一个 pod 或 pod 列表，作为 SET 更新（来源 \"http\"）发到它的 config-mux 通道。" +
				"它只访问这个 URL，从不访问 apiserver。kubeloom 自己在 127.0.0.1 上通过 HTTP 提供这些清单。",
			Quote:   "client: &http.Client{Timeout: 10 * time.Second},；调用链为run->\u00a0RunKubelet -> CreateAndInitKubelet ->makePodSourceConfig->NewSourceURL",
			QuoteEN: "client: &http.Client{Timeout: 10 * time.Second}, … The call chain is run-> RunKubelet -> CreateAndInitKubelet ->makePodSourceConfig->NewSourceURL",
			Now:     "Unchanged in shape: staticPodURL polled every httpCheckFrequency (20s).",
			NowZH:   "结构不变：每隔 httpCheckFrequency（20 秒）轮询一次 staticPodURL。",
		},
		Entry{
			Name: "kubelet/source-apiserver", Component: kubelet, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "r.period = time.Second, set by NewNamedReflector",
			Function:   "makePodSourceConfig → config.NewSourceApiserver → cache.NewReflector(lw, &v1.Pod{}, cache.NewUndeltaStore(send, …), 0).Run() → go wait.Until(func(){ r.ListAndWatch(wait.NeverStop) }, r.period, wait.NeverStop)",
			File:       "pkg/kubelet/config/apiserver.go",
			Article:    articleKubelet + " (8) APIService Watch",
			Summary: "How pods bound to this node reach the kubelet: a stand-alone reflector that LISTs and then WATCHes " +
				"pods in all namespaces with the field selector spec.nodeName=<node>, re-listing 1s after a ListAndWatch fails. " +
				"Its store is an UndeltaStore: after every add, update, delete or replace it sends the whole pod list as one " +
				"PodUpdate{Op: SET, Source: \"api\"}, and the config mux works out what changed. The article's (8) repeats " +
				"the call chain of (7), ending in NewSourceURL; it is NewSourceApiserver. kubeloom filters on spec.nodeName " +
				"itself, because client-go's fake clientset ignores field selectors.",
			SummaryZH: "绑定到本节点的 pod 就是这样到达 kubelet 的：一个独立的 reflector，以字段选择器 spec.nodeName=<节点名> 在所有命名空间 LIST 再 WATCH pod，" +
				"ListAndWatch 失败后 1 秒重新 list。它的 store 是 UndeltaStore：每次增、改、删或替换之后，都把整个 pod 列表作为一个 " +
				"PodUpdate{Op: SET, Source: \"api\"} 发出去，由 config mux 算出变化。文章第 (8) 节照抄了第 (7) 节的调用链，结尾写成 NewSourceURL；" +
				"实际是 NewSourceApiserver。client-go 的 fake clientset 会忽略字段选择器，所以 kubeloom 自己按 spec.nodeName 过滤。",
			Quote:   "cache.NewReflector(lw, &api.Pod{}, cache.NewUndeltaStore(send, cache.MetaNamespaceKeyFunc), 0).Run()；updates <- kubetypes.PodUpdate{Pods: pods, Op: kubetypes.SET, Source: kubetypes.ApiserverSource}",
			QuoteEN: "cache.NewReflector(lw, &api.Pod{}, cache.NewUndeltaStore(send, cache.MetaNamespaceKeyFunc), 0).Run() … updates <- kubetypes.PodUpdate{Pods: pods, Op: kubetypes.SET, Source: kubetypes.ApiserverSource}",
			Now: "Still a reflector on spec.nodeName feeding an UndeltaStore SET; it now backs off exponentially instead of " +
				"re-listing after a fixed 1s, and starts only once the kubelet's node informer has synced.",
			NowZH: "仍是一个按 spec.nodeName 过滤的 reflector，以 SET 更新喂给 UndeltaStore；" +
				"现在失败后改为指数退避，而不是固定 1 秒后重新 list，并且要等 kubelet 的 node informer 同步完成才启动。",
		},
		Entry{
			Name: "kubelet/config-mux", Component: kubelet, Kind: KindUntil,
			Function: "PodConfig.Channel(source) → Mux.Channel → go wait.Until(func(){ m.listen(source, newChannel) }, 0, wait.NeverStop)",
			File:     "pkg/util/config/config.go",
			Summary: "One per pod source (file, http, api), started when makePodSourceConfig asks PodConfig for that source's " +
				"channel. An iteration takes one snapshot from the source and calls podStorage.Merge, which compares it with " +
				"the pods last seen from that source and sends the differences to the kubelet's updates channel (buffer 50): " +
				"REMOVE, ADD, UPDATE, DELETE (graceful deletion) and RECONCILE (status-only changes). Merge also marks the " +
				"source as seen, which the kubelet's cleanup loops wait for. listen only returns if its channel is closed, so " +
				"the period 0 never matters.",
			SummaryZH: "每个 pod 源（file、http、api）一个，makePodSourceConfig 向 PodConfig 要该源的通道时启动。每次迭代从源取一个快照，" +
				"调用 podStorage.Merge：与上次从该源看到的 pod 比较，把差异发到 kubelet 的 updates 通道（容量 50）：REMOVE、ADD、UPDATE、" +
				"DELETE（优雅删除）和 RECONCILE（只有状态变化）。Merge 还会把该源标记为已见过，kubelet 的清理循环要等到这一点。" +
				"listen 只有在通道关闭时才返回，所以周期 0 从来用不上。",
			Now:   "Mux.ChannelWithContext(ctx, source) starts the same listen goroutine; podStorage.Merge works as before.",
			NowZH: "Mux.ChannelWithContext(ctx, source) 启动同样的 listen 协程；podStorage.Merge 的工作方式和以前一样。",
		},
		// CreateAndInitKubelet: BirthCry, then StartGarbageCollection.
		Entry{
			Name: "kubelet/container-gc", Component: kubelet, Kind: KindUntil, Period: time.Minute,
			PeriodFrom: "ContainerGCPeriod, a constant in pkg/kubelet/kubelet.go",
			Function:   "Kubelet.StartGarbageCollection → go wait.Until(func(){ kl.containerGC.GarbageCollect(kl.sourcesReady.AllReady()) }, ContainerGCPeriod, wait.NeverStop)",
			File:       "pkg/kubelet/kubelet.go",
			Article:    articleKubelet + " (1) 垃圾筒收集协程",
			Summary: "Started by CreateAndInitKubelet right after BirthCry, before the kubelet's main loop runs. Every " +
				"ContainerGCPeriod (1m) an iteration removes dead containers: more than --maximum-dead-containers-per-container " +
				"(1) per pod and container name, oldest first, and, once every pod source has been seen, the dead containers " +
				"of pods that no longer exist. A failure records a ContainerGCFailed event on the node; otherwise it makes no " +
				"apiserver calls. kubeloom names each iteration span Containers/GarbageCollect and removes containers from its " +
				"simulated runtime.",
			SummaryZH: "由 CreateAndInitKubelet 在 BirthCry 之后立即启动，那时 kubelet 的主循环还没有运行。每隔 ContainerGCPeriod（1 分钟）" +
				"清理一次已退出的容器：每个 pod 的每个容器名保留 --maximum-dead-containers-per-container（1）个，多出的从最旧的开始删；" +
				"所有 pod 源都见过之后，已不存在的 pod 的退出容器也删掉。失败时在节点上记录 ContainerGCFailed 事件，除此之外不调用 apiserver。" +
				"kubeloom 把每次迭代的 span 命名为 Containers/GarbageCollect，并从模拟的容器运行时中删除容器。",
			Quote:   "在KubeletConfig\u00a0CreateAndInitKubelet函数中，调用k.StartGarbageCollection()启动；}, ContainerGCPeriod, wait.NeverStop)",
			QuoteEN: "In the KubeletConfig CreateAndInitKubelet function, it is started by calling k.StartGarbageCollection() … }, ContainerGCPeriod, wait.NeverStop)",
			Now: "Same 1m loop started by StartGarbageCollection(ctx); with the CRI it removes dead containers and then " +
				"dead pod sandboxes.",
			NowZH: "同样是由 StartGarbageCollection(ctx) 启动的 1 分钟循环；使用 CRI 后，它先删除已退出的容器，再删除已退出的 pod sandbox。",
		},
		Entry{
			Name: "kubelet/image-gc", Component: kubelet, Kind: KindUntil, Period: 5 * time.Minute,
			PeriodFrom: "ImageGCPeriod, a constant in pkg/kubelet/kubelet.go",
			Function:   "Kubelet.StartGarbageCollection → go wait.Until(func(){ kl.imageManager.GarbageCollect() }, ImageGCPeriod, wait.NeverStop)",
			File:       "pkg/kubelet/kubelet.go",
			Article:    articleKubelet + " (1) 垃圾筒收集协程",
			Summary: "Started next to container GC by StartGarbageCollection. Every ImageGCPeriod (5m) an iteration asks " +
				"cAdvisor how full the image filesystem is; at or above --image-gc-high-threshold (90% in 1.5) it deletes " +
				"unused images, least recently used first and only those first seen at least MinAge (2m) ago, until usage is " +
				"down to --image-gc-low-threshold (80%). Not freeing enough records a FreeDiskSpaceFailed warning on the node " +
				"(today's kubelet also records ImageGCFailed); " +
				"otherwise it makes no apiserver calls. kubeloom names each iteration span Images/GarbageCollect; the scenario " +
				"action setImageFSUsage sets how full the simulated image filesystem is.",
			SummaryZH: "由 StartGarbageCollection 与容器 GC 一起启动。每隔 ImageGCPeriod（5 分钟）向 cAdvisor 询问镜像文件系统的使用率；" +
				"达到或超过 --image-gc-high-threshold（1.5 为 90%）时，删除未被使用的镜像，按最近最少使用的顺序、且只删首次发现至少 MinAge（2 分钟）之前的，" +
				"直到使用率降到 --image-gc-low-threshold（80%）。释放不够时在节点上记录 FreeDiskSpaceFailed 警告事件（今天的 kubelet 还会记录 ImageGCFailed），除此之外不调用 apiserver。" +
				"kubeloom 把每次迭代的 span 命名为 Images/GarbageCollect；场景动作 setImageFSUsage 设定模拟镜像文件系统的使用率。",
			Quote:   "if err := kl.imageManager.GarbageCollect(); err != nil {；}, ImageGCPeriod, wait.NeverStop)",
			QuoteEN: "if err := kl.imageManager.GarbageCollect(); err != nil { … }, ImageGCPeriod, wait.NeverStop)",
			Now: "Same 5m loop; the default high threshold is now 85% (low still 80%), and newer releases can also delete " +
				"images unused for longer than imageMaximumGCAge.",
			NowZH: "同样是 5 分钟的循环；默认的高阈值现在是 85%（低阈值仍是 80%），较新的版本还能删除超过 imageMaximumGCAge 未被使用的镜像。",
		},

		// RunKubelet → startKubelet.
		Entry{
			Name: "kubelet/main-loop", Component: kubelet, Kind: KindUntil,
			Function: "startKubelet → go wait.Until(func(){ k.Run(podCfg.Updates()) }, 0, wait.NeverStop) → Kubelet.Run → syncLoop",
			File:     "cmd/kubelet/app/server.go",
			Article:  articleKubelet + " (9) startKubelet, (3) Kubelet Run",
			Summary: "The kubelet's main goroutine. Kubelet.Run runs initializeModules, starts the goroutines of the " +
				"article's (3) and ends in syncLoop, which never returns, so the period 0 of wait.Until never comes into play. " +
				"Each pass of syncLoop selects one of: a pod update from the config mux (dispatched to pod workers), a PLEG " +
				"event, the 1s sync tick (pods whose resync time has come), a liveness failure, or the 2s housekeeping tick " +
				"(HandlePodCleanups); while runtime-up has not reported the runtime up it skips and sleeps 5s. It calls the " +
				"apiserver only through the pod workers, the status manager and mirror pods. kubeloom records each select arm as a span.",
			SummaryZH: "kubelet 的主协程。Kubelet.Run 执行 initializeModules，启动文章第 (3) 节中的协程，最后进入永不返回的 syncLoop，" +
				"所以 wait.Until 的周期 0 从来用不上。syncLoop 每一轮在下列事件中选一个处理：来自 config mux 的 pod 更新（分派给 pod worker）、" +
				"PLEG 事件、1 秒的同步 tick（到了重新同步时间的 pod）、存活探针失败，或 2 秒的 housekeeping tick（HandlePodCleanups）；" +
				"在 runtime-up 报告运行时正常之前，它跳过处理并睡 5 秒。它只通过 pod worker、状态管理器和镜像 pod 调用 apiserver。" +
				"kubeloom 把 select 的每个分支记录为一个 span。",
			Quote:   "go wait.Until(func() { k.Run(podCfg.Updates()) }, 0, wait.NeverStop)；kl.syncLoop(updates, kl)",
			QuoteEN: "go wait.Until(func() { k.Run(podCfg.Updates()) }, 0, wait.NeverStop) … kl.syncLoop(updates, kl)",
			Now: "startKubelet now runs a plain go k.Run(ctx, podCfg.Updates()); syncLoop keeps its config, PLEG, 1s sync " +
				"and 2s housekeeping arms, and readiness and startup probe results became arms of it too.",
			NowZH: "startKubelet 现在直接执行 go k.Run(ctx, podCfg.Updates())；" +
				"syncLoop 保留了配置、PLEG、1 秒同步 tick 和 2 秒 housekeeping 这几个分支，就绪探针和启动探针的结果也成了它的分支。",
		},
		Entry{
			Name: "kubelet/server", Component: kubelet, Kind: KindUntil,
			Function: "startKubelet → go wait.Until(func(){ k.ListenAndServe(…) }, 0, wait.NeverStop) → server.ListenAndServeKubeletServer",
			File:     "cmd/kubelet/app/server.go",
			Article:  articleKubelet + " (9) startKubelet",
			Summary: "The kubelet API on --address:--port (0.0.0.0:10250, TLS with a self-signed certificate unless one is " +
				"given), started when --enable-server is true (the default). It serves /pods, /stats, /spec, /healthz, " +
				"/metrics and, with the debugging handlers, /run, /exec, /attach, /portForward, /logs and /containerLogs, " +
				"one goroutine per connection. ListenAndServe ends in glog.Fatal, so the period 0 only matters in theory. The " +
				"article says it starts after Run's goroutines; in fact startKubelet starts it right after the main-loop " +
				"goroutine without waiting, so the two race. kubeloom binds it to 127.0.0.1 on an ephemeral port.",
			SummaryZH: "kubelet API，监听 --address:--port（0.0.0.0:10250，除非另行指定证书，否则使用自签名证书的 TLS），" +
				"--enable-server 为 true（默认）时启动。它提供 /pods、/stats、/spec、/healthz、/metrics，开启调试处理器时还有 /run、/exec、" +
				"/attach、/portForward、/logs 和 /containerLogs，每个连接一个协程。ListenAndServe 以 glog.Fatal 结束，所以周期 0 只在理论上有意义。" +
				"文章说它在 Run 的协程都启动之后才启动；实际上 startKubelet 在启动主循环协程后紧接着就启动它，并不等待，两者是并发的。" +
				"kubeloom 把它绑定在 127.0.0.1 的临时端口上。",
			Quote:   "该协程在Run函数的协程都启动完成之后启动；k.ListenAndServe(kc.Address, kc.Port, kc.TLSOptions, kc.Auth, kc.EnableDebuggingHandlers)",
			QuoteEN: "This goroutine is started after the goroutines of the Run function have all been started … k.ListenAndServe(kc.Address, kc.Port, kc.TLSOptions, kc.Auth, kc.EnableDebuggingHandlers)",
			Now: "A plain go k.ListenAndServe(ctx, …) without wait.Until, still on 10250 over TLS, usually with webhook " +
				"authentication and authorization; startKubelet also starts the pod-resources gRPC server.",
			NowZH: "直接 go k.ListenAndServe(ctx, …)，不再套 wait.Until，仍在 10250 端口上使用 TLS，" +
				"通常开启 webhook 认证和授权；startKubelet 还会启动 pod-resources gRPC 服务。",
		},
		Entry{
			Name: "kubelet/readonly-server", Component: kubelet, Kind: KindUntil,
			Function: "startKubelet → go wait.Until(func(){ k.ListenAndServeReadOnly(kc.Address, kc.ReadOnlyPort) }, 0, wait.NeverStop)",
			File:     "cmd/kubelet/app/server.go",
			Article:  articleKubelet + " (9) startKubelet",
			Summary: "The read-only kubelet API on --read-only-port (10255), started when that port is not 0. It serves the " +
				"read-only endpoints (/pods, /stats, /spec, /healthz, /metrics) over plain HTTP with no authentication, which " +
				"is how Heapster read node stats in this era. Like the main server it ends in glog.Fatal if ListenAndServe " +
				"returns. kubeloom binds it to 127.0.0.1 on an ephemeral port.",
			SummaryZH: "只读的 kubelet API，监听 --read-only-port（10255），该端口不为 0 时启动。它通过不加认证的普通 HTTP 提供只读端点" +
				"（/pods、/stats、/spec、/healthz、/metrics），这个时代的 Heapster 就是这样读取节点统计数据的。与主服务一样，ListenAndServe 返回时以 glog.Fatal 结束。" +
				"kubeloom 把它绑定在 127.0.0.1 的临时端口上。",
			Quote:   "k.ListenAndServeReadOnly(kc.Address, kc.ReadOnlyPort)",
			QuoteEN: "k.ListenAndServeReadOnly(kc.Address, kc.ReadOnlyPort)",
			Now:     "A plain go k.ListenAndServeReadOnly(…); readOnlyPort defaults to 0 (off) in the KubeletConfiguration file format.",
			NowZH:   "直接 go k.ListenAndServeReadOnly(…)；在 KubeletConfiguration 配置文件格式中，readOnlyPort 默认为 0（关闭）。",
		},

		// Kubelet.Run → initializeModules.
		Entry{
			Name: "kubelet/image-detect", Component: kubelet, Kind: KindUntil, Period: 5 * time.Minute,
			PeriodFrom: "5*time.Minute, a literal in realImageManager.Start",
			Function:   "initializeModules → kl.imageManager.Start → realImageManager.Start → go wait.Until(func(){ im.detectImages(…) }, 5*time.Minute, wait.NeverStop)",
			File:       "pkg/kubelet/image_manager.go",
			Article:    articleKubelet + " (2) initializeModules",
			Summary: "Started by initializeModules at the top of Kubelet.Run: realImageManager.Start in the article's v1.3 " +
				"(1.5 moved it to realImageGCManager in pkg/kubelet/images/image_gc_manager.go). Every 5 minutes an iteration lists the runtime's images and containers and " +
				"records for each image when it was first detected and last used, the bookkeeping image GC sorts by. Images " +
				"found on the first pass get a zero first-detected time, as if they had always been there. It makes no apiserver calls.",
			SummaryZH: "由 Kubelet.Run 开头的 initializeModules 启动：文章的 v1.3 中是 realImageManager.Start" +
				"（1.5 把它移到了 pkg/kubelet/images/image_gc_manager.go 的 realImageGCManager）。" +
				"每 5 分钟列出运行时中的镜像和容器，为每个镜像记录首次发现时间和最后使用时间，镜像 GC 就按这些记录排序。" +
				"第一次扫描发现的镜像，首次发现时间记为零值，就像它们一直都在。它不调用 apiserver。",
			Quote:   "k8s.io/kubernetes/pkg/kubelet.(*realImageManager).Start；if err := kl.imageManager.Start(); err != nil {",
			QuoteEN: "k8s.io/kubernetes/pkg/kubelet.(*realImageManager).Start … if err := kl.imageManager.Start(); err != nil {",
			Now:     "Same 5m detect loop in realImageGCManager.Start.",
			NowZH:   "realImageGCManager.Start 中仍是同样的 5 分钟检测循环。",
		},
		Entry{
			Name: "kubelet/image-cache", Component: kubelet, Kind: KindUntil, Period: 30 * time.Second,
			PeriodFrom: "30*time.Second, a literal in realImageGCManager.Start",
			Function:   "initializeModules → imageManager.Start → go wait.Until(func(){ im.imageCache.set(im.runtime.ListImages()) }, 30*time.Second, wait.NeverStop)",
			File:       "pkg/kubelet/images/image_gc_manager.go",
			Summary: "The second goroutine of the image manager's Start, added in 1.4, so the article's v1.3 Start has only " +
				"image-detect. Every 30s an iteration lists the runtime's images and caches the list, which node-status " +
				"reports as the node's status.images without asking the runtime each time. It makes no apiserver calls. " +
				"kubeloom runs it only in era modern.",
			SummaryZH: "镜像管理器 Start 的第二个协程，1.4 才加入，所以文章 v1.3 的 Start 里只有 image-detect。" +
				"每 30 秒列出运行时中的镜像并缓存下来，node-status 把它作为节点的 status.images 上报，不必每次都询问运行时。" +
				"它不调用 apiserver。kubeloom 只在 modern 时代运行它。",
			Now:   "Still a 30s image-list cache loop in realImageGCManager.Start.",
			NowZH: "realImageGCManager.Start 中仍是 30 秒一次的镜像列表缓存循环。",
		},
		Entry{
			Name: "kubelet/cm-ensure-state", Component: kubelet, Kind: KindUntil, Period: time.Minute,
			PeriodFrom: "time.Minute, a literal in containerManagerImpl.Start",
			Function:   "initializeModules → containerManager.Start → go wait.Until(func(){ cont.ensureStateFunc(cont.manager) for each system container }, time.Minute, wait.NeverStop)",
			File:       "pkg/kubelet/cm/container_manager_linux.go",
			Article:    articleKubelet + " (2) initializeModules",
			Summary: "Started by the container manager's Start (from initializeModules), but only if some system container " +
				"has an ensure-state function: --runtime-cgroups, --system-cgroups or --kubelet-cgroups names a cgroup. Every " +
				"minute an iteration moves the docker daemon, the non-kernel system processes or the kubelet back into their " +
				"cgroups and re-applies their OOM score adjustments. With the default flags no such function exists, so a " +
				"default 1.5 node never starts it. It makes no apiserver calls; kubeloom simulates no cgroups.",
			SummaryZH: "由容器管理器的 Start（从 initializeModules 调用）启动，但只有某个系统容器带有 ensure-state 函数时才启动：" +
				"即 --runtime-cgroups、--system-cgroups 或 --kubelet-cgroups 指定了 cgroup。每分钟把 docker 守护进程、非内核系统进程或 kubelet " +
				"移回各自的 cgroup，并重新设置它们的 OOM 分数调整值。默认参数下没有这样的函数，所以默认的 1.5 节点不会启动它。" +
				"它不调用 apiserver；kubeloom 不模拟 cgroup。",
			Quote:   "k8s.io/kubernetes/pkg/kubelet/cm.(*containerManagerImpl).Start；if err := kl.containerManager.Start(); err != nil {",
			QuoteEN: "k8s.io/kubernetes/pkg/kubelet/cm.(*containerManagerImpl).Start … if err := kl.containerManager.Start(); err != nil {",
			Now: "The same conditional 1m loop, but the container manager now starts from initializeRuntimeDependentModules, " +
				"after cAdvisor, instead of initializeModules.",
			NowZH: "同样是有条件启动的 1 分钟循环，但容器管理器现在在 cAdvisor 之后由 initializeRuntimeDependentModules 启动，" +
				"而不是由 initializeModules 启动。",
		},
		Entry{
			Name: "kubelet/cm-periodic-tasks", Component: kubelet, Kind: KindUntil, Period: 5 * time.Minute,
			PeriodFrom: "5*time.Minute, a literal in containerManagerImpl.Start",
			Function:   "initializeModules → containerManager.Start → go wait.Until(func(){ for _, task := range cm.periodicTasks { task() } }, 5*time.Minute, wait.NeverStop)",
			File:       "pkg/kubelet/cm/container_manager_linux.go",
			Article:    articleKubelet + " (2) initializeModules",
			Summary: "The container manager's second loop, started when setupNode registered periodic tasks, which it does " +
				"exactly when the corresponding cgroup flags are not set, so a default node runs it. Every 5 minutes an " +
				"iteration runs those tasks: for docker, re-apply the daemon's OOM score and look up which cgroup it runs in; " +
				"for the kubelet, re-apply its own OOM score (-999) and look up its cgroup, names the stats summary reports. " +
				"It makes no apiserver calls; kubeloom simulates no cgroups.",
			SummaryZH: "容器管理器的第二个循环，setupNode 登记了周期任务时才启动，而恰恰在相应的 cgroup 参数没有设置时才会登记，所以默认节点会运行它。" +
				"每 5 分钟执行这些任务：对 docker，重新设置守护进程的 OOM 分数并查出它所在的 cgroup；对 kubelet，重新设置自己的 OOM 分数（-999）并查出自己的 cgroup，" +
				"这些名字会出现在统计摘要里。它不调用 apiserver；kubeloom 不模拟 cgroup。",
			Quote:   "k8s.io/kubernetes/pkg/kubelet/cm.(*containerManagerImpl).Start；if err := kl.containerManager.Start(); err != nil {",
			QuoteEN: "k8s.io/kubernetes/pkg/kubelet/cm.(*containerManagerImpl).Start … if err := kl.containerManager.Start(); err != nil {",
			Now:     "Still a conditional 5m loop; the docker task went with dockershim (removed in 1.24), the kubelet's own task remains.",
			NowZH:   "仍是有条件启动的 5 分钟循环；docker 的任务随 dockershim（1.24 移除）一起消失了，kubelet 自己的任务仍然保留。",
		},
		Entry{
			Name: "kubelet/oom-watcher", Component: kubelet, Kind: KindGo,
			Function: "initializeModules → oomWatcher.Start(kl.nodeRef) → cadvisor.WatchEvents(EventOom) → go func(){ for event := range eventChannel.GetChannel() … }()",
			File:     "pkg/kubelet/oom_watcher.go",
			Article:  articleKubelet + " (2) initializeModules",
			Summary: "Started by initializeModules: it asks cAdvisor for a stream of OOM events and ranges over it. An " +
				"iteration is one OOM kill that cAdvisor attributes to the root container \"/\" (a process outside any pod " +
				"container); it records a SystemOOM warning event, \"System OOM encountered\", on the node, with the time of " +
				"the kill (PastEventf). That event is its only apiserver traffic. In kubeloom the scenario action injectOOM " +
				"produces such an event.",
			SummaryZH: "由 initializeModules 启动：它向 cAdvisor 订阅 OOM 事件流并遍历它。每次迭代是一次 cAdvisor 归到根容器 \"/\" 的 OOM kill" +
				"（被杀的进程不在任何 pod 容器里）；它在节点上记录一个 SystemOOM 警告事件 \"System OOM encountered\"，时间为 kill 发生的时间（PastEventf）。" +
				"这个事件是它唯一的 apiserver 流量。在 kubeloom 中，场景动作 injectOOM 产生这样的事件。",
			Quote:   "k8s.io/kubernetes/pkg/kubelet.(*realOOMWatcher).Start；if err := kl.oomWatcher.Start(kl.nodeRef); err != nil {",
			QuoteEN: "k8s.io/kubernetes/pkg/kubelet.(*realOOMWatcher).Start … if err := kl.oomWatcher.Start(kl.nodeRef); err != nil {",
			Now: "The OOM watcher reads kernel OOM messages from /dev/kmsg through cAdvisor's oomparser (a streaming goroutine " +
				"plus this handler) and names the victim process in the event.",
			NowZH: "OOM watcher 通过 cAdvisor 的 oomparser 从 /dev/kmsg 读取内核的 OOM 消息（一个流式读取协程加上这个处理协程），" +
				"并在事件中写明被杀的进程。",
		},
		Entry{
			Name: "kubelet/fs-volume-stats", Component: kubelet, Kind: KindForever, Period: time.Minute,
			PeriodFrom: "--volume-stats-agg-period, the default of VolumeStatsAggPeriod",
			Function:   "initializeModules → resourceAnalyzer.Start → fsResourceAnalyzer.Start → go wait.Forever(func(){ s.updateCachedPodVolumeStats() }, s.calcPeriod)",
			File:       "pkg/kubelet/server/stats/fs_resource_analyzer.go",
			Article:    articleKubelet + " (2) initializeModules",
			Summary: "Started last by initializeModules, unless --volume-stats-agg-period is 0. Every period (1m) an " +
				"iteration refreshes the per-pod volume usage (bytes and inodes) that the /stats/summary API and the eviction " +
				"manager read. In the article's v1.3 it measures every pod's volumes itself; in later text it only starts a " +
				"volumeStatCalculator goroutine for each new pod, which measures on its own jittered period, and stops those of " +
				"deleted pods. It makes no apiserver calls.",
			SummaryZH: "由 initializeModules 最后启动，除非 --volume-stats-agg-period 为 0。每个周期（1 分钟）刷新每个 pod 的卷使用量（字节数和 inode 数），" +
				"供 /stats/summary API 和驱逐管理器读取。在文章的 v1.3 中，它自己测量每个 pod 的卷；在后来的代码中，它只为每个新 pod 启动一个 volumeStatCalculator 协程，" +
				"由后者按自己带抖动的周期测量，并停掉已删除 pod 的那些协程。它不调用 apiserver。",
			Quote:   "k8s.io/kubernetes/pkg/kubelet/server/stats.(*fsResourceAnalyzer).Start；kl.resourceAnalyzer.Start()",
			QuoteEN: "k8s.io/kubernetes/pkg/kubelet/server/stats.(*fsResourceAnalyzer).Start … kl.resourceAnalyzer.Start()",
			Now:     "Same wait.Forever(updateCachedPodVolumeStats, volumeStatsAggPeriod) with per-pod volumeStatCalculator goroutines.",
			NowZH: "仍是 wait.Forever(updateCachedPodVolumeStats, volumeStatsAggPeriod)，" +
				"每个 pod 有自己的 volumeStatCalculator 协程。",
		},

		// Kubelet.Run.
		Entry{
			Name: "kubelet/volume-manager", Component: kubelet, Kind: KindGo,
			Function: "Kubelet.Run → go kl.volumeManager.Run(kl.sourcesReady, wait.NeverStop)",
			File:     "pkg/kubelet/kubelet.go",
			Article:  runSection,
			Summary: "The first goroutine Kubelet.Run starts, right after initializeModules. volumeManager.Run starts the " +
				"desired-state-of-world populator and the reconciler, then blocks on its stop channel, which is " +
				"wait.NeverStop, so it lives as long as the process. The article's v1.3 passes only the stop channel; 1.5 also " +
				"passes sourcesReady, which the reconciler consults before reconstructing state. It makes no apiserver calls itself.",
			SummaryZH: "Kubelet.Run 在 initializeModules 之后启动的第一个协程。volumeManager.Run 启动期望状态填充器（populator）和协调器（reconciler），" +
				"然后阻塞在 stop 通道上，而那是 wait.NeverStop，所以它与进程同寿。文章的 v1.3 只传入 stop 通道；1.5 还传入 sourcesReady，" +
				"协调器在重建状态之前要看它。它自己不调用 apiserver。",
			Quote:   "go kl.volumeManager.Run(wait.NeverStop)",
			QuoteEN: "go kl.volumeManager.Run(wait.NeverStop)",
			Now: "Same shape: Run(ctx, sourcesReady) starts the populator and the reconciler (and, with an apiserver, the " +
				"volume plugin manager's informers) and waits for the context to end.",
			NowZH: "结构相同：Run(ctx, sourcesReady) 启动填充器和协调器（有 apiserver 时还会启动卷插件管理器的 informer），然后等待 context 结束。",
		},
		Entry{
			Name: "kubelet/volume-dswp", Component: kubelet, Kind: KindUntil, Period: 100 * time.Millisecond,
			PeriodFrom: "desiredStateOfWorldPopulatorLoopSleepPeriod, a constant in pkg/kubelet/volumemanager/volume_manager.go",
			Function:   "volumeManager.Run → go vm.desiredStateOfWorldPopulator.Run(stopCh) → wait.Until(dswp.populatorLoopFunc(), 100ms, stopCh)",
			File:       "pkg/kubelet/volumemanager/volume_manager.go",
			Summary: "The desired-state-of-world populator. Every 100ms an iteration walks the pod manager's pods and adds " +
				"every volume of each running pod to the desired state of the world; at most every 2s it also removes the " +
				"volumes of pods that are gone or terminated. Resolving a volume that comes from a PersistentVolumeClaim GETs " +
				"the claim and its PersistentVolume from the apiserver; other volumes need no calls.",
			SummaryZH: "期望状态（desired state of world）填充器。每 100 毫秒遍历 pod 管理器中的 pod，把每个运行中的 pod 的每个卷加入期望状态；" +
				"最多每 2 秒还会移除已消失或已终止的 pod 的卷。解析来自 PersistentVolumeClaim 的卷时，要向 apiserver GET 该 claim 及其 PersistentVolume；" +
				"其他卷不需要调用。",
			Now: "The same 100ms populator loop; it also marks when every source's pods have been processed, which volume " +
				"reconstruction after a restart waits for.",
			NowZH: "同样是 100 毫秒的填充循环；它还会标记所有源的 pod 何时都已处理完毕，kubelet 重启后的卷重建要等这个标记。",
		},
		Entry{
			Name: "kubelet/volume-reconciler", Component: kubelet, Kind: KindUntil, Period: 100 * time.Millisecond,
			PeriodFrom: "reconcilerLoopSleepPeriod, a constant in pkg/kubelet/volumemanager/volume_manager.go",
			Function:   "volumeManager.Run → go vm.reconciler.Run(sourcesReady, stopCh) → wait.Until(rc.reconciliationLoopFunc(sourcesReady), 100ms, stopCh)",
			File:       "pkg/kubelet/volumemanager/volume_manager.go",
			Summary: "The volume reconciler. Every 100ms an iteration compares the desired state with the actual state and " +
				"starts what is missing: unmounts volumes no longer wanted, then attaches (only if controller attach/detach is " +
				"off) and mounts wanted ones, then unmounts devices and detaches. Each operation runs in its own goroutine of " +
				"the operation executor, one at a time per volume. Once all sources are ready it reconstructs its state from " +
				"disk every 3 minutes. With controller attach/detach (the default) it GETs its Node to see whether a volume is attached.",
			SummaryZH: "卷协调器。每 100 毫秒比较期望状态与实际状态，启动缺少的操作：先卸载不再需要的卷，再挂接（只在关闭了控制器挂接/分离时）并挂载需要的卷，" +
				"最后卸载设备并分离。每个操作在操作执行器（operation executor）自己的协程中运行，同一个卷同一时间只有一个操作。" +
				"所有源都就绪后，每 3 分钟从磁盘重建一次状态。开启控制器挂接/分离（默认）时，它 GET 自己的 Node 来确认卷是否已挂接。",
			Now:   "The same 100ms reconcile loop; the reconstruction of volumes after a kubelet restart was reworked.",
			NowZH: "同样是 100 毫秒的协调循环；kubelet 重启后重建卷状态的逻辑经过了重写。",
		},
		Entry{
			Name: "kubelet/node-status", Component: kubelet, Kind: KindUntil, Period: 10 * time.Second,
			PeriodFrom: "--node-status-update-frequency, the default of NodeStatusUpdateFrequency",
			Function:   "Kubelet.Run → go wait.Until(kl.syncNodeStatus, kl.nodeStatusUpdateFrequency, wait.NeverStop)",
			File:       "pkg/kubelet/kubelet.go",
			Article:    runSection,
			Summary: "Started by Kubelet.Run when there is an apiserver client. The first iteration registers the node: it " +
				"POSTs the Node object and retries until that succeeds (or finds an existing one). Every iteration then " +
				"updates the status: GET the Node, fill in addresses, capacity, versions, images, the pressure conditions and " +
				"the Ready condition with a fresh heartbeat time, and PUT nodes/<name>/status, up to 5 tries. Every " +
				"--node-status-update-frequency (10s) this is the heartbeat the node controller watches. kubeloom's modern era " +
				"uses the jitter and the PATCH of today's kubelet but does not simulate the node lease.",
			SummaryZH: "有 apiserver 客户端时由 Kubelet.Run 启动。第一次迭代注册节点：POST Node 对象，直到成功（或发现已存在）为止。" +
				"之后每次迭代更新状态：GET Node，填入地址、容量、版本、镜像、各种压力状况，以及带有新心跳时间的 Ready 状况，再 PUT nodes/<name>/status，" +
				"最多尝试 5 次。每隔 --node-status-update-frequency（10 秒）一次，这就是节点控制器盯着的心跳。" +
				"kubeloom 的 modern 时代使用今天 kubelet 的抖动和 PATCH，但不模拟节点租约（lease）。",
			Quote:   "go wait.Until(kl.syncNodeStatus, kl.nodeStatusUpdateFrequency, wait.NeverStop)",
			QuoteEN: "go wait.Until(kl.syncNodeStatus, kl.nodeStatusUpdateFrequency, wait.NeverStop)",
			Now: "wait.JitterUntil(syncNodeStatus, 10s, 0.04, …), status PATCHed and, when unchanged, only re-sent every " +
				"nodeStatusReportFrequency (5m); the heartbeat is a Lease in kube-node-lease renewed by its own node-lease " +
				"goroutine, plus a one-shot fastStatusUpdateOnce at start.",
			NowZH: "wait.JitterUntil(syncNodeStatus, 10s, 0.04, …)，status 用 PATCH 更新，" +
				"没有变化时只每隔 nodeStatusReportFrequency（5 分钟）重新发送一次；心跳是 kube-node-lease 中的 Lease，" +
				"由单独的 node-lease 协程续约，启动时还有一次性的 fastStatusUpdateOnce。",
		},
		Entry{
			Name: "kubelet/network-status", Component: kubelet, Kind: KindUntil, Period: 30 * time.Second,
			PeriodFrom: "30*time.Second, a literal in Kubelet.Run",
			Function:   "Kubelet.Run → go wait.Until(kl.syncNetworkStatus, 30*time.Second, wait.NeverStop)",
			File:       "pkg/kubelet/kubelet.go",
			Article:    runSection,
			Summary: "Every 30s an iteration copies the network plugin's Status() into the kubelet's runtime state. A network " +
				"error makes node-status report the node NotReady and keeps pods that do not use the host network from " +
				"starting. It makes no apiserver calls. kubeloom runs it in era classic only.",
			SummaryZH: "每 30 秒把网络插件的 Status() 复制到 kubelet 的运行时状态中。网络出错时，node-status 会把节点报告为 NotReady，" +
				"不使用主机网络的 pod 也无法启动。它不调用 apiserver。kubeloom 只在 classic 时代运行它。",
			Quote:   "go wait.Until(kl.syncNetworkStatus, 30*time.Second, wait.NeverStop)",
			QuoteEN: "go wait.Until(kl.syncNetworkStatus, 30*time.Second, wait.NeverStop)",
			Now:     "Gone: network readiness now comes from the CRI runtime's NetworkReady condition, read by runtime-up.",
			NowZH:   "已不存在：网络是否就绪现在来自 CRI 运行时的 NetworkReady 状况，由 runtime-up 读取。",
		},
		Entry{
			Name: "kubelet/runtime-up", Component: kubelet, Kind: KindUntil, Period: 5 * time.Second,
			PeriodFrom: "5*time.Second, a literal in Kubelet.Run",
			Function:   "Kubelet.Run → go wait.Until(kl.updateRuntimeUp, 5*time.Second, wait.NeverStop)",
			File:       "pkg/kubelet/kubelet.go",
			Article:    runSection,
			Summary: "Every 5s an iteration asks the container runtime for its status. The first success runs " +
				"initializeRuntimeDependentModules once: it starts cAdvisor and, in 1.5 and today, the eviction manager. Each " +
				"success records the time of the runtime sync; until the first one, or once the last is too old, syncLoop " +
				"skips its work and node-status reports the node NotReady. It makes no apiserver calls. In kubeloom the runtime " +
				"it asks is the simulated one.",
			SummaryZH: "每 5 秒向容器运行时询问一次状态。第一次成功时执行一次 initializeRuntimeDependentModules：启动 cAdvisor，" +
				"在 1.5 和今天还会启动驱逐管理器。每次成功都记录运行时同步的时间；在第一次成功之前，或最近一次成功已经太久时，syncLoop 跳过处理，" +
				"node-status 把节点报告为 NotReady。它不调用 apiserver。在 kubeloom 中，它询问的是模拟的运行时。",
			Quote:   "go wait.Until(kl.updateRuntimeUp, 5*time.Second, wait.NeverStop)",
			QuoteEN: "go wait.Until(kl.updateRuntimeUp, 5*time.Second, wait.NeverStop)",
			Now: "Still every 5s; it reads the CRI RuntimeReady and NetworkReady conditions, and the first success now also " +
				"starts the container manager, the container log manager and the plugin manager.",
			NowZH: "仍是每 5 秒一次；它读取 CRI 的 RuntimeReady 和 NetworkReady 状况，第一次成功时现在还会启动容器管理器、容器日志管理器和插件管理器。",
		},
		Entry{
			Name: "kubelet/pod-killer", Component: kubelet, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "1*time.Second, a literal in Kubelet.Run",
			Function:   "Kubelet.Run → go wait.Until(kl.podKiller, 1*time.Second, wait.NeverStop)",
			File:       "pkg/kubelet/kubelet.go",
			Article:    runSection,
			Summary: "Kills running pods that the pod workers do not handle: pods the kubelet no longer wants, which " +
				"housekeeping (HandlePodCleanups) and deletePod send on podKillingCh (capacity 50). podKiller itself loops " +
				"forever over that channel, so wait.Until's 1s would only matter if it returned; an iteration is one request. " +
				"For a pod not already being killed it starts a kill-pod goroutine and forgets the pod when that finishes. It " +
				"makes no apiserver calls. kubeloom runs it in era classic only.",
			SummaryZH: "终止不归 pod worker 处理的运行中 pod：也就是 kubelet 不再需要、由 housekeeping（HandlePodCleanups）和 deletePod 发到 " +
				"podKillingCh（容量 50）上的 pod。podKiller 自己在这个通道上永久循环，所以 wait.Until 的 1 秒只有在它返回时才有意义；每次迭代是一个请求。" +
				"对还没有在终止的 pod，它启动一个 kill-pod 协程，结束后再把该 pod 从记录中删掉。它不调用 apiserver。kubeloom 只在 classic 时代运行它。",
			Quote:   "go wait.Until(kl.podKiller, 1*time.Second, wait.NeverStop)",
			QuoteEN: "go wait.Until(kl.podKiller, 1*time.Second, wait.NeverStop)",
			Now:     "Removed in 1.22 (PR #102344): killing moved into the pod workers' terminating phase.",
			NowZH:   "已在 1.22 中移除（PR #102344）：终止 pod 的工作移到了 pod worker 的终止阶段。",
		},
		Entry{
			Name: "kubelet/kill-pod", Component: kubelet, Kind: KindGo,
			Function: "podKiller → go func(apiPod, runningPod, ch){ kl.killPod(apiPod, runningPod, nil, nil) }(…)",
			File:     "pkg/kubelet/kubelet_pods.go",
			Summary: "A transient goroutine, one per pod podKiller is asked to kill. It calls killPod, which stops every " +
				"container of the pod (running preStop hooks within the grace period) and then its infrastructure container " +
				"through the container runtime, and reports the pod's UID back to podKiller when done. It makes no apiserver " +
				"calls. In kubeloom it stops the pod in the simulated runtime; era classic only.",
			SummaryZH: "短命的协程，podKiller 每收到一个要终止的 pod 就启动一个。它调用 killPod，通过容器运行时先停止 pod 的每个容器" +
				"（在宽限期内执行 preStop 钩子），再停止它的基础设施容器，完成后把 pod 的 UID 报回给 podKiller。它不调用 apiserver。" +
				"在 kubeloom 中，它在模拟的运行时里停止该 pod；只在 classic 时代。",
			Now:   "Gone with podKiller in 1.22: the pod's own worker runs the termination.",
			NowZH: "随 podKiller 在 1.22 中一起消失：终止由 pod 自己的 worker 执行。",
		},
		Entry{
			Name: "kubelet/status-manager", Component: kubelet, Kind: KindForever,
			Function: "Kubelet.Run → statusManager.Start → go wait.Forever(func(){ select { podStatusChannel → m.syncPod; syncTicker → m.syncBatch } }, 0)",
			File:     "pkg/kubelet/status/status_manager.go",
			Article:  runSection,
			Summary: "Writes pod status to the apiserver; not started without an apiserver client. wait.Forever(f, 0) calls " +
				"the select back to back: an iteration is either one status change from podStatusChannel (capacity 1000), " +
				"written at once by syncPod, or the 10s syncTicker, on which syncBatch rewrites every status the apiserver " +
				"has not seen yet. syncPod GETs the pod and PUTs pods/<name>/status if it changed; for a terminated pod with a " +
				"deletion timestamp it DELETEs the pod with grace period 0 and a UID precondition.",
			SummaryZH: "把 pod 状态写到 apiserver；没有 apiserver 客户端时不启动。wait.Forever(f, 0) 会一次接一次地执行 select：" +
				"每次迭代要么是 podStatusChannel（容量 1000）上的一次状态变化，由 syncPod 立即写出；要么是 10 秒的 syncTicker，" +
				"这时 syncBatch 重写所有 apiserver 还没看到的状态。syncPod 先 GET pod，有变化时 PUT pods/<name>/status；" +
				"对于已终止且带有删除时间戳的 pod，以宽限期 0 和 UID 前置条件 DELETE 该 pod。",
			Quote:   "kl.statusManager.Start()",
			QuoteEN: "kl.statusManager.Start()",
			Now:     "Still a 10s batch plus change-driven syncs, but a change now only triggers syncBatch, and status is written with a PATCH.",
			NowZH:   "仍是 10 秒一次的批量同步加上由变化驱动的同步，但现在一次变化只会触发 syncBatch，并且 status 用 PATCH 写出。",
		},
		Entry{
			Name: "kubelet/probe-readiness", Component: kubelet, Kind: KindForever,
			Function: "Kubelet.Run → probeManager.Start → go wait.Forever(m.updateReadiness, 0)",
			File:     "pkg/kubelet/prober/prober_manager.go",
			Article:  runSection,
			Summary: "Started by the prober manager's Start. updateReadiness blocks until a readiness probe worker reports " +
				"a changed result, then passes it to statusManager.SetContainerReadiness, which sets the container's ready " +
				"flag and the pod's Ready condition; wait.Forever(f, 0) calls it again at once, so an iteration is one result. " +
				"It makes no apiserver calls itself; the status manager writes the new status.",
			SummaryZH: "由 prober 管理器的 Start 启动。updateReadiness 阻塞到某个就绪探针 worker 报告结果变化，然后交给 statusManager.SetContainerReadiness，" +
				"由它设置容器的 ready 标志和 pod 的 Ready 状况；wait.Forever(f, 0) 随即再次调用它，所以一次迭代就是一个结果。" +
				"它自己不调用 apiserver；新状态由状态管理器写出。",
			Quote:   "kl.probeManager.Start()",
			QuoteEN: "kl.probeManager.Start()",
			Now: "Gone as a goroutine: readiness and startup results are now arms of syncLoopIteration, which sets the " +
				"status and re-syncs the pod.",
			NowZH: "不再是单独的协程：就绪和启动探针的结果现在是 syncLoopIteration 的分支，由它设置状态并重新同步 pod。",
		},
		Entry{
			Name: "kubelet/probe-worker", Component: kubelet, Kind: KindGo,
			Function: "HandlePodAdditions → probeManager.AddPod → go w.run()",
			File:     "pkg/kubelet/prober/prober_manager.go",
			Summary: "One per container and probe type (readiness or liveness) that the pod spec defines, started when the " +
				"pod is added and stopped when it is removed. Every periodSeconds (10s by default) an iteration runs the exec, " +
				"HTTP or TCP probe once initialDelaySeconds have passed since the container started, and records the result " +
				"once failureThreshold or successThreshold consecutive results agree. A liveness failure reaches syncLoop, which " +
				"restarts the container; readiness goes to probe-readiness. It probes the container, never the apiserver.",
			SummaryZH: "pod spec 中定义的每个容器、每种探针（就绪或存活）一个，pod 加入时启动，移除时停止。每隔 periodSeconds（默认 10 秒），" +
				"在容器启动满 initialDelaySeconds 之后执行一次 exec、HTTP 或 TCP 探测，连续 failureThreshold 或 successThreshold 次结果一致时记录结果。" +
				"存活探针失败会到达 syncLoop，由它重启容器；就绪结果交给 probe-readiness。它探测的是容器，从不访问 apiserver。",
			Now: "Startup and gRPC probes were added, and after a kubelet restart a worker waits a random part of its " +
				"period before the first probe.",
			NowZH: "新增了启动探针和 gRPC 探针；kubelet 重启后，worker 在第一次探测前会先等待其周期中随机的一段时间。",
		},
		Entry{
			Name: "kubelet/eviction", Component: kubelet, Kind: KindUntil, Period: 10 * time.Second,
			PeriodFrom: "evictionMonitoringPeriod, a constant in pkg/kubelet/kubelet.go",
			Function:   "Kubelet.Run (v1.3; initializeRuntimeDependentModules since 1.5) → evictionManager.Start(…, kl.getActivePods, evictionMonitoringPeriod) → go wait.Until(func(){ m.synchronize(diskInfoProvider, podFunc) }, monitoringInterval, wait.NeverStop)",
			File:       "pkg/kubelet/eviction/eviction_manager.go",
			Article:    runSection,
			Summary: "The eviction manager's loop. The article's v1.3 starts it directly in Kubelet.Run; in 1.5 " +
				"initializeRuntimeDependentModules starts it after the first runtime-up success, because it needs cAdvisor to " +
				"know whether the runtime has its own image filesystem. Every 10s an iteration reads the summary stats, " +
				"compares them with the thresholds (by default memory.available<100Mi) and sets the MemoryPressure and " +
				"DiskPressure conditions that node-status reports. Past a threshold it first reclaims node resources, then " +
				"kills one pod through its pod worker, marks it Failed with reason Evicted and records an Evicted event.",
			SummaryZH: "驱逐管理器的循环。文章的 v1.3 在 Kubelet.Run 中直接启动它；1.5 中由 initializeRuntimeDependentModules 在 runtime-up 第一次成功之后启动，" +
				"因为它要靠 cAdvisor 才知道运行时是否有独立的镜像文件系统。每 10 秒读取一次统计摘要，与阈值（默认 memory.available<100Mi）比较，" +
				"并设置 node-status 上报的 MemoryPressure 和 DiskPressure 状况。超过阈值时先回收节点资源，再通过 pod worker 终止一个 pod，" +
				"把它标记为 Failed、原因为 Evicted，并记录 Evicted 事件。",
			Quote:   "kl.evictionManager.Start(kl.getActivePods, evictionMonitoringPeriod)",
			QuoteEN: "kl.evictionManager.Start(kl.getActivePods, evictionMonitoringPeriod)",
			Now: "Still a 10s synchronize loop started from initializeRuntimeDependentModules; it also handles PID and " +
				"ephemeral-storage pressure and can be woken early by memcg threshold notifications.",
			NowZH: "仍是由 initializeRuntimeDependentModules 启动的 10 秒 synchronize 循环；" +
				"它还处理 PID 和临时存储（ephemeral-storage）压力，并且可以被 memcg 阈值通知提前唤醒。",
		},
		Entry{
			Name: "kubelet/pleg-relist", Component: kubelet, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "plegRelistPeriod, a constant in pkg/kubelet/kubelet.go",
			Function:   "Kubelet.Run → pleg.Start → go wait.Until(g.relist, g.relistPeriod, wait.NeverStop)",
			File:       "pkg/kubelet/pleg/generic.go",
			Article:    runSection,
			Summary: "The pod lifecycle event generator, started just before syncLoop. Every second an iteration lists all " +
				"pods and containers from the runtime, compares each container's state with the previous relist, refreshes " +
				"the pod cache for the pods that changed and sends events such as ContainerStarted and ContainerDied to " +
				"syncLoop (channel capacity 1000). If no relist completes for 3 minutes the kubelet reports \"PLEG is not " +
				"healthy\" and the node goes NotReady. It makes no apiserver calls; in kubeloom it lists the simulated runtime.",
			SummaryZH: "pod 生命周期事件生成器（PLEG），在 syncLoop 之前启动。每秒从运行时列出所有 pod 和容器，把每个容器的状态与上一次比较，" +
				"刷新有变化的 pod 的缓存，并把 ContainerStarted、ContainerDied 等事件发给 syncLoop（通道容量 1000）。" +
				"如果 3 分钟内没有完成一次 relist，kubelet 报告 \"PLEG is not healthy\"，节点变为 NotReady。它不调用 apiserver；在 kubeloom 中它列出的是模拟的运行时。",
			Quote:   "kl.pleg.Start()",
			QuoteEN: "kl.pleg.Start()",
			Now: "The generic PLEG still relists every second; the feature-gated Evented PLEG takes container events from " +
				"the CRI and keeps only a slow relist as a fallback.",
			NowZH: "通用 PLEG（generic PLEG）仍每秒 relist 一次；受特性门控的 Evented PLEG 从 CRI 获取容器事件，只保留低频的 relist 作为兜底。",
		},
		Entry{
			Name: "kubelet/pod-worker", Component: kubelet, Kind: KindGo,
			Function: "dispatchWork → podWorkers.UpdatePod → go func(){ p.managePodLoop(podUpdates) }()",
			File:     "pkg/kubelet/pod_workers.go",
			Summary: "One per pod UID, created by the first update syncLoop dispatches for that pod. An iteration takes one " +
				"update (the channel holds 1; a newer undelivered update replaces an older one), waits until the pod cache is " +
				"newer than its last sync and runs syncPod: status to the status manager, a mirror pod for a static pod, data " +
				"directories, WaitForAttachAndMount, pull secrets, then the runtime's SyncPod. It then re-queues the pod for " +
				"the 1s sync tick after --sync-frequency (1m), or after 10s on error. It calls the apiserver for mirror pods and " +
				"secrets; in kubeloom the runtime it syncs is the simulated one.",
			SummaryZH: "每个 pod UID 一个，由 syncLoop 为该 pod 分派的第一个更新创建。每次迭代取一个更新（通道容量 1，未送出的新更新会替换旧的），" +
				"等到 pod 缓存比上次同步更新，再执行 syncPod：把状态交给状态管理器、为静态 pod 创建镜像 pod、建立数据目录、WaitForAttachAndMount、" +
				"获取拉取镜像的 secret，最后调用运行时的 SyncPod。之后把该 pod 重新放入队列，--sync-frequency（1 分钟）后、出错时 10 秒后由 1 秒的同步 tick 取出。" +
				"它为镜像 pod 和 secret 调用 apiserver；在 kubeloom 中它同步的是模拟的运行时。",
			Now: "Still one goroutine per pod (podWorkerLoop), now a state machine that syncs, terminates and cleans up the " +
				"pod, so killing no longer needs podKiller.",
			NowZH: "仍是每个 pod 一个协程（podWorkerLoop），现在它是一个状态机，负责同步、终止并清理 pod，所以终止 pod 不再需要 podKiller。",
		},
	)
}

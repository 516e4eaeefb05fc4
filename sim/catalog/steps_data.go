package catalog

// The startup steps: the spans on an instance's main line that are not
// goroutines, in the order they run. Names are the span names the
// simulation records (sim/controllermanager/main.go, sim/kubelet/main.go,
// sim/events/pipeline.go, sim/engine/driver.go and informers.go); they
// are the same in both eras.
func init() {
	const (
		cm        = "kube-controller-manager"
		kubelet   = "kubelet"
		driver    = "kubeloom"  // the scenario's own instance, "kubeloom scenario"
		informers = "informers" // the scenario's stand-alone informers
	)
	cmMain := articleCM + " §1 main"
	cmRun := articleCM + " §2 Run"
	callChain := articleKubelet + " (6) SourceFile, (7) SourceURL (call chain)"
	registerSteps(
		// kube-controller-manager: main (controller-manager.go) → app.Run.
		Step{
			Component: cm, Name: "main",
			Function: "main", File: "cmd/kube-controller-manager/controller-manager.go",
			Article: cmMain,
			Summary: "The process's entry point and the root of its trace. main builds the CMServer with its defaults (NewCMServer), " +
				"registers and parses the flags (AddFlags, InitFlags), sets up logging (InitLogs, with a deferred FlushLogs) and " +
				"calls app.Run, which should never return; if it does, main prints the error and exits with status 1. kubeloom's " +
				"main span lasts as long as the process: until the run ends, or until the process is killed (killLeader) or exits " +
				"by itself (leader election lost, the HTTP server failed), which the span records as process.exit.",
			SummaryZH: "进程的入口，也是它整条 trace 的根。main 用默认值创建 CMServer（NewCMServer），注册并解析参数（AddFlags、InitFlags），" +
				"初始化日志（InitLogs，并 defer FlushLogs），然后调用 app.Run；app.Run 本不应返回，一旦返回，main 就打印错误并以状态码 1 退出。" +
				"kubeloom 中 main 这个 span 与进程同寿：持续到运行结束，或进程被杀（killLeader）、自行退出（选主失败、HTTP 服务失败）为止，" +
				"退出原因记录在 span 属性 process.exit 中。",
			Quote:   "1.main函数k8s.io/kubernetes/cmd/kube-controller-manager/controller-manager.go；//运行if err := app.Run(s); err != nil {",
			QuoteEN: "1.main function k8s.io/kubernetes/cmd/kube-controller-manager/controller-manager.go … //run if err := app.Run(s); err != nil {",
		},
		Step{
			Component: cm, Name: "NewCMServer",
			Function: "options.NewCMServer", File: "cmd/kube-controller-manager/app/options/options.go",
			Article: cmMain,
			Summary: "Creates the CMServer, the struct that holds every kube-controller-manager setting, filled with the v1.5 " +
				"defaults: --port 10252, leader election on with a 15s lease, a 10s renew deadline and a 2s retry period, " +
				"5 endpoint workers, a 12h minimum resync period and so on. Nothing runs yet; the flags parsed next overwrite " +
				"these values. kubeloom serves on 127.0.0.1 and a free port instead of 0.0.0.0:10252, and its modern era " +
				"starts from today's lock type, leases.",
			SummaryZH: "创建 CMServer，即保存 kube-controller-manager 全部设置的结构体，填入 v1.5 的默认值：--port 10252，" +
				"开启选主，租约 15 秒、续约期限 10 秒、重试周期 2 秒，endpoint 控制器 5 个 worker，最小 resync 周期 12 小时，等等。" +
				"此时还什么都没运行；接下来解析的参数会覆盖这些值。kubeloom 在 127.0.0.1 的空闲端口上提供服务，而不是 0.0.0.0:10252；" +
				"它的 modern 时代以今天的锁类型 leases 为默认值。",
			Quote:   "// 根据默认配置创建cm对象s := options.NewCMServer()",
			QuoteEN: "// create the cm object from the default configuration s := options.NewCMServer()",
		},
		Step{
			Component: cm, Name: "AddFlags",
			Function: "CMServer.AddFlags(pflag.CommandLine)", File: "cmd/kube-controller-manager/app/options/options.go",
			Article: cmMain,
			Summary: "Registers every kube-controller-manager flag on pflag.CommandLine, each bound to a field of the CMServer " +
				"and defaulting to the value NewCMServer put there, so a flag that is not given keeps its default. Registering " +
				"parses nothing; InitFlags does. kubeloom builds the era's flag set here (v1.5's, plus the flags added since for " +
				"modern), sets the scenario's flags on it, refuses unknown ones as the binary would, and records how many flags " +
				"were registered (flags.registered).",
			SummaryZH: "把 kube-controller-manager 的所有参数注册到 pflag.CommandLine 上，每个参数绑定 CMServer 的一个字段，" +
				"默认值就是 NewCMServer 填进去的值，所以没给出的参数保持默认。注册本身不解析任何东西，解析由 InitFlags 完成。" +
				"kubeloom 在这一步建立对应时代的参数集（v1.5 的参数，modern 时代再加上之后新增的参数），把场景给出的参数设置上去，" +
				"像真实程序一样拒绝未知参数，并记录注册的参数个数（flags.registered）。",
			Quote:   "// 添加flags.AddFlags(pflag.CommandLine)",
			QuoteEN: "// add flags.AddFlags(pflag.CommandLine)",
		},
		Step{
			Component: cm, Name: "InitFlags",
			Function: "flag.InitFlags", File: "pkg/util/flag/flags.go",
			Article: cmMain,
			Summary: "Parses the command line. InitFlags installs WordSepNormalizeFunc, so that --concurrent_rc_syncs and " +
				"--concurrent-rc-syncs are the same flag, adds Go's flag set (glog's -v, --logtostderr and the like) to pflag's " +
				"and calls pflag.Parse; from here on the CMServer holds the final configuration. kubeloom has already set the " +
				"scenario's flags in AddFlags and adds a span event FLAG: --name=\"value\" for every flag that was set.",
			SummaryZH: "解析命令行。InitFlags 装上 WordSepNormalizeFunc，使 --concurrent_rc_syncs 与 --concurrent-rc-syncs 成为同一个参数，" +
				"把 Go 标准库的 flag 集合（glog 的 -v、--logtostderr 等）并入 pflag，再调用 pflag.Parse；从此 CMServer 中就是最终配置。" +
				"kubeloom 已在 AddFlags 中设置好场景给出的参数，这一步为每个被设置的参数添加一个 span 事件 FLAG: --名称=\"值\"。",
			Quote:   "flag.InitFlags()",
			QuoteEN: "flag.InitFlags()",
		},
		Step{
			Component: cm, Name: "InitLogs",
			Function: "logs.InitLogs", File: "pkg/util/logs/logs.go",
			Article: cmMain,
			Summary: "Sends Go's standard log package into glog (log.SetOutput(GlogWriter{}), log.SetFlags(0)) and starts the " +
				"process's first goroutine, cm/log-flush, which calls glog.Flush every --log-flush-frequency (5s); main defers " +
				"logs.FlushLogs for one last flush at exit. app.Run comes next.",
			SummaryZH: "把 Go 标准库 log 包的输出转到 glog（log.SetOutput(GlogWriter{})、log.SetFlags(0)），并启动进程的第一个协程 cm/log-flush，" +
				"它每隔 --log-flush-frequency（5 秒）调用一次 glog.Flush；main 中 defer 的 logs.FlushLogs 在退出时再刷一次。接下来是 app.Run。",
			Quote:   "logs.InitLogs()defer logs.FlushLogs()",
			QuoteEN: "logs.InitLogs()defer logs.FlushLogs()",
		},
		Step{
			Component: cm, Name: "Run",
			Function: "app.Run", File: "cmd/kube-controller-manager/app/controllermanager.go",
			Article: cmRun,
			Summary: "app.Run does the rest of the startup on the main goroutine: it registers the configuration for /configz, " +
				"builds the client configuration and two clientsets, starts the HTTP server goroutine (cm/http-server), builds " +
				"the event pipeline, and then either runs the controllers at once (--leader-elect=false) or enters " +
				"leaderelection.RunOrDie. It never returns while the process lives (panic(\"unreachable\")); kubeloom's Run span " +
				"ends when the process does.",
			SummaryZH: "app.Run 在主协程上完成其余的启动工作：为 /configz 注册配置，构建客户端配置和两个 clientset，启动 HTTP 服务协程（cm/http-server），" +
				"建立事件管道，然后要么立即运行控制器（--leader-elect=false），要么进入 leaderelection.RunOrDie。" +
				"进程存活期间它从不返回（panic(\"unreachable\")）；kubeloom 中 Run 这个 span 随进程一起结束。",
			Quote:   "2.k8s.io/kubernetes/cmd/kube-controller-manager/app/controllermanager.go；func Run(s *options.CMServer) error {",
			QuoteEN: "2.k8s.io/kubernetes/cmd/kube-controller-manager/app/controllermanager.go … func Run(s *options.CMServer) error {",
		},
		Step{
			Component: cm, Name: "configz.New",
			Function: "configz.New(\"componentconfig\") → c.Set(s.KubeControllerManagerConfiguration)", File: "pkg/util/configz/configz.go",
			Article: cmRun + " (configz.New)",
			Summary: "Registers a named configuration, \"componentconfig\", with the configz package and stores the whole " +
				"KubeControllerManagerConfiguration in it, so that the /configz endpoint of the HTTP server started a few steps " +
				"later shows the configuration the process really runs with. A failure (the name is taken) is only logged. " +
				"kubeloom's /configz serves the simulated configuration as JSON under the same name.",
			SummaryZH: "向 configz 包注册名为 \"componentconfig\" 的配置，并把整个 KubeControllerManagerConfiguration 存进去，" +
				"这样几步之后启动的 HTTP 服务的 /configz 端点就能展示进程实际使用的配置。失败（名字已被占用）只记一条日志。" +
				"kubeloom 的 /configz 以同样的名字、用 JSON 提供模拟的配置。",
			Quote:   "// 创建对应的config，加入到configsif c, err := configz.New(\"componentconfig\"); err == nil {// 为对应的config设置config.val值c.Set(s.KubeControllerManagerConfiguration)",
			QuoteEN: "// create the corresponding config and add it to configs if c, err := configz.New(\"componentconfig\"); err == nil {// set the config.val value of the corresponding config c.Set(s.KubeControllerManagerConfiguration)",
		},
		Step{
			Component: cm, Name: "BuildConfigFromFlags",
			Function: "clientcmd.BuildConfigFromFlags(s.Master, s.Kubeconfig)", File: "pkg/client/unversioned/clientcmd/client_config.go",
			Article: cmRun + " (clientcmd.BuildConfigFromFlags)",
			Summary: "Builds the restclient.Config that every client of the process starts from: it loads the kubeconfig file " +
				"named by --kubeconfig and lets --master override the apiserver's address. Run then sets the content type " +
				"(protobuf by default in 1.5) and the client rate limit from --kube-api-qps (20) and --kube-api-burst (30). " +
				"kubeloom has no real apiserver: its clients talk to client-go's fake clientset, as the span's attribute " +
				"kubeloom.apiserver says.",
			SummaryZH: "构建进程中所有客户端共用的 restclient.Config：加载 --kubeconfig 指定的 kubeconfig 文件，并用 --master 覆盖 apiserver 地址。" +
				"随后 Run 设置内容类型（1.5 默认 protobuf）以及来自 --kube-api-qps（20）和 --kube-api-burst（30）的客户端限流。" +
				"kubeloom 没有真实的 apiserver：它的客户端访问的是 client-go 的 fake clientset，span 属性 kubeloom.apiserver 说明了这一点。",
			Quote:   "//根据kubeconfig和master的url地址生成最终的restclient.Configkubeconfig, err := clientcmd.BuildConfigFromFlags(s.Master, s.Kubeconfig)",
			QuoteEN: "//from kubeconfig and the master's url address, generate the final restclient.Config kubeconfig, err := clientcmd.BuildConfigFromFlags(s.Master, s.Kubeconfig)",
		},
		Step{
			Component: cm, Name: "NewForConfig",
			Function: "clientset.NewForConfig(restclient.AddUserAgent(kubeconfig, \"controller-manager\"))",
			File:     "pkg/client/clientset_generated/internalclientset/clientset.go",
			Article:  cmRun + " (clientset.NewForConfig)",
			Summary: "Creates kubeClient, the clientset with the user agent \"controller-manager\" that Run uses for its own " +
				"calls: the event sink writes events through it, and the service-account client builder uses its core client. " +
				"An invalid configuration is fatal (glog.Fatalf). The controllers get clients of their own later, one per " +
				"controller name, from the client builders StartControllers is given.",
			SummaryZH: "创建 kubeClient，即 user agent 为 \"controller-manager\"、供 Run 自己调用的 clientset：事件 sink 通过它写事件，" +
				"service account 客户端构建器也使用它的 core 客户端。配置无效则直接致命退出（glog.Fatalf）。" +
				"各控制器随后从传给 StartControllers 的客户端构建器那里得到各自的客户端，每个控制器名一个。",
			Quote:   "// 创建ClientsetkubeClient, err := clientset.NewForConfig(restclient.AddUserAgent(kubeconfig, \"controller-manager\"))",
			QuoteEN: "// create the Clientset kubeClient, err := clientset.NewForConfig(restclient.AddUserAgent(kubeconfig, \"controller-manager\"))",
		},
		Step{
			Component: cm, Name: "NewForConfigOrDie",
			Function: "clientset.NewForConfigOrDie(restclient.AddUserAgent(kubeconfig, \"leader-election\"))",
			File:     "pkg/client/clientset_generated/internalclientset/clientset.go",
			Article:  cmRun + " (clientset.NewForConfigOrDie)",
			Summary: "Creates a second clientset, with the user agent \"leader-election\", used only by leader election's " +
				"Endpoints lock. A client of its own has a rate limiter of its own, so lock renewals do not queue behind the " +
				"process's other requests. OrDie: it panics on an invalid configuration instead of returning an error. In " +
				"kubeloom's modern era the lock is a Lease.",
			SummaryZH: "创建第二个 clientset，user agent 为 \"leader-election\"，只供选主用的 Endpoints 锁使用。单独的客户端有自己的限流器，" +
				"所以续约请求不会排在进程其他请求的后面。OrDie 表示配置无效时直接 panic，而不是返回错误。kubeloom 的 modern 时代中锁是 Lease。",
			Quote:   "leaderElectionClient := clientset.NewForConfigOrDie(restclient.AddUserAgent(kubeconfig, \"leader-election\"))",
			QuoteEN: "leaderElectionClient := clientset.NewForConfigOrDie(restclient.AddUserAgent(kubeconfig, \"leader-election\"))",
		},
		Step{
			Component: cm, Name: "NewBroadcaster",
			Function: "record.NewBroadcaster", File: "pkg/client/record/event.go",
			Article: cmRun + " (record.NewBroadcaster)",
			Summary: "Creates the broadcaster of the controller manager's own event pipeline and with it the fan-out goroutine " +
				"cm/event-broadcast-loop. Events recorded through it, such as leader election's \"became leader\", reach the log " +
				"and the apiserver through the watchers the next two steps attach. With --leader-elect=false the controllers' " +
				"constructors build their own pipelines on this main line too, told apart by the span attribute event.component.",
			SummaryZH: "为 controller manager 自己的事件管道创建 broadcaster，同时启动分发协程 cm/event-broadcast-loop。" +
				"通过它记录的事件（比如选主的 \"became leader\"）经由接下来两步挂上的 watcher 进入日志和 apiserver。" +
				"若 --leader-elect=false，各控制器的构造函数也在这条主线上建立各自的管道，用 span 属性 event.component 区分。",
			Quote:   "//事件播音员 Broadcaster发送事件到EventSink，EventSink存储事件eventBroadcaster := record.NewBroadcaster()",
			QuoteEN: "//event announcer Broadcaster sends events to the EventSink, the EventSink stores the events eventBroadcaster := record.NewBroadcaster()",
		},
		Step{
			Component: cm, Name: "StartLogging",
			Function: "EventBroadcaster.StartLogging(glog.Infof)", File: "pkg/client/record/event.go",
			Article: cmRun + " (StartLogging)",
			Summary: "Attaches a watcher to the broadcaster that writes every event to the log with glog.Infof; it starts the " +
				"goroutine cm/event-log-watcher. This is why the controller manager's log shows every event it records. It " +
				"makes no apiserver calls.",
			SummaryZH: "给 broadcaster 挂上一个 watcher，用 glog.Infof 把每个事件写进日志；它启动协程 cm/event-log-watcher。" +
				"这就是 controller manager 的日志里会出现它记录的每个事件的原因。它不调用 apiserver。",
			Quote:   "eventBroadcaster.StartLogging(glog.Infof)",
			QuoteEN: "eventBroadcaster.StartLogging(glog.Infof)",
		},
		Step{
			Component: cm, Name: "StartRecordingToSink",
			Function: "EventBroadcaster.StartRecordingToSink(&unversionedcore.EventSinkImpl{Interface: kubeClient.Core().Events(\"\")})",
			File:     "pkg/client/record/event.go",
			Article:  cmRun + " (StartRecordingToSink)",
			Summary: "Attaches the second watcher, which writes events to the apiserver through kubeClient's Events(\"\") client " +
				"after the EventCorrelator has aggregated and spam-filtered them; it starts cm/event-sink-watcher. From here on " +
				"the events this process records can be seen with kubectl get events.",
			SummaryZH: "挂上第二个 watcher，它通过 kubeClient 的 Events(\"\") 客户端把事件写到 apiserver，写之前由 EventCorrelator 做聚合和防刷屏过滤；" +
				"它启动 cm/event-sink-watcher。从此本进程记录的事件就能用 kubectl get events 看到。",
			Quote:   "// 发送event到指定的SinkeventBroadcaster.StartRecordingToSink(&unversionedcore.EventSinkImpl{Interface: kubeClient.Core().Events(\"\")})",
			QuoteEN: "// send the event to the specified Sink eventBroadcaster.StartRecordingToSink(&unversionedcore.EventSinkImpl{Interface: kubeClient.Core().Events(\"\")})",
		},
		Step{
			Component: cm, Name: "NewRecorder",
			Function: "EventBroadcaster.NewRecorder(api.EventSource{Component: \"controller-manager\"})", File: "pkg/client/record/event.go",
			Article: cmRun + " (NewRecorder)",
			Summary: "Creates the EventRecorder that stamps events with the source component \"controller-manager\". Run hands it " +
				"to the leader election lock, which records \"became leader\" with it, and to StartControllers. It starts no " +
				"goroutine: recording an event only hands it to the broadcaster's channel.",
			SummaryZH: "创建 EventRecorder，给事件打上来源组件 \"controller-manager\"。Run 把它交给选主的锁（锁用它记录 \"became leader\"）" +
				"和 StartControllers。它不启动协程：记录一个事件只是把事件交给 broadcaster 的通道。",
			Quote:   "// 创建新的接收器，从给定的event source中记录eventrecorder := eventBroadcaster.NewRecorder(api.EventSource{Component: \"controller-manager\"})",
			QuoteEN: "// create a new receiver: from the given event source, record event recorder := eventBroadcaster.NewRecorder(api.EventSource{Component: \"controller-manager\"})",
		},
		Step{
			Component: cm, Name: "RunOrDie",
			Function: "leaderelection.RunOrDie → NewLeaderElector(lec).Run()", File: "pkg/client/leaderelection/leaderelection.go",
			Article: cmRun + " (leaderelection.RunOrDie)",
			Summary: "Leader election, on the main goroutine. RunOrDie builds a LeaderElector on the Endpoints lock " +
				"kube-system/kube-controller-manager, with the hostname as identity, and calls Run: it blocks in acquire (the " +
				"cm/leader-acquire lane) until this process holds the lock, starts OnStartedLeading, the run closure, as the " +
				"goroutine cm/controllers-main, and then stays in renew (cm/leader-renew); a failed renewal ends in " +
				"OnStoppedLeading's glog.Fatalf(\"leaderelection lost\"). In kubeloom's modern era the lock is a Lease and the " +
				"identity gets a unique suffix; the span ends only when the process does.",
			SummaryZH: "在主协程上进行选主。RunOrDie 以主机名为身份、在 Endpoints 锁 kube-system/kube-controller-manager 上建立 LeaderElector 并调用 Run：" +
				"Run 先阻塞在 acquire 中（cm/leader-acquire 泳道），直到本进程拿到锁，然后把 OnStartedLeading（即 run 闭包）作为协程 cm/controllers-main 启动，" +
				"之后一直停留在 renew 中（cm/leader-renew）；续约失败则以 OnStoppedLeading 中的 glog.Fatalf(\"leaderelection lost\") 结束。" +
				"在 kubeloom 的 modern 时代，锁是 Lease，身份还带有唯一后缀；这个 span 直到进程结束才结束。",
			Quote:   "//根据配置选举leader，以及选举 失败/成功对应的执行方法leaderelection.RunOrDie(leaderelection.LeaderElectionConfig{",
			QuoteEN: "//elect the leader according to the configuration, and the methods to run on election failure/success leaderelection.RunOrDie(leaderelection.LeaderElectionConfig{",
		},
		// With --leader-elect=false, Run calls run(nil) on the main
		// goroutine, so StartControllers and its steps are main-line spans.
		Step{
			Component: cm, Name: "StartControllers",
			Function: "run(nil) → StartControllers", File: "cmd/kube-controller-manager/app/controllermanager.go",
			Article: articleCM + " §2 StartControllers",
			Summary: "On the main line only with --leader-elect=false, when Run calls run(nil) itself; otherwise it runs on " +
				"cm/controllers-main. It creates the SharedInformerFactory with a resync period drawn between 12h and 24h " +
				"(--min-resync-period times 1 to 2), starts the 21 controllers one after another, each a \"start <Name>\" span, " +
				"sleeping a jittered --controller-start-interval after each that starts (twice after the CronJob controller, none " +
				"after the GarbageCollector), asks the apiserver what it serves after the ResourceQuotaController, and ends with " +
				"sharedInformers.Start; then it blocks forever in select {}. If it ever returned, run would call glog.Fatalf.",
			SummaryZH: "只有在 --leader-elect=false、Run 自己调用 run(nil) 时，它才出现在主线上；否则它运行在 cm/controllers-main 上。" +
				"它创建 SharedInformerFactory，resync 周期在 12 到 24 小时之间随机（--min-resync-period 乘以 1 到 2），然后依次启动 21 个控制器，" +
				"每个都是一个 \"start <名称>\" span，每启动成功一个就按带抖动的 --controller-start-interval 睡一会儿（CronJob 控制器之后睡两次，" +
				"GarbageCollector 之后不睡），在 ResourceQuotaController 之后询问 apiserver 提供哪些 API，最后调用 sharedInformers.Start，" +
				"之后永久阻塞在 select {} 上。它一旦返回，run 就会调用 glog.Fatalf。",
			Quote:   "err := StartControllers(s, kubeconfig, rootClientBuilder, clientBuilder, stop, recorder)；在StartControllers中在初始化了SharedInformerFactory后启动了EndpointController、ReplicationManager、PodGCController",
			QuoteEN: "err := StartControllers(s, kubeconfig, rootClientBuilder, clientBuilder, stop, recorder) … In StartControllers, after the SharedInformerFactory has been initialized, EndpointController, ReplicationManager, PodGCController are started",
		},
		Step{
			Component: cm, Name: "ServerAPIVersions",
			Function: "wait.PollImmediate(time.Second, 10*time.Second, func() (bool, error) { … restclient.ServerAPIVersions(kubeconfig) … })",
			File:     "cmd/kube-controller-manager/app/controllermanager.go",
			Summary: "StartControllers' discovery step, after the ResourceQuotaController: \"if apiserver is not running we should " +
				"wait for some time and fail only then\". It asks the apiserver which group/versions it serves (GET /api, /apis), " +
				"trying once at once and then every second for up to 10 seconds; if it never answers, glog.Fatalf. PollImmediate " +
				"starts its poller goroutine only when the first try fails, so with a running apiserver, as in kubeloom, there is none.",
			SummaryZH: "StartControllers 的发现步骤，在 ResourceQuotaController 之后：\"如果 apiserver 没在运行，应该先等一会儿再失败\"。" +
				"它询问 apiserver 提供哪些 group/version（GET /api、/apis），先立即试一次，之后每秒一次、最多 10 秒；一直没有应答就 glog.Fatalf。" +
				"PollImmediate 只有在第一次尝试失败时才启动它的 poller 协程，所以 apiserver 在运行时（kubeloom 中就是这样）没有这个协程。",
		},
		Step{
			Component: cm, Name: "ServerResources",
			Function: "discoveryClient.ServerResources()", File: "cmd/kube-controller-manager/app/controllermanager.go",
			Summary: "Reads the resources of every served group/version (resourceMap). The API-group blocks that follow start " +
				"their controllers only if the apiserver serves the group/version and the resource: containsVersion(versions, " +
				"\"extensions/v1beta1\") for DaemonSets, Job, Deployment and ReplicaSet, autoscaling/v1 for the HPA, policy, apps, " +
				"batch/v2alpha1 and certificates for the rest. The namespace controller and the garbage collector ask again for their own lists.",
			SummaryZH: "读取每个已提供 group/version 的资源（resourceMap）。之后的各个 API 组代码块只有在 apiserver 提供该 group/version 和资源时" +
				"才启动控制器：DaemonSets、Job、Deployment、ReplicaSet 看 containsVersion(versions, \"extensions/v1beta1\")，HPA 看 autoscaling/v1，" +
				"其余看 policy、apps、batch/v2alpha1 和 certificates。namespace 控制器和垃圾回收器还会为自己再查一次。",
		},
		// The span is "start <controller name>"; like "scenario", the step is
		// registered under the span name's first word, which the caller
		// looks up after cutting the controller's name.
		Step{
			Component: cm, Name: "start",
			Function: "StartControllers → go New<Controller>(…).Run(…)", File: "cmd/kube-controller-manager/app/controllermanager.go",
			Article: articleCM + " §2 StartControllers",
			Summary: "One controller being started by StartControllers; the span is named after it, \"start EndpointController\" " +
				"and so on. The constructor asks the SharedInformerFactory for the informers it needs and may build an event " +
				"pipeline of its own, then Run starts the controller's goroutines, whose lanes tell their own stories. A " +
				"controller that does not start (the service controller without a cloud provider, the certificate controller " +
				"without its CA files, one turned off by --controllers) gets a \"not started\" span event with the reason.",
			SummaryZH: "StartControllers 正在启动的一个控制器；span 以它命名，如 \"start EndpointController\"。构造函数向 SharedInformerFactory " +
				"申请它需要的 informer，还可能建立自己的事件管道，然后 Run 启动控制器的协程，那些泳道各有自己的说明。" +
				"没有启动的控制器（没有云厂商时的 service 控制器、缺少 CA 文件时的 certificate 控制器、被 --controllers 关闭的控制器）" +
				"会得到一个带原因的 \"not started\" span 事件。",
			Quote:   "在StartControllers中在初始化了SharedInformerFactory后启动了EndpointController、ReplicationManager、PodGCController",
			QuoteEN: "In StartControllers, after the SharedInformerFactory has been initialized, EndpointController, ReplicationManager, PodGCController are started",
		},
		Step{
			Component: cm, Name: "sharedInformers.Start",
			Function: "sharedInformerFactory.Start(stop)", File: "pkg/controller/informers/factory.go",
			Article: articleCM + " §3 factory.go Start",
			Summary: "The last step of StartControllers: for every informer the controllers asked for through Informer() and " +
				"that is not running yet, go informer.Run(stopCh). So the reflector, process loop and listener goroutines of all " +
				"the shared informers start here, together, after every controller has registered its handlers; an informer " +
				"requested later would need another Start.",
			SummaryZH: "StartControllers 的最后一步：对控制器通过 Informer() 申请过、且尚未运行的每个 informer 执行 go informer.Run(stopCh)。" +
				"因此所有共享 informer 的 reflector、处理循环和 listener 协程都在这里一起启动，此时每个控制器都已注册好自己的 handler；" +
				"之后才申请的 informer 需要再调用一次 Start。",
			Quote:   "在run方法中实际上调用了sharedInformers；for informerType, informer := range s.informers {if !s.startedInformers[informerType] {// sharedIndexInformer.rungo informer.Run(stopCh)",
			QuoteEN: "The run method in fact calls sharedInformers … for informerType, informer := range s.informers {if !s.startedInformers[informerType] {// sharedIndexInformer.rungo informer.Run(stopCh)",
		},

		// kubelet: main (kubelet.go) → app.Run → run → RunKubelet.
		Step{
			Component: kubelet, Name: "main",
			Function: "main", File: "cmd/kubelet/kubelet.go",
			Article: articleKubelet + " (5) 日志flush",
			Summary: "The kubelet's entry point and the root of its trace. main builds the KubeletServer with its defaults " +
				"(NewKubeletServer), registers and parses the flags (AddFlags, InitFlags), sets up logging (InitLogs) and calls " +
				"app.Run(s, nil), which runs the kubelet and does not return; on an error main prints it and exits with status 1. " +
				"kubeloom's main span lasts until the run ends, the scenario stops the kubelet (stopKubelet) or the kubelet exits " +
				"by itself (its server could not bind its port), recorded as process.exit; startKubelet begins a new main.",
			SummaryZH: "kubelet 的入口，也是它整条 trace 的根。main 用默认值创建 KubeletServer（NewKubeletServer），注册并解析参数（AddFlags、InitFlags），" +
				"初始化日志（InitLogs），然后调用 app.Run(s, nil)；它运行 kubelet，不会返回，出错时 main 打印错误并以状态码 1 退出。" +
				"kubeloom 中 main 这个 span 持续到运行结束、场景停掉 kubelet（stopKubelet）或 kubelet 自行退出（它的服务绑定不了端口）为止，" +
				"退出原因记录在 process.exit 中；startKubelet 会开始一个新的 main。",
			Quote:   "main函数中： util.InitLogs()",
			QuoteEN: "In the main function: util.InitLogs()",
		},
		Step{
			Component: kubelet, Name: "NewKubeletServer",
			Function: "options.NewKubeletServer", File: "cmd/kubelet/app/options/options.go",
			Summary: "Creates the KubeletServer: a KubeletConfiguration with the defaults of componentconfig v1alpha1 " +
				"(--sync-frequency 1m, --file-check-frequency and --http-check-frequency 20s, --node-status-update-frequency 10s, " +
				"--port 10250, --read-only-port 10255, --healthz-port 10248, image GC at 90%/80% and so on) plus the settings " +
				"kept outside it, such as --kubeconfig. Nothing runs yet; the flags parsed next overwrite these values.",
			SummaryZH: "创建 KubeletServer：一个带有 componentconfig v1alpha1 默认值的 KubeletConfiguration（--sync-frequency 1 分钟，" +
				"--file-check-frequency 和 --http-check-frequency 20 秒，--node-status-update-frequency 10 秒，--port 10250，--read-only-port 10255，" +
				"--healthz-port 10248，镜像 GC 阈值 90%/80%，等等），再加上放在它之外的设置，如 --kubeconfig。此时还什么都没运行；接下来解析的参数会覆盖这些值。",
		},
		Step{
			Component: kubelet, Name: "AddFlags",
			Function: "KubeletServer.AddFlags(pflag.CommandLine)", File: "cmd/kubelet/app/options/options.go",
			Summary: "Registers the kubelet's flags on pflag.CommandLine, each bound to a field of the KubeletServer, so a flag " +
				"that is not given keeps the default NewKubeletServer put there; InitFlags parses them. kubeloom's span lists the " +
				"flags that shape its simulated kubelet: --hostname-override (the node's name), --pod-manifest-path and " +
				"--manifest-url (the two static-pod sources, empty when off), --kubelet-cgroups and --runtime-cgroups.",
			SummaryZH: "把 kubelet 的参数注册到 pflag.CommandLine 上，每个参数绑定 KubeletServer 的一个字段，所以没给出的参数保持 NewKubeletServer 填入的默认值；" +
				"解析由 InitFlags 完成。kubeloom 的 span 列出了决定模拟 kubelet 的参数：--hostname-override（节点名）、--pod-manifest-path 和 --manifest-url" +
				"（两个静态 pod 源，为空表示关闭）、--kubelet-cgroups 和 --runtime-cgroups。",
		},
		Step{
			Component: kubelet, Name: "InitFlags",
			Function: "flag.InitFlags", File: "pkg/util/flag/flags.go",
			Summary: "Parses the command line, as in every Kubernetes binary of the time: word separators are normalized " +
				"(--file_check_frequency is --file-check-frequency), Go's flag set (glog's -v and the like) is added to pflag's " +
				"and pflag.Parse runs. From here on the KubeletServer holds the final configuration. kubeloom does nothing more " +
				"here: its kubelet takes its settings from the scenario.",
			SummaryZH: "解析命令行，和那个时代的每个 Kubernetes 程序一样：统一单词分隔符（--file_check_frequency 就是 --file-check-frequency），" +
				"把 Go 标准库的 flag 集合（glog 的 -v 等）并入 pflag，再执行 pflag.Parse。从此 KubeletServer 中就是最终配置。" +
				"kubeloom 在这一步不做别的事：它的 kubelet 从场景中取得设置。",
		},
		Step{
			Component: kubelet, Name: "InitLogs",
			Function: "logs.InitLogs", File: "pkg/util/logs/logs.go",
			Article: articleKubelet + " (5) 日志flush",
			Summary: "Sends Go's standard log package into glog and starts the kubelet's first goroutine, kubelet/log-flush, " +
				"which calls glog.Flush every --log-flush-frequency (5s). The article's v1.3 calls it util.InitLogs in pkg/util; " +
				"1.5 has it in pkg/util/logs. app.Run comes next.",
			SummaryZH: "把 Go 标准库 log 包的输出转到 glog，并启动 kubelet 的第一个协程 kubelet/log-flush，它每隔 --log-flush-frequency（5 秒）调用一次 glog.Flush。" +
				"文章的 v1.3 中它是 pkg/util 里的 util.InitLogs；1.5 中位于 pkg/util/logs。接下来是 app.Run。",
			Quote:   "main函数中： util.InitLogs()；// InitLogs initializes logs the way we want for kubernetes. func InitLogs() {",
			QuoteEN: "In the main function: util.InitLogs() … // InitLogs initializes logs the way we want for kubernetes. func InitLogs() {",
		},
		Step{
			Component: kubelet, Name: "run",
			Function: "app.Run → run(s, nil)", File: "cmd/kubelet/app/server.go",
			Article: articleKubelet + " (4) server.go run",
			Summary: "server.go's run does the process-level setup: it registers /configz, checks for CAP_SYS_ADMIN, builds the " +
				"dependencies (UnsecuredKubeletConfig) and the apiserver clients (CreateAPIServerClientConfig, NewForConfig), " +
				"creates cAdvisor and the container manager, sets the kubelet's own OOM score and calls RunKubelet. Once RunKubelet " +
				"returns it starts the healthz server (kubelet/healthz-server) and blocks for good. kubeloom records the steps " +
				"that shape the simulation; its run span lasts as long as the process.",
			SummaryZH: "server.go 的 run 完成进程级的准备：注册 /configz，检查 CAP_SYS_ADMIN 权限，构建依赖（UnsecuredKubeletConfig）和 apiserver 客户端" +
				"（CreateAPIServerClientConfig、NewForConfig），创建 cAdvisor 和 container manager，设置 kubelet 自己的 OOM 分数，然后调用 RunKubelet。" +
				"RunKubelet 返回后，它启动 healthz 服务（kubelet/healthz-server），然后一直阻塞。kubeloom 只记录影响模拟的那些步骤；run 这个 span 与进程同寿。",
			Quote:   "(4)server.go的run函数中启动Healthz的协程；在server.go的run函数中",
			QuoteEN: "(4) The Healthz goroutine started in the run function of server.go … In the run function of server.go",
		},
		Step{
			Component: kubelet, Name: "UnsecuredKubeletConfig",
			Function: "app.UnsecuredKubeletConfig (1.5: UnsecuredKubeletDeps)", File: "cmd/kubelet/app/server.go",
			Summary: "Builds what the kubelet depends on, without authentication and without starting anything in the " +
				"background: the Docker client, the mounter and writer (nsenter-based with --containerized), the network and " +
				"volume plugins and the OOM adjuster. The span keeps the name of the article's era; 1.5 renamed the function " +
				"UnsecuredKubeletDeps, which returns a KubeletDeps. kubeloom's dependencies are its simulated container runtime " +
				"and the fake clientset.",
			SummaryZH: "构建 kubelet 依赖的各种组件，不做认证，也不在后台启动任何东西：Docker 客户端、mounter 和 writer（--containerized 时基于 nsenter）、" +
				"网络插件和 volume 插件，以及 OOM adjuster。span 沿用文章那个时代的名字；1.5 把这个函数改名为 UnsecuredKubeletDeps，返回 KubeletDeps。" +
				"kubeloom 的依赖是它模拟的容器运行时和 fake clientset。",
		},
		Step{
			Component: kubelet, Name: "CreateAPIServerClientConfig",
			Function: "app.CreateAPIServerClientConfig", File: "cmd/kubelet/app/server.go",
			Summary: "Builds the restclient.Config for the apiserver from --api-servers (the first of the list; there is no load " +
				"balancing) and --kubeconfig or the older --auth-path, then sets the content type and the rate limit from " +
				"--kube-api-qps (5) and --kube-api-burst (10), and injects errors when --chaos-chance is set, for testing. Without " +
				"an apiserver it fails and the kubelet runs standalone, from its static-pod sources only. kubeloom's clients talk " +
				"to client-go's fake clientset.",
			SummaryZH: "根据 --api-servers（取列表中的第一个，不做负载均衡）和 --kubeconfig 或更早的 --auth-path 构建访问 apiserver 的 restclient.Config，" +
				"再设置内容类型和来自 --kube-api-qps（5）与 --kube-api-burst（10）的限流；设置了 --chaos-chance 时还会注入错误，用于测试。" +
				"没有 apiserver 时它会失败，kubelet 以独立模式运行，只使用静态 pod 源。kubeloom 的客户端访问的是 client-go 的 fake clientset。",
		},
		Step{
			Component: kubelet, Name: "NewForConfig",
			Function: "clientset.NewForConfig(clientConfig); clientset.NewForConfig(&eventClientConfig)", File: "cmd/kubelet/app/server.go",
			Summary: "run makes two clientsets from that configuration, one step each (attribute kubeloom.client): KubeClient, for " +
				"node status, pods and mirror pods, at --kube-api-qps 5 and --kube-api-burst 10, and then, \"a separate client for " +
				"events\", EventClient, a copy of the configuration with its own rate limit (eventClientConfig.QPS = --event-qps 5, " +
				"Burst = --event-burst 10), so that a burst of events cannot slow down status updates. Both have the user agent kubelet.",
			SummaryZH: "run 用这份配置创建两个 clientset，各记一步（属性 kubeloom.client）：KubeClient 用于节点状态、pod 和镜像 pod，" +
				"限流为 --kube-api-qps 5、--kube-api-burst 10；然后是 \"单独给事件用的客户端\" EventClient，它是配置的一份拷贝，" +
				"有自己的限流（eventClientConfig.QPS = --event-qps 5，Burst = --event-burst 10），这样大量事件不会拖慢状态更新。两者的 user agent 都是 kubelet。",
		},
		Step{
			Component: kubelet, Name: "RunKubelet",
			Function: "app.RunKubelet", File: "cmd/kubelet/app/server.go",
			Article: callChain,
			Summary: "Sets up and starts one kubelet: it works out the node name, builds the event pipeline (NewBroadcaster, " +
				"NewRecorder, StartLogging, StartRecordingToSink), sets up the capabilities and privileged sources, calls the " +
				"builder, CreateAndInitKubelet, and then startKubelet, which starts the main loop and the servers. It returns as " +
				"soon as those goroutines are started, and run goes on to the healthz server.",
			SummaryZH: "准备并启动一个 kubelet：确定节点名，建立事件管道（NewBroadcaster、NewRecorder、StartLogging、StartRecordingToSink），" +
				"设置 capabilities 和特权来源，调用构建函数 CreateAndInitKubelet，再调用 startKubelet 启动主循环和各个服务。" +
				"这些协程一启动它就返回，run 接着启动 healthz 服务。",
			Quote:   "调用链为run->\u00a0RunKubelet -> CreateAndInitKubelet ->makePodSourceConfig->NewSourceFile",
			QuoteEN: "The call chain is run-> RunKubelet -> CreateAndInitKubelet ->makePodSourceConfig->NewSourceFile",
		},
		Step{
			Component: kubelet, Name: "NewBroadcaster",
			Function: "record.NewBroadcaster", File: "pkg/client/record/event.go",
			Summary: "Creates the kubelet's event broadcaster at the top of RunKubelet and with it the fan-out goroutine " +
				"kubelet/event-broadcast-loop. Every event the kubelet records goes through it: \"Starting kubelet.\" from " +
				"BirthCry, node conditions, image pulls, container starts and kills, probe failures.",
			SummaryZH: "在 RunKubelet 开头创建 kubelet 的事件 broadcaster，同时启动分发协程 kubelet/event-broadcast-loop。" +
				"kubelet 记录的每个事件都经过它：BirthCry 的 \"Starting kubelet.\"、节点状况、镜像拉取、容器启动和终止、探针失败。",
		},
		Step{
			Component: kubelet, Name: "NewRecorder",
			Function: "EventBroadcaster.NewRecorder(api.EventSource{Component: \"kubelet\", Host: nodeName})", File: "pkg/client/record/event.go",
			Summary: "Creates the recorder that stamps events with the source {Component: \"kubelet\", Host: <node name>}; it " +
				"becomes kcfg.Recorder, handed to every part of the kubelet that records events. RunKubelet makes it right after " +
				"NewBroadcaster, before the two watchers (the controller manager's Run makes it last); no event is recorded in " +
				"between, so either order loses none.",
			SummaryZH: "创建 recorder，给事件打上来源 {Component: \"kubelet\", Host: <节点名>}；它成为 kcfg.Recorder，交给 kubelet 中每个记录事件的部分。" +
				"RunKubelet 在 NewBroadcaster 之后、挂两个 watcher 之前就创建它（controller manager 的 Run 最后才创建）；" +
				"其间没有记录任何事件，所以两种顺序都不会丢事件。",
		},
		Step{
			Component: kubelet, Name: "StartLogging",
			Function: "EventBroadcaster.StartLogging(glog.V(3).Infof)", File: "pkg/client/record/event.go",
			Summary: "Attaches the logging watcher, kubelet/event-log-watcher. Unlike the controller manager's it logs at " +
				"verbosity 3, so with the default -v the kubelet's events do not show up in its log.",
			SummaryZH: "挂上打日志的 watcher，即 kubelet/event-log-watcher。与 controller manager 不同，它在日志级别 3 上输出，" +
				"所以默认的 -v 下 kubelet 的事件不会出现在它的日志里。",
		},
		Step{
			Component: kubelet, Name: "StartRecordingToSink",
			Function: "EventBroadcaster.StartRecordingToSink(&unversionedcore.EventSinkImpl{Interface: kubeDeps.EventClient.Events(\"\")})",
			File:     "pkg/client/record/event.go",
			Summary: "Attaches the watcher that writes events to the apiserver through the EventClient, kubelet/event-sink-watcher, " +
				"only when there is such a client; without an apiserver the kubelet logs \"No api server defined - no events will be " +
				"sent to API server.\" and its events go nowhere but the log.",
			SummaryZH: "挂上通过 EventClient 把事件写到 apiserver 的 watcher，即 kubelet/event-sink-watcher，只有存在这个客户端时才挂；" +
				"没有 apiserver 时 kubelet 打印 \"No api server defined - no events will be sent to API server.\"，它的事件只会进日志。",
		},
		Step{
			Component: kubelet, Name: "CreateAndInitKubelet",
			Function: "app.CreateAndInitKubelet", File: "cmd/kubelet/app/server.go",
			Article: articleKubelet + " (1) 垃圾筒收集协程",
			Summary: "The default builder RunKubelet calls: it creates the Kubelet with NewMainKubelet, announces it with BirthCry " +
				"and starts the two garbage collectors with StartGarbageCollection, all before the main loop runs. kubeloom " +
				"follows the article's v1.3, where the pod sources are made here first (makePodSourceConfig); in 1.5 NewMainKubelet " +
				"makes them.",
			SummaryZH: "RunKubelet 调用的默认构建函数：用 NewMainKubelet 创建 Kubelet，用 BirthCry 宣告启动，再用 StartGarbageCollection 启动两个垃圾回收协程，" +
				"这些都发生在主循环运行之前。kubeloom 按文章的 v1.3，先在这里创建 pod 源（makePodSourceConfig）；1.5 中由 NewMainKubelet 创建。",
			Quote:   "在KubeletConfig\u00a0CreateAndInitKubelet函数中，调用k.StartGarbageCollection()启动",
			QuoteEN: "In the KubeletConfig CreateAndInitKubelet function, it is started by calling k.StartGarbageCollection()",
		},
		Step{
			Component: kubelet, Name: "makePodSourceConfig",
			Function: "makePodSourceConfig", File: "pkg/kubelet/kubelet.go",
			Article: callChain,
			Summary: "Builds the PodConfig, the mux that merges the kubelet's pod sources into one stream of updates for the main " +
				"loop (a channel of 50), and starts the sources: the manifest file or directory (NewSourceFile) with " +
				"--pod-manifest-path, the manifest URL (NewSourceURL) with --manifest-url, and the apiserver (NewSourceApiserver) " +
				"when there is a client. Each source gets a channel of its own, served by a kubelet/config-mux goroutine. The " +
				"article's v1.3 has it in server.go, called by CreateAndInitKubelet; 1.5 moved it to pkg/kubelet, called by NewMainKubelet.",
			SummaryZH: "构建 PodConfig，即把 kubelet 的各个 pod 源合并成一条更新流交给主循环的 mux（通道容量 50），并启动各个源：" +
				"设置了 --pod-manifest-path 时启动清单文件或目录源（NewSourceFile），设置了 --manifest-url 时启动清单 URL 源（NewSourceURL），" +
				"有客户端时启动 apiserver 源（NewSourceApiserver）。每个源有自己的通道，由一个 kubelet/config-mux 协程负责。" +
				"文章的 v1.3 中它位于 server.go、由 CreateAndInitKubelet 调用；1.5 把它移到 pkg/kubelet，由 NewMainKubelet 调用。",
			Quote:   "调用链为run->\u00a0RunKubelet -> CreateAndInitKubelet ->makePodSourceConfig->NewSourceURL",
			QuoteEN: "The call chain is run-> RunKubelet -> CreateAndInitKubelet ->makePodSourceConfig->NewSourceURL",
		},
		Step{
			Component: kubelet, Name: "NewSourceFile",
			Function: "config.NewSourceFile", File: "pkg/kubelet/config/file.go",
			Article: articleKubelet + " (6) SourceFile",
			Summary: "Starts the static-pod file source, the goroutine kubelet/source-file, which reads --pod-manifest-path every " +
				"--file-check-frequency (20s) and sends the pods it finds as one SET update. Only when that flag is set: of " +
				"kubeloom's built-in scenarios, only kubelet-startup gives its kubelet a manifest directory.",
			SummaryZH: "启动静态 pod 的文件源，即协程 kubelet/source-file，它每隔 --file-check-frequency（20 秒）读一次 --pod-manifest-path，" +
				"把找到的 pod 作为一个 SET 更新发出去。只有设置了该参数时才会启动：kubeloom 的内置场景中只有 kubelet-startup 给 kubelet 配了清单目录。",
			Quote:   "func NewSourceFile(path string, nodeName string, period time.Duration, updates chan<- interface{}) {；glog.V(1).Infof(\"Watching path %q\", path)",
			QuoteEN: "func NewSourceFile(path string, nodeName string, period time.Duration, updates chan<- interface{}) { … glog.V(1).Infof(\"Watching path %q\", path)",
		},
		Step{
			Component: kubelet, Name: "NewSourceURL",
			Function: "config.NewSourceURL", File: "pkg/kubelet/config/http.go",
			Article: articleKubelet + " (7) SourceURL",
			Summary: "Starts the static-pod HTTP source, kubelet/source-url, which GETs --manifest-url every --http-check-frequency " +
				"(20s) with a 10-second timeout and sends the pods as a SET update when the body has changed. Only with " +
				"--manifest-url; kubeloom serves the manifests itself on 127.0.0.1.",
			SummaryZH: "启动静态 pod 的 HTTP 源 kubelet/source-url，它每隔 --http-check-frequency（20 秒）以 10 秒超时 GET 一次 --manifest-url，" +
				"内容有变化时把 pod 作为 SET 更新发出去。只有设置了 --manifest-url 才启动；kubeloom 自己在 127.0.0.1 上提供这些清单。",
			Quote:   "func NewSourceURL(url string, header http.Header, nodeName string, period time.Duration, updates chan<- interface{}) {；glog.V(1).Infof(\"Watching URL %s\", url)",
			QuoteEN: "func NewSourceURL(url string, header http.Header, nodeName string, period time.Duration, updates chan<- interface{}) { … glog.V(1).Infof(\"Watching URL %s\", url)",
		},
		Step{
			Component: kubelet, Name: "NewSourceApiserver",
			Function: "config.NewSourceApiserver", File: "pkg/kubelet/config/apiserver.go",
			Article: articleKubelet + " (8) APIService Watch",
			Summary: "Starts the source of the pods bound to this node: a reflector (kubelet/source-apiserver) that lists and " +
				"watches pods with the field selector spec.nodeName=<node> into an UndeltaStore, which sends the whole list as a " +
				"SET update after every change. This is how a pod the scheduler has bound reaches the kubelet. kubeloom filters on " +
				"spec.nodeName itself, because the fake clientset ignores field selectors.",
			SummaryZH: "启动绑定到本节点的 pod 的来源：一个 reflector（kubelet/source-apiserver），以字段选择器 spec.nodeName=<节点名> list 并 watch pod，" +
				"存入 UndeltaStore，每次变化后都把整个列表作为 SET 更新发出去。调度器绑定的 pod 就是这样到达 kubelet 的。" +
				"fake clientset 会忽略字段选择器，所以 kubeloom 自己按 spec.nodeName 过滤。",
			Quote:   "// NewSourceApiserver creates a config source that watches and pulls from the apiserver. func NewSourceApiserver(c *clientset.Clientset, nodeName string, updates chan<- interface{}) {",
			QuoteEN: "// NewSourceApiserver creates a config source that watches and pulls from the apiserver. func NewSourceApiserver(c *clientset.Clientset, nodeName string, updates chan<- interface{}) {",
		},
		Step{
			Component: kubelet, Name: "NewMainKubelet",
			Function: "kubelet.NewMainKubelet", File: "pkg/kubelet/kubelet.go",
			Summary: "Builds the Kubelet object and its modules without starting them: the container and image GC policies, the " +
				"container runtime (the Docker manager by default), the pod manager, status manager, probe manager, PLEG, volume " +
				"manager, eviction manager and more; in 1.5 it also makes the pod sources and starts reflectors for the services " +
				"and for its own Node. The modules' goroutines start later, in Kubelet.Run. kubeloom's span names the node and the " +
				"version of its simulated container runtime.",
			SummaryZH: "构建 Kubelet 对象及其各个模块，但不启动它们：容器和镜像的 GC 策略、容器运行时（默认是 Docker manager）、pod manager、status manager、" +
				"probe manager、PLEG、volume manager、eviction manager 等等；1.5 中它还会创建 pod 源，并为 service 和本节点的 Node 启动 reflector。" +
				"这些模块的协程之后在 Kubelet.Run 中才启动。kubeloom 的 span 记录了节点名和模拟容器运行时的版本。",
		},
		Step{
			Component: kubelet, Name: "BirthCry",
			Function: "Kubelet.BirthCry", File: "pkg/kubelet/kubelet.go",
			Summary: "Records the event \"Starting kubelet.\" (reason Starting, type Normal) on the node, the first event a kubelet " +
				"records after each start, listed among the node's events by kubectl describe node. The event goes through the " +
				"pipeline RunKubelet built: it is the first iteration of kubelet/event-broadcast-loop.",
			SummaryZH: "在节点上记录事件 \"Starting kubelet.\"（原因 Starting，类型 Normal），这是 kubelet 每次启动后记录的第一个事件，" +
				"kubectl describe node 会在节点的事件中列出它。事件经过 RunKubelet 建立的管道：它是 kubelet/event-broadcast-loop 的第一次迭代。",
		},
		Step{
			Component: kubelet, Name: "StartGarbageCollection",
			Function: "Kubelet.StartGarbageCollection", File: "pkg/kubelet/kubelet.go",
			Article: articleKubelet + " (1) 垃圾筒收集协程",
			Summary: "Starts the two garbage-collection goroutines: kubelet/container-gc every ContainerGCPeriod (1m) and " +
				"kubelet/image-gc every ImageGCPeriod (5m). Both make their first pass right away, before the main loop runs, so " +
				"the first container GC finds the pod sources not yet ready and leaves the dead containers of vanished pods alone.",
			SummaryZH: "启动两个垃圾回收协程：每隔 ContainerGCPeriod（1 分钟）运行的 kubelet/container-gc 和每隔 ImageGCPeriod（5 分钟）运行的 kubelet/image-gc。" +
				"两者都立即先运行一次，那时主循环还没开始，所以第一次容器 GC 发现 pod 源尚未就绪，不会清理已消失的 pod 的退出容器。",
			Quote:   "在KubeletConfig\u00a0CreateAndInitKubelet函数中，调用k.StartGarbageCollection()启动；// Starts garbage collection threads. func (kl *Kubelet) StartGarbageCollection() {",
			QuoteEN: "In the KubeletConfig CreateAndInitKubelet function, it is started by calling k.StartGarbageCollection() … // Starts garbage collection threads. func (kl *Kubelet) StartGarbageCollection() {",
		},
		Step{
			Component: kubelet, Name: "startKubelet",
			Function: "app.startKubelet", File: "cmd/kubelet/app/server.go",
			Article: articleKubelet + " (9) startKubelet",
			Summary: "Starts the kubelet's main loop (kubelet/main-loop: Kubelet.Run, then syncLoop), the kubelet server on --port " +
				"10250 (kubelet/server) and the read-only server on --read-only-port 10255 (kubelet/readonly-server), each with " +
				"wait.Until(…, 0, wait.NeverStop), and returns at once: the three goroutines start together, not one after the " +
				"other. RunKubelet then returns and run starts the healthz server.",
			SummaryZH: "启动 kubelet 的主循环（kubelet/main-loop：Kubelet.Run，然后是 syncLoop）、--port 10250 上的 kubelet 服务（kubelet/server）" +
				"和 --read-only-port 10255 上的只读服务（kubelet/readonly-server），每个都用 wait.Until(…, 0, wait.NeverStop)，然后立即返回：" +
				"三个协程是一起启动的，并不是一个接一个。随后 RunKubelet 返回，run 启动 healthz 服务。",
			Quote:   "func startKubelet(k KubeletBootstrap, podCfg *config.PodConfig, kc *KubeletConfig) {；// start the kubelet server",
			QuoteEN: "func startKubelet(k KubeletBootstrap, podCfg *config.PodConfig, kc *KubeletConfig) { … // start the kubelet server",
		},

		// kubeloom: the scenario's own instance. Its root span is named
		// "scenario <name>": the lookup cuts the scenario's name and asks
		// for "scenario", the span name's first word.
		Step{
			Component: driver, Name: "scenario",
			Function: "kubeloom: driver.start (the scenario's root span)", File: "sim/engine/driver.go",
			Summary: "The root span of the scenario's own instance, kubeloom scenario, named \"scenario <name>\". This instance " +
				"plays the user and the rest of the cluster: it loads the scenario's objects (LoadObjects), performs the actions at " +
				"their times (action/<verb>) and runs kubeloom's stand-in scheduler, scheduler/bind. It is not Kubernetes code; " +
				"the span lasts the whole run and carries the scenario's name and era.",
			SummaryZH: "场景自己的实例 kubeloom scenario 的根 span，名为 \"scenario <名称>\"。这个实例扮演用户和集群的其余部分：" +
				"加载场景的对象（LoadObjects），按时执行各个动作（action/<动作>），还运行 kubeloom 代替调度器的 scheduler/bind。" +
				"它不是 Kubernetes 的代码；这个 span 持续整个运行过程，带有场景的名称和时代。",
		},
		Step{
			Component: driver, Name: "LoadObjects",
			Function: "kubeloom: driver.start → cluster.Create for each of spec.objects", File: "sim/engine/driver.go",
			Summary: "Writes the scenario's spec.objects into the simulated apiserver (client-go's fake clientset behind kubeloom's " +
				"cluster) before any component starts, as if they had been created long ago. Components that start afterwards " +
				"find them in their first LIST, not as watch events. An object that cannot be created ends the run before it begins.",
			SummaryZH: "在任何组件启动之前，把场景的 spec.objects 写进模拟的 apiserver（kubeloom 集群背后的 client-go fake clientset），" +
				"就像它们很久以前就已创建。之后启动的组件在第一次 LIST 中看到它们，而不是通过 watch 事件。有对象创建失败时，运行在开始之前就结束。",
		},
		Step{
			Component: driver, Name: "action/create",
			Function: "kubeloom: driver.apply → cluster.Create", File: "sim/engine/world.go",
			Summary: "A scenario action: the object given is created in the simulated apiserver, like kubectl create. Every open " +
				"watch of its resource delivers an ADDED event, so the informers, controllers and kubelets watching it react from " +
				"here; the span's k8s.object.key names the object. An error (the object exists already, say) is recorded on the " +
				"span and the run goes on.",
			SummaryZH: "场景动作：在模拟的 apiserver 中创建给定的对象，就像 kubectl create。该资源上每个打开的 watch 都会收到一个 ADDED 事件，" +
				"所以监视它的 informer、控制器和 kubelet 从这里开始反应；span 属性 k8s.object.key 指明了对象。出错时（比如对象已存在）错误记录在 span 上，运行继续。",
		},
		Step{
			Component: driver, Name: "action/update",
			Function: "kubeloom: driver.apply → cluster.Update", File: "sim/engine/world.go",
			Summary: "A scenario action: the object is replaced by the one given, like kubectl replace, so the whole object is " +
				"written, not only the changed fields. Watches deliver MODIFIED and informers hand the old and the new object to " +
				"OnUpdate.",
			SummaryZH: "场景动作：用给定的对象替换原对象，就像 kubectl replace，所以写入的是整个对象，而不只是改动的字段。" +
				"watch 收到 MODIFIED，informer 把新旧两个对象交给 OnUpdate。",
		},
		Step{
			Component: driver, Name: "action/delete",
			Function: "kubeloom: driver.apply → cluster.Delete", File: "sim/engine/world.go",
			Summary: "A scenario action: the object is deleted, like kubectl delete. Watches deliver DELETED and informers call " +
				"OnDelete; what follows depends on who cares about the object, for example a ReplicaSet replacing a deleted pod. " +
				"Deleting what is not there is recorded as an error on the span.",
			SummaryZH: "场景动作：删除对象，就像 kubectl delete。watch 收到 DELETED，informer 调用 OnDelete；接下来发生什么取决于谁关心这个对象，" +
				"例如 ReplicaSet 会补上被删除的 pod。删除不存在的对象会作为错误记录在 span 上。",
		},
		Step{
			Component: driver, Name: "action/breakWatches",
			Function: "kubeloom: driver.apply → cluster.BreakWatches", File: "sim/engine/world.go",
			Summary: "A scenario action: every open watch of a resource ends with 410 Gone (\"too old resource version\"), as a real " +
				"apiserver does when its watch cache has moved on. Each reflector's ListAndWatch returns and, after its period " +
				"(1s), lists again and opens a new watch; the re-list makes informers call OnUpdate even for objects that did not " +
				"change. watches.broken says how many watches ended.",
			SummaryZH: "场景动作：让某资源上所有打开的 watch 以 410 Gone（\"too old resource version\"）结束，就像真实 apiserver 的 watch 缓存已经往前走了。" +
				"每个 reflector 的 ListAndWatch 随之返回，过一个周期（1 秒）后重新 list 并打开新的 watch；重新 list 会让 informer 对没有变化的对象也调用 OnUpdate。" +
				"watches.broken 记录结束了多少个 watch。",
		},
		Step{
			Component: driver, Name: "action/restartAPIServer",
			Function: "kubeloom: driver.apply → cluster.BreakAllWatches", File: "sim/engine/world.go",
			Summary: "A scenario action: the apiserver restarts. Its new watch cache starts at the current resource version, so " +
				"every open watch of every resource ends with 410 Gone (\"too old resource version\"; 1.5's storage/cacher.go). " +
				"Every reflector of every component — each informer of the controller-manager, each kubelet's pod source, node " +
				"and service reflectors — returns from ListAndWatch and, after its period (1s in classic), lists again: a storm " +
				"of LISTs within a second or two, the largest of them the full pod list. k8s.resources names the resources whose " +
				"watches broke and watches.broken how many.",
			SummaryZH: "场景动作：apiserver 重启。它新的 watch 缓存从当前的 resource version 开始，所以所有资源上所有打开的 watch 都以 " +
				"410 Gone（\"too old resource version\"；1.5 的 storage/cacher.go）结束。每个组件的每个 reflector——controller-manager 的每个 " +
				"informer、每个 kubelet 的 pod 源、node 和 service 的 reflector——都从 ListAndWatch 返回，过一个周期（classic 中是 1 秒）后重新 list：" +
				"一两秒内涌来一阵 LIST 风暴，其中最大的是全部 pod 的列表。k8s.resources 列出 watch 被断开的资源，watches.broken 记录断开了多少个。",
		},
		Step{
			Component: driver, Name: "action/addHandler",
			Function: "kubeloom: driver.apply → informers.addHandler", File: "sim/engine/world.go",
			Summary: "A scenario action: one more handler is added to a running informer of spec.informers. The work happens on " +
				"the informers instance, under a span of the same name linked to this one: AddEventHandler starts the new " +
				"listener's goroutines and first replays every object in the cache to it as OnAdd, so that it catches up.",
			SummaryZH: "场景动作：给 spec.informers 中一个正在运行的 informer 再加一个 handler。具体工作发生在 informers 实例上，" +
				"在一个同名且链接到这里的 span 之下：AddEventHandler 启动新 listener 的协程，并先把缓存中的每个对象以 OnAdd 重放给它，让它赶上进度。",
		},
		Step{
			Component: driver, Name: "action/hangHandler",
			Function: "kubeloom: driver.apply → informers.hang", File: "sim/engine/world.go",
			Summary: "A scenario action: one handler of an informer blocks forever in its next call, like a handler stuck on a " +
				"channel nobody sends to. Its informer/listener-run goroutine is stuck with it, its informer/listener-pop keeps " +
				"buffering notifications, and when the run ends that listener-run cannot stop: a goroutine leak, which the run's " +
				"summary reports as LEFTOVER.",
			SummaryZH: "场景动作：让 informer 的某个 handler 在下一次调用中永久阻塞，就像 handler 卡在一个没人发送的通道上。" +
				"它的 informer/listener-run 协程随之卡住，它的 informer/listener-pop 不断缓冲通知；运行结束时这个 listener-run 无法停止：" +
				"这就是协程泄漏，运行摘要会把它报告为 LEFTOVER。",
		},
		Step{
			Component: driver, Name: "action/killLeader",
			Function: "kubeloom: driver.apply → world.killLeader", File: "sim/engine/world.go",
			Summary: "A scenario action: the kube-controller-manager replica that holds the leader lock is killed, as by SIGKILL, " +
				"so it does not release the lock; kubeloom reads the holder from the lock (the Endpoints annotation in classic, the " +
				"Lease in modern) and names it in leaderelection.holder and kubeloom.killed. Another replica takes over once the " +
				"lease has gone unrenewed for --leader-elect-lease-duration (15s) and starts its controllers.",
			SummaryZH: "场景动作：像 SIGKILL 一样杀掉持有选主锁的 kube-controller-manager 副本，所以它不会释放锁；kubeloom 从锁中读出持有者" +
				"（classic 中是 Endpoints 注解，modern 中是 Lease），记录在 leaderelection.holder 和 kubeloom.killed 中。" +
				"租约超过 --leader-elect-lease-duration（15 秒）没有续约后，另一个副本接管并启动它的控制器。",
		},
		Step{
			Component: driver, Name: "action/stopKubelet",
			Function: "kubeloom: driver.apply → node.stop", File: "sim/engine/world.go",
			Summary: "A scenario action: a node's kubelet process ends (kubeloom waits up to 10s of simulated time for its " +
				"goroutines to return). Its containers keep running, but nothing posts the node's status any more: after " +
				"--node-monitor-grace-period (40s) the NodeController marks the node Ready=Unknown and, after " +
				"--pod-eviction-timeout, evicts its pods.",
			SummaryZH: "场景动作：结束某个节点的 kubelet 进程（kubeloom 最多等待 10 秒模拟时间让它的协程返回）。它的容器继续运行，但再也没有人上报节点状态：" +
				"经过 --node-monitor-grace-period（40 秒）后 NodeController 把节点标为 Ready=Unknown，再过 --pod-eviction-timeout 后驱逐其上的 pod。",
		},
		Step{
			Component: driver, Name: "action/startKubelet",
			Function: "kubeloom: driver.apply → node.start", File: "sim/engine/world.go",
			Summary: "A scenario action: a new kubelet process starts on a node whose kubelet was stopped, as systemd restarting " +
				"it would, with a new main span and the whole startup from NewKubeletServer to startKubelet again. Containers the " +
				"runtime kept running survive: the new kubelet finds them running instead of starting them again, and the node " +
				"turns Ready again.",
			SummaryZH: "场景动作：在 kubelet 已被停掉的节点上启动一个新的 kubelet 进程，就像 systemd 重启它一样，有一个新的 main span，" +
				"从 NewKubeletServer 到 startKubelet 的整个启动过程再走一遍。运行时一直保持运行的容器会保留下来：新 kubelet 发现它们在运行，" +
				"不会再启动一次，节点也重新变为 Ready。",
		},
		Step{
			Component: driver, Name: "action/setImageFSUsage",
			Function: "kubeloom: driver.apply → runtime.SetImageFSUsage", File: "sim/engine/world.go",
			Summary: "A scenario action: a node's simulated image filesystem (8 GiB) is reported as the given percent full. The " +
				"kubelet notices only at its next image GC (kubelet/image-gc, every 5m): at or above --image-gc-high-threshold " +
				"(90% in 1.5, 85% today) it deletes unused images until usage is at most 80%, and records FreeDiskSpaceFailed if " +
				"it cannot free that much.",
			SummaryZH: "场景动作：把某个节点模拟的镜像文件系统（8 GiB）的使用率设为给定的百分比。kubelet 要到下一次镜像 GC（kubelet/image-gc，每 5 分钟）才会发现：" +
				"达到或超过 --image-gc-high-threshold（1.5 为 90%，今天为 85%）时，它删除未被使用的镜像，直到使用率不超过 80%；释放不够时记录 FreeDiskSpaceFailed。",
		},
		Step{
			Component: driver, Name: "action/injectOOM",
			Function: "kubeloom: driver.apply → world.injectOOM", File: "sim/engine/world.go",
			Summary: "A scenario action: the kernel's OOM killer fires on a node. Without a pod it kills a process outside any pod " +
				"and kubelet/oom-watcher records a SystemOOM event on the node; with a pod it kills that pod's container, which " +
				"ends with exit code 137 and reason OOMKilled and is restarted according to the pod's restartPolicy.",
			SummaryZH: "场景动作：让节点内核的 OOM killer 触发。不指定 pod 时它杀掉一个不属于任何 pod 的进程，kubelet/oom-watcher 在节点上记录 SystemOOM 事件；" +
				"指定 pod 时它杀掉该 pod 的容器，容器以退出码 137、原因 OOMKilled 结束，并按 pod 的 restartPolicy 重启。",
		},
		Step{
			Component: driver, Name: "action/takePort",
			Function: "kubeloom: driver.apply → node.takePort", File: "sim/engine/world.go",
			Summary: "A scenario action: another process binds the port of one of a node's kubelet servers (healthz, server or " +
				"readonly) for a while, which works only while the kubelet does not hold it, e.g. between stopKubelet and " +
				"startKubelet. The healthz server then logs the failure and retries every 5s, while the kubelet server and the " +
				"read-only server end in glog.Fatal and the whole kubelet exits.",
			SummaryZH: "场景动作：让另一个进程在一段时间内占用节点上某个 kubelet 服务（healthz、server 或 readonly）的端口，" +
				"只有 kubelet 没有占用该端口时才能成功，例如在 stopKubelet 和 startKubelet 之间。之后 healthz 服务记录失败并每 5 秒重试，" +
				"而 kubelet 服务和只读服务以 glog.Fatal 结束，整个 kubelet 退出。",
		},

		// informers: the scenario's stand-alone shared informers.
		Step{
			Component: informers, Name: "StartInformers",
			Function: "kubeloom: informers.start → Informer.Run for each of spec.informers (as sharedInformerFactory.Start does)",
			File:     "sim/engine/informers.go",
			Article:  articleCM + " §3 factory.go Start",
			Summary: "The root span of the informers instance, which stands for a program using shared informers directly, as " +
				"the controllers do: for each informer of spec.informers it creates a shared index informer on the resource, " +
				"adds the handlers the scenario asks for and runs it, which starts its reflector, process loop and listener " +
				"goroutines. It lasts the whole run. kubeloom's informer is assembled from client-go's parts (DeltaFIFO in " +
				"classic, RealFIFO in modern) with its own shared processor, so that every goroutine inside it can be traced.",
			SummaryZH: "informers 实例的根 span，这个实例代表一个直接使用共享 informer 的程序，就像控制器那样：对 spec.informers 中的每个 informer，" +
				"它在对应资源上创建一个 shared index informer，加上场景要求的 handler，然后运行它，从而启动它的 reflector、处理循环和 listener 协程。" +
				"它持续整个运行过程。kubeloom 的 informer 由 client-go 的组件拼装而成（classic 用 DeltaFIFO，modern 用 RealFIFO），" +
				"并有自己的 shared processor，这样其中的每个协程都能被追踪。",
			Quote:   "func (s *sharedInformerFactory) Start(stopCh <-chan struct{}) {；// sharedIndexInformer.rungo informer.Run(stopCh)",
			QuoteEN: "func (s *sharedInformerFactory) Start(stopCh <-chan struct{}) { … // sharedIndexInformer.rungo informer.Run(stopCh)",
		},
		Step{
			Component: informers, Name: "action/addHandler",
			Function: "kubeloom: world.apply → informers.addHandler → Informer.AddHandler", File: "sim/engine/world.go",
			Summary: "The informers instance's side of the scenario action addHandler: a span linked to the action on the kubeloom " +
				"scenario instance, under which the new handler (handler-N, counted per informer) is added with AddEventHandler. " +
				"The goroutines it starts belong to this instance, next to the informer's other listeners.",
			SummaryZH: "场景动作 addHandler 在 informers 实例上的一侧：一个链接到 kubeloom scenario 实例上那个动作的 span，" +
				"在它之下用 AddEventHandler 加入新的 handler（handler-N，按 informer 分别计数）。它启动的协程属于本实例，与该 informer 的其他 listener 并列。",
		},
		Step{
			Component: informers, Name: "AddEventHandler",
			Function: "sharedIndexInformer.AddEventHandler", File: "pkg/client/cache/shared_informer.go",
			Summary: "Adds a handler to an informer that is already running, the way client-go does: delta handling is blocked " +
				"while the new listener joins, its listener-run and listener-pop goroutines start, and every object in the cache " +
				"is sent to it as an add notification, so the new handler catches up through OnAdd calls before it sees any later " +
				"change. Handlers given before the informer starts skip all this and are simply added to the list.",
			SummaryZH: "给一个已经在运行的 informer 添加 handler，做法与 client-go 相同：新 listener 加入期间暂停处理 delta，启动它的 listener-run 和 listener-pop 协程，" +
				"并把缓存中的每个对象作为 add 通知发给它，于是新 handler 先通过 OnAdd 赶上进度，然后才看到之后的变化。" +
				"informer 启动之前给出的 handler 不经过这些，只是被加入列表。",
		},
	)
}

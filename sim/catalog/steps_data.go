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
	callChain := articleKubelet + " (6) SourceFile, (7) SourceURL (调用链)"
	registerSteps(
		// kube-controller-manager: glog's init, then main (controller-manager.go) → app.Run.
		Step{
			Component: cm, Name: "glog.init",
			Function: "glog's init → go logging.flushDaemon()", File: "vendor/github.com/golang/glog/glog.go",
		},
		Step{
			Component: cm, Name: "main",
			Function: "main", File: "cmd/kube-controller-manager/controller-manager.go",
			Article: cmMain,
		},
		Step{
			Component: cm, Name: "NewCMServer",
			Function: "options.NewCMServer", File: "cmd/kube-controller-manager/app/options/options.go",
			Article: cmMain,
		},
		Step{
			Component: cm, Name: "AddFlags",
			Function: "CMServer.AddFlags(pflag.CommandLine)", File: "cmd/kube-controller-manager/app/options/options.go",
			Article: cmMain,
		},
		Step{
			Component: cm, Name: "InitFlags",
			Function: "flag.InitFlags", File: "pkg/util/flag/flags.go",
			Article: cmMain,
		},
		Step{
			Component: cm, Name: "InitLogs",
			Function: "logs.InitLogs", File: "pkg/util/logs/logs.go",
			Article: cmMain,
		},
		Step{
			Component: cm, Name: "Run",
			Function: "app.Run", File: "cmd/kube-controller-manager/app/controllermanager.go",
			Article: cmRun,
		},
		Step{
			Component: cm, Name: "configz.New",
			Function: "configz.New(\"componentconfig\") → c.Set(s.KubeControllerManagerConfiguration)", File: "pkg/util/configz/configz.go",
			Article: cmRun + " (configz.New)",
		},
		Step{
			Component: cm, Name: "BuildConfigFromFlags",
			Function: "clientcmd.BuildConfigFromFlags(s.Master, s.Kubeconfig)", File: "pkg/client/unversioned/clientcmd/client_config.go",
			Article: cmRun + " (clientcmd.BuildConfigFromFlags)",
		},
		Step{
			Component: cm, Name: "NewForConfig",
			Function: "clientset.NewForConfig(restclient.AddUserAgent(kubeconfig, \"controller-manager\"))",
			File:     "pkg/client/clientset_generated/internalclientset/clientset.go",
			Article:  cmRun + " (clientset.NewForConfig)",
		},
		Step{
			Component: cm, Name: "NewForConfigOrDie",
			Function: "clientset.NewForConfigOrDie(restclient.AddUserAgent(kubeconfig, \"leader-election\"))",
			File:     "pkg/client/clientset_generated/internalclientset/clientset.go",
			Article:  cmRun + " (clientset.NewForConfigOrDie)",
		},
		Step{
			Component: cm, Name: "NewBroadcaster",
			Function: "record.NewBroadcaster", File: "pkg/client/record/event.go",
			Article: cmRun + " (record.NewBroadcaster)",
		},
		Step{
			Component: cm, Name: "StartLogging",
			Function: "EventBroadcaster.StartLogging(glog.Infof)", File: "pkg/client/record/event.go",
			Article: cmRun + " (StartLogging)",
		},
		Step{
			Component: cm, Name: "StartRecordingToSink",
			Function: "EventBroadcaster.StartRecordingToSink(&unversionedcore.EventSinkImpl{Interface: kubeClient.Core().Events(\"\")})",
			File:     "pkg/client/record/event.go",
			Article:  cmRun + " (StartRecordingToSink)",
		},
		Step{
			Component: cm, Name: "NewRecorder",
			Function: "EventBroadcaster.NewRecorder(api.EventSource{Component: \"controller-manager\"})", File: "pkg/client/record/event.go",
			Article: cmRun + " (NewRecorder)",
		},
		Step{
			Component: cm, Name: "RunOrDie",
			Function: "leaderelection.RunOrDie → NewLeaderElector(lec).Run()", File: "pkg/client/leaderelection/leaderelection.go",
			Article: cmRun + " (leaderelection.RunOrDie)",
		},
		// With --leader-elect=false, Run calls run(nil) on the main
		// goroutine, so StartControllers and its steps are main-line spans.
		Step{
			Component: cm, Name: "StartControllers",
			Function: "run(nil) → StartControllers", File: "cmd/kube-controller-manager/app/controllermanager.go",
			Article: articleCM + " §2 StartControllers",
		},
		Step{
			Component: cm, Name: "ServerAPIVersions",
			Function: "wait.PollImmediate(time.Second, 10*time.Second, func() (bool, error) { … restclient.ServerAPIVersions(kubeconfig) … })",
			File:     "cmd/kube-controller-manager/app/controllermanager.go",
		},
		Step{
			Component: cm, Name: "ServerResources",
			Function: "discoveryClient.ServerResources()", File: "cmd/kube-controller-manager/app/controllermanager.go",
		},
		// The span is "start <controller name>"; like "scenario", the step is
		// registered under the span name's first word, which the caller
		// looks up after cutting the controller's name.
		Step{
			Component: cm, Name: "start",
			Function: "StartControllers → go New<Controller>(…).Run(…)", File: "cmd/kube-controller-manager/app/controllermanager.go",
			Article: articleCM + " §2 StartControllers",
		},
		Step{
			Component: cm, Name: "sharedInformers.Start",
			Function: "sharedInformerFactory.Start(stop)", File: "pkg/controller/informers/factory.go",
			Article: articleCM + " §3 factory.go Start",
		},

		// kubelet: glog's init, then main (kubelet.go) → app.Run → run → RunKubelet.
		Step{
			Component: kubelet, Name: "glog.init",
			Function: "glog's init → go logging.flushDaemon()", File: "vendor/github.com/golang/glog/glog.go",
		},
		Step{
			Component: kubelet, Name: "main",
			Function: "main", File: "cmd/kubelet/kubelet.go",
			Article: articleKubelet + " (5) 日志flush",
		},
		Step{
			Component: kubelet, Name: "NewKubeletServer",
			Function: "options.NewKubeletServer", File: "cmd/kubelet/app/options/options.go",
		},
		Step{
			Component: kubelet, Name: "AddFlags",
			Function: "KubeletServer.AddFlags(pflag.CommandLine)", File: "cmd/kubelet/app/options/options.go",
		},
		Step{
			Component: kubelet, Name: "InitFlags",
			Function: "flag.InitFlags", File: "pkg/util/flag/flags.go",
		},
		Step{
			Component: kubelet, Name: "InitLogs",
			Function: "logs.InitLogs", File: "pkg/util/logs/logs.go",
			Article: articleKubelet + " (5) 日志flush",
		},
		Step{
			Component: kubelet, Name: "run",
			Function: "app.Run → run(s, nil)", File: "cmd/kubelet/app/server.go",
			Article: articleKubelet + " (4) server.go run",
		},
		Step{
			Component: kubelet, Name: "UnsecuredKubeletConfig",
			Function: "app.UnsecuredKubeletConfig (1.5: UnsecuredKubeletDeps)", File: "cmd/kubelet/app/server.go",
		},
		Step{
			Component: kubelet, Name: "CreateAPIServerClientConfig",
			Function: "app.CreateAPIServerClientConfig", File: "cmd/kubelet/app/server.go",
		},
		Step{
			Component: kubelet, Name: "NewForConfig",
			Function: "clientset.NewForConfig(clientConfig); clientset.NewForConfig(&eventClientConfig)", File: "cmd/kubelet/app/server.go",
		},
		Step{
			Component: kubelet, Name: "RunKubelet",
			Function: "app.RunKubelet", File: "cmd/kubelet/app/server.go",
			Article: callChain,
		},
		Step{
			Component: kubelet, Name: "NewBroadcaster",
			Function: "record.NewBroadcaster", File: "pkg/client/record/event.go",
		},
		Step{
			Component: kubelet, Name: "NewRecorder",
			Function: "EventBroadcaster.NewRecorder(api.EventSource{Component: \"kubelet\", Host: nodeName})", File: "pkg/client/record/event.go",
		},
		Step{
			Component: kubelet, Name: "StartLogging",
			Function: "EventBroadcaster.StartLogging(glog.V(3).Infof)", File: "pkg/client/record/event.go",
		},
		Step{
			Component: kubelet, Name: "StartRecordingToSink",
			Function: "EventBroadcaster.StartRecordingToSink(&unversionedcore.EventSinkImpl{Interface: kubeDeps.EventClient.Events(\"\")})",
			File:     "pkg/client/record/event.go",
		},
		Step{
			Component: kubelet, Name: "CreateAndInitKubelet",
			Function: "app.CreateAndInitKubelet", File: "cmd/kubelet/app/server.go",
			Article: articleKubelet + " (1) 垃圾筒收集协程",
		},
		Step{
			Component: kubelet, Name: "makePodSourceConfig",
			Function: "makePodSourceConfig", File: "pkg/kubelet/kubelet.go",
			Article: callChain,
		},
		Step{
			Component: kubelet, Name: "NewSourceFile",
			Function: "config.NewSourceFile", File: "pkg/kubelet/config/file.go",
			Article: articleKubelet + " (6) SourceFile",
		},
		Step{
			Component: kubelet, Name: "NewSourceURL",
			Function: "config.NewSourceURL", File: "pkg/kubelet/config/http.go",
			Article: articleKubelet + " (7) SourceURL",
		},
		Step{
			Component: kubelet, Name: "NewSourceApiserver",
			Function: "config.NewSourceApiserver", File: "pkg/kubelet/config/apiserver.go",
			Article: articleKubelet + " (8) APIService Watch",
		},
		Step{
			Component: kubelet, Name: "NewMainKubelet",
			Function: "kubelet.NewMainKubelet", File: "pkg/kubelet/kubelet.go",
		},
		Step{
			Component: kubelet, Name: "BirthCry",
			Function: "Kubelet.BirthCry", File: "pkg/kubelet/kubelet.go",
		},
		Step{
			Component: kubelet, Name: "StartGarbageCollection",
			Function: "Kubelet.StartGarbageCollection", File: "pkg/kubelet/kubelet.go",
			Article: articleKubelet + " (1) 垃圾筒收集协程",
		},
		Step{
			Component: kubelet, Name: "startKubelet",
			Function: "app.startKubelet", File: "cmd/kubelet/app/server.go",
			Article: articleKubelet + " (9) startKubelet",
		},

		// kubeloom: the scenario's own instance. Its root span is named
		// "scenario <name>": the lookup cuts the scenario's name and asks
		// for "scenario", the span name's first word.
		Step{
			Component: driver, Name: "scenario",
			Function: "kubeloom: driver.start (the scenario's root span)", File: "sim/engine/driver.go",
		},
		Step{
			Component: driver, Name: "LoadObjects",
			Function: "kubeloom: driver.start → cluster.Create for each of spec.objects", File: "sim/engine/driver.go",
		},
		Step{
			Component: driver, Name: "action/create",
			Function: "kubeloom: driver.apply → cluster.Create", File: "sim/engine/world.go",
		},
		Step{
			Component: driver, Name: "action/update",
			Function: "kubeloom: driver.apply → cluster.Update", File: "sim/engine/world.go",
		},
		Step{
			Component: driver, Name: "action/delete",
			Function: "kubeloom: driver.apply → cluster.Delete", File: "sim/engine/world.go",
		},
		Step{
			Component: driver, Name: "action/breakWatches",
			Function: "kubeloom: driver.apply → cluster.BreakWatches", File: "sim/engine/world.go",
		},
		Step{
			Component: driver, Name: "action/restartAPIServer",
			Function: "kubeloom: driver.apply → cluster.BreakAllWatches", File: "sim/engine/world.go",
		},
		Step{
			Component: driver, Name: "action/addHandler",
			Function: "kubeloom: driver.apply → informers.addHandler", File: "sim/engine/world.go",
		},
		Step{
			Component: driver, Name: "action/hangHandler",
			Function: "kubeloom: driver.apply → informers.hang", File: "sim/engine/world.go",
		},
		Step{
			Component: driver, Name: "action/killLeader",
			Function: "kubeloom: driver.apply → world.killLeader", File: "sim/engine/world.go",
		},
		Step{
			Component: driver, Name: "action/blockLeaderLock",
			Function: "kubeloom: driver.apply → cmReplica.blockLock", File: "sim/engine/world.go",
		},
		Step{
			Component: driver, Name: "action/stopKubelet",
			Function: "kubeloom: driver.apply → node.stop", File: "sim/engine/world.go",
		},
		Step{
			Component: driver, Name: "action/startKubelet",
			Function: "kubeloom: driver.apply → node.start", File: "sim/engine/world.go",
		},
		Step{
			Component: driver, Name: "action/setImageFSUsage",
			Function: "kubeloom: driver.apply → runtime.SetImageFSUsage", File: "sim/engine/world.go",
		},
		Step{
			Component: driver, Name: "action/injectOOM",
			Function: "kubeloom: driver.apply → world.injectOOM", File: "sim/engine/world.go",
		},
		Step{
			Component: driver, Name: "action/takePort",
			Function: "kubeloom: driver.apply → node.takePort", File: "sim/engine/world.go",
		},

		// informers: the scenario's stand-alone shared informers.
		Step{
			Component: informers, Name: "StartInformers",
			Function: "kubeloom: informers.start → Informer.Run for each of spec.informers (as sharedInformerFactory.Start does)",
			File:     "sim/engine/informers.go",
			Article:  articleCM + " §3 factory.go Start",
		},
		Step{
			Component: informers, Name: "action/addHandler",
			Function: "kubeloom: world.apply → informers.addHandler → Informer.AddHandler", File: "sim/engine/world.go",
		},
		Step{
			Component: informers, Name: "AddEventHandler",
			Function: "sharedIndexInformer.AddEventHandler", File: "pkg/client/cache/shared_informer.go",
		},
	)
}

package catalog

import "time"

// The kubelet's goroutines, catalog §4, in the order a kubelet starts them.
const articleKubelet = "kubelet-goroutines.zh.txt"

func init() {
	const kubelet = "kubelet"
	runSection := articleKubelet + " (3) Kubelet Run"
	register(
		// glog's init, before main.
		Entry{
			Name: "kubelet/glog-flush-daemon", Component: kubelet, Kind: KindGo, Period: 30 * time.Second,
			PeriodFrom: "flushInterval, a constant in github.com/golang/glog (glog.go)",
			Function:   "glog's init → go logging.flushDaemon() → for _ = range time.NewTicker(flushInterval).C { l.lockAndFlushAll() }",
			File:       "vendor/github.com/golang/glog/glog.go",
			Article:    articleKubelet + " (5) 日志flush",
		},
		// main → app.Run → run → RunKubelet.
		Entry{
			Name: "kubelet/log-flush", Component: kubelet, Kind: KindUntil, Period: 5 * time.Second,
			PeriodFrom: "--log-flush-frequency, the default of logFlushFreq in pkg/util/logs",
			Function:   "logs.InitLogs → go wait.Until(glog.Flush, *logFlushFreq, wait.NeverStop)",
			File:       "pkg/util/logs/logs.go",
			Article:    articleKubelet + " (5) 日志flush",
		},
		Entry{
			Name: "kubelet/healthz-server", Component: kubelet, Kind: KindUntil, Period: 5 * time.Second,
			PeriodFrom: "5*time.Second, a literal in cmd/kubelet/app/server.go",
			Function:   "run → go wait.Until(func(){ http.ListenAndServe(healthzAddr, nil) }, 5*time.Second, wait.NeverStop)",
			File:       "cmd/kubelet/app/server.go",
			Article:    articleKubelet + " (4) server.go run",
		},
		Entry{
			Name: "kubelet/event-broadcast-loop", Component: kubelet, Kind: KindGo,
			Function: "RunKubelet → record.NewBroadcaster → watch.NewBroadcaster → go m.loop()",
			File:     "pkg/watch/mux.go",
		},
		Entry{
			Name: "kubelet/event-log-watcher", Component: kubelet, Kind: KindGo,
			Function: "RunKubelet → eventBroadcaster.StartLogging(glog.V(3).Infof) → StartEventWatcher → go func(){ for ev := range watcher.ResultChan() … }()",
			File:     "pkg/client/record/event.go",
		},
		Entry{
			Name: "kubelet/event-sink-watcher", Component: kubelet, Kind: KindGo,
			Function: "RunKubelet → eventBroadcaster.StartRecordingToSink(&v1core.EventSinkImpl{Interface: kubeDeps.EventClient.Events(\"\")}) → StartEventWatcher → go func(){ … recordToSink … }()",
			File:     "pkg/client/record/event.go",
		},

		// RunKubelet → CreateAndInitKubelet → makePodSourceConfig: the pod sources.
		Entry{
			Name: "kubelet/source-file", Component: kubelet, Kind: KindUntil, Period: 20 * time.Second,
			PeriodFrom: "--file-check-frequency, the default of FileCheckFrequency",
			Function:   "makePodSourceConfig → config.NewSourceFile → go wait.Until(config.run, period, wait.NeverStop)",
			File:       "pkg/kubelet/config/file.go",
			Article:    articleKubelet + " (6) SourceFile",
		},
		Entry{
			Name: "kubelet/source-url", Component: kubelet, Kind: KindUntil, Period: 20 * time.Second,
			PeriodFrom: "--http-check-frequency, the default of HTTPCheckFrequency",
			Function:   "makePodSourceConfig → config.NewSourceURL → go wait.Until(config.run, period, wait.NeverStop)",
			File:       "pkg/kubelet/config/http.go",
			Article:    articleKubelet + " (7) SourceURL",
		},
		Entry{
			Name: "kubelet/source-apiserver", Component: kubelet, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "r.period = time.Second, set by NewNamedReflector",
			Function:   "makePodSourceConfig → config.NewSourceApiserver → cache.NewReflector(lw, &v1.Pod{}, cache.NewUndeltaStore(send, …), 0).Run() → go wait.Until(func(){ r.ListAndWatch(wait.NeverStop) }, r.period, wait.NeverStop)",
			File:       "pkg/kubelet/config/apiserver.go",
			Article:    articleKubelet + " (8) APIService Watch",
		},
		Entry{
			Name: "kubelet/config-mux", Component: kubelet, Kind: KindUntil,
			Function: "PodConfig.Channel(source) → Mux.Channel → go wait.Until(func(){ m.listen(source, newChannel) }, 0, wait.NeverStop)",
			File:     "pkg/util/config/config.go",
		},
		// CreateAndInitKubelet: BirthCry, then StartGarbageCollection.
		Entry{
			Name: "kubelet/container-gc", Component: kubelet, Kind: KindUntil, Period: time.Minute,
			PeriodFrom: "ContainerGCPeriod, a constant in pkg/kubelet/kubelet.go",
			Function:   "Kubelet.StartGarbageCollection → go wait.Until(func(){ kl.containerGC.GarbageCollect(kl.sourcesReady.AllReady()) }, ContainerGCPeriod, wait.NeverStop)",
			File:       "pkg/kubelet/kubelet.go",
			Article:    articleKubelet + " (1) 垃圾筒收集协程",
		},
		Entry{
			Name: "kubelet/image-gc", Component: kubelet, Kind: KindUntil, Period: 5 * time.Minute,
			PeriodFrom: "ImageGCPeriod, a constant in pkg/kubelet/kubelet.go",
			Function:   "Kubelet.StartGarbageCollection → go wait.Until(func(){ kl.imageManager.GarbageCollect() }, ImageGCPeriod, wait.NeverStop)",
			File:       "pkg/kubelet/kubelet.go",
			Article:    articleKubelet + " (1) 垃圾筒收集协程",
		},

		// RunKubelet → startKubelet.
		Entry{
			Name: "kubelet/main-loop", Component: kubelet, Kind: KindUntil,
			Function: "startKubelet → go wait.Until(func(){ k.Run(podCfg.Updates()) }, 0, wait.NeverStop) → Kubelet.Run → syncLoop",
			File:     "cmd/kubelet/app/server.go",
			Article:  articleKubelet + " (9) startKubelet, (3) Kubelet Run",
		},
		Entry{
			Name: "kubelet/server", Component: kubelet, Kind: KindUntil,
			Function: "startKubelet → go wait.Until(func(){ k.ListenAndServe(…) }, 0, wait.NeverStop) → server.ListenAndServeKubeletServer",
			File:     "cmd/kubelet/app/server.go",
			Article:  articleKubelet + " (9) startKubelet",
		},
		Entry{
			Name: "kubelet/readonly-server", Component: kubelet, Kind: KindUntil,
			Function: "startKubelet → go wait.Until(func(){ k.ListenAndServeReadOnly(kc.Address, kc.ReadOnlyPort) }, 0, wait.NeverStop)",
			File:     "cmd/kubelet/app/server.go",
			Article:  articleKubelet + " (9) startKubelet",
		},

		// Kubelet.Run → initializeModules.
		Entry{
			Name: "kubelet/image-detect", Component: kubelet, Kind: KindUntil, Period: 5 * time.Minute,
			PeriodFrom: "5*time.Minute, a literal in realImageManager.Start",
			Function:   "initializeModules → kl.imageManager.Start → realImageManager.Start → go wait.Until(func(){ im.detectImages(…) }, 5*time.Minute, wait.NeverStop)",
			File:       "pkg/kubelet/image_manager.go",
			Article:    articleKubelet + " (2) initializeModules",
		},
		Entry{
			Name: "kubelet/image-cache", Component: kubelet, Kind: KindUntil, Period: 30 * time.Second,
			PeriodFrom: "30*time.Second, a literal in realImageGCManager.Start",
			Function:   "initializeModules → imageManager.Start → go wait.Until(func(){ im.imageCache.set(im.runtime.ListImages()) }, 30*time.Second, wait.NeverStop)",
			File:       "pkg/kubelet/images/image_gc_manager.go",
		},
		Entry{
			Name: "kubelet/cm-ensure-state", Component: kubelet, Kind: KindUntil, Period: time.Minute,
			PeriodFrom: "time.Minute, a literal in containerManagerImpl.Start",
			Function:   "initializeModules → containerManager.Start → go wait.Until(func(){ cont.ensureStateFunc(cont.manager) for each system container }, time.Minute, wait.NeverStop)",
			File:       "pkg/kubelet/cm/container_manager_linux.go",
			Article:    articleKubelet + " (2) initializeModules",
		},
		Entry{
			Name: "kubelet/cm-periodic-tasks", Component: kubelet, Kind: KindUntil, Period: 5 * time.Minute,
			PeriodFrom: "5*time.Minute, a literal in containerManagerImpl.Start",
			Function:   "initializeModules → containerManager.Start → go wait.Until(func(){ for _, task := range cm.periodicTasks { task() } }, 5*time.Minute, wait.NeverStop)",
			File:       "pkg/kubelet/cm/container_manager_linux.go",
			Article:    articleKubelet + " (2) initializeModules",
		},
		Entry{
			Name: "kubelet/oom-watcher", Component: kubelet, Kind: KindGo,
			Function: "initializeModules → oomWatcher.Start(kl.nodeRef) → cadvisor.WatchEvents(EventOom) → go func(){ for event := range eventChannel.GetChannel() … }()",
			File:     "pkg/kubelet/oom_watcher.go",
			Article:  articleKubelet + " (2) initializeModules",
		},
		Entry{
			Name: "kubelet/fs-volume-stats", Component: kubelet, Kind: KindForever, Period: time.Minute,
			PeriodFrom: "--volume-stats-agg-period, the default of VolumeStatsAggPeriod",
			Function:   "initializeModules → resourceAnalyzer.Start → fsResourceAnalyzer.Start → go wait.Forever(func(){ s.updateCachedPodVolumeStats() }, s.calcPeriod)",
			File:       "pkg/kubelet/server/stats/fs_resource_analyzer.go",
			Article:    articleKubelet + " (2) initializeModules",
		},
		Entry{
			Name: "kubelet/volume-stat-calculator", Component: kubelet, Kind: KindJitterUntil, Period: time.Minute,
			PeriodFrom: "--volume-stats-agg-period, the default of VolumeStatsAggPeriod (the analyzer's calcPeriod, passed as jitterPeriod), jittered by 1.0",
			Function:   "updateCachedPodVolumeStats → newVolumeStatCalculator(s.statsProvider, s.calcPeriod, pod).StartOnce() → go wait.JitterUntil(func(){ s.calcAndStoreStats() }, s.jitterPeriod, 1.0, s.stopChannel)",
			File:       "pkg/kubelet/server/stats/volume_stat_calculator.go",
		},

		// Kubelet.Run.
		Entry{
			Name: "kubelet/volume-manager", Component: kubelet, Kind: KindGo,
			Function: "Kubelet.Run → go kl.volumeManager.Run(kl.sourcesReady, wait.NeverStop)",
			File:     "pkg/kubelet/kubelet.go",
			Article:  runSection,
		},
		Entry{
			Name: "kubelet/volume-mount-poller", Component: kubelet, Kind: KindGo, Period: 300 * time.Millisecond,
			PeriodFrom: "podAttachAndMountRetryInterval, a constant in pkg/kubelet/volumemanager/volume_manager.go",
			Function:   "syncPod → volumeManager.WaitForAttachAndMount → wait.Poll(podAttachAndMountRetryInterval, podAttachAndMountTimeout, verifyVolumesMountedFunc) → poller: go func(){ tick := time.NewTicker(interval); … }()",
			File:       "pkg/util/wait/wait.go",
			PerCall:    true,
		},
		Entry{
			Name: "kubelet/volume-dswp", Component: kubelet, Kind: KindUntil, Period: 100 * time.Millisecond,
			PeriodFrom: "desiredStateOfWorldPopulatorLoopSleepPeriod, a constant in pkg/kubelet/volumemanager/volume_manager.go",
			Function:   "volumeManager.Run → go vm.desiredStateOfWorldPopulator.Run(stopCh) → wait.Until(dswp.populatorLoopFunc(), 100ms, stopCh)",
			File:       "pkg/kubelet/volumemanager/volume_manager.go",
		},
		Entry{
			Name: "kubelet/volume-reconciler", Component: kubelet, Kind: KindUntil, Period: 100 * time.Millisecond,
			PeriodFrom: "reconcilerLoopSleepPeriod, a constant in pkg/kubelet/volumemanager/volume_manager.go",
			Function:   "volumeManager.Run → go vm.reconciler.Run(sourcesReady, stopCh) → wait.Until(rc.reconciliationLoopFunc(sourcesReady), 100ms, stopCh)",
			File:       "pkg/kubelet/volumemanager/volume_manager.go",
		},
		Entry{
			Name: "kubelet/node-status", Component: kubelet, Kind: KindUntil, Period: 10 * time.Second,
			PeriodFrom: "--node-status-update-frequency, the default of NodeStatusUpdateFrequency",
			Function:   "Kubelet.Run → go wait.Until(kl.syncNodeStatus, kl.nodeStatusUpdateFrequency, wait.NeverStop)",
			File:       "pkg/kubelet/kubelet.go",
			Article:    runSection,
		},
		Entry{
			Name: "kubelet/network-status", Component: kubelet, Kind: KindUntil, Period: 30 * time.Second,
			PeriodFrom: "30*time.Second, a literal in Kubelet.Run",
			Function:   "Kubelet.Run → go wait.Until(kl.syncNetworkStatus, 30*time.Second, wait.NeverStop)",
			File:       "pkg/kubelet/kubelet.go",
			Article:    runSection,
		},
		Entry{
			Name: "kubelet/runtime-up", Component: kubelet, Kind: KindUntil, Period: 5 * time.Second,
			PeriodFrom: "5*time.Second, a literal in Kubelet.Run",
			Function:   "Kubelet.Run → go wait.Until(kl.updateRuntimeUp, 5*time.Second, wait.NeverStop)",
			File:       "pkg/kubelet/kubelet.go",
			Article:    runSection,
		},
		Entry{
			Name: "kubelet/pod-killer", Component: kubelet, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "1*time.Second, a literal in Kubelet.Run",
			Function:   "Kubelet.Run → go wait.Until(kl.podKiller, 1*time.Second, wait.NeverStop)",
			File:       "pkg/kubelet/kubelet.go",
			Article:    runSection,
		},
		Entry{
			Name: "kubelet/kill-pod", Component: kubelet, Kind: KindGo,
			Function: "podKiller → go func(apiPod, runningPod, ch){ kl.killPod(apiPod, runningPod, nil, nil) }(…)",
			File:     "pkg/kubelet/kubelet_pods.go",
		},
		Entry{
			Name: "kubelet/status-manager", Component: kubelet, Kind: KindForever,
			Function: "Kubelet.Run → statusManager.Start → go wait.Forever(func(){ select { podStatusChannel → m.syncPod; syncTicker → m.syncBatch } }, 0)",
			File:     "pkg/kubelet/status/status_manager.go",
			Article:  runSection,
		},
		Entry{
			Name: "kubelet/probe-readiness", Component: kubelet, Kind: KindForever,
			Function: "Kubelet.Run → probeManager.Start → go wait.Forever(m.updateReadiness, 0)",
			File:     "pkg/kubelet/prober/prober_manager.go",
			Article:  runSection,
		},
		Entry{
			Name: "kubelet/probe-worker", Component: kubelet, Kind: KindGo,
			Function: "HandlePodAdditions → probeManager.AddPod → go w.run()",
			File:     "pkg/kubelet/prober/prober_manager.go",
		},
		Entry{
			Name: "kubelet/eviction", Component: kubelet, Kind: KindUntil, Period: 10 * time.Second,
			PeriodFrom: "evictionMonitoringPeriod, a constant in pkg/kubelet/kubelet.go",
			Function:   "Kubelet.Run (v1.3; initializeRuntimeDependentModules since 1.5) → evictionManager.Start(…, kl.getActivePods, evictionMonitoringPeriod) → go wait.Until(func(){ m.synchronize(diskInfoProvider, podFunc) }, monitoringInterval, wait.NeverStop)",
			File:       "pkg/kubelet/eviction/eviction_manager.go",
			Article:    runSection,
		},
		Entry{
			Name: "kubelet/pleg-relist", Component: kubelet, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "plegRelistPeriod, a constant in pkg/kubelet/kubelet.go",
			Function:   "Kubelet.Run → pleg.Start → go wait.Until(g.relist, g.relistPeriod, wait.NeverStop)",
			File:       "pkg/kubelet/pleg/generic.go",
			Article:    runSection,
		},
		Entry{
			Name: "kubelet/pod-worker", Component: kubelet, Kind: KindGo,
			Function: "dispatchWork → podWorkers.UpdatePod → go func(){ p.managePodLoop(podUpdates) }()",
			File:     "pkg/kubelet/pod_workers.go",
		},
	)
}

package catalog

import "time"

// The controllers StartControllers starts, catalog §3, in the order of the
// 1.5 source.
func init() {
	const cm = "kube-controller-manager"
	startControllers := articleCM + " §2 StartControllers"
	register(
		// EndpointController.
		Entry{
			Name: "controller/endpoint/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go NewEndpointController(…).Run(int(s.ConcurrentEndpointSyncs), wait.NeverStop)",
			File:     "pkg/controller/endpoint/endpoints_controller.go",
			Article:  startControllers,
		},
		Entry{
			Name: "controller/endpoint/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "EndpointController.Run → go wait.Until(e.worker, time.Second, stopCh)",
			File:       "pkg/controller/endpoint/endpoints_controller.go",
		},
		Entry{
			Name: "controller/endpoint/check-leftover", Component: cm, Kind: KindGo,
			Function: "EndpointController.Run → go func(){ time.Sleep(5 * time.Minute); e.checkLeftoverEndpoints() }()",
			File:     "pkg/controller/endpoint/endpoints_controller.go",
		},

		// ReplicationManager.
		Entry{
			Name: "controller/replicationcontroller/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go NewReplicationManager(…).Run(int(s.ConcurrentRCSyncs), wait.NeverStop)",
			File:     "pkg/controller/replication/replication_controller.go",
			Article:  startControllers,
		},
		Entry{
			Name: "controller/replicationcontroller/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "ReplicationManager.Run → go wait.Until(rm.worker, time.Second, stopCh)",
			File:       "pkg/controller/replication/replication_controller.go",
		},

		// PodGCController.
		Entry{
			Name: "controller/podgc/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go podgc.NewPodGC(…).Run(wait.NeverStop)",
			File:     "pkg/controller/podgc/gc_controller.go",
			Article:  startControllers,
		},
		Entry{
			Name: "controller/podgc/gc", Component: cm, Kind: KindUntil, Period: 20 * time.Second,
			PeriodFrom: "gcCheckPeriod, a constant in pkg/controller/podgc/gc_controller.go",
			Function:   "PodGCController.Run → go wait.Until(gcc.gc, gcCheckPeriod, stop)",
			File:       "pkg/controller/podgc/gc_controller.go",
		},
		Entry{
			Name: "controller/podgc/delete-pod", Component: cm, Kind: KindGo,
			Function: "PodGCController.gcTerminated → go func(namespace, name string){ … DeletePod … }() per pod",
			File:     "pkg/controller/podgc/gc_controller.go",
		},

		// NodeController.
		Entry{
			Name: "controller/node/run", Component: cm, Kind: KindGo,
			Function: "NodeController.Run → go func(){ WaitForCacheSync(…); go monitor…; go evictor… }()",
			File:     "pkg/controller/node/nodecontroller.go",
			Article:  startControllers,
		},
		Entry{
			Name: "controller/node/monitor", Component: cm, Kind: KindUntil, Period: 5 * time.Second,
			PeriodFrom: "--node-monitor-period, the default of NodeMonitorPeriod",
			Function:   "NodeController.Run → go wait.Until(monitorNodeStatus, nc.nodeMonitorPeriod, wait.NeverStop)",
			File:       "pkg/controller/node/nodecontroller.go",
		},
		Entry{
			Name: "controller/node/pod-evictor", Component: cm, Kind: KindUntil, Period: 100 * time.Millisecond,
			PeriodFrom: "nodeEvictionPeriod, a constant in pkg/controller/node/nodecontroller.go",
			Function:   "NodeController.Run → go wait.Until(zonePodEvictor pass → deletePods, nodeEvictionPeriod, wait.NeverStop)",
			File:       "pkg/controller/node/nodecontroller.go",
		},

		// ResourceQuotaController.
		Entry{
			Name: "controller/resourcequota/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go NewResourceQuotaController(…).Run(int(s.ConcurrentResourceQuotaSyncs), wait.NeverStop)",
			File:     "pkg/controller/resourcequota/resource_quota_controller.go",
			Article:  startControllers,
		},
		Entry{
			Name: "controller/resourcequota/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "ResourceQuotaController.Run → go wait.Until(rq.worker(rq.queue), time.Second, stopCh)",
			File:       "pkg/controller/resourcequota/resource_quota_controller.go",
		},
		Entry{
			Name: "controller/resourcequota/priority-worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "ResourceQuotaController.Run → go wait.Until(rq.worker(rq.missingUsageQueue), time.Second, stopCh)",
			File:       "pkg/controller/resourcequota/resource_quota_controller.go",
		},
		Entry{
			Name: "controller/resourcequota/resync", Component: cm, Kind: KindUntil, Period: 5 * time.Minute,
			PeriodFrom: "--resource-quota-sync-period, the default of ResourceQuotaSyncPeriod",
			Function:   "ResourceQuotaController.Run → go wait.Until(func(){ rq.enqueueAll() }, rq.resyncPeriod(), stopCh)",
			File:       "pkg/controller/resourcequota/resource_quota_controller.go",
		},

		// NamespaceController.
		Entry{
			Name: "controller/namespace/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go namespaceController.Run(int(s.ConcurrentNamespaceSyncs), wait.NeverStop)",
			File:     "pkg/controller/namespace/namespace_controller.go",
			Article:  startControllers,
		},
		Entry{
			Name: "controller/namespace/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "NamespaceController.Run → go wait.Until(nm.worker, time.Second, stopCh)",
			File:       "pkg/controller/namespace/namespace_controller.go",
		},

		// HorizontalController.
		Entry{
			Name: "controller/horizontalpodautoscaling/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go podautoscaler.NewHorizontalController(…).Run(wait.NeverStop)",
			File:     "pkg/controller/podautoscaler/horizontal.go",
			Article:  startControllers,
		},

		// DaemonSetsController.
		Entry{
			Name: "controller/daemonset/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go daemon.NewDaemonSetsController(…).Run(int(s.ConcurrentDaemonSetSyncs), wait.NeverStop)",
			File:     "pkg/controller/daemon/daemoncontroller.go",
			Article:  startControllers,
		},
		Entry{
			Name: "controller/daemonset/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "DaemonSetsController.Run → go wait.Until(dsc.runWorker, time.Second, stopCh)",
			File:       "pkg/controller/daemon/daemoncontroller.go",
		},

		// JobController.
		Entry{
			Name: "controller/job/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go job.NewJobController(…).Run(int(s.ConcurrentJobSyncs), wait.NeverStop)",
			File:     "pkg/controller/job/jobcontroller.go",
			Article:  startControllers,
		},
		Entry{
			Name: "controller/job/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "JobController.Run → go wait.Until(jm.worker, time.Second, stopCh)",
			File:       "pkg/controller/job/jobcontroller.go",
		},

		// DeploymentController.
		Entry{
			Name: "controller/deployment/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go deployment.NewDeploymentController(…).Run(int(s.ConcurrentDeploymentSyncs), wait.NeverStop)",
			File:     "pkg/controller/deployment/deployment_controller.go",
			Article:  startControllers,
		},
		Entry{
			Name: "controller/deployment/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "DeploymentController.Run → go wait.Until(dc.worker, time.Second, stopCh)",
			File:       "pkg/controller/deployment/deployment_controller.go",
		},

		// ReplicaSetController.
		Entry{
			Name: "controller/replicaset/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go replicaset.NewReplicaSetController(…).Run(int(s.ConcurrentRSSyncs), wait.NeverStop)",
			File:     "pkg/controller/replicaset/replica_set.go",
			Article:  startControllers,
		},
		Entry{
			Name: "controller/replicaset/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "ReplicaSetController.Run → go wait.Until(rsc.worker, time.Second, stopCh)",
			File:       "pkg/controller/replicaset/replica_set.go",
		},

		// DisruptionController.
		Entry{
			Name: "controller/disruption/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go disruption.NewDisruptionController(…).Run(wait.NeverStop)",
			File:     "pkg/controller/disruption/disruption.go",
			Article:  startControllers,
		},
		Entry{
			Name: "controller/disruption/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "DisruptionController.Run → go wait.Until(dc.worker, time.Second, stopCh)",
			File:       "pkg/controller/disruption/disruption.go",
		},
		Entry{
			Name: "controller/disruption/recheck-worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "DisruptionController.Run → go wait.Until(dc.recheckWorker, time.Second, stopCh)",
			File:       "pkg/controller/disruption/disruption.go",
		},

		// StatefulSetController (PetSet).
		Entry{
			Name: "controller/statefulset/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go petset.NewStatefulSetController(…).Run(1, wait.NeverStop)",
			File:     "pkg/controller/petset/pet_set.go",
			Article:  startControllers,
		},
		Entry{
			Name: "controller/statefulset/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "StatefulSetController.Run → go wait.Until(psc.worker, time.Second, stopCh)",
			File:       "pkg/controller/petset/pet_set.go",
		},

		// CronJobController (ScheduledJob).
		Entry{
			Name: "controller/cronjob/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go cronjob.NewCronJobController(…).Run(wait.NeverStop)",
			File:     "pkg/controller/cronjob/controller.go",
			Article:  startControllers,
		},
		Entry{
			Name: "controller/cronjob/sync-all", Component: cm, Kind: KindUntil, Period: 10 * time.Second,
			PeriodFrom: "10*time.Second, a literal in CronJobController.Run",
			Function:   "CronJobController.Run → go wait.Until(jm.SyncAll, 10*time.Second, stopCh)",
			File:       "pkg/controller/cronjob/controller.go",
		},

		// AttachDetachController.
		Entry{
			Name: "controller/attachdetach/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go attachDetachController.Run(wait.NeverStop)",
			File:     "pkg/controller/volume/attachdetach/attach_detach_controller.go",
			Article:  startControllers,
		},
		Entry{
			Name: "controller/attachdetach/reconciler", Component: cm, Kind: KindUntil, Period: 100 * time.Millisecond,
			PeriodFrom: "reconcilerLoopPeriod, a constant in attach_detach_controller.go",
			Function:   "AttachDetachController.Run → go adc.reconciler.Run(stopCh) → wait.Until(rc.reconciliationLoopFunc(), 100ms, stopCh)",
			File:       "pkg/controller/volume/attachdetach/reconciler/reconciler.go",
		},
		Entry{
			Name: "controller/attachdetach/dswp", Component: cm, Kind: KindUntil, Period: time.Minute,
			PeriodFrom: "desiredStateOfWorldPopulatorLoopSleepPeriod, a constant in attach_detach_controller.go",
			Function:   "AttachDetachController.Run → go adc.desiredStateOfWorldPopulator.Run(stopCh) → wait.Until(populatorLoopFunc, 1m, stopCh)",
			File:       "pkg/controller/volume/attachdetach/populator/desired_state_of_world_populator.go",
		},

		// CertificateController.
		Entry{
			Name: "controller/certificatesigningrequests/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go certController.Run(1, wait.NeverStop)",
			File:     "pkg/controller/certificates/controller.go",
			Article:  startControllers,
		},
		Entry{
			Name: "controller/certificatesigningrequests/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "CertificateController.Run → go wait.Until(cc.worker, time.Second, stopCh)",
			File:       "pkg/controller/certificates/controller.go",
		},

		// ServiceAccountsController.
		Entry{
			Name: "controller/serviceaccount/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go NewServiceAccountsController(…).Run(1, stop)",
			File:     "pkg/controller/serviceaccount/serviceaccounts_controller.go",
			Article:  startControllers,
		},
		Entry{
			Name: "controller/serviceaccount/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "ServiceAccountsController.Run → go wait.Until(c.runWorker, time.Second, stopCh)",
			File:       "pkg/controller/serviceaccount/serviceaccounts_controller.go",
		},

		// GarbageCollector.
		Entry{
			Name: "controller/garbagecollector/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go garbageCollector.Run(workers, wait.NeverStop)",
			File:     "pkg/controller/garbagecollector/garbagecollector.go",
			Article:  startControllers,
		},
		Entry{
			Name: "controller/garbagecollector/monitor-sync-poller", Component: cm, Kind: KindGo, Period: 10 * time.Second,
			PeriodFrom: "10*time.Second, a literal in GarbageCollector.Run",
			Function:   "GarbageCollector.Run → wait.PollInfinite(10*time.Second, …all monitors synced) → poller: go func(){ tick := time.NewTicker(interval); … }()",
			File:       "pkg/util/wait/wait.go",
		},
		Entry{
			Name: "controller/garbagecollector/propagator", Component: cm, Kind: KindUntil, Period: 0,
			Function: "GarbageCollector.Run → go wait.Until(gc.propagator.processEvent, 0, stopCh)",
			File:     "pkg/controller/garbagecollector/garbagecollector.go",
		},
		Entry{
			Name: "controller/garbagecollector/worker", Component: cm, Kind: KindUntil, Period: 0,
			Function: "GarbageCollector.Run → go wait.Until(gc.worker, 0, stopCh)",
			File:     "pkg/controller/garbagecollector/garbagecollector.go",
		},
		Entry{
			Name: "controller/garbagecollector/orphan-finalizer", Component: cm, Kind: KindUntil, Period: 0,
			Function: "GarbageCollector.Run → go wait.Until(gc.orphanFinalizer, 0, stopCh)",
			File:     "pkg/controller/garbagecollector/garbagecollector.go",
		},
	)
}

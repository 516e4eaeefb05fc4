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
			Summary: "EndpointController.Run. It starts the controller's private Services informer (resync 30s) and the shared " +
				"Pods informer's dummy controller, waits until the pod cache has synced, then starts --concurrent-endpoint-syncs (5) " +
				"workers and the one-shot leftover check. Then it blocks on its stop channel, which in 1.5 is wait.NeverStop, " +
				"so it lives as long as the process.",
			SummaryZH: "EndpointController.Run。它启动控制器私有的 Services informer（resync 30 秒）和共享 Pods informer 的 dummy controller，" +
				"等 pod 缓存同步完成后，启动 --concurrent-endpoint-syncs（5）个 worker 和一次性的遗留检查。之后阻塞在 stop 通道上；" +
				"1.5 传入的是 wait.NeverStop，所以它与进程同寿。",
			Quote:   "EndpointController",
			QuoteEN: "EndpointController",
			Now: "Now Run(ctx, workers), which waits for the pod, service and endpoints caches; the EndpointSlice and " +
				"EndpointSliceMirroring controllers run beside it.",
			NowZH: "现在是 Run(ctx, workers)，它会等待 pod、service 和 endpoints 缓存同步；" +
				"EndpointSlice 和 EndpointSliceMirroring 控制器与它并列运行。",
		},
		Entry{
			Name: "controller/endpoint/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "EndpointController.Run → go wait.Until(e.worker, time.Second, stopCh)",
			File:       "pkg/controller/endpoint/endpoints_controller.go",
			Summary: "One of 5 workers. An iteration takes one service key from the \"endpoint\" workqueue and runs syncService: " +
				"list the pods matching the service's selector, sort their IPs into ready and not-ready addresses per port, GET " +
				"the Endpoints object of the same name and POST or PUT it only if something changed (DELETE it if the service is " +
				"gone). A failed key is re-queued with rate-limited backoff; the worker loop only returns when the queue shuts " +
				"down, and wait.Until would restart it after 1s.",
			SummaryZH: "5 个 worker 之一。每次迭代从 \"endpoint\" workqueue 取出一个 service key 执行 syncService：列出与 service selector 匹配的 pod，" +
				"按端口把它们的 IP 分成就绪和未就绪地址，GET 同名的 Endpoints 对象，只有内容变化时才 POST 或 PUT（service 已删除则 DELETE）。" +
				"失败的 key 以限速退避重新入队；worker 循环只在队列关闭时返回，返回后 wait.Until 会在 1 秒后重启它。",
			Now: "Unchanged in shape: workers on the \"endpoint\" queue, now started with wait.UntilWithContext; EndpointSlices " +
				"are kept by separate controllers.",
			NowZH: "结构不变：仍是 \"endpoint\" 队列上的 worker，现在用 wait.UntilWithContext 启动；EndpointSlice 由单独的控制器维护。",
		},
		Entry{
			Name: "controller/endpoint/check-leftover", Component: cm, Kind: KindGo,
			Function: "EndpointController.Run → go func(){ time.Sleep(5 * time.Minute); e.checkLeftoverEndpoints() }()",
			File:     "pkg/controller/endpoint/endpoints_controller.go",
			Summary: "A one-shot goroutine. It sleeps 5 minutes to give the caches time to fill, then LISTs every Endpoints " +
				"object and queues each key, so Endpoints left behind by services deleted while no controller was running are " +
				"found and deleted by a worker. Then it exits.",
			SummaryZH: "一次性的协程。先睡 5 分钟让缓存填满，然后 LIST 所有 Endpoints 对象并把每个 key 放进队列，" +
				"这样在没有控制器运行期间被删除的 service 所遗留的 Endpoints 会被 worker 发现并删除。之后协程退出。",
			Now: "Still a one-shot checkLeftoverEndpoints, but it now runs as soon as the caches (an Endpoints informer " +
				"among them) have synced, without the 5-minute sleep.",
			NowZH: "仍是一次性的 checkLeftoverEndpoints，但现在缓存（其中包括一个 Endpoints informer）一同步完成就运行，不再先睡 5 分钟。",
		},

		// ReplicationManager.
		Entry{
			Name: "controller/replicationcontroller/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go NewReplicationManager(…).Run(int(s.ConcurrentRCSyncs), wait.NeverStop)",
			File:     "pkg/controller/replication/replication_controller.go",
			Article:  startControllers,
			Summary: "ReplicationManager.Run. It logs \"Starting RC Manager\", starts the private ReplicationController informer " +
				"(resync 10m) and the shared Pods informer's dummy controller, then --concurrent_rc_syncs (5) workers, and blocks " +
				"forever. It does not wait for the caches: a sync that finds the pod store unsynced sleeps 100ms and re-queues its key.",
			SummaryZH: "ReplicationManager.Run。它打印 \"Starting RC Manager\"，启动私有的 ReplicationController informer（resync 10 分钟）" +
				"和共享 Pods informer 的 dummy controller，再启动 --concurrent_rc_syncs（5）个 worker，然后永久阻塞。" +
				"它不等待缓存同步：同步时若发现 pod 缓存还没同步，就睡 100 毫秒并把 key 放回队列。",
			Quote:   "ReplicationManager",
			QuoteEN: "ReplicationManager",
			Now: "The ReplicationManager is now just a wrapper around the ReplicaSet controller, treating RCs as an older " +
				"ReplicaSet API, and it waits for its caches before starting workers.",
			NowZH: "ReplicationManager 现在只是 ReplicaSet 控制器的一层包装，" +
				"把 RC 当作旧版的 ReplicaSet API 来处理，并且会等缓存同步后才启动 worker。",
		},
		Entry{
			Name: "controller/replicationcontroller/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "ReplicationManager.Run → go wait.Until(rm.worker, time.Second, stopCh)",
			File:       "pkg/controller/replication/replication_controller.go",
			Summary: "One of 5 workers on the \"replicationmanager\" queue. An iteration syncs one RC: it adopts or releases pods " +
				"through their owner references (PATCH), then, once the creates and deletes it expects from earlier syncs have " +
				"been observed, creates or deletes pods (one goroutine each, at most 500 per sync) until the count matches " +
				"spec.replicas, and PUTs the RC's status. New pods are named <rc-name>-<5 random chars>, and each create or " +
				"delete records a SuccessfulCreate or SuccessfulDelete event.",
			SummaryZH: "\"replicationmanager\" 队列上的 5 个 worker 之一。每次迭代同步一个 RC：先通过 owner reference 领养或释放 pod（PATCH），" +
				"等之前同步所预期的创建和删除都已观察到后，再创建或删除 pod（每个一个协程，每次同步最多 500 个），直到数量等于 spec.replicas，" +
				"最后 PUT RC 的 status。新 pod 命名为 <rc-name>-<5 个随机字符>，每次创建或删除都记录 SuccessfulCreate 或 SuccessfulDelete 事件。",
			Now:   "The same sync now runs in the ReplicaSet controller's code, which creates pods in slow-start batches instead of all at once.",
			NowZH: "同样的同步逻辑现在运行在 ReplicaSet 控制器的代码里，它按慢启动的批次创建 pod，而不是一次全部创建。",
		},

		// PodGCController.
		Entry{
			Name: "controller/podgc/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go podgc.NewPodGC(…).Run(wait.NeverStop)",
			File:     "pkg/controller/podgc/gc_controller.go",
			Article:  startControllers,
			Summary: "PodGCController.Run. It starts the single gc loop (every 20s) and blocks forever. There is no workqueue " +
				"and no handler: the pods it inspects are read from the shared Pods informer's store.",
			SummaryZH: "PodGCController.Run。它启动唯一的 gc 循环（每 20 秒）然后永久阻塞。没有 workqueue 也没有 handler：" +
				"它检查的 pod 直接从共享 Pods informer 的 store 中读取。",
			Quote:   "PodGCController",
			QuoteEN: "PodGCController",
			Now:     "Run(ctx) now waits for the pod and node caches before starting the same 20s loop.",
			NowZH:   "Run(ctx) 现在会先等 pod 和节点缓存同步，再启动同样的 20 秒循环。",
		},
		Entry{
			Name: "controller/podgc/gc", Component: cm, Kind: KindUntil, Period: 20 * time.Second,
			PeriodFrom: "gcCheckPeriod, a constant in pkg/controller/podgc/gc_controller.go",
			Function:   "PodGCController.Run → go wait.Until(gcc.gc, gcCheckPeriod, stop)",
			File:       "pkg/controller/podgc/gc_controller.go",
			Summary: "Every 20s (gcCheckPeriod) one pass over the shared pod cache, skipped while that cache has not synced. " +
				"It deletes the oldest terminated pods above --terminated-pod-gc-threshold (12500), force-deletes pods bound to " +
				"nodes that no longer exist (it LISTs the nodes from the API for this) and pods that are terminating but were " +
				"never scheduled, always with grace period 0. The orphaned-pod cleanup moved here from the NodeController in 1.5.",
			SummaryZH: "每 20 秒（gcCheckPeriod）对共享 pod 缓存做一遍检查，缓存未同步时跳过。它删除超过 --terminated-pod-gc-threshold（12500）" +
				"的最老的已终止 pod，强制删除绑定到已不存在节点上的 pod（为此直接向 API LIST 节点）以及正在终止却从未被调度的 pod，" +
				"删除时宽限期一律为 0。孤儿 pod 的清理在 1.5 中从 NodeController 挪到了这里。",
			Now: "Still a 20s loop; nodes now come from a node informer, with a quarantine delay before a pod counts as " +
				"orphaned, and a newer pass also removes terminating pods on out-of-service nodes.",
			NowZH: "仍是 20 秒的循环；节点现在来自 node informer，pod 要经过一段隔离延迟才算作孤儿 pod，" +
				"新增的一轮检查还会删除停止服务（out-of-service）节点上正在终止的 pod。",
		},
		Entry{
			Name: "controller/podgc/delete-pod", Component: cm, Kind: KindGo,
			Function: "PodGCController.gcTerminated → go func(namespace, name string){ … DeletePod … }() per pod",
			File:     "pkg/controller/podgc/gc_controller.go",
			Summary: "One per terminated pod that the gc pass decides to delete: it logs \"PodGC is force deleting Pod\" and " +
				"DELETEs the pod with grace period 0, and the pass waits for all of them before it returns. Only the " +
				"terminated-pod step deletes in parallel; orphaned and unscheduled pods are deleted inline.",
			SummaryZH: "gc 检查决定删除的每个已终止 pod 各一个：打印 \"PodGC is force deleting Pod\"，以宽限期 0 DELETE 该 pod；" +
				"本轮检查会等它们全部结束才返回。只有已终止 pod 这一步是并行删除的，孤儿 pod 和未调度 pod 在循环内直接删除。",
			Now: "Still one goroutine per pod, also for the newer out-of-service pass; each now calls markFailedAndDeletePod, " +
				"which marks the pod Failed before deleting it.",
			NowZH: "仍是每个 pod 一个协程，新增的 out-of-service 检查也是如此；" +
				"现在每个协程调用 markFailedAndDeletePod，先把 pod 标记为 Failed 再删除。",
		},

		// NodeController.
		Entry{
			Name: "controller/node/run", Component: cm, Kind: KindGo,
			Function: "NodeController.Run → go func(){ WaitForCacheSync(…); go monitor…; go evictor… }()",
			File:     "pkg/controller/node/nodecontroller.go",
			Article:  startControllers,
			Summary: "StartControllers calls NodeController.Run without go, so Run starts this wrapper goroutine and returns " +
				"at once. The wrapper waits until the shared Node, Pod and DaemonSet caches have synced, starts the node-status " +
				"monitor and the pod-evictor loops, and exits. (The release-1.5 text was not seen; this form comes from PR " +
				"#34809, merged for 1.5, and the early-1.6 code.)",
			SummaryZH: "StartControllers 调用 NodeController.Run 时没有加 go，所以 Run 启动这个包装协程后立即返回。" +
				"包装协程等共享的 Node、Pod、DaemonSet 缓存同步完成，启动节点状态监控和 pod 驱逐两个循环，然后退出。" +
				"（没有见到 release-1.5 的原文；这个形式来自合入 1.5 的 PR #34809 和早期 1.6 代码。）",
			Quote:   "nodeController",
			QuoteEN: "nodeController",
			Now: "The NodeController is now split into node-ipam and node-lifecycle controllers; node-lifecycle's Run waits " +
				"for its Lease, Node, Pod and DaemonSet caches itself.",
			NowZH: "NodeController 现已拆分为 node-ipam 和 node-lifecycle 两个控制器；" +
				"node-lifecycle 的 Run 自己等待 Lease、Node、Pod 和 DaemonSet 缓存同步。",
		},
		Entry{
			Name: "controller/node/monitor", Component: cm, Kind: KindUntil, Period: 5 * time.Second,
			PeriodFrom: "--node-monitor-period, the default of NodeMonitorPeriod",
			Function:   "NodeController.Run → go wait.Until(monitorNodeStatus, nc.nodeMonitorPeriod, wait.NeverStop)",
			File:       "pkg/controller/node/nodecontroller.go",
			Summary: "Every --node-monitor-period (5s) monitorNodeStatus LISTs the nodes from the API, registers new ones " +
				"(RegisteredNode event) and checks each node's last heartbeat. A node silent for more than 40s (60s if it never " +
				"reported) gets Ready=Unknown (PUT node status), its pods are marked not ready and a NodeNotReady event is " +
				"recorded; a node not ready for more than --pod-eviction-timeout (5m) is queued for eviction in its zone, and the " +
				"zone's state (Normal, PartialDisruption, FullDisruption) sets how fast evictions may go.",
			SummaryZH: "每隔 --node-monitor-period（5 秒）monitorNodeStatus 直接向 API LIST 所有节点，登记新节点（RegisteredNode 事件），并检查每个节点最近一次心跳。" +
				"超过 40 秒（从未上报过则 60 秒）没有消息的节点被置为 Ready=Unknown（PUT 节点 status），其上的 pod 被标为未就绪，并记录 NodeNotReady 事件；" +
				"未就绪超过 --pod-eviction-timeout（5 分钟）的节点被放进所在 zone 的驱逐队列，zone 的状态（Normal、PartialDisruption、FullDisruption）决定驱逐速度。",
			Now: "The node-lifecycle controller still runs monitorNodeHealth every 5s, but it reads nodes from its cache, counts " +
				"node Lease renewals as heartbeats and taints unhealthy nodes instead of queueing them for pod deletion.",
			NowZH: "node-lifecycle 控制器仍每 5 秒运行一次 monitorNodeHealth，但它从缓存中读取节点，" +
				"把节点 Lease 的续约算作心跳，并给不健康的节点打上污点，而不是把它们放进队列等待删除其上的 pod。",
		},
		Entry{
			Name: "controller/node/pod-evictor", Component: cm, Kind: KindUntil, Period: 100 * time.Millisecond,
			PeriodFrom: "nodeEvictionPeriod, a constant in pkg/controller/node/nodecontroller.go",
			Function:   "NodeController.Run → go wait.Until(zonePodEvictor pass → deletePods, nodeEvictionPeriod, wait.NeverStop)",
			File:       "pkg/controller/node/nodecontroller.go",
			Summary: "Every 100ms (nodeEvictionPeriod) a pass over each zone's rate-limited eviction queue. When the zone's " +
				"token bucket allows (--node-eviction-rate, 0.1 nodes/s when the zone is healthy), it takes the next queued " +
				"node and deletePods LISTs that node's pods, records DeletingAllPods, marks each pod NodeLost and DELETEs it, " +
				"skipping DaemonSet pods, so that their owners recreate them elsewhere. A failed eviction stays queued.",
			SummaryZH: "每 100 毫秒（nodeEvictionPeriod）遍历各 zone 的限速驱逐队列。当 zone 的令牌桶允许时（--node-eviction-rate，zone 健康时为每秒 0.1 个节点），" +
				"取出下一个排队的节点，由 deletePods LIST 该节点上的 pod，记录 DeletingAllPods 事件，把每个 pod 标记为 NodeLost 后 DELETE，" +
				"DaemonSet 的 pod 除外，好让它们的所有者在别处重建。驱逐失败的节点留在队列里。",
			Now: "A 100ms pass now adds NoExecute taints to unhealthy nodes under the same rate limits, and the taint manager " +
				"evicts the pods that do not tolerate them.",
			NowZH: "现在由每 100 毫秒一轮的检查在同样的限速下给不健康的节点加上 NoExecute 污点，再由 taint manager 驱逐不容忍这些污点的 pod。",
		},

		// ResourceQuotaController.
		Entry{
			Name: "controller/resourcequota/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go NewResourceQuotaController(…).Run(int(s.ConcurrentResourceQuotaSyncs), wait.NeverStop)",
			File:     "pkg/controller/resourcequota/resource_quota_controller.go",
			Article:  startControllers,
			Summary: "ResourceQuotaController.Run. It starts the private ResourceQuota informer (resync 5m) and the replenishment " +
				"informers (private ones for Services, RCs, Secrets and ConfigMaps; the Pod and PVC ones are shared, so their Run " +
				"is the dummy), then 5 workers on each of its two queues and the full-resync loop, and blocks forever without " +
				"waiting for any cache.",
			SummaryZH: "ResourceQuotaController.Run。它启动私有的 ResourceQuota informer（resync 5 分钟）和各个补充（replenishment）informer" +
				"（Services、RCs、Secrets、ConfigMaps 是私有的；Pod 和 PVC 用的是共享 informer，所以它们的 Run 是 dummy），" +
				"然后在两个队列上各启动 5 个 worker，再加上全量重同步循环，之后永久阻塞，不等待任何缓存。",
			Quote:   "resourceQuotaController",
			QuoteEN: "resourceQuotaController",
			Now: "A quota monitor now watches the counted resources through metadata informers, and Run waits for the caches " +
				"before starting the same two worker pools and the resync loop.",
			NowZH: "现在由一个 quota monitor 通过元数据 informer 监视被计量的资源，Run 会等缓存同步后，才启动同样的两组 worker 和重同步循环。",
		},
		Entry{
			Name: "controller/resourcequota/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "ResourceQuotaController.Run → go wait.Until(rq.worker(rq.queue), time.Second, stopCh)",
			File:       "pkg/controller/resourcequota/resource_quota_controller.go",
			Summary: "One of 5 workers on the primary queue (\"resourcequota_primary\"). An iteration takes one quota and " +
				"recalculates its usage: it counts the matching objects in the quota's namespace (pods, services, RCs, PVCs, " +
				"secrets, configmaps) and PUTs the quota status if the totals changed. Quotas arrive here on every resync and " +
				"when a replenishment informer sees an object deleted or changed.",
			SummaryZH: "主队列（\"resourcequota_primary\"）上的 5 个 worker 之一。每次迭代取一个 quota 重新计算用量：统计该 quota 所在 namespace 中" +
				"相应的对象（pod、service、RC、PVC、secret、configmap），总数有变化时 PUT quota 的 status。" +
				"每次重同步、以及补充 informer 看到对象被删除或修改时，quota 都会进入这个队列。",
			Now:   "Unchanged in shape: the same workers on the same queue, started with wait.UntilWithContext.",
			NowZH: "结构不变：同一队列上同样的 worker，用 wait.UntilWithContext 启动。",
		},
		Entry{
			Name: "controller/resourcequota/priority-worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "ResourceQuotaController.Run → go wait.Until(rq.worker(rq.missingUsageQueue), time.Second, stopCh)",
			File:       "pkg/controller/resourcequota/resource_quota_controller.go",
			Summary: "The same worker on the second queue, \"resourcequota_priority\" (missingUsageQueue). A quota whose " +
				"spec.hard differs from its status, or that has no usage yet for a constrained resource (a new quota, say), is " +
				"queued here, so it gets its first calculation without waiting behind routine recalculations. Five of these " +
				"run beside the five primary workers.",
			SummaryZH: "同样的 worker，跑在第二个队列 \"resourcequota_priority\"（missingUsageQueue）上。spec.hard 与 status 不一致、" +
				"或某项受限资源还没有用量的 quota（例如新建的 quota）会进入这里，这样它的首次计算不必排在例行重算之后。" +
				"它和 5 个主队列 worker 并列，也有 5 个。",
			Now:   "Unchanged: the missing-usage queue and its workers are still there.",
			NowZH: "没有变化：missing-usage 队列及其 worker 依然存在。",
		},
		Entry{
			Name: "controller/resourcequota/resync", Component: cm, Kind: KindUntil, Period: 5 * time.Minute,
			PeriodFrom: "--resource-quota-sync-period, the default of ResourceQuotaSyncPeriod",
			Function:   "ResourceQuotaController.Run → go wait.Until(func(){ rq.enqueueAll() }, rq.resyncPeriod(), stopCh)",
			File:       "pkg/controller/resourcequota/resource_quota_controller.go",
			Summary: "Every --resource-quota-sync-period (5m) enqueueAll puts every quota in the cache on the primary queue, " +
				"so usage is recalculated even when no event said it changed: a safety net under the event-driven updates. " +
				"The private quota informer's own resync has the same 5m period.",
			SummaryZH: "每隔 --resource-quota-sync-period（5 分钟），enqueueAll 把缓存中的所有 quota 放进主队列，" +
				"即使没有事件提示变化也会重算用量，是事件驱动更新之外的兜底。私有 quota informer 自己的 resync 周期同样是 5 分钟。",
			Now:   "Unchanged: enqueueAll still runs every resync period (and is skipped when the period is 0).",
			NowZH: "没有变化：enqueueAll 仍在每个重同步周期运行一次（周期为 0 时跳过）。",
		},

		// NamespaceController.
		Entry{
			Name: "controller/namespace/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go namespaceController.Run(int(s.ConcurrentNamespaceSyncs), wait.NeverStop)",
			File:     "pkg/controller/namespace/namespace_controller.go",
			Article:  startControllers,
			Summary: "NamespaceController.Run. It starts the private Namespace informer (resync --namespace-sync-period, 5m; " +
				"every add, update and resync is queued with a 5s delay) and --concurrent-namespace-syncs (2) workers, then " +
				"blocks forever without waiting for the cache. Its constructor already ran API discovery once, and a failure " +
				"there ends the process.",
			SummaryZH: "NamespaceController.Run。它启动私有的 Namespace informer（resync 为 --namespace-sync-period，5 分钟；" +
				"每次新增、更新和重同步都延迟 5 秒入队）和 --concurrent-namespace-syncs（2）个 worker，然后永久阻塞，不等待缓存。" +
				"它的构造函数已经做过一次 API 发现，失败则直接结束进程。",
			Quote:   "namespaceController",
			QuoteEN: "namespaceController",
			Now:     "Run(ctx, workers) now waits for the namespace cache before starting the workers.",
			NowZH:   "Run(ctx, workers) 现在会先等 namespace 缓存同步，再启动 worker。",
		},
		Entry{
			Name: "controller/namespace/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "NamespaceController.Run → go wait.Until(nm.worker, time.Second, stopCh)",
			File:       "pkg/controller/namespace/namespace_controller.go",
			Summary: "One of 2 workers on the \"namespace\" queue. For a live namespace an iteration does nothing. For one " +
				"being deleted it sets the phase to Terminating, deletes every namespaced resource found by discovery " +
				"(DELETECOLLECTION, falling back to LIST and DELETE), and once nothing is left removes the \"kubernetes\" " +
				"finalizer (PUT …/finalize) and deletes the namespace; if content remains, the key comes back after about half " +
				"the remaining grace time.",
			SummaryZH: "\"namespace\" 队列上的 2 个 worker 之一。对正常的 namespace，一次迭代什么也不做。对正在删除的 namespace，" +
				"它把 phase 置为 Terminating，删除 API 发现到的所有 namespaced 资源（DELETECOLLECTION，不支持时退回 LIST 加逐个 DELETE），" +
				"全部删完后去掉 \"kubernetes\" finalizer（PUT …/finalize）并删除 namespace；若还有残留内容，大约在剩余宽限时间的一半之后再处理一次。",
			Now: "Same steps today (Terminating, delete all content, drop the kubernetes finalizer, delete), on workers started " +
				"with wait.UntilWithContext.",
			NowZH: "今天的步骤相同（置为 Terminating、删除全部内容、去掉 kubernetes finalizer、删除 namespace），" +
				"运行在用 wait.UntilWithContext 启动的 worker 上。",
		},

		// HorizontalController.
		Entry{
			Name: "controller/horizontalpodautoscaling/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go podautoscaler.NewHorizontalController(…).Run(wait.NeverStop)",
			File:     "pkg/controller/podautoscaler/horizontal.go",
			Article:  startControllers,
			Summary: "HorizontalController.Run. It starts the private HPA informer and blocks forever: there is no workqueue " +
				"and no worker. All the work happens on that informer's process loop (informer/private), whose add and update " +
				"handlers call reconcileAutoscaler, and its resync every --horizontal-pod-autoscaler-sync-period (30s) is what " +
				"reconciles each HPA periodically: read the target's scale, compute replicas from Heapster CPU metrics, PUT the " +
				"new scale and the HPA status.",
			SummaryZH: "HorizontalController.Run。它启动私有的 HPA informer 后永久阻塞：没有 workqueue，也没有 worker。" +
				"所有工作都在这个 informer 的处理循环（informer/private）里完成，其 add 和 update handler 调用 reconcileAutoscaler；" +
				"正是每隔 --horizontal-pod-autoscaler-sync-period（30 秒）的 resync 让每个 HPA 被周期性地协调：读取目标的 scale，" +
				"根据 Heapster 的 CPU 指标计算副本数，PUT 新的 scale 和 HPA status。",
			Quote:   "orizontalController",
			QuoteEN: "orizontalController",
			Now: "The HPA now has a workqueue with workers, waits for its HPA and Pod caches, re-queues every HPA each sync " +
				"period (15s by default) and reads the metrics.k8s.io, custom and external metrics APIs instead of Heapster.",
			NowZH: "HPA 现在有了 workqueue 和 worker，会等待 HPA 和 Pod 缓存同步，每个同步周期（默认 15 秒）把每个 HPA 重新入队，" +
				"并从 metrics.k8s.io、自定义指标和外部指标 API 读取指标，而不再依赖 Heapster。",
		},

		// DaemonSetsController.
		Entry{
			Name: "controller/daemonset/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go daemon.NewDaemonSetsController(…).Run(int(s.ConcurrentDaemonSetSyncs), wait.NeverStop)",
			File:     "pkg/controller/daemon/daemoncontroller.go",
			Article:  startControllers,
			Summary: "DaemonSetsController.Run. Its DaemonSet, Pod and Node informers are all shared, so it only waits for the " +
				"Pod and Node caches, starts 2 workers (ConcurrentDaemonSetSyncs, which is not a flag in 1.5) and blocks forever.",
			SummaryZH: "DaemonSetsController.Run。它的 DaemonSet、Pod、Node informer 都是共享的，所以它只等 Pod 和 Node 缓存同步，" +
				"然后启动 2 个 worker（ConcurrentDaemonSetSyncs，1.5 中不是命令行参数）并永久阻塞。",
			Quote:   "DaemonSetsController",
			QuoteEN: "DaemonSetsController",
			Now:     "Same pattern, now Run(ctx, workers).",
			NowZH:   "模式相同，现在是 Run(ctx, workers)。",
		},
		Entry{
			Name: "controller/daemonset/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "DaemonSetsController.Run → go wait.Until(dsc.runWorker, time.Second, stopCh)",
			File:       "pkg/controller/daemon/daemoncontroller.go",
			Summary: "One of 2 workers on the \"daemonset\" queue. An iteration syncs one DaemonSet: for every node it decides " +
				"whether a daemon pod should run there (node name, out of disk, the scheduler's general predicates), creates the " +
				"missing pods with spec.nodeName already set, bypassing the scheduler, and deletes extra or misplaced ones (one " +
				"goroutine per pod, up to 500). It then PUTs the DaemonSet status (desired, current, misscheduled, ready).",
			SummaryZH: "\"daemonset\" 队列上的 2 个 worker 之一。每次迭代同步一个 DaemonSet：对每个节点判断是否应运行 daemon pod" +
				"（节点名、磁盘是否耗尽、调度器的通用 predicate），为缺少的节点直接创建已填好 spec.nodeName 的 pod，绕过调度器，" +
				"并删除多余或放错位置的 pod（每个 pod 一个协程，最多 500 个）。最后 PUT DaemonSet 的 status（desired、current、misscheduled、ready）。",
			Now:   "Same worker pattern, started with wait.UntilWithContext.",
			NowZH: "同样的 worker 模式，用 wait.UntilWithContext 启动。",
		},

		// JobController.
		Entry{
			Name: "controller/job/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go job.NewJobController(…).Run(int(s.ConcurrentJobSyncs), wait.NeverStop)",
			File:     "pkg/controller/job/jobcontroller.go",
			Article:  startControllers,
			Summary: "JobController.Run. It waits for the shared Pod cache, starts 5 workers (ConcurrentJobSyncs, not a flag in " +
				"1.5) and blocks forever. The Jobs come from the shared Jobs informer that the controller manager passes in.",
			SummaryZH: "JobController.Run。它等共享 Pod 缓存同步，启动 5 个 worker（ConcurrentJobSyncs，1.5 中不是命令行参数），然后永久阻塞。" +
				"Job 对象来自 controller manager 传入的共享 Jobs informer。",
			Quote:   "obController",
			QuoteEN: "obController",
			Now:     "Run(ctx, workers) now waits for both the Pod and Job caches and also runs an orphan-pod worker beside the sync workers.",
			NowZH:   "Run(ctx, workers) 现在会等 Pod 和 Job 两个缓存都同步，并且在同步 worker 之外还运行一个处理孤儿 pod 的 worker。",
		},
		Entry{
			Name: "controller/job/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "JobController.Run → go wait.Until(jm.worker, time.Second, stopCh)",
			File:       "pkg/controller/job/jobcontroller.go",
			Summary: "One of 5 workers on the \"job\" queue. An iteration syncs one Job: it counts its active, succeeded and " +
				"failed pods; a Job past activeDeadlineSeconds is failed (DeadlineExceeded) and its pods deleted; otherwise it " +
				"creates pods up to the parallelism still needed (named <job-name>-<random>) or deletes extras, one goroutine " +
				"each, and marks the Job Complete once enough pods succeeded. It PUTs the Job status when anything changed.",
			SummaryZH: "\"job\" 队列上的 5 个 worker 之一。每次迭代同步一个 Job：统计其活跃、成功、失败的 pod；超过 activeDeadlineSeconds 的 Job " +
				"被判为失败（DeadlineExceeded）并删除其 pod；否则按仍需要的并行度创建 pod（命名为 <job-name>-<随机串>）或删除多余的，" +
				"每个一个协程，成功的 pod 足够时把 Job 标为 Complete。有变化时 PUT Job 的 status。",
			Now:   "Unchanged in shape: workers on the \"job\" queue, started with wait.UntilWithContext.",
			NowZH: "结构不变：仍是 \"job\" 队列上的 worker，用 wait.UntilWithContext 启动。",
		},

		// DeploymentController.
		Entry{
			Name: "controller/deployment/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go deployment.NewDeploymentController(…).Run(int(s.ConcurrentDeploymentSyncs), wait.NeverStop)",
			File:     "pkg/controller/deployment/deployment_controller.go",
			Article:  startControllers,
			Summary: "DeploymentController.Run. It waits for its shared caches (a 1.5 bug makes all three checks look at the " +
				"Deployment informer, not the ReplicaSet and Pod ones), starts --concurrent-deployment-syncs (5) workers and " +
				"blocks forever.",
			SummaryZH: "DeploymentController.Run。它等待共享缓存同步（1.5 有个 bug：三项检查看的都是 Deployment informer，而不是 ReplicaSet 和 Pod 的），" +
				"然后启动 --concurrent-deployment-syncs（5）个 worker 并永久阻塞。",
			Quote:   "DeploymentController",
			QuoteEN: "DeploymentController",
			Now:     "Same pattern, now Run(ctx, workers).",
			NowZH:   "模式相同，现在是 Run(ctx, workers)。",
		},
		Entry{
			Name: "controller/deployment/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "DeploymentController.Run → go wait.Until(dc.worker, time.Second, stopCh)",
			File:       "pkg/controller/deployment/deployment_controller.go",
			Summary: "One of 5 workers on the \"deployment\" queue. An iteration syncs one Deployment: it finds or creates the " +
				"new ReplicaSet named <deployment>-<pod-template-hash> (ScalingReplicaSet event), scales the new and old " +
				"ReplicaSets for a Recreate or RollingUpdate rollout, handles pause, rollback and selector overlap, deletes old " +
				"ReplicaSets beyond revisionHistoryLimit and PUTs the Deployment status. The ReplicaSet controller then makes the pods.",
			SummaryZH: "\"deployment\" 队列上的 5 个 worker 之一。每次迭代同步一个 Deployment：找到或创建名为 <deployment>-<pod-template-hash> " +
				"的新 ReplicaSet（ScalingReplicaSet 事件），按 Recreate 或 RollingUpdate 策略伸缩新旧 ReplicaSet，处理暂停、回滚和 selector 重叠，" +
				"删除超出 revisionHistoryLimit 的旧 ReplicaSet，并 PUT Deployment 的 status。pod 则由 ReplicaSet 控制器去创建。",
			Now:   "Same flow (a ReplicaSet per template hash, scale up and down, status), on workers started with wait.UntilWithContext.",
			NowZH: "流程相同（每个模板哈希一个 ReplicaSet、扩容和缩容、更新 status），运行在用 wait.UntilWithContext 启动的 worker 上。",
		},

		// ReplicaSetController.
		Entry{
			Name: "controller/replicaset/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go replicaset.NewReplicaSetController(…).Run(int(s.ConcurrentRSSyncs), wait.NeverStop)",
			File:     "pkg/controller/replicaset/replica_set.go",
			Article:  startControllers,
			Summary: "ReplicaSetController.Run. Its ReplicaSet and Pod informers are shared, so it only waits for the pod cache, " +
				"starts --concurrent-replicaset-syncs (5) workers and blocks forever.",
			SummaryZH: "ReplicaSetController.Run。它的 ReplicaSet 和 Pod informer 是共享的，所以只等 pod 缓存同步，" +
				"然后启动 --concurrent-replicaset-syncs（5）个 worker 并永久阻塞。",
			Quote:   "ReplicaSetController",
			QuoteEN: "ReplicaSetController",
			Now:     "Same pattern, now Run(ctx, workers); the same code also runs the ReplicationController manager today.",
			NowZH:   "模式相同，现在是 Run(ctx, workers)；如今 ReplicationController manager 也由同一份代码运行。",
		},
		Entry{
			Name: "controller/replicaset/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "ReplicaSetController.Run → go wait.Until(rsc.worker, time.Second, stopCh)",
			File:       "pkg/controller/replicaset/replica_set.go",
			Summary: "One of 5 workers on the \"replicaset\" queue, with the replication manager's algorithm: adopt or release " +
				"pods, then create or delete pods (one goroutine each, at most 500 per sync) until the count matches " +
				"spec.replicas, and PUT the ReplicaSet status. Pods of a Deployment's ReplicaSet are named " +
				"<deployment>-<hash>-<5 random chars>.",
			SummaryZH: "\"replicaset\" 队列上的 5 个 worker 之一，算法与 replication manager 相同：领养或释放 pod，再创建或删除 pod" +
				"（每个一个协程，每次同步最多 500 个）直到数量等于 spec.replicas，最后 PUT ReplicaSet 的 status。" +
				"属于 Deployment 的 ReplicaSet 创建的 pod 命名为 <deployment>-<hash>-<5 个随机字符>。",
			Now:   "Pods are now created in slow-start batches instead of all at once.",
			NowZH: "现在按慢启动的批次创建 pod，而不是一次全部创建。",
		},

		// DisruptionController.
		Entry{
			Name: "controller/disruption/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go disruption.NewDisruptionController(…).Run(wait.NeverStop)",
			File:     "pkg/controller/disruption/disruption.go",
			Article:  startControllers,
			Summary: "DisruptionController.Run. It starts recording its events to the API (a sink-only pipeline), then the " +
				"private informers for PodDisruptionBudgets, RCs, ReplicaSets and Deployments (resync 30s), the shared Pods " +
				"informer's dummy controller, one worker and one recheck worker, and blocks forever without waiting for any cache.",
			SummaryZH: "DisruptionController.Run。它先开始把事件写到 API（只写 sink 的管道），再启动 PodDisruptionBudget、RC、ReplicaSet、" +
				"Deployment 的私有 informer（resync 30 秒）、共享 Pods informer 的 dummy controller、一个 worker 和一个 recheck worker，" +
				"然后永久阻塞，不等待任何缓存。",
			Quote:   "DisruptionController",
			QuoteEN: "DisruptionController",
			Now:     "Run now waits for all its caches (StatefulSets included) and also runs a stale-pod-disruption worker.",
			NowZH:   "Run 现在会等待它所有的缓存（包括 StatefulSet）同步，并且还运行一个 stale-pod-disruption worker。",
		},
		Entry{
			Name: "controller/disruption/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "DisruptionController.Run → go wait.Until(dc.worker, time.Second, stopCh)",
			File:       "pkg/controller/disruption/disruption.go",
			Summary: "The single worker on the \"disruption\" queue. An iteration syncs one PodDisruptionBudget: it lists the " +
				"pods matching its selector, works out the expected, desired-healthy and currently-healthy counts from their " +
				"controllers' scale, forgets pods recorded as disrupted more than 2 minutes ago and PUTs the PDB status. The " +
				"eviction API reads that status to decide whether a pod may be evicted.",
			SummaryZH: "\"disruption\" 队列上唯一的 worker。每次迭代同步一个 PodDisruptionBudget：列出与其 selector 匹配的 pod，" +
				"根据它们所属控制器的 scale 算出期望数、应健康数和当前健康数，清掉 2 分钟前记下的已中断 pod，并 PUT PDB 的 status。" +
				"驱逐（eviction）API 正是读这个 status 来决定能否驱逐某个 pod。",
			Now:   "Unchanged in shape: one worker on the same queue, started with wait.UntilWithContext.",
			NowZH: "结构不变：同一队列上唯一的 worker，用 wait.UntilWithContext 启动。",
		},
		Entry{
			Name: "controller/disruption/recheck-worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "DisruptionController.Run → go wait.Until(dc.recheckWorker, time.Second, stopCh)",
			File:       "pkg/controller/disruption/disruption.go",
			Summary: "The single worker on the delaying \"disruption-recheck\" queue. A PDB is put there to be looked at again " +
				"when the oldest entry of its disrupted-pods list expires; an iteration just moves that key back onto the main " +
				"queue (rate-limited) so the worker recomputes the budget.",
			SummaryZH: "延迟队列 \"disruption-recheck\" 上唯一的 worker。当 PDB 的已中断 pod 列表中最早的一项到期时，PDB 会被放进这里等待复查；" +
				"每次迭代只是把这个 key 移回主队列（限速），让 worker 重新计算预算。",
			Now:   "Unchanged.",
			NowZH: "没有变化。",
		},

		// StatefulSetController (PetSet).
		Entry{
			Name: "controller/statefulset/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go petset.NewStatefulSetController(…).Run(1, wait.NeverStop)",
			File:     "pkg/controller/petset/pet_set.go",
			Article:  startControllers,
			Summary: "StatefulSetController.Run; the package is still petset in 1.5, and the article calls it PetSetController. " +
				"It starts the shared Pods informer's dummy controller and its private StatefulSet informer (resync fixed at 30s; " +
				"the period the controller manager passes is ignored), starts a single worker and blocks forever, without " +
				"waiting for any cache.",
			SummaryZH: "StatefulSetController.Run；1.5 中包名仍是 petset，文章里叫 PetSetController。它启动共享 Pods informer 的 dummy controller " +
				"和私有的 StatefulSet informer（resync 固定 30 秒，controller manager 传入的周期被忽略），启动唯一的 worker 后永久阻塞，不等待任何缓存。",
			Quote:   "PetSetController",
			QuoteEN: "PetSetController",
			Now:     "StatefulSet is apps/v1 (GA in 1.9), and its controller's workers are started with a context.",
			NowZH:   "StatefulSet 已是 apps/v1（1.9 GA），其控制器的 worker 以 context 启动。",
		},
		Entry{
			Name: "controller/statefulset/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "StatefulSetController.Run → go wait.Until(psc.worker, time.Second, stopCh)",
			File:       "pkg/controller/petset/pet_set.go",
			Summary: "The single worker on the \"statefulset\" queue. An iteration syncs one StatefulSet in ordinal order: it " +
				"creates the missing PVCs and pod for the next ordinal (pods are named <set>-<ordinal>: web-0, web-1, …) only " +
				"while no earlier pod is unhealthy, deletes pods above the replica count and PUTs the status. Waiting for each " +
				"pod to be Running and Ready is what makes a StatefulSet start one pod at a time, in order.",
			SummaryZH: "\"statefulset\" 队列上唯一的 worker。每次迭代按序号顺序同步一个 StatefulSet：只有在前面的 pod 都健康时，" +
				"才为下一个序号创建缺少的 PVC 和 pod（pod 命名为 <set>-<序号>：web-0、web-1……），删除超出副本数的 pod，并 PUT status。" +
				"正是因为要等每个 pod Running 且 Ready，StatefulSet 才会按顺序一个一个地启动。",
			Now:   "Same ordered sync by default; the worker is started with wait.UntilWithContext.",
			NowZH: "默认仍按序号顺序同步；worker 用 wait.UntilWithContext 启动。",
		},

		// CronJobController (ScheduledJob).
		Entry{
			Name: "controller/cronjob/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go cronjob.NewCronJobController(…).Run(wait.NeverStop)",
			File:     "pkg/controller/cronjob/controller.go",
			Article:  startControllers,
			Summary: "CronJobController.Run (the article's ScheduledJobController). It starts the 10s SyncAll loop and blocks " +
				"forever; it has no informers and no queue. With default flags it does not run in 1.5: it needs " +
				"batch/v2alpha1, which the apiserver does not serve by default, so the controller manager logs " +
				"\"Not starting batch/v2alpha1 apis\" instead.",
			SummaryZH: "CronJobController.Run（即文章中的 ScheduledJobController）。它启动每 10 秒一次的 SyncAll 循环后永久阻塞；没有 informer，也没有队列。" +
				"1.5 的默认参数下它不会运行：它需要 batch/v2alpha1，而 apiserver 默认不提供，于是 controller manager 只打印 \"Not starting batch/v2alpha1 apis\"。",
			Quote:   "ScheduledJobController",
			QuoteEN: "ScheduledJobController",
			Now: "CronJob is batch/v1 (GA in 1.21), and the rewritten controller (ControllerV2) uses informers and a workqueue, " +
				"waiting for its Job and CronJob caches.",
			NowZH: "CronJob 已是 batch/v1（1.21 GA），" +
				"重写后的控制器（ControllerV2）使用 informer 和 workqueue，并等待 Job 和 CronJob 缓存同步。",
		},
		Entry{
			Name: "controller/cronjob/sync-all", Component: cm, Kind: KindUntil, Period: 10 * time.Second,
			PeriodFrom: "10*time.Second, a literal in CronJobController.Run",
			Function:   "CronJobController.Run → go wait.Until(jm.SyncAll, 10*time.Second, stopCh)",
			File:       "pkg/controller/cronjob/controller.go",
			Summary: "Every 10s SyncAll LISTs all CronJobs and all Jobs straight from the API and groups the Jobs by their " +
				"CronJob. For each CronJob it reconciles the active list, works out whether a scheduled time has passed and, " +
				"honouring suspend and the concurrency policy, POSTs a Job named after the CronJob and the scheduled time, then " +
				"PUTs the CronJob status.",
			SummaryZH: "每 10 秒 SyncAll 直接向 API LIST 所有 CronJob 和所有 Job，并按所属 CronJob 分组。对每个 CronJob，它核对 active 列表，" +
				"计算是否已到某个调度时间，在遵守 suspend 和并发策略的前提下 POST 一个以 CronJob 名和调度时间命名的 Job，然后 PUT CronJob 的 status。",
			Now: "Replaced by per-CronJob syncs on a workqueue: each CronJob is re-queued for its next schedule time instead of " +
				"all of them being listed every 10s.",
			NowZH: "已被 workqueue 上逐个 CronJob 的同步取代：每个 CronJob 按下一次调度时间重新入队，而不是每 10 秒把所有 CronJob 都 LIST 一遍。",
		},

		// AttachDetachController.
		Entry{
			Name: "controller/attachdetach/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go attachDetachController.Run(wait.NeverStop)",
			File:     "pkg/controller/volume/attachdetach/attach_detach_controller.go",
			Article:  startControllers,
			Summary: "AttachDetachController.Run. It starts the reconciler and the desired-state populator and blocks forever. " +
				"In 1.5 it neither waits for its shared Pod, Node, PVC and PV caches nor rebuilds its state at start-up: the two " +
				"in-memory caches (desired and actual state of the world) are filled by its Pod and Node handlers.",
			SummaryZH: "AttachDetachController.Run。它启动 reconciler 和期望状态填充器（populator）后永久阻塞。1.5 中它既不等待共享的 Pod、Node、PVC、PV 缓存，" +
				"启动时也不重建状态：两个内存缓存（期望状态和实际状态）由它的 Pod 和 Node handler 填充。",
			Quote:   "AttachDetachController",
			QuoteEN: "AttachDetachController",
			Now: "Since 1.6/1.7 it waits for its caches and rebuilds the actual and desired states of the world before starting " +
				"the same two loops.",
			NowZH: "从 1.6/1.7 起，它会先等缓存同步，并重建实际状态和期望状态，然后才启动同样的两个循环。",
		},
		Entry{
			Name: "controller/attachdetach/reconciler", Component: cm, Kind: KindUntil, Period: 100 * time.Millisecond,
			PeriodFrom: "reconcilerLoopPeriod, a constant in attach_detach_controller.go",
			Function:   "AttachDetachController.Run → go adc.reconciler.Run(stopCh) → wait.Until(rc.reconciliationLoopFunc(), 100ms, stopCh)",
			File:       "pkg/controller/volume/attachdetach/reconciler/reconciler.go",
			Summary: "Every 100ms one pass comparing the desired and actual state of the world: it detaches volumes no longer " +
				"needed once they are unmounted (or after 6 minutes), attaches volumes that pods need on their nodes, each as an " +
				"operation goroutine keyed by volume, and PATCHes the nodes' status.volumesAttached. Every 5s it also runs a " +
				"sync-states check.",
			SummaryZH: "每 100 毫秒做一轮期望状态与实际状态的比较：把不再需要的卷在卸载后（或 6 分钟后）detach，为 pod 所需的卷在其节点上 attach，" +
				"每个操作都是按卷区分的操作协程，并 PATCH 节点的 status.volumesAttached。每 5 秒还会做一次状态同步检查。",
			Now:   "Unchanged in design: a reconciler loop over the desired and actual state of the world.",
			NowZH: "设计不变：仍是一个在期望状态和实际状态之间协调的 reconciler 循环。",
		},
		Entry{
			Name: "controller/attachdetach/dswp", Component: cm, Kind: KindUntil, Period: time.Minute,
			PeriodFrom: "desiredStateOfWorldPopulatorLoopSleepPeriod, a constant in attach_detach_controller.go",
			Function:   "AttachDetachController.Run → go adc.desiredStateOfWorldPopulator.Run(stopCh) → wait.Until(populatorLoopFunc, 1m, stopCh)",
			File:       "pkg/controller/volume/attachdetach/populator/desired_state_of_world_populator.go",
			Summary: "Every minute the desired-state-of-world populator walks the pods it has recorded and removes those that " +
				"no longer exist in the pod cache (findAndRemoveDeletedPods), so a missed pod delete event cannot keep a volume " +
				"attached forever. New pods are added by the controller's Pod handlers as they arrive; this loop only cleans up.",
			SummaryZH: "期望状态填充器每分钟遍历它记录的 pod，把 pod 缓存中已不存在的移除（findAndRemoveDeletedPods），" +
				"这样即使漏掉了 pod 删除事件，卷也不会永远保持 attach。新的 pod 由控制器的 Pod handler 随到随加，这个循环只负责清理。",
			Now:   "Same role today, as a periodic populator loop.",
			NowZH: "今天作用相同，是一个周期性的填充器（populator）循环。",
		},

		// CertificateController.
		Entry{
			Name: "controller/certificatesigningrequests/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go certController.Run(1, wait.NeverStop)",
			File:     "pkg/controller/certificates/controller.go",
			Article:  startControllers,
			Summary: "CertificateController.Run: it starts the private CSR informer (resync 12–24h) and one worker, then blocks " +
				"forever. With 1.5 defaults it never gets here: the constructor first builds its event pipeline, then fails to " +
				"load the signing CA from /etc/kubernetes/ca/ca.pem (\"Failed to start certificate controller\"), so only its " +
				"three event goroutines run, for nothing.",
			SummaryZH: "CertificateController.Run：启动私有的 CSR informer（resync 12–24 小时）和一个 worker，然后永久阻塞。" +
				"1.5 的默认参数下根本走不到这里：构造函数先建好事件管道，随后从 /etc/kubernetes/ca/ca.pem 加载签名 CA 失败" +
				"（\"Failed to start certificate controller\"），于是只剩它的三个事件协程在白白运行。",
			Quote:   "CertificateController",
			QuoteEN: "CertificateController",
			Now:     "The work is now split into the csrapproving, csrsigning and csrcleaner controllers on certificates.k8s.io/v1.",
			NowZH:   "这些工作现已拆分到基于 certificates.k8s.io/v1 的 csrapproving、csrsigning 和 csrcleaner 三个控制器中。",
		},
		Entry{
			Name: "controller/certificatesigningrequests/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "CertificateController.Run → go wait.Until(cc.worker, time.Second, stopCh)",
			File:       "pkg/controller/certificates/controller.go",
			Summary: "The single worker on the \"certificate\" queue. An iteration takes one CSR: if " +
				"--insecure-experimental-approve-all-kubelet-csrs-for-group names one of the request's groups it auto-approves " +
				"it; if it is approved and not yet signed it signs it with the cluster CA; and it always PUTs the CSR status, " +
				"even when nothing changed.",
			SummaryZH: "\"certificate\" 队列上唯一的 worker。每次迭代取一个 CSR：若 --insecure-experimental-approve-all-kubelet-csrs-for-group 指定的组" +
				"在请求的组中，就自动批准；若已批准但尚未签发，就用集群 CA 签发；无论有无变化，都会 PUT CSR 的 status。",
			Now:   "Approval, signing and cleanup are now separate controllers, each with its own workers.",
			NowZH: "批准、签发和清理现在是各自独立的控制器，每个都有自己的 worker。",
		},

		// ServiceAccountsController.
		Entry{
			Name: "controller/serviceaccount/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go NewServiceAccountsController(…).Run(1, stop)",
			File:     "pkg/controller/serviceaccount/serviceaccounts_controller.go",
			Article:  startControllers,
			Summary: "ServiceAccountsController.Run, the only controller in 1.5 that gets the leader-election stop channel. It " +
				"waits for the shared ServiceAccount cache, starts one worker and blocks until stop.",
			SummaryZH: "ServiceAccountsController.Run，1.5 中唯一拿到选主 stop 通道的控制器。它等共享的 ServiceAccount 缓存同步，" +
				"启动一个 worker，然后阻塞直到 stop。",
			Quote:   "ServiceAccountsController",
			QuoteEN: "ServiceAccountsController",
			Now:     "Run(ctx, workers) now waits for both the ServiceAccount and Namespace caches.",
			NowZH:   "Run(ctx, workers) 现在会等 ServiceAccount 和 Namespace 两个缓存都同步。",
		},
		Entry{
			Name: "controller/serviceaccount/worker", Component: cm, Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in the controller's Run: go wait.Until(worker, time.Second, stopCh)",
			Function:   "ServiceAccountsController.Run → go wait.Until(c.runWorker, time.Second, stopCh)",
			File:       "pkg/controller/serviceaccount/serviceaccounts_controller.go",
			Summary: "The single worker on the \"serviceaccount\" queue, whose keys are namespace names (queued when a namespace " +
				"is added or updated, resyncs included, or when one of its ServiceAccounts is deleted). An iteration makes sure " +
				"an active namespace has a ServiceAccount named default, POSTing it if the cache has none; its token secret is " +
				"the TokensController's job.",
			SummaryZH: "\"serviceaccount\" 队列上唯一的 worker，队列里的 key 是 namespace 名（namespace 新增或更新时入队，包括重同步，" +
				"或其中某个 ServiceAccount 被删除时）。每次迭代确保一个活跃的 namespace 里有名为 default 的 ServiceAccount，缓存中没有就 POST 一个；" +
				"它的 token secret 则归 TokensController 管。",
			Now:   "Unchanged: the controller still ensures a default ServiceAccount in every active namespace.",
			NowZH: "没有变化：该控制器仍确保每个活跃的 namespace 中都有一个 default ServiceAccount。",
		},

		// GarbageCollector.
		Entry{
			Name: "controller/garbagecollector/run", Component: cm, Kind: KindGo,
			Function: "StartControllers → go garbageCollector.Run(workers, wait.NeverStop)",
			File:     "pkg/controller/garbagecollector/garbagecollector.go",
			Article:  startControllers,
			Summary: "GarbageCollector.Run. It starts one private, metadata-only informer (a monitor, never resynced) per " +
				"deletable resource type found by discovery, polls every 10s on this goroutine until all of them have synced, " +
				"then starts the propagator, 20 workers and 20 orphan finalizers (--concurrent-gc-syncs), and blocks forever.",
			SummaryZH: "GarbageCollector.Run。它为 API 发现到的每种可删除资源启动一个私有的、只含元数据的 informer（monitor，从不重同步），" +
				"在本协程上每 10 秒检查一次直到全部同步，然后启动 propagator、20 个 worker 和 20 个 orphan finalizer（--concurrent-gc-syncs），并永久阻塞。",
			Quote:   "GarbageCollector",
			QuoteEN: "GarbageCollector",
			Now: "A GraphBuilder now runs the monitors (metadata informers) and picks up new resource types from discovery " +
				"over time; after the caches sync, Run starts attemptToDelete and attemptToOrphan workers.",
			NowZH: "现在由 GraphBuilder 运行这些 monitor（元数据 informer），并随着时间推移从 API 发现中拾取新的资源类型；" +
				"缓存同步后，Run 启动 attemptToDelete 和 attemptToOrphan 两类 worker。",
		},
		Entry{
			Name: "controller/garbagecollector/propagator", Component: cm, Kind: KindUntil, Period: 0,
			Function: "GarbageCollector.Run → go wait.Until(gc.propagator.processEvent, 0, stopCh)",
			File:     "pkg/controller/garbagecollector/garbagecollector.go",
			Summary: "The single graph builder. Each call pops one add, update or delete event from the monitors' queue and " +
				"updates the in-memory graph of owner references: owners not seen yet become virtual nodes for the workers to " +
				"check, a deleted owner's dependents go to the workers, and an owner being deleted with the \"orphan\" finalizer " +
				"goes to the orphan finalizers. The period is 0, so wait.Until calls it again at once: events are handled back to back.",
			SummaryZH: "唯一的依赖图构建者。每次调用从 monitor 的队列中取出一个 add、update 或 delete 事件，更新内存中的 owner reference 图：" +
				"尚未见过的 owner 成为虚拟节点交给 worker 核查，被删除 owner 的依赖对象交给 worker，带着 \"orphan\" finalizer 正在删除的 owner 交给 orphan finalizer。" +
				"周期为 0，wait.Until 立即再次调用它：事件一个接一个地处理。",
			Now:   "This is now the GraphBuilder's processGraphChanges loop, which feeds the attemptToDelete and attemptToOrphan queues.",
			NowZH: "它现在是 GraphBuilder 的 processGraphChanges 循环，为 attemptToDelete 和 attemptToOrphan 队列提供输入。",
		},
		Entry{
			Name: "controller/garbagecollector/worker", Component: cm, Kind: KindUntil, Period: 0,
			Function: "GarbageCollector.Run → go wait.Until(gc.worker, 0, stopCh)",
			File:     "pkg/controller/garbagecollector/garbagecollector.go",
			Summary: "One of 20 workers on the dirty queue. Each call takes one object and runs processItem: it GETs the " +
				"object, then GETs each of its owners (skipping owners already known to be absent); if none of them exists any " +
				"more it DELETEs the object. The period is 0, so the next item is taken at once, one item per call.",
			SummaryZH: "dirty 队列上的 20 个 worker 之一。每次调用取一个对象执行 processItem：GET 该对象，再逐个 GET 它的 owner" +
				"（已知不存在的 owner 跳过）；若所有 owner 都已不存在，就 DELETE 该对象。周期为 0，所以立即取下一个，每次调用处理一个。",
			Now:   "Now the attemptToDelete workers (runAttemptToDeleteWorker), restarted with a 1s period when they return.",
			NowZH: "现在是 attemptToDelete worker（runAttemptToDeleteWorker），返回后以 1 秒的周期重启。",
		},
		Entry{
			Name: "controller/garbagecollector/orphan-finalizer", Component: cm, Kind: KindUntil, Period: 0,
			Function: "GarbageCollector.Run → go wait.Until(gc.orphanFinalizer, 0, stopCh)",
			File:     "pkg/controller/garbagecollector/garbagecollector.go",
			Summary: "One of 20 goroutines on the orphan queue. Each call takes one owner that is being deleted with the " +
				"\"orphan\" finalizer: it PATCHes every dependent to drop the owner reference, then removes the finalizer from " +
				"the owner (PUT) so the apiserver can finish deleting it; a failure puts the owner back on the queue. The period " +
				"is 0, one owner per call.",
			SummaryZH: "orphan 队列上的 20 个协程之一。每次调用取一个带着 \"orphan\" finalizer 正在删除的 owner：先 PATCH 每个依赖对象、去掉指向它的 owner reference，" +
				"再从 owner 上去掉这个 finalizer（PUT），好让 apiserver 完成删除；失败则把 owner 放回队列。周期为 0，每次调用处理一个 owner。",
			Now:   "Now the attemptToOrphan workers (runAttemptToOrphanWorker), restarted with a 1s period when they return.",
			NowZH: "现在是 attemptToOrphan worker（runAttemptToOrphanWorker），返回后以 1 秒的周期重启。",
		},
	)
}

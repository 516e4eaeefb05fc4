package catalog

import "time"

// The shared-informer and reflector machinery, catalog §2.
const articleCM = "kube-controller-manager-startup.zh.txt"

func init() {
	register(
		Entry{
			Name: "informer/run", Component: "informer", Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in controller.Run",
			Function:   "sharedIndexInformer.Run → controller.Run → wait.Until(c.processLoop, time.Second, stopCh)",
			File:       "pkg/client/cache/shared_informer.go",
			Article:    articleCM + " §3 factory.go Start, §6 controller.Run",
			Summary: "The informer's process loop: pops one key's Deltas from the DeltaFIFO (RealFIFO today), " +
				"updates the indexer and distributes add/update/delete notifications to every listener. " +
				"processLoop is re-entered every 1s if it returns; normally it blocks in Pop.",
			SummaryZH: "informer 的处理循环：从 DeltaFIFO（如今是 RealFIFO）弹出一个 key 的 Deltas，更新 indexer，" +
				"并把 add/update/delete 通知分发给每个 listener。processLoop 返回后每 1 秒重新进入；通常阻塞在 Pop 上。",
			Quote:   "go informer.Run(stopCh)；wait.Until(c.processLoop, time.Second, stopCh)",
			QuoteEN: "go informer.Run(stopCh) … wait.Until(c.processLoop, time.Second, stopCh)",
			Now:     "Same shape in client-go today; the queue is a RealFIFO (InOrderInformers) and the FIFO is closed when the context ends.",
			NowZH:   "今天 client-go 中结构相同；队列是 RealFIFO（InOrderInformers），context 结束时 FIFO 会被关闭。",
		},
		Entry{
			Name: "informer/listener-pop", Component: "informer", Kind: KindGo,
			Function: "sharedProcessor.run → go listener.pop(stopCh)",
			File:     "pkg/client/cache/shared_informer.go",
			Article:  articleCM + " §6 sharedProcessor.run",
			Summary: "One per handler. Moves the head of the unbounded pendingNotifications buffer into the " +
				"unbuffered nextCh; waits while the buffer is empty. A slow handler never blocks the process loop.",
			SummaryZH: "每个 handler 一个。把无界缓冲 pendingNotifications 的队首送入无缓冲的 nextCh；缓冲为空时等待。" +
				"慢的 handler 不会阻塞处理循环。",
			Quote:   "//当pendingNotifications为0时判断是否stop，是则推出，不是则返回pendingNotifications加入nextCh交给run处理go listener.pop(stopCh)",
			QuoteEN: "//when pendingNotifications is 0, decide whether to stop: if so, exit; if not, return pendingNotifications, add them to nextCh and hand them to run to process go listener.pop(stopCh)",
			Now:     "Still a pop goroutine per listener; pendingNotifications is a growing ring buffer. Handlers added after start use the same two goroutines and first get the cached objects.",
			NowZH: "仍是每个 listener 一个 pop 协程；pendingNotifications 是一个可增长的环形缓冲区。" +
				"启动之后才添加的 handler 同样使用这两个协程，并会先收到缓存中已有的对象。",
		},
		Entry{
			Name: "informer/listener-run", Component: "informer", Kind: KindGo,
			Function: "sharedProcessor.run → go listener.run(stopCh)",
			File:     "pkg/client/cache/shared_informer.go",
			Article:  articleCM + " §6 sharedProcessor.run",
			Summary: "One per handler. Receives one notification from nextCh and calls the handler's " +
				"OnAdd, OnUpdate or OnDelete (a controller's handler usually enqueues a key on its workqueue).",
			SummaryZH: "每个 handler 一个。从 nextCh 取一个通知，调用 handler 的 OnAdd、OnUpdate 或 OnDelete" +
				"（控制器的 handler 通常把 key 放进自己的 workqueue）。",
			Quote:   "//开启goroutine 获取notification 做出OnUpdate  OnAdd  OnDelete操作go listener.run(stopCh)",
			QuoteEN: "//start a goroutine, get the notification, do the OnUpdate  OnAdd  OnDelete operation go listener.run(stopCh)",
			Now:     "Unchanged in spirit; handlers can now be removed (RemoveEventHandler) and have their own resync period.",
			NowZH:   "思路不变；handler 现在可以被移除（RemoveEventHandler），也可以有自己的 resync 周期。",
		},
		Entry{
			Name: "reflector/list-watch", Component: "informer", Kind: KindUntil, Period: time.Second,
			PeriodFrom: "r.period = time.Second, set by NewNamedReflector",
			Function:   "Reflector.RunUntil → go wait.Until(func(){ r.ListAndWatch(stopCh) }, r.period, stopCh)",
			File:       "pkg/client/cache/reflector.go",
			Article:    articleCM + " §6 Reflector.RunUntil",
			Summary: "LISTs the resource, replaces the FIFO's contents, then WATCHes from the list's resourceVersion " +
				"and queues every event. A watch that closes is re-opened; a 410 Gone (too old resource version) " +
				"ends ListAndWatch and the reflector re-lists after its period (1s in v1.5).",
			SummaryZH: "先 LIST 资源并替换 FIFO 的内容，再从 list 的 resourceVersion 开始 WATCH，把每个事件放进队列。" +
				"正常关闭的 watch 会被重新打开；410 Gone（resource version 太旧）会结束 ListAndWatch，" +
				"reflector 在周期（v1.5 为 1 秒）后重新 list。",
			Quote:   "go wait.Until(func() {if err := r.ListAndWatch(stopCh)…}, r.period, stopCh)；ListAndWatch先获取rsv 根据rsv监控；watchHandler保证rsv更新",
			QuoteEN: "go wait.Until(func() {if err := r.ListAndWatch(stopCh)…}, r.period, stopCh) … ListAndWatch first gets the rsv, watches according to the rsv … watchHandler makes sure the rsv is updated",
			Now:     "The fixed 1s period became an exponential backoff (800ms doubling to 30s, jittered); lists are paginated and may be replaced by a streaming WatchList.",
			NowZH:   "固定的 1 秒周期变成了指数退避（从 800 毫秒翻倍到 30 秒，带抖动）；list 是分页的，并且可能被流式的 WatchList 取代。",
		},
		Entry{
			Name: "reflector/resync-timer", Component: "informer", Kind: KindGo,
			Function: "Reflector.ListAndWatch → go func(){ … resyncChan … store.Resync() }()",
			File:     "pkg/client/cache/reflector.go",
			Summary: "One per ListAndWatch call, started right after the LIST is stored, whatever the resync period. Every period " +
				"it asks the FIFO to queue a Sync delta for every cached object; handlers due for resync get OnUpdate(old == new). " +
				"With a period of 0 its channel never fires (neverExitWatch): it only waits for the call to end (cancelCh).",
			SummaryZH: "每次 ListAndWatch 调用一个，在 LIST 的结果存入之后立即启动，无论 resync 周期是多少。每个周期让 FIFO 为每个缓存对象加入 Sync delta；" +
				"到期的 handler 收到 OnUpdate(old == new)。周期为 0 时它的通道永远不会触发（neverExitWatch）：它只等这次调用结束（cancelCh）。",
			Now:   "Still one per ListAndWatch, even with a period of 0 (watchWithResync → go r.startResync); ShouldResync asks the processor which listeners are due.",
			NowZH: "仍是每次 ListAndWatch 一个，周期为 0 时也一样（watchWithResync → go r.startResync）；ShouldResync 向 processor 询问哪些 listener 到了 resync 时间。",
		},
		Entry{
			Name: "watch/stream-receive", Component: "informer", Kind: KindGo,
			Function: "NewStreamWatcher → go sw.receive()",
			File:     "pkg/watch/streamwatcher.go",
			Summary: "One per open WATCH. Decodes each event from the HTTP stream and sends it on ResultChan; " +
				"exits when the stream ends. In kubeloom the stream is the fake apiserver's watch.",
			SummaryZH: "每个打开的 WATCH 一个。从 HTTP 流中解码每个事件并发送到 ResultChan；流结束时退出。" +
				"在 kubeloom 中这个流来自 fake apiserver 的 watch。",
			Quote:   "ListAndWatch先获取rsv 根据rsv监控",
			QuoteEN: "ListAndWatch first gets the rsv, watches according to the rsv",
			Now:     "Same; the decoder may now be protobuf or CBOR.",
			NowZH:   "相同；只是解码器现在也可以是 protobuf 或 CBOR。",
		},
		Entry{
			Name: "informer/private", Component: "informer", Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in controller.Run",
			Function:   "cache.NewInformer / NewIndexerInformer → go controller.Run(stopCh) → wait.Until(c.processLoop, time.Second, stopCh)",
			File:       "pkg/client/cache/controller.go",
			Article:    articleCM + " §6 Controller.Run (shown for the shared informer)",
			Summary: "A controller's own, non-shared informer. It runs the same process loop as informer/run: pop one key's " +
				"Deltas, update the store, re-entered every 1s if it returns, with its own reflector, resync timer and watch " +
				"goroutines. But there are no listener goroutines: processLoop calls the controller's handlers itself, so a slow " +
				"handler blocks the loop. In 1.5 the endpoint controller's Services, the RC manager's ReplicationControllers, the " +
				"namespace, quota, HPA, disruption, StatefulSet, CSR and PV-binder controllers and every garbage-collector monitor use one.",
			SummaryZH: "控制器自己的、不共享的 informer。它运行与 informer/run 相同的处理循环：弹出一个 key 的 Deltas、更新 store，" +
				"返回后每 1 秒重新进入，也有自己的 reflector、resync 定时器和 watch 协程。但它没有 listener 协程：processLoop 直接调用控制器的 handler，" +
				"所以慢的 handler 会阻塞整个循环。1.5 中 endpoint 控制器的 Services、RC manager 的 ReplicationControllers，" +
				"namespace、quota、HPA、disruption、StatefulSet、CSR、PV binder 控制器，以及垃圾回收器的每个 monitor 都用它。",
			Now: "The same Controller.Run loop lives on in k8s.io/client-go/tools/cache; the garbage collector and the quota " +
				"controller now watch through metadata informers.",
			NowZH: "同样的 Controller.Run 循环仍保留在 k8s.io/client-go/tools/cache 中；" +
				"垃圾回收器和 quota 控制器现在通过元数据 informer 来 watch。",
		},
		Entry{
			Name: "informer/dummy-controller-run", Component: "informer", Kind: KindGo,
			Function: "go x.podController.Run(stopCh), podController = sharedIndexInformer.GetController() (a dummyController whose Run returns at once)",
			File:     "pkg/client/cache/shared_informer.go",
			Summary: "Lives for an instant. Controller code written for private informers still does go podController.Run(stopCh), " +
				"but for a shared informer GetController returns a dummyController whose Run is empty: the factory runs the real " +
				"informer (informer/run, from sharedInformers.Start). The lane shows that the call is there and does nothing; it " +
				"appears in the endpoint, replication, StatefulSet and disruption controllers and in quota replenishment for pods and PVCs.",
			SummaryZH: "一闪而过。为私有 informer 写的控制器代码仍然执行 go podController.Run(stopCh)，但对共享 informer 来说，" +
				"GetController 返回的是 dummyController，它的 Run 是空的：真正的 informer 由工厂运行（sharedInformers.Start 启动的 informer/run）。" +
				"这条泳道说明调用确实存在但什么也不做；endpoint、replication、StatefulSet、disruption 控制器以及 pod 和 PVC 的配额补充都会出现它。",
			Now: "client-go's sharedIndexInformer still returns a do-nothing dummyController from GetController; controllers " +
				"written against the factory (already ReplicaSet, Deployment and DaemonSet in 1.5) never call its Run.",
			NowZH: "client-go 的 sharedIndexInformer 的 GetController 仍返回一个什么也不做的 dummyController；" +
				"基于工厂编写的控制器（1.5 中已有 ReplicaSet、Deployment 和 DaemonSet）从不调用它的 Run。",
		},
		Entry{
			Name: "informer/cache-sync-poller", Component: "informer", Kind: KindUntil, Period: 100 * time.Millisecond,
			PeriodFrom: "syncedPollPeriod, a constant in pkg/client/cache/shared_informer.go",
			Function:   "cache.WaitForCacheSync → wait.PollUntil(syncedPollPeriod=100ms, …) poller",
			File:       "pkg/client/cache/shared_informer.go",
			Summary: "Controllers call cache.WaitForCacheSync before starting their workers, so they never act on a half-filled " +
				"cache. In Kubernetes a wait.PollUntil helper goroutine ticks every 100ms (syncedPollPeriod) and WaitForCacheSync " +
				"checks every HasSynced on the caller's goroutine; kubeloom records one lane per wait with an iteration per check. " +
				"The lane ends when every cache has synced, and the caller goes on to start its workers.",
			SummaryZH: "控制器在启动 worker 之前调用 cache.WaitForCacheSync，以免基于半满的缓存做决定。在 Kubernetes 中，" +
				"wait.PollUntil 的辅助协程每 100 毫秒（syncedPollPeriod）发一次 tick，WaitForCacheSync 在调用者的协程上检查每个 HasSynced；" +
				"kubeloom 为每次等待记录一条泳道，每次检查一次迭代。所有缓存都同步后泳道结束，调用者接着启动 worker。",
			Now: "Still in client-go with the same 100ms syncedPollPeriod; almost every controller now waits this way " +
				"(WaitForNamedCacheSync) before starting its workers.",
			NowZH: "仍在 client-go 中，syncedPollPeriod 同样是 100 毫秒；" +
				"如今几乎每个控制器在启动 worker 之前都这样等待（WaitForNamedCacheSync）。",
		},
	)
}

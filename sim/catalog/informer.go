package catalog

import "time"

// The shared-informer and reflector machinery, catalog §2.
const articleCM = "kube-controller-manager-startup.zh.txt"

func init() {
	register(
		Entry{
			Name: "informer/run", Component: "informer", Kind: KindUntil, Period: time.Second,
			Function: "sharedIndexInformer.Run → controller.Run → wait.Until(c.processLoop, time.Second, stopCh)",
			File:     "pkg/client/cache/shared_informer.go",
			Article:  articleCM + " §3 factory.go Start, §6 controller.Run",
			Summary: "The informer's process loop: pops one key's Deltas from the DeltaFIFO (RealFIFO today), " +
				"updates the indexer and distributes add/update/delete notifications to every listener. " +
				"processLoop is re-entered every 1s if it returns; normally it blocks in Pop.",
			SummaryZH: "informer 的处理循环：从 DeltaFIFO（如今是 RealFIFO）弹出一个 key 的 Deltas，更新 indexer，" +
				"并把 add/update/delete 通知分发给每个 listener。processLoop 返回后每 1 秒重新进入；通常阻塞在 Pop 上。",
			Quote: "go informer.Run(stopCh)；wait.Until(c.processLoop, time.Second, stopCh)",
			Now:   "Same shape in client-go today; the queue is a RealFIFO (InOrderInformers) and the FIFO is closed when the context ends.",
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
			Quote: "//当pendingNotifications为0时判断是否stop，是则推出，不是则返回pendingNotifications加入nextCh交给run处理go listener.pop(stopCh)",
			Now:   "Still a pop goroutine per listener; pendingNotifications is a growing ring buffer. Handlers added after start use the same two goroutines and first get the cached objects.",
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
			Quote: "//开启goroutine 获取notification 做出OnUpdate  OnAdd  OnDelete操作go listener.run(stopCh)",
			Now:   "Unchanged in spirit; handlers can now be removed (RemoveEventHandler) and have their own resync period.",
		},
		Entry{
			Name: "reflector/list-watch", Component: "informer", Kind: KindUntil, Period: time.Second,
			Function: "Reflector.RunUntil → go wait.Until(func(){ r.ListAndWatch(stopCh) }, r.period, stopCh)",
			File:     "pkg/client/cache/reflector.go",
			Article:  articleCM + " §6 Reflector.RunUntil",
			Summary: "LISTs the resource, replaces the FIFO's contents, then WATCHes from the list's resourceVersion " +
				"and queues every event. A watch that closes is re-opened; a 410 Gone (too old resource version) " +
				"ends ListAndWatch and the reflector re-lists after its period (1s in v1.5).",
			SummaryZH: "先 LIST 资源并替换 FIFO 的内容，再从 list 的 resourceVersion 开始 WATCH，把每个事件放进队列。" +
				"正常关闭的 watch 会被重新打开；410 Gone（resource version 太旧）会结束 ListAndWatch，" +
				"reflector 在周期（v1.5 为 1 秒）后重新 list。",
			Quote: "go wait.Until(func() {if err := r.ListAndWatch(stopCh)…}, r.period, stopCh)；ListAndWatch先获取rsv 根据rsv监控；watchHandler保证rsv更新",
			Now:   "The fixed 1s period became an exponential backoff (800ms doubling to 30s, jittered); lists are paginated and may be replaced by a streaming WatchList.",
		},
		Entry{
			Name: "reflector/resync-timer", Component: "informer", Kind: KindGo,
			Function: "Reflector.ListAndWatch → go func(){ … resyncChan … store.Resync() }()",
			File:     "pkg/client/cache/reflector.go",
			Summary: "One per ListAndWatch call, only when the resync period is > 0. Every period it asks the FIFO to " +
				"queue a Sync delta for every cached object; handlers due for resync get OnUpdate(old == new).",
			SummaryZH: "每次 ListAndWatch 调用一个，仅当 resync 周期 > 0。每个周期让 FIFO 为每个缓存对象加入 Sync delta；" +
				"到期的 handler 收到 OnUpdate(old == new)。",
			Now: "startResync goroutine per watch, ShouldResync asks the processor which listeners are due.",
		},
		Entry{
			Name: "watch/stream-receive", Component: "informer", Kind: KindGo,
			Function: "NewStreamWatcher → go sw.receive()",
			File:     "pkg/watch/streamwatcher.go",
			Summary: "One per open WATCH. Decodes each event from the HTTP stream and sends it on ResultChan; " +
				"exits when the stream ends. In kubeloom the stream is the fake apiserver's watch.",
			SummaryZH: "每个打开的 WATCH 一个。从 HTTP 流中解码每个事件并发送到 ResultChan；流结束时退出。" +
				"在 kubeloom 中这个流来自 fake apiserver 的 watch。",
			Quote: "ListAndWatch先获取rsv 根据rsv监控",
			Now:   "Same; the decoder may now be protobuf or CBOR.",
		},
	)
}

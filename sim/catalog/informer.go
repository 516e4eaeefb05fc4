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
		},
		Entry{
			Name: "informer/listener-pop", Component: "informer", Kind: KindGo,
			Function: "sharedProcessor.run → go listener.pop(stopCh)",
			File:     "pkg/client/cache/shared_informer.go",
			Article:  articleCM + " §6 sharedProcessor.run",
		},
		Entry{
			Name: "informer/listener-run", Component: "informer", Kind: KindGo,
			Function: "sharedProcessor.run → go listener.run(stopCh)",
			File:     "pkg/client/cache/shared_informer.go",
			Article:  articleCM + " §6 sharedProcessor.run",
		},
		Entry{
			Name: "reflector/list-watch", Component: "informer", Kind: KindUntil, Period: time.Second,
			PeriodFrom: "r.period = time.Second, set by NewNamedReflector",
			Function:   "Reflector.RunUntil → go wait.Until(func(){ r.ListAndWatch(stopCh) }, r.period, stopCh)",
			File:       "pkg/client/cache/reflector.go",
			Article:    articleCM + " §6 Reflector.RunUntil",
		},
		Entry{
			Name: "reflector/resync-timer", Component: "informer", Kind: KindGo,
			Function: "Reflector.ListAndWatch → go func(){ … resyncChan … store.Resync() }()",
			File:     "pkg/client/cache/reflector.go",
		},
		Entry{
			Name: "watch/stream-receive", Component: "informer", Kind: KindGo,
			Function: "NewStreamWatcher → go sw.receive()",
			File:     "pkg/watch/streamwatcher.go",
		},
		Entry{
			Name: "informer/private", Component: "informer", Kind: KindUntil, Period: time.Second,
			PeriodFrom: "time.Second, a literal in controller.Run",
			Function:   "cache.NewInformer / NewIndexerInformer → go controller.Run(stopCh) → wait.Until(c.processLoop, time.Second, stopCh)",
			File:       "pkg/client/cache/controller.go",
			Article:    articleCM + " §6 Controller.Run",
		},
		Entry{
			Name: "informer/dummy-controller-run", Component: "informer", Kind: KindGo,
			Function: "go x.podController.Run(stopCh), podController = sharedIndexInformer.GetController() (a dummyController whose Run returns at once)",
			File:     "pkg/client/cache/shared_informer.go",
		},
		Entry{
			Name: "informer/cache-sync-poller", Component: "informer", Kind: KindGo, Period: 100 * time.Millisecond,
			PeriodFrom: "syncedPollPeriod, a constant in pkg/client/cache/shared_informer.go",
			Function:   "cache.WaitForCacheSync → wait.PollUntil(syncedPollPeriod, …, stopCh) → WaitFor(poller(interval, 0), …, stopCh) → go func(){ tick := time.NewTicker(interval); … }()",
			File:       "pkg/util/wait/wait.go",
		},
	)
}

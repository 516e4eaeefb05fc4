package catalog

// kubeloom's stand-in for the scheduler, which neither article covers.
func init() {
	register(Entry{
		Name: "scheduler/bind", Component: "kube-scheduler", Kind: KindGo,
		Function: "kubeloom's stand-in for scheduler.scheduleOne → Binder.Bind (go wait.Until(sched.scheduleOne, 0, stop) in v1.5)",
		File:     "plugin/pkg/scheduler/scheduler.go",
	})
}

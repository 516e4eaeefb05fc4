package catalog

// kubeloom's stand-in for the scheduler, which neither article covers.
func init() {
	register(Entry{
		Name: "scheduler/bind", Component: "kube-scheduler", Kind: KindGo,
		Function: "kubeloom's stand-in for scheduler.scheduleOne → Binder.Bind (go wait.Until(sched.scheduleOne, 0, stop) in v1.5)",
		File:     "plugin/pkg/scheduler/scheduler.go",
		Summary: "Neither article covers kube-scheduler, but pods only reach a kubelet once they are bound to its node. " +
			"When a scenario runs kubelets, kubeloom runs this stand-in on the scenario's own instance: it watches pods and " +
			"binds each new unbound pod to the next node, round-robin, with a POST to pods/<name>/binding, as the " +
			"scheduler's Bind does. It has no predicates or priorities; real scheduling is out of kubeloom's scope.",
		SummaryZH: "两篇文章都没有讲 kube-scheduler，但 pod 只有绑定到某个节点后，那个节点的 kubelet 才会运行它。" +
			"场景中有 kubelet 时，kubeloom 在场景自己的实例上运行这个替身：它 watch pod，把每个新的未绑定 pod 按轮询方式绑定到下一个节点，" +
			"像调度器的 Bind 一样 POST pods/<name>/binding。它没有预选和优选，真正的调度不在 kubeloom 的范围之内。",
		Now: "Today's scheduler runs a scheduling framework (queue, filter and score plugins, a binding cycle per pod on its own goroutine).",
		NowZH: "如今的调度器运行的是调度框架（scheduling framework）：调度队列、filter 和 score 插件，" +
			"每个 pod 在自己的协程上执行一次绑定周期（binding cycle）。",
	})
}

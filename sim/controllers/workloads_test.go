package controllers

import (
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/kubeloom/kubeloom/sim/informer"
)

func template(app string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": app}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: app, Image: app + ":1"}}},
	}
}

func selector(app string) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: map[string]string{"app": app}}
}

// activePods lists the pods of a namespace not being deleted.
func activePods(t *testing.T, h *harness, ns, sel string) []corev1.Pod {
	t.Helper()
	list, err := h.c.Client.CoreV1().Pods(ns).List(t.Context(), metav1.ListOptions{LabelSelector: sel})
	if err != nil {
		t.Fatal(err)
	}
	var out []corev1.Pod
	for _, p := range list.Items {
		if p.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	return out
}

func eventReasons(t *testing.T, h *harness, ns string) map[string]int {
	t.Helper()
	list, err := h.c.Client.CoreV1().Events(ns).List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, e := range list.Items {
		out[e.Reason] += int(max(e.Count, 1))
	}
	return out
}

func TestReplicaSetKeepsItsPodCount(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		rs, _ := h.c.Client.AppsV1().ReplicaSets("default").Create(t.Context(), &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
			Spec: appsv1.ReplicaSetSpec{Replicas: ptr.To[int32](3), Selector: selector("web"), Template: template("web")}}, metav1.CreateOptions{})
		h.start("replicaset")
		h.after(10 * time.Second)
		pods := activePods(t, h, "default", "app=web")
		if len(pods) != 3 {
			t.Fatalf("pods = %d, want 3", len(pods))
		}
		for _, p := range pods {
			if !strings.HasPrefix(p.Name, "web-") || ownerOf(&p) == nil || ownerOf(&p).UID != rs.UID {
				t.Errorf("pod %s: want a name web-… and the replica set as its controller, got %+v", p.Name, p.OwnerReferences)
			}
		}
		rs, _ = h.c.Client.AppsV1().ReplicaSets("default").Get(t.Context(), "web", metav1.GetOptions{})
		if rs.Status.Replicas != 3 || rs.Status.ObservedGeneration != 1 {
			t.Errorf("status = %+v", rs.Status)
		}
		rs.Spec.Replicas = ptr.To[int32](1)
		h.c.Client.AppsV1().ReplicaSets("default").Update(t.Context(), rs, metav1.UpdateOptions{})
		h.after(10 * time.Second)
		if n := len(activePods(t, h, "default", "app=web")); n != 1 {
			t.Errorf("pods after scaling to 1 = %d", n)
		}
		if r := eventReasons(t, h, "default"); r["SuccessfulCreate"] != 3 || r["SuccessfulDelete"] != 2 {
			t.Errorf("events = %v, want 3 SuccessfulCreate and 2 SuccessfulDelete", r)
		}
		spans := h.stop()
		if len(named(spans, "syncReplicaSet")) == 0 || len(named(spans, "pods.Create")) != 3 {
			t.Errorf("want syncReplicaSet spans and 3 pods.Create spans")
		}
	})
}

func TestReplicationManagerKeepsItsPodCount(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		h.c.Client.CoreV1().ReplicationControllers("default").Create(t.Context(), &corev1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "legacy", Namespace: "default"},
			Spec: corev1.ReplicationControllerSpec{Replicas: ptr.To[int32](2), Selector: map[string]string{"app": "legacy"}, Template: ptr.To(template("legacy"))}}, metav1.CreateOptions{})
		h.start("replicationcontroller")
		h.after(10 * time.Second)
		if n := len(activePods(t, h, "default", "app=legacy")); n != 2 {
			t.Errorf("pods = %d, want 2", n)
		}
		rc, _ := h.c.Client.CoreV1().ReplicationControllers("default").Get(t.Context(), "legacy", metav1.GetOptions{})
		if rc.Status.Replicas != 2 {
			t.Errorf("status.replicas = %d", rc.Status.Replicas)
		}
		h.stop()
	})
}

func TestDeploymentCreatesItsReplicaSet(t *testing.T) {
	for _, era := range []informer.Era{informer.Classic, informer.Modern} {
		t.Run(string(era), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				h := newHarness(t, era)
				d, _ := h.c.Client.AppsV1().Deployments("default").Create(t.Context(), &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
					Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](3), Selector: selector("web"), Template: template("web")}}, metav1.CreateOptions{})
				h.start("deployment", "replicaset")
				h.after(10 * time.Second)
				list, _ := h.c.Client.AppsV1().ReplicaSets("default").List(t.Context(), metav1.ListOptions{})
				if len(list.Items) != 1 {
					t.Fatalf("replica sets = %d, want 1", len(list.Items))
				}
				rs := list.Items[0]
				hash := rs.Labels[podTemplateHashLabel]
				if rs.Name != "web-"+hash || *rs.Spec.Replicas != 3 || ownerOf(&rs).UID != d.UID {
					t.Errorf("replica set %s (hash %s) replicas %d", rs.Name, hash, *rs.Spec.Replicas)
				}
				if era == informer.Classic && strings.Trim(hash, "0123456789") != "" {
					t.Errorf("v1.5 names the replica set with a decimal hash, got %q", hash)
				}
				if n := len(activePods(t, h, "default", "app=web")); n != 3 {
					t.Errorf("pods = %d, want 3", n)
				}
				d, _ = h.c.Client.AppsV1().Deployments("default").Get(t.Context(), "web", metav1.GetOptions{})
				if d.Status.Replicas != 3 || d.Status.UpdatedReplicas != 3 {
					t.Errorf("deployment status = %+v", d.Status)
				}
				// A new template starts a rollout: a new replica set within maxSurge;
				// with no pod available (nothing runs them) the old one stays.
				d.Spec.Template.Spec.Containers[0].Image = "web:2"
				h.c.Client.AppsV1().Deployments("default").Update(t.Context(), d, metav1.UpdateOptions{})
				h.after(10 * time.Second)
				list, _ = h.c.Client.AppsV1().ReplicaSets("default").List(t.Context(), metav1.ListOptions{})
				total := int32(0)
				for _, rs := range list.Items {
					total += *rs.Spec.Replicas
				}
				surge := int32(1) // v1.5: maxSurge 1; today 25% of 3, rounded up
				if len(list.Items) != 2 || total != 3+surge {
					t.Errorf("after the template change: %d replica sets, %d replicas in all, want 2 and %d", len(list.Items), total, 3+surge)
				}
				if r := eventReasons(t, h, "default"); r["ScalingReplicaSet"] < 2 {
					t.Errorf("events = %v, want ScalingReplicaSet", r)
				}
				h.stop()
			})
		})
	}
}

func TestDaemonSetPutsAPodOnEachNode(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		for i, zone := range []string{"a", "b", "b"} {
			h.c.Client.CoreV1().Nodes().Create(t.Context(), &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprint("node-", i+1), Labels: map[string]string{"disk": zone}}}, metav1.CreateOptions{})
		}
		tmpl := template("agent")
		tmpl.Spec.NodeSelector = map[string]string{"disk": "b"}
		h.c.Client.AppsV1().DaemonSets("kube-system").Create(t.Context(), &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: "kube-system"},
			Spec: appsv1.DaemonSetSpec{Selector: selector("agent"), Template: tmpl}}, metav1.CreateOptions{})
		h.start("daemonset")
		h.after(10 * time.Second)
		pods := activePods(t, h, "kube-system", "app=agent")
		nodes := map[string]bool{}
		for _, p := range pods {
			nodes[p.Spec.NodeName] = true
		}
		if len(pods) != 2 || !nodes["node-2"] || !nodes["node-3"] {
			t.Errorf("daemon pods on %v, want one on node-2 and one on node-3", nodes)
		}
		ds, _ := h.c.Client.AppsV1().DaemonSets("kube-system").Get(t.Context(), "agent", metav1.GetOptions{})
		if ds.Status.DesiredNumberScheduled != 2 || ds.Status.CurrentNumberScheduled != 2 {
			t.Errorf("status = %+v", ds.Status)
		}
		h.stop()
	})
}

func TestJobRunsToItsCompletions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		h.c.Client.BatchV1().Jobs("default").Create(t.Context(), &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "pi", Namespace: "default"},
			Spec: batchv1.JobSpec{Completions: ptr.To[int32](2), Parallelism: ptr.To[int32](1), Template: template("pi")}}, metav1.CreateOptions{})
		h.start("job")
		for round := range 2 {
			h.after(5 * time.Second)
			pods := activePods(t, h, "default", "job-name=pi")
			var running []corev1.Pod
			for _, p := range pods {
				if p.Status.Phase == corev1.PodPending {
					running = append(running, p)
				}
			}
			if len(running) != 1 {
				t.Fatalf("round %d: running pods = %d, want 1 (parallelism)", round, len(running))
			}
			p := running[0] // the pod finishes, as a kubelet would report
			p.Status.Phase = corev1.PodSucceeded
			h.c.Client.CoreV1().Pods("default").UpdateStatus(t.Context(), &p, metav1.UpdateOptions{})
		}
		h.after(5 * time.Second)
		job, _ := h.c.Client.BatchV1().Jobs("default").Get(t.Context(), "pi", metav1.GetOptions{})
		if job.Status.Succeeded != 2 || !finished(job) || job.Status.CompletionTime == nil {
			t.Errorf("job status = %+v, want 2 succeeded and Complete", job.Status)
		}
		h.stop()
	})
}

func TestStatefulSetCreatesOrdinalPodsOneAtATime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		h.c.Client.AppsV1().StatefulSets("default").Create(t.Context(), &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: "default"},
			Spec: appsv1.StatefulSetSpec{Replicas: ptr.To[int32](2), ServiceName: "db", Selector: selector("db"), Template: template("db")}}, metav1.CreateOptions{})
		h.start("statefulset")
		h.after(10 * time.Second)
		pods := activePods(t, h, "default", "app=db")
		if len(pods) != 1 || pods[0].Name != "db-0" || pods[0].Spec.Hostname != "db-0" || pods[0].Spec.Subdomain != "db" {
			t.Fatalf("pods = %v, want only db-0 until it is ready", pods)
		}
		p := pods[0]
		p.Status.Phase = corev1.PodRunning
		p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
		h.c.Client.CoreV1().Pods("default").UpdateStatus(t.Context(), &p, metav1.UpdateOptions{})
		h.after(10 * time.Second)
		if pods := activePods(t, h, "default", "app=db"); len(pods) != 2 || pods[1].Name != "db-1" {
			t.Errorf("pods after db-0 is ready = %d, want db-0 and db-1", len(pods))
		}
		h.stop()
	})
}

func TestCronJobStartsAJobOnSchedule(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		h.c.Client.BatchV1().CronJobs("default").Create(t.Context(), &batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Name: "report", Namespace: "default"},
			Spec: batchv1.CronJobSpec{Schedule: "*/1 * * * *", JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: template("report")}}}}, metav1.CreateOptions{})
		h.start("cronjob")
		h.after(2*time.Minute + 10*time.Second)
		jobs, _ := h.c.Client.BatchV1().Jobs("default").List(t.Context(), metav1.ListOptions{})
		if len(jobs.Items) != 2 {
			t.Fatalf("jobs = %d, want 2 after two minutes", len(jobs.Items))
		}
		for _, j := range jobs.Items {
			if !strings.HasPrefix(j.Name, "report-") || j.Spec.Selector == nil {
				t.Errorf("job %s: want report-<unix time> with a selector the apiserver generated", j.Name)
			}
		}
		cj, _ := h.c.Client.BatchV1().CronJobs("default").Get(t.Context(), "report", metav1.GetOptions{})
		if cj.Status.LastScheduleTime == nil || len(cj.Status.Active) != 2 {
			t.Errorf("status = %+v", cj.Status)
		}
		spans := h.stop()
		if n := len(named(spans, "SyncAll")); n < 12 || n > 14 {
			t.Errorf("SyncAll iterations = %d, want one every 10s", n)
		}
	})
}

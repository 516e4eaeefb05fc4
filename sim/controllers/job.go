package controllers

import (
	"context"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/sim/events"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
	"github.com/kubeloom/kubeloom/sim/workqueue"
)

// JobController (pkg/controller/job/jobcontroller.go, v1.5): shared Jobs
// and Pods informers, workers syncJob that keep min(parallelism,
// completions - succeeded) pods running until the job has its completions.
func startJob(ctx context.Context, c *Context) string {
	if !c.APIEnabled(c.groupVersion("extensions/v1beta1", "batch/v1")) {
		return "jobs are not served"
	}
	jm := newJobController(ctx, c)
	goroutine.RuntimeFrom(ctx).Go(ctx, "controller/job/run", func(ctx context.Context) {
		if !informer.WaitForCacheSync(ctx, c.Era, "pods, jobs", jm.pods.HasSynced, jm.jobs.HasSynced) {
			return
		}
		jm.queue.Workers(ctx, "controller/job/worker", int(c.Config.ConcurrentJobSyncs), "syncJob", jm.sync)
		<-ctx.Done()
	})
	return ""
}

// newJobController is NewJobController: its event pipeline, queue and
// handlers on the shared informers.
func newJobController(ctx context.Context, c *Context) *jobController {
	jm := &jobController{c: c, jobs: c.Informers.Informer("jobs"), pods: c.Informers.Informer("pods")}
	jm.recorder = c.NewEvents(ctx, "job-controller", true, true).Recorder(ctx)
	jm.pc = podControl{client: c.Client, recorder: jm.recorder}
	jm.exp = newExpectations(goroutine.RuntimeFrom(ctx).Clock().Now)
	jm.queue = workqueue.New(ctx, "job")
	enqueue := func(ctx context.Context, obj any) { jm.queue.Add(ctx, keyOf(obj)) }
	jm.jobs.AddHandler(ctx, informer.Funcs{HandlerName: "job-controller", Add: enqueue, Delete: enqueue,
		Update: func(ctx context.Context, _, cur any) {
			if !finished(cur.(*batchv1.Job)) { // a finished job needs nothing more
				enqueue(ctx, cur)
			}
		}})
	jm.pods.AddHandler(ctx, podOwnerHandlers("job-controller", "Job", jm.queue, jm.exp))
	return jm
}

type jobController struct {
	c          *Context
	jobs, pods *informer.Informer
	queue      *workqueue.Queue
	exp        *expectations
	pc         podControl
	recorder   events.Recorder
}

func finished(j *batchv1.Job) bool {
	for _, c := range j.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

func (jm *jobController) sync(ctx context.Context, key string) error {
	job, ok := get[*batchv1.Job](jm.jobs, key)
	if !ok {
		jm.exp.forget(key) // "Job has been deleted"
		return nil
	}
	if finished(job) {
		return nil
	}
	if job.Spec.Selector == nil {
		return nil // the apiserver generates one; a job without is not valid
	}
	sel, err := selectorOf(job.Spec.Selector)
	if err != nil {
		return err
	}
	var active []*corev1.Pod
	succeeded, failed := int32(0), int32(0)
	for _, p := range podsIn(jm.pods, job.Namespace, sel) {
		if ref := ownerOf(p); ref == nil || ref.UID != job.UID {
			continue
		}
		switch {
		case p.Status.Phase == corev1.PodSucceeded:
			succeeded++
		case p.Status.Phase == corev1.PodFailed:
			failed++
		case p.DeletionTimestamp == nil:
			active = append(active, p)
		}
	}
	parallelism := replicasOr1(job.Spec.Parallelism)
	now := metav1.NewTime(goroutine.RuntimeFrom(ctx).Clock().Now())
	upd := job.DeepCopy()
	if upd.Status.StartTime == nil {
		upd.Status.StartTime = &now
	}
	complete := false
	activeCount := int32(len(active))
	if jm.exp.satisfied(key) && job.DeletionTimestamp == nil {
		want := parallelism
		if c := job.Spec.Completions; c != nil {
			want = min(parallelism, *c-succeeded)
		} else if succeeded > 0 {
			want = 0 // a work queue: once one pod succeeded, no new ones
		}
		want = max(0, want)
		diff := int(want) - len(active)
		gvk := batchv1.SchemeGroupVersion.WithKind("Job")
		switch {
		case diff > 0:
			jm.exp.expect(key, diff, 0)
			for range diff {
				if _, err := jm.pc.create(ctx, &job.Spec.Template, job, gvk, ""); err != nil {
					jm.exp.observed(key, 1, 0)
				} else {
					activeCount++
				}
			}
		case diff < 0:
			activePodsByDeletionPreference(active)
			jm.exp.expect(key, 0, -diff)
			for _, p := range active[:-diff] {
				if err := jm.pc.delete(ctx, p, job); err != nil {
					jm.exp.observed(key, 0, 1)
				} else {
					activeCount--
				}
			}
		}
		if c := job.Spec.Completions; c != nil && succeeded >= *c || c == nil && succeeded > 0 && len(active) == 0 {
			complete = true
		}
	}
	upd.Status.Active, upd.Status.Succeeded, upd.Status.Failed = activeCount, succeeded, failed
	if complete {
		upd.Status.CompletionTime = &now
		upd.Status.Conditions = append(upd.Status.Conditions, batchv1.JobCondition{Type: batchv1.JobComplete, Status: corev1.ConditionTrue,
			LastProbeTime: now, LastTransitionTime: now})
	}
	if job.Status.StartTime != nil && upd.Status.Active == job.Status.Active && succeeded == job.Status.Succeeded && failed == job.Status.Failed && !complete {
		return nil
	}
	_, err = call(ctx, "jobs.UpdateStatus", key, func(ctx context.Context) (*batchv1.Job, error) {
		return jm.c.Client.BatchV1().Jobs(job.Namespace).UpdateStatus(ctx, upd, metav1.UpdateOptions{})
	})
	return err
}

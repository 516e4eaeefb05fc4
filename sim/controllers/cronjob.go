package controllers

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/robfig/cron/v3"
	"go.opentelemetry.io/otel/attribute"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/events"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// CronJobController — ScheduledJobController in the article
// (pkg/controller/cronjob, v1.5): no informers and no queue; every 10s
// SyncAll LISTs every cron job and job and, for each cron job whose
// schedule has come, creates a job "<cronjob>-<scheduled time, unix>".
// In v1.5 it starts only when the apiserver serves the alpha
// batch/v2alpha1 API (off by default).
func startCronJob(ctx context.Context, c *Context) string {
	if !c.APIEnabled(c.groupVersion("batch/v2alpha1", "batch/v1")) {
		return fmt.Sprintf("Not starting %s apis", c.groupVersion("batch/v2alpha1", "batch/v1"))
	}
	jm := newCronJobController(ctx, c)
	rt := goroutine.RuntimeFrom(ctx)
	rt.Go(ctx, "controller/cronjob/run", func(ctx context.Context) {
		rt.Until(ctx, "controller/cronjob/sync-all", 10*time.Second, jm.syncAll, goroutine.WithIterationName("SyncAll"))
		<-ctx.Done()
	})
	return ""
}

// newCronJobController is NewCronJobController: an event pipeline, no
// informers.
func newCronJobController(ctx context.Context, c *Context) *cronJobController {
	jm := &cronJobController{c: c}
	jm.recorder = c.NewEvents(ctx, "cronjob-controller", true, true).Recorder(ctx)
	return jm
}

type cronJobController struct {
	c        *Context
	recorder events.Recorder
}

func (jm *cronJobController) syncAll(ctx context.Context) {
	cjs, err := call(ctx, "cronjobs.List", "", func(ctx context.Context) (*batchv1.CronJobList, error) {
		return jm.c.Client.BatchV1().CronJobs("").List(ctx, metav1.ListOptions{})
	})
	if err != nil {
		return
	}
	jobs, err := call(ctx, "jobs.List", "", func(ctx context.Context) (*batchv1.JobList, error) {
		return jm.c.Client.BatchV1().Jobs("").List(ctx, metav1.ListOptions{})
	})
	if err != nil {
		return
	}
	byParent := map[string][]batchv1.Job{}
	for _, j := range jobs.Items {
		if ref := ownerOf(&j); ref != nil && ref.Kind == "CronJob" {
			byParent[j.Namespace+"/"+ref.Name] = append(byParent[j.Namespace+"/"+ref.Name], j)
		}
	}
	sort.Slice(cjs.Items, func(i, j int) bool { return keyOf(&cjs.Items[i]) < keyOf(&cjs.Items[j]) })
	now := goroutine.RuntimeFrom(ctx).Clock().Now()
	for i := range cjs.Items {
		cj := &cjs.Items[i]
		jm.syncOne(ctx, cj, byParent[keyOf(cj)], now)
	}
}

// syncOne reconciles a cron job's active list and starts its next job.
func (jm *cronJobController) syncOne(ctx context.Context, cj *batchv1.CronJob, children []batchv1.Job, now time.Time) {
	upd := cj.DeepCopy()
	upd.Status.Active = nil
	for _, j := range children {
		if finished(&j) {
			continue
		}
		upd.Status.Active = append(upd.Status.Active, corev1.ObjectReference{Kind: "Job", Namespace: j.Namespace, Name: j.Name, UID: j.UID})
	}
	if cj.DeletionTimestamp == nil && (cj.Spec.Suspend == nil || !*cj.Spec.Suspend) {
		if scheduled, ok := jm.lastMissed(ctx, cj, now); ok {
			if jm.admit(ctx, cj, upd) {
				if job, err := jm.createJob(ctx, cj, scheduled); err == nil {
					upd.Status.Active = append(upd.Status.Active, corev1.ObjectReference{Kind: "Job", Namespace: job.Namespace, Name: job.Name, UID: job.UID})
					t := metav1.NewTime(scheduled)
					upd.Status.LastScheduleTime = &t
				}
			}
		}
	}
	if apiequality.Semantic.DeepEqual(upd.Status, cj.Status) {
		return
	}
	call(ctx, "cronjobs.UpdateStatus", keyOf(cj), func(ctx context.Context) (*batchv1.CronJob, error) {
		return jm.c.Client.BatchV1().CronJobs(cj.Namespace).UpdateStatus(ctx, upd, metav1.UpdateOptions{})
	})
}

// lastMissed is getRecentUnmetScheduleTimes: the latest schedule time since
// the last one run (or the cron job's creation), up to now.
func (jm *cronJobController) lastMissed(ctx context.Context, cj *batchv1.CronJob, now time.Time) (time.Time, bool) {
	sched, err := cron.ParseStandard(cj.Spec.Schedule)
	if err != nil {
		jm.recorder.Eventf(ctx, cj, corev1.EventTypeWarning, "FailedNeedsStart", "unparseable schedule: %s : %s", cj.Spec.Schedule, err)
		return time.Time{}, false
	}
	since := cj.CreationTimestamp.Time
	if cj.Status.LastScheduleTime != nil {
		since = cj.Status.LastScheduleTime.Time
	}
	var last time.Time
	for t := sched.Next(since); !t.After(now); t = sched.Next(t) {
		last = t
	}
	return last, !last.IsZero()
}

// admit applies the concurrency policy: Forbid skips while a job runs,
// Replace deletes the running ones first.
func (jm *cronJobController) admit(ctx context.Context, cj, upd *batchv1.CronJob) bool {
	if len(upd.Status.Active) == 0 {
		return true
	}
	switch cj.Spec.ConcurrencyPolicy {
	case batchv1.ForbidConcurrent:
		goroutine.SpanFrom(ctx).AddEvent("Not starting job because prior execution is still running and concurrency policy is Forbid",
			attribute.String(catalog.AttrObjectKey, keyOf(cj)))
		return false
	case batchv1.ReplaceConcurrent:
		for _, ref := range upd.Status.Active {
			background := metav1.DeletePropagationBackground
			err := do(ctx, "jobs.Delete", ref.Namespace+"/"+ref.Name, func(ctx context.Context) error {
				return jm.c.Client.BatchV1().Jobs(ref.Namespace).Delete(ctx, ref.Name, metav1.DeleteOptions{PropagationPolicy: &background})
			})
			if err == nil {
				jm.recorder.Eventf(ctx, cj, corev1.EventTypeNormal, "SuccessfulDelete", "Deleted job %v", ref.Name)
			}
		}
		upd.Status.Active = nil
	}
	return true
}

func (jm *cronJobController) createJob(ctx context.Context, cj *batchv1.CronJob, scheduled time.Time) (*batchv1.Job, error) {
	job := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{
			Name: fmt.Sprintf("%s-%d", cj.Name, scheduled.Unix()), Namespace: cj.Namespace,
			Labels: copyMap(cj.Spec.JobTemplate.Labels), Annotations: copyMap(cj.Spec.JobTemplate.Annotations),
			OwnerReferences: []metav1.OwnerReference{controllerRef(cj, batchv1.SchemeGroupVersion.WithKind("CronJob"))},
		},
		Spec: *cj.Spec.JobTemplate.Spec.DeepCopy(),
	}
	created, err := call(ctx, "jobs.Create", cj.Namespace+"/"+job.Name, func(ctx context.Context) (*batchv1.Job, error) {
		return jm.c.Client.BatchV1().Jobs(cj.Namespace).Create(ctx, job, metav1.CreateOptions{})
	})
	if apierrors.IsAlreadyExists(err) {
		return nil, err // already started for this time
	}
	if err != nil {
		jm.recorder.Eventf(ctx, cj, corev1.EventTypeWarning, "FailedCreate", "Error creating job: %v", err)
		return nil, err
	}
	jm.recorder.Eventf(ctx, cj, corev1.EventTypeNormal, "SuccessfulCreate", "Created job %v", created.Name)
	return created, nil
}

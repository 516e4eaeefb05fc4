package controllers

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	"github.com/kubeloom/kubeloom/sim/informer"
)

// TestCronJobSync is one SyncAll of the CronJob controller, which has no
// informers: it LISTs every cron job and job, and starts the job of a
// schedule that has come, unless the cron job is suspended or its
// concurrency policy forbids a second run.
func TestCronJobSync(t *testing.T) {
	newCronJob := func(policy batchv1.ConcurrencyPolicy, suspend bool) *batchv1.CronJob {
		return &batchv1.CronJob{ObjectMeta: metav1.ObjectMeta{Name: "report", Namespace: "default", UID: "uid-report"},
			Spec: batchv1.CronJobSpec{Schedule: "* * * * *", ConcurrencyPolicy: policy, Suspend: ptr.To(suspend),
				JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: template("report")}}}}
	}
	listsAll := []k8stesting.Action{lists("cronjobs", ""), lists("jobs", "")}
	for _, tc := range []struct {
		name    string
		cj      *batchv1.CronJob
		after   time.Duration // from the cron job's creation to the sync
		running bool          // a job of the cron job runs
		// want is given the cron job and, if there is one, its job as the
		// apiserver has them after the sync.
		want func(cj *batchv1.CronJob, job *batchv1.Job) []k8stesting.Action
	}{{
		name: "its minute has come: the job of that minute, and the status",
		cj:   newCronJob(batchv1.AllowConcurrent, false), after: 61 * time.Second,
		want: func(cj *batchv1.CronJob, job *batchv1.Job) []k8stesting.Action {
			scheduled := cj.CreationTimestamp.Add(time.Minute)
			want := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("report-%d", scheduled.Unix()), Namespace: "default",
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "CronJob", Name: "report", UID: "uid-report", Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}}},
				Spec: cj.Spec.JobTemplate.Spec}
			st := cj.DeepCopy()
			st.Status = batchv1.CronJobStatus{Active: []corev1.ObjectReference{{Kind: "Job", Namespace: "default", Name: job.Name, UID: job.UID}},
				LastScheduleTime: ptr.To(metav1.NewTime(scheduled))}
			return append(listsAll, creates("jobs", want), updatesStatus("cronjobs", st))
		},
	}, {
		name: "not yet: only the lists",
		cj:   newCronJob(batchv1.AllowConcurrent, false), after: 59 * time.Second,
		want: func(*batchv1.CronJob, *batchv1.Job) []k8stesting.Action { return listsAll },
	}, {
		name: "suspended: only the lists",
		cj:   newCronJob(batchv1.AllowConcurrent, true), after: 61 * time.Second,
		want: func(*batchv1.CronJob, *batchv1.Job) []k8stesting.Action { return listsAll },
	}, {
		name: "Forbid while a job runs: no second job; the running one is listed as active",
		cj:   newCronJob(batchv1.ForbidConcurrent, false), after: 61 * time.Second, running: true,
		want: func(cj *batchv1.CronJob, job *batchv1.Job) []k8stesting.Action {
			st := cj.DeepCopy()
			st.Status = batchv1.CronJobStatus{Active: []corev1.ObjectReference{{Kind: "Job", Namespace: "default", Name: job.Name, UID: job.UID}}}
			return append(listsAll, updatesStatus("cronjobs", st))
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, informer.Classic)
				jm := newCronJobController(f.ctx, f.cc)
				cj := serve(f, "cronjobs", tc.cj)
				if tc.running {
					serve(f, "jobs", &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "report-earlier", Namespace: "default",
						OwnerReferences: []metav1.OwnerReference{{APIVersion: "batch/v1", Kind: "CronJob", Name: "report", UID: "uid-report", Controller: ptr.To(true)}}},
						Spec: batchv1.JobSpec{Template: template("report")}})
				}
				f.clk.Sleep(tc.after)
				got, err := f.run(func(ctx context.Context) error { jm.syncAll(ctx); return nil })
				if err != nil {
					t.Fatal(err)
				}
				jobs, err := f.c.Client.BatchV1().Jobs("default").List(t.Context(), metav1.ListOptions{})
				if err != nil {
					t.Fatal(err)
				}
				var job *batchv1.Job
				if len(jobs.Items) > 0 {
					job = &jobs.Items[0]
				}
				checkActions(t, tc.want(cj, job), got)
			})
		})
	}
}

package controllers

import (
	"context"
	"testing"
	"testing/synctest"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	"github.com/kubeloom/kubeloom/sim/informer"
)

func newJob(name string, parallelism, completions int32) *batchv1.Job {
	return &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("uid-" + name)},
		Spec: batchv1.JobSpec{Parallelism: ptr.To(parallelism), Completions: ptr.To(completions), Selector: selector(name), ManualSelector: ptr.To(true),
			Template: template(name)}}
}

// TestJobSync is syncJob of one key: keep min(parallelism, completions -
// succeeded) pods active, mark the job Complete once it has its
// completions, and leave a finished job alone.
func TestJobSync(t *testing.T) {
	jobKind := batchv1.SchemeGroupVersion.WithKind("Job")
	report := newJob("report", 2, 3)
	done := newJob("report", 1, 1)
	done.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobComplete, Status: corev1.ConditionTrue}}
	finishedPod := func(name string, phase corev1.PodPhase) *corev1.Pod {
		p := ownedPod(name, "report", report, jobKind, false)
		p.Status.Phase = phase
		return p
	}
	for _, tc := range []struct {
		name string
		job  *batchv1.Job
		pods []*corev1.Pod
		want func(job *batchv1.Job, now metav1.Time) []k8stesting.Action
	}{{
		name: "starts parallelism pods",
		job:  report,
		want: func(job *batchv1.Job, now metav1.Time) []k8stesting.Action {
			pod := podFor(job, jobKind, template("report"))
			st := job.DeepCopy()
			st.Status = batchv1.JobStatus{StartTime: &now, Active: 2}
			return []k8stesting.Action{creates("pods", pod), creates("pods", pod), updatesStatus("jobs", st)}
		},
	}, {
		name: "one completion to go: one pod, whatever the parallelism; failures are counted",
		job:  report,
		pods: []*corev1.Pod{finishedPod("report-a", corev1.PodSucceeded), finishedPod("report-b", corev1.PodSucceeded), finishedPod("report-c", corev1.PodFailed)},
		want: func(job *batchv1.Job, now metav1.Time) []k8stesting.Action {
			st := job.DeepCopy()
			st.Status = batchv1.JobStatus{StartTime: &now, Active: 1, Succeeded: 2, Failed: 1}
			return []k8stesting.Action{creates("pods", podFor(job, jobKind, template("report"))), updatesStatus("jobs", st)}
		},
	}, {
		name: "all completions succeeded: Complete",
		job:  report,
		pods: []*corev1.Pod{finishedPod("report-a", corev1.PodSucceeded), finishedPod("report-b", corev1.PodSucceeded), finishedPod("report-c", corev1.PodSucceeded)},
		want: func(job *batchv1.Job, now metav1.Time) []k8stesting.Action {
			st := job.DeepCopy()
			st.Status = batchv1.JobStatus{StartTime: &now, CompletionTime: &now, Succeeded: 3,
				Conditions: []batchv1.JobCondition{{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, LastProbeTime: now, LastTransitionTime: now}}}
			return []k8stesting.Action{updatesStatus("jobs", st)}
		},
	}, {
		name: "finished: no request",
		job:  done,
		want: func(*batchv1.Job, metav1.Time) []k8stesting.Action { return nil },
	}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, informer.Classic)
				jm := newJobController(f.ctx, f.cc)
				job := add(f, jm.jobs, tc.job)
				for _, p := range tc.pods {
					add(f, jm.pods, p)
				}
				f.check(func(ctx context.Context) error { return jm.sync(ctx, "default/report") }, tc.want(job, metav1.NewTime(f.clk.Now())))
			})
		})
	}
}

package kubelet

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// Container statuses as generateAPIPodStatus writes them.
func csRunning() corev1.ContainerStatus {
	return corev1.ContainerStatus{State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}
}

func csWaiting() corev1.ContainerStatus {
	return corev1.ContainerStatus{State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}}}
}

func csUnknown() corev1.ContainerStatus {
	return corev1.ContainerStatus{}
}

func csExited(code int32) corev1.ContainerStatus {
	return corev1.ContainerStatus{State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: code}}}
}

// csRestarting is a container waiting to be restarted after a run that
// ended with code (CrashLoopBackOff or ContainerCreating).
func csRestarting(code int32) corev1.ContainerStatus {
	return corev1.ContainerStatus{State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}},
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: code}}}
}

// podSpecFor names one spec container per status, as generateAPIPodStatus
// always writes one status per spec container.
func podSpecFor(policy corev1.RestartPolicy, statuses []corev1.ContainerStatus) (*corev1.PodSpec, []corev1.ContainerStatus) {
	spec := &corev1.PodSpec{RestartPolicy: policy}
	out := make([]corev1.ContainerStatus, len(statuses))
	for i, cs := range statuses {
		name := fmt.Sprintf("c%d", i)
		spec.Containers = append(spec.Containers, corev1.Container{Name: name})
		cs.Name = name
		out[i] = cs
	}
	return spec, out
}

// TestGetPhase checks getPhase against the rules of Kubernetes' GetPhase
// (pkg/kubelet/kubelet_pods.go): any waiting container keeps the pod
// Pending; one running and none unknown is Running; all stopped is
// Running under Always, Succeeded if all exited 0, else Failed under
// Never and Running (restarting) under OnFailure. A container waiting
// with a last termination counts as stopped and not succeeded.
func TestGetPhase(t *testing.T) {
	const (
		pending   = corev1.PodPending
		running   = corev1.PodRunning
		succeeded = corev1.PodSucceeded
		failed    = corev1.PodFailed
	)
	for _, tc := range []struct {
		name     string
		statuses []corev1.ContainerStatus
		// The phase under Always, OnFailure and Never.
		always, onFailure, never corev1.PodPhase
	}{
		{"no containers", nil, pending, pending, pending},
		{"waiting", []corev1.ContainerStatus{csWaiting()}, pending, pending, pending},
		{"waiting and running", []corev1.ContainerStatus{csWaiting(), csRunning()}, pending, pending, pending},
		{"waiting and exited 0", []corev1.ContainerStatus{csExited(0), csWaiting()}, pending, pending, pending},
		{"running", []corev1.ContainerStatus{csRunning()}, running, running, running},
		{"running and exited 0", []corev1.ContainerStatus{csRunning(), csExited(0)}, running, running, running},
		{"running and exited 1", []corev1.ContainerStatus{csRunning(), csExited(1)}, running, running, running},
		{"running and restarting", []corev1.ContainerStatus{csRunning(), csRestarting(1)}, running, running, running},
		{"running and unknown", []corev1.ContainerStatus{csRunning(), csUnknown()}, pending, pending, pending},
		{"exited 0", []corev1.ContainerStatus{csExited(0)}, running, succeeded, succeeded},
		{"all exited 0", []corev1.ContainerStatus{csExited(0), csExited(0)}, running, succeeded, succeeded},
		{"exited 1", []corev1.ContainerStatus{csExited(1)}, running, running, failed},
		{"exited 137", []corev1.ContainerStatus{csExited(137)}, running, running, failed},
		{"exited 0 and exited 1", []corev1.ContainerStatus{csExited(0), csExited(1)}, running, running, failed},
		// Waiting after a run: stopped, never succeeded, whatever the code.
		{"restarting after 1", []corev1.ContainerStatus{csRestarting(1)}, running, running, failed},
		{"restarting after 0", []corev1.ContainerStatus{csRestarting(0)}, running, running, failed},
		{"exited 0 and restarting", []corev1.ContainerStatus{csExited(0), csRestarting(1)}, running, running, failed},
		{"unknown", []corev1.ContainerStatus{csUnknown()}, pending, pending, pending},
		{"exited 0 and unknown", []corev1.ContainerStatus{csExited(0), csUnknown()}, pending, pending, pending},
	} {
		for _, p := range []struct {
			policy corev1.RestartPolicy
			want   corev1.PodPhase
		}{{corev1.RestartPolicyAlways, tc.always}, {corev1.RestartPolicyOnFailure, tc.onFailure}, {corev1.RestartPolicyNever, tc.never}} {
			t.Run(tc.name+"/"+string(p.policy), func(t *testing.T) {
				spec, statuses := podSpecFor(p.policy, tc.statuses)
				if got := getPhase(spec, statuses); got != p.want {
					t.Errorf("getPhase(%s, %s) = %s, want %s", p.policy, tc.name, got, p.want)
				}
			})
		}
	}
}

// TestGetPhaseSpecContainerWithoutStatus: Kubernetes' GetPhase walks the
// spec's containers and counts one without a status as unknown, which
// keeps the pod Pending; a status of a container the spec does not have
// is ignored.
func TestGetPhaseSpecContainerWithoutStatus(t *testing.T) {
	spec := &corev1.PodSpec{RestartPolicy: corev1.RestartPolicyAlways, Containers: []corev1.Container{{Name: "a"}, {Name: "b"}}}
	a := csRunning()
	a.Name = "a"
	if got := getPhase(spec, []corev1.ContainerStatus{a}); got != corev1.PodPending {
		t.Errorf("spec [a b], status a running: phase %s, want Pending (b is unknown)", got)
	}
	stray := csWaiting()
	stray.Name = "not-in-spec"
	b := csRunning()
	b.Name = "b"
	if got := getPhase(spec, []corev1.ContainerStatus{a, b, stray}); got != corev1.PodRunning {
		t.Errorf("spec [a b], both running and a stray waiting status: phase %s, want Running (the stray is ignored)", got)
	}
}

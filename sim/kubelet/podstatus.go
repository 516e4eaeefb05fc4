package kubelet

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/sim/containerruntime"
)

// generateAPIPodStatus is Kubelet.generateAPIPodStatus: the pod's status
// from its containers as the last relist saw them, its probe results and
// the phase rules of getPhase.
func (k *Kubelet) generateAPIPodStatus(pod *corev1.Pod, containers []containerruntime.Container) corev1.PodStatus {
	now := k.rt.Clock().Now()
	status := corev1.PodStatus{HostIP: k.nodeIP()}
	if old, ok := k.status.get(pod.UID); ok {
		status.StartTime = old.StartTime
	}
	if status.StartTime == nil {
		// A restarted kubelet keeps the start time the apiserver has (for
		// a static pod, its mirror pod's).
		status.StartTime = pod.Status.StartTime
		if m, ok := k.pods.mirrorOf(pod); ok && isStatic(pod) {
			status.StartTime = m.Status.StartTime
		}
	}
	if status.StartTime == nil {
		t := metav1.NewTime(now.Truncate(time.Second))
		status.StartTime = &t
	}
	for _, c := range containers {
		// The pod's IP is its running sandbox's.
		if c.Name == containerruntime.PodInfraContainerName && c.State == containerruntime.StateRunning {
			status.PodIP = c.IP
		}
	}
	byName := map[string][]containerruntime.Container{}
	for _, c := range containers {
		byName[c.Name] = append(byName[c.Name], c)
	}
	for _, spec := range pod.Spec.Containers {
		cs := corev1.ContainerStatus{Name: spec.Name, Image: spec.Image}
		attempts := byName[spec.Name]
		var latest, previous *containerruntime.Container
		for i := range attempts {
			c := &attempts[i]
			if latest == nil || c.Attempt > latest.Attempt {
				previous, latest = latest, c
			} else if previous == nil || c.Attempt > previous.Attempt {
				previous = c
			}
		}
		switch {
		case latest == nil:
			cs.State.Waiting = &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}
		case latest.State == containerruntime.StateRunning:
			cs.State.Running = &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(latest.Started.Truncate(time.Second))}
			cs.Ready = k.probes.ready(pod, spec)
		default:
			cs.State.Terminated = terminated(latest)
			// A container waiting out its crash-loop back-off is Waiting
			// (convertToAPIContainerStatuses, from the reason cache);
			// otherwise it shows its last run until it is restarted.
			if wait, _ := k.backoff.inBackOff(pod.UID, spec.Name, latest.Finished, now); wait &&
				shouldRestart(pod.Spec.RestartPolicy, *latest) && pod.DeletionTimestamp == nil {
				cs.LastTerminationState.Terminated = cs.State.Terminated
				cs.State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff",
					Message: fmt.Sprintf("Back-off restarting failed container=%s pod=%s", spec.Name, key(pod))}}
			}
		}
		if latest != nil {
			cs.RestartCount = int32(latest.Attempt)
			cs.ContainerID = "docker://" + latest.ID
			cs.ImageID = "docker-pullable://" + latest.ImageID
			if cs.LastTerminationState.Terminated == nil && previous != nil && previous.State == containerruntime.StateExited {
				cs.LastTerminationState.Terminated = terminated(previous)
			}
		}
		status.ContainerStatuses = append(status.ContainerStatuses, cs)
	}
	status.Phase = getPhase(&pod.Spec, status.ContainerStatuses)
	if old, ok := k.status.get(pod.UID); ok && old.Reason == "Evicted" {
		status.Phase, status.Reason, status.Message = old.Phase, old.Reason, old.Message
	}
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodScheduled {
			status.Conditions = append(status.Conditions, c)
		}
	}
	status.Conditions = append(status.Conditions, corev1.PodCondition{Type: corev1.PodInitialized, Status: corev1.ConditionTrue,
		LastTransitionTime: *status.StartTime})
	setReadyCondition(&status, pod, now)
	return status
}

func terminated(c *containerruntime.Container) *corev1.ContainerStateTerminated {
	return &corev1.ContainerStateTerminated{ExitCode: int32(c.ExitCode), Reason: c.Reason,
		StartedAt: metav1.NewTime(c.Started.Truncate(time.Second)), FinishedAt: metav1.NewTime(c.Finished.Truncate(time.Second)),
		ContainerID: "docker://" + c.ID}
}

// getPhase is pkg/kubelet/kubelet_pods.go's GetPhase: it counts the
// spec's containers by their status; one without a status is unknown.
func getPhase(spec *corev1.PodSpec, statuses []corev1.ContainerStatus) corev1.PodPhase {
	byName := make(map[string]corev1.ContainerStatus, len(statuses))
	for _, cs := range statuses {
		byName[cs.Name] = cs
	}
	var pending, running, stopped, succeeded, unknown int
	for _, c := range spec.Containers {
		cs, ok := byName[c.Name]
		switch {
		case !ok:
			unknown++
		case cs.State.Running != nil:
			running++
		case cs.State.Terminated != nil:
			stopped++
			if cs.State.Terminated.ExitCode == 0 {
				succeeded++
			}
		case cs.State.Waiting != nil:
			if cs.LastTerminationState.Terminated != nil {
				stopped++
			} else {
				pending++
			}
		default:
			unknown++
		}
	}
	switch {
	case pending > 0:
		return corev1.PodPending
	case running > 0 && unknown == 0:
		return corev1.PodRunning
	case running == 0 && stopped > 0 && unknown == 0:
		if spec.RestartPolicy == corev1.RestartPolicyAlways {
			return corev1.PodRunning
		}
		if stopped == succeeded {
			return corev1.PodSucceeded
		}
		if spec.RestartPolicy == corev1.RestartPolicyNever {
			return corev1.PodFailed
		}
		return corev1.PodRunning
	}
	return corev1.PodPending
}

// setReadyCondition is GeneratePodReadyCondition: ready when running and
// every container is ready. The transition time moves only on a change.
func setReadyCondition(status *corev1.PodStatus, pod *corev1.Pod, now time.Time) {
	cond := corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionTrue}
	var notReady []string
	for _, cs := range status.ContainerStatuses {
		if !cs.Ready {
			notReady = append(notReady, cs.Name)
		}
	}
	switch {
	case status.Phase == corev1.PodSucceeded || status.Phase == corev1.PodFailed:
		cond.Status, cond.Reason = corev1.ConditionFalse, "PodCompleted"
	case len(notReady) > 0:
		cond.Status, cond.Reason = corev1.ConditionFalse, "ContainersNotReady"
		cond.Message = fmt.Sprintf("containers with unready status: %v", notReady)
	}
	cond.LastTransitionTime = metav1.NewTime(now.Truncate(time.Second))
	for _, c := range append(pod.Status.Conditions, status.Conditions...) {
		if c.Type == corev1.PodReady && c.Status == cond.Status {
			cond.LastTransitionTime = c.LastTransitionTime
		}
	}
	for i, c := range status.Conditions {
		if c.Type == corev1.PodReady {
			status.Conditions[i] = cond
			return
		}
	}
	status.Conditions = append(status.Conditions, cond)
}

package kubelet

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/containerruntime"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// syncPod is Kubelet.syncPod (pkg/kubelet/kubelet.go): write the pod's
// status, kill it if it must not run, else make its mirror pod, data
// directories and volumes ready and have the runtime converge its
// containers on the spec (runtime.SyncPod).
func (k *Kubelet) syncPod(ctx context.Context, u workUpdate) error {
	pod := u.pod
	if u.kill != nil {
		// killPodNow (eviction): kill, then report the status it was given.
		err := k.killPod(ctx, pod, "evicted")
		k.status.setPodStatus(ctx, pod, *u.kill)
		return err
	}
	containers := k.cache.get(pod.UID)
	status := k.generateAPIPodStatus(pod, containers)
	k.status.setPodStatus(ctx, pod, status)
	if pod.DeletionTimestamp != nil || status.Phase == corev1.PodFailed && status.Reason == "Evicted" {
		return k.killPod(ctx, pod, "deleted")
	}
	if k.podIsTerminated(pod) {
		return nil
	}
	if isStatic(pod) {
		k.syncMirrorPod(ctx, pod)
	}
	step(ctx, "makePodDataDirs", attribute.String("path", "/var/lib/kubelet/pods/"+string(pod.UID)))
	if err := k.volumes.waitForAttachAndMount(ctx, pod); err != nil {
		k.recorder.Eventf(ctx, pod, corev1.EventTypeWarning, "FailedMount", "Unable to mount volumes for pod %q: %v", key(pod), err)
		return err
	}
	for _, s := range pod.Spec.ImagePullSecrets {
		// kl.getPullSecretsForPod: GET each secret; a missing one is only logged.
		api(ctx, "secrets.Get", func(ctx context.Context) error {
			_, err := k.o.Cluster.Client.CoreV1().Secrets(pod.Namespace).Get(ctx, s.Name, metav1.GetOptions{})
			return err
		}, attribute.String("k8s.secret.name", s.Name))
	}
	return k.syncContainers(ctx, pod, containers)
}

// syncContainers is the runtime's SyncPod: start the infra container if it
// is not running, then every container that is not running and should be,
// under the restart policy and the crash-loop back-off.
func (k *Kubelet) syncContainers(ctx context.Context, pod *corev1.Pod, containers []containerruntime.Container) error {
	ctx, sp := goroutine.Start(ctx, "SyncPod", trace.WithAttributes(attribute.String("container.runtime", k.o.Runtime.Version())))
	defer sp.End()
	latest := latestByName(containers)
	infra, ok := latest[containerruntime.PodInfraContainerName]
	if !ok || infra.State != containerruntime.StateRunning {
		// The sandbox is gone: every container is killed and, with the new
		// sandbox, started again in this same sync.
		for _, c := range containers {
			if c.State == containerruntime.StateRunning {
				k.o.Runtime.StopContainer(c.ID, "Error", 137)
				delete(latest, c.Name)
			}
		}
		if _, err := k.startContainer(ctx, pod, containerruntime.ContainerSpec{Name: containerruntime.PodInfraContainerName,
			Image: containerruntime.PauseImage}); err != nil {
			return err
		}
	}
	now := k.rt.Clock().Now()
	var errs []error
	for _, c := range pod.Spec.Containers {
		last, started := latest[c.Name]
		if started && last.State == containerruntime.StateRunning {
			continue
		}
		if started && !shouldRestart(pod.Spec.RestartPolicy, last) {
			continue
		}
		if started {
			if wait, until := k.backoff.inBackOff(pod.UID, c.Name, last.Finished, now); wait {
				//lint:ignore ST1005 the kubelet's own message (doBackOff, pkg/kubelet/dockertools/docker_manager.go, v1.5)
				err := fmt.Errorf("Back-off %s restarting failed container=%s pod=%s", until.Sub(last.Finished), c.Name, key(pod))
				sp.AddEvent("CrashLoopBackOff", attribute.String(catalog.AttrContainer, c.Name))
				k.recorder.Eventf(ctx, pod, corev1.EventTypeWarning, "BackOff", "Back-off restarting failed docker container")
				errs = append(errs, err)
				continue
			}
			k.backoff.next(pod.UID, c.Name, last.Finished)
		}
		runFor, code := behaviour(c)
		if _, err := k.startContainer(ctx, pod, containerruntime.ContainerSpec{Name: c.Name, Image: c.Image, RunFor: runFor, ExitCode: code}); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// startContainer pulls the image if needed and starts one container, with
// the events docker's runtime records.
func (k *Kubelet) startContainer(ctx context.Context, pod *corev1.Pod, spec containerruntime.ContainerSpec) (containerruntime.Container, error) {
	if err := ctx.Err(); err != nil {
		return containerruntime.Container{}, err // the kubelet is stopping: it starts nothing more
	}
	ctx, sp := goroutine.Start(ctx, "StartContainer", trace.WithAttributes(
		attribute.String(catalog.AttrContainer, spec.Name), attribute.String("container.image.name", spec.Image)))
	defer sp.End()
	infra := spec.Name == containerruntime.PodInfraContainerName
	img, pulled, err := k.o.Runtime.PullImage(spec.Image)
	if err != nil {
		sp.RecordError(err)
		k.recorder.Eventf(ctx, pod, corev1.EventTypeWarning, "Failed", "Failed to pull image %q: %v", spec.Image, err)
		return containerruntime.Container{}, err
	}
	if pulled && !infra {
		k.recorder.Eventf(ctx, pod, corev1.EventTypeNormal, "Pulling", "pulling image %q", spec.Image)
		k.recorder.Eventf(ctx, pod, corev1.EventTypeNormal, "Pulled", "Successfully pulled image %q", spec.Image)
	}
	sp.SetAttributes(attribute.Bool("container.image.pulled", pulled), attribute.Int64("container.image.size", img.Size))
	c, err := k.o.Runtime.StartContainer(string(pod.UID), pod.Namespace, pod.Name, spec)
	if err != nil {
		sp.RecordError(err)
		k.recorder.Eventf(ctx, pod, corev1.EventTypeWarning, "Failed", "Failed to start container %q: %v", spec.Name, err)
		return c, err
	}
	sp.SetAttributes(attribute.String("container.id", c.ID), attribute.Int("container.attempt", c.Attempt))
	if !infra {
		short := c.ID[:12]
		k.recorder.Eventf(ctx, pod, corev1.EventTypeNormal, "Created", "Created container with docker id %s", short)
		k.recorder.Eventf(ctx, pod, corev1.EventTypeNormal, "Started", "Started container with docker id %s", short)
	}
	return c, nil
}

// killPod is Kubelet.killPod: stop every running container of the pod
// (docker stop: SIGTERM, exit code 143 — kubeloom's containers honour it
// at once instead of using their grace period).
func (k *Kubelet) killPod(ctx context.Context, pod *corev1.Pod, why string) error {
	var running []containerruntime.Container
	for _, c := range k.o.Runtime.ListContainers(false) {
		if c.PodUID == string(pod.UID) {
			running = append(running, c)
		}
	}
	if len(running) == 0 {
		return nil
	}
	ctx, sp := goroutine.Start(ctx, "killPod", trace.WithAttributes(append(podAttrs(pod),
		attribute.String("kubelet.kill_reason", why), attribute.Int("containers", len(running)))...))
	defer sp.End()
	var errs []error
	for _, c := range running {
		if err := k.o.Runtime.StopContainer(c.ID, "Error", 143); err != nil {
			errs = append(errs, err)
			continue
		}
		if c.Name != containerruntime.PodInfraContainerName && pod.Spec.Containers != nil {
			k.recorder.Eventf(ctx, pod, corev1.EventTypeNormal, "Killing", "Killing container with docker id %s", c.ID[:12])
		}
	}
	return errors.Join(errs...)
}

// podIsTerminated: the pod has finished (Succeeded or Failed) and none of
// its containers runs any more.
func (k *Kubelet) podIsTerminated(pod *corev1.Pod) bool {
	phase := pod.Status.Phase
	if p, ok := k.status.phase(pod.UID); ok {
		phase = p
	}
	if phase != corev1.PodSucceeded && phase != corev1.PodFailed {
		return false
	}
	return !anyRunning(k.cache.get(pod.UID))
}

// api records one apiserver call as a span named like the informer's
// ("pods.Create").
func api(ctx context.Context, name string, call func(ctx context.Context) error, kv ...attribute.KeyValue) error {
	ctx, sp := goroutine.Start(ctx, name, trace.WithAttributes(kv...))
	defer sp.End()
	err := call(ctx)
	sp.RecordError(err)
	return err
}

func latestByName(cs []containerruntime.Container) map[string]containerruntime.Container {
	out := map[string]containerruntime.Container{}
	for _, c := range cs {
		if prev, ok := out[c.Name]; !ok || c.Attempt >= prev.Attempt {
			out[c.Name] = c
		}
	}
	return out
}

func anyRunning(cs []containerruntime.Container) bool {
	for _, c := range cs {
		if c.State == containerruntime.StateRunning {
			return true
		}
	}
	return false
}

// podMetaOf names a pod the kubelet only knows from its containers.
func podMetaOf(uid types.UID, cs []containerruntime.Container) metav1.ObjectMeta {
	m := metav1.ObjectMeta{UID: uid}
	if len(cs) > 0 {
		m.Name, m.Namespace = cs[0].PodName, cs[0].PodNamespace
	}
	return m
}

func shouldRestart(policy corev1.RestartPolicy, last containerruntime.Container) bool {
	switch policy {
	case corev1.RestartPolicyNever:
		return false
	case corev1.RestartPolicyOnFailure:
		return last.ExitCode != 0
	}
	return true
}

// behaviour is how long a simulated container runs and how it exits,
// read from its command (docs/kubelet.md): `sleep N` runs N seconds, then
// exits 0; `exit C` (after an optional sleep) exits with C; `true` and
// `false` exit at once with 0 and 1; `while true` loops forever. Anything
// else runs until killed.
func behaviour(c corev1.Container) (time.Duration, int) {
	cmd := strings.TrimSpace(strings.Join(append(append([]string{}, c.Command...), c.Args...), " "))
	switch cmd {
	case "true", "/bin/true":
		return time.Millisecond, 0
	case "false", "/bin/false":
		return time.Millisecond, 1
	}
	if strings.Contains(cmd, "while true") {
		return 0, 0 // a loop that never ends
	}
	var runFor time.Duration
	code := 0
	exits := false
	if digits, ok := numberAfter(cmd, "sleep"); ok {
		n, _ := strconv.Atoi(digits)
		runFor, exits = time.Duration(n)*time.Second, true
	}
	if digits, ok := numberAfter(cmd, "exit"); ok {
		code, _ = strconv.Atoi(digits)
		exits = true
	}
	if !exits {
		return 0, 0
	}
	return max(runFor, time.Millisecond), code
}

// numberAfter finds the first place where word stands in cmd as a word of
// its own, followed by blanks and a whole number, and returns the number's
// digits: what the regular expression `\bword\s+(\d+)\b` finds
// (TestNumberAfterIsTheRegexp), in a scan that compiles nothing and holds
// no package-level pattern.
func numberAfter(cmd, word string) (string, bool) {
	for i := 0; ; {
		j := strings.Index(cmd[i:], word)
		if j < 0 {
			return "", false
		}
		start := i + j
		i = start + 1
		if start > 0 && isWordByte(cmd[start-1]) {
			continue
		}
		k := start + len(word)
		blanks := k
		for k < len(cmd) && strings.IndexByte(" \t\n\f\r", cmd[k]) >= 0 {
			k++
		}
		digits := k
		for k < len(cmd) && '0' <= cmd[k] && cmd[k] <= '9' {
			k++
		}
		if k > digits && digits > blanks && (k == len(cmd) || !isWordByte(cmd[k])) {
			return cmd[digits:k], true
		}
	}
}

// isWordByte is \w: an ASCII letter, digit or underscore.
func isWordByte(b byte) bool {
	return b == '_' || '0' <= b && b <= '9' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
}

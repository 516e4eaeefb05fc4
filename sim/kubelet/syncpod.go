package kubelet

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
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
		if _, ok := k.pods.mirrorOf(pod); !ok {
			k.createMirrorPod(ctx, pod)
		}
	}
	step(ctx, "makePodDataDirs", attribute.String("path", "/var/lib/kubelet/pods/"+string(pod.UID)))
	if err := k.volumes.waitForAttachAndMount(ctx, pod); err != nil {
		k.recorder.Eventf(ctx, pod, corev1.EventTypeWarning, "FailedMount", "Unable to mount volumes for pod %q: %v", key(pod), err)
		return err
	}
	for _, s := range pod.Spec.ImagePullSecrets {
		// kl.getPullSecretsForPod: GET each secret.
		if _, err := k.o.Cluster.Client.CoreV1().Secrets(pod.Namespace).Get(ctx, s.Name, metav1.GetOptions{}); err != nil {
			goroutine.SpanFrom(ctx).AddEvent("pull secret missing", attribute.String("k8s.secret.name", s.Name))
		}
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
		// The infra container is gone: every container is restarted with a new one.
		for _, c := range containers {
			if c.State == containerruntime.StateRunning {
				k.o.Runtime.StopContainer(c.ID, "Error", 137)
			}
		}
		if _, err := k.startContainer(ctx, pod, containerruntime.ContainerSpec{Name: containerruntime.PodInfraContainerName,
			Image: containerruntime.PauseImage}); err != nil {
			return err
		}
		k.ips.assign(pod.UID)
		latest = map[string]containerruntime.Container{}
		for _, c := range containers {
			if c.Name != containerruntime.PodInfraContainerName {
				latest[c.Name] = c
			}
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
				sp.AddEvent("back-off", attribute.String(catalog.AttrContainer, c.Name), attribute.String("kubelet.reason", "CrashLoopBackOff"))
				errs = append(errs, fmt.Errorf("back-off %s restarting failed container=%s pod=%s", until.Sub(now), c.Name, key(pod)))
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
	if s, ok := k.status.get(pod.UID); ok {
		phase = s.Phase
	}
	if phase != corev1.PodSucceeded && phase != corev1.PodFailed {
		return false
	}
	return !anyRunning(k.cache.get(pod.UID))
}

// createMirrorPod posts the mirror pod of a static pod, so that the
// apiserver shows it (pkg/kubelet/pod/mirror_client.go).
func (k *Kubelet) createMirrorPod(ctx context.Context, pod *corev1.Pod) {
	mirror := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: pod.Name, Namespace: pod.Namespace,
		Labels: pod.Labels, Annotations: map[string]string{}}, Spec: *pod.Spec.DeepCopy()}
	for k, v := range pod.Annotations {
		mirror.Annotations[k] = v
	}
	mirror.Annotations[annotationMirror] = pod.Annotations[annotationHash]
	err := api(ctx, "pods.Create", func(ctx context.Context) error {
		_, err := k.o.Cluster.Client.CoreV1().Pods(pod.Namespace).Create(ctx, mirror, metav1.CreateOptions{})
		return err
	}, attribute.String("kubelet.mirror_pod", key(pod)))
	if err != nil && !apierrors.IsAlreadyExists(err) {
		goroutine.SpanFrom(ctx).AddEvent("failed creating a mirror pod", attribute.String("error", err.Error()))
	}
}

func (k *Kubelet) deleteMirrorPod(ctx context.Context, mirror *corev1.Pod) {
	api(ctx, "pods.Delete", func(ctx context.Context) error {
		grace := int64(0)
		return k.o.Cluster.Client.CoreV1().Pods(mirror.Namespace).Delete(ctx, mirror.Name, metav1.DeleteOptions{GracePeriodSeconds: &grace})
	}, attribute.String("kubelet.mirror_pod", key(mirror)))
	k.pods.remove(mirror)
}

// orphanedMirrorPods are mirror pods whose static pod is gone.
func (k *Kubelet) orphanedMirrorPods() []*corev1.Pod {
	static := map[string]bool{}
	for _, p := range k.pods.list() {
		if isStatic(p) {
			static[fullName(p)] = true
		}
	}
	k.pods.mu.RLock()
	defer k.pods.mu.RUnlock()
	var out []*corev1.Pod
	for name, m := range k.pods.mirrors {
		if !static[name] {
			out = append(out, m)
		}
	}
	return sortedPods(out)
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

var (
	sleepRE = regexp.MustCompile(`\bsleep\s+(\d+)\b`)
	exitRE  = regexp.MustCompile(`\bexit\s+(\d+)\b`)
)

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
	if m := sleepRE.FindStringSubmatch(cmd); m != nil {
		n, _ := strconv.Atoi(m[1])
		runFor, exits = time.Duration(n)*time.Second, true
	}
	if m := exitRE.FindStringSubmatch(cmd); m != nil {
		code, _ = strconv.Atoi(m[1])
		exits = true
	}
	if !exits {
		return 0, 0
	}
	return max(runFor, time.Millisecond), code
}

// backoff is the crash-loop back-off, flowcontrol.Backoff as v1.5's
// dockertools uses it (doBackOff): a dead container may restart once
// backoff has passed since it finished; each restart doubles the back-off,
// from 10s (backOffPeriod) up to 5m (MaxContainerBackOff); an entry not
// updated for twice the maximum starts over.
type backoff struct {
	mu      sync.Mutex
	entries map[string]backoffEntry
}

type backoffEntry struct {
	delay      time.Duration
	lastUpdate time.Time
}

const maxContainerBackOff = 5 * time.Minute

// inBackOff is IsInBackOffSince(key, finished): whether a container that
// finished at finished must still wait, and until when.
func (b *backoff) inBackOff(uid types.UID, name string, finished, now time.Time) (bool, time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	e, ok := b.entries[string(uid)+"/"+name]
	if !ok || finished.Sub(e.lastUpdate) > 2*maxContainerBackOff {
		return false, time.Time{}
	}
	until := finished.Add(e.delay)
	return now.Before(until), until
}

// next is Next(key, finished), called as the container is restarted.
func (b *backoff) next(uid types.UID, name string, finished time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.entries == nil {
		b.entries = map[string]backoffEntry{}
	}
	key := string(uid) + "/" + name
	e, ok := b.entries[key]
	if !ok || finished.Sub(e.lastUpdate) > 2*maxContainerBackOff {
		e.delay = backOffPeriod
	} else {
		e.delay = min(2*e.delay, maxContainerBackOff)
	}
	e.lastUpdate = finished
	b.entries[key] = e
}

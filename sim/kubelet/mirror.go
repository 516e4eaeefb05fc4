package kubelet

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/sim/goroutine"
)

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
	var out []*corev1.Pod
	for _, m := range k.pods.mirrorPods() {
		if !static[fullName(m)] {
			out = append(out, m)
		}
	}
	return out
}

// syncMirrorPod is syncPod's mirror pod step: a mirror pod being deleted,
// or made from an older version of the manifest (IsMirrorPodOf compares
// the config hash), is deleted; a missing one is created.
func (k *Kubelet) syncMirrorPod(ctx context.Context, pod *corev1.Pod) {
	mirror, ok := k.pods.mirrorOf(pod)
	if ok && (mirror.DeletionTimestamp != nil || mirror.Annotations[annotationMirror] != pod.Annotations[annotationHash]) {
		k.deleteMirrorPod(ctx, mirror)
		ok = false
	}
	if !ok {
		k.createMirrorPod(ctx, pod)
	}
}

package kubelet

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"

	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// killUnwanted has a pod that must not run killed: in v1.3 through
// podKiller's channel (deletePod, HandlePodCleanups), today by the pod
// worker's termination, which kubeloom does in place.
func (k *Kubelet) killUnwanted(ctx context.Context, pod *corev1.Pod) {
	if !anyRunning(k.cache.get(pod.UID)) {
		return
	}
	if k.modern {
		k.killPod(ctx, pod, "unwanted")
		return
	}
	select {
	case k.podKillingCh <- pod:
		goroutine.SpanFrom(ctx).AddEvent("podKillingCh", attribute.String("k8s.object.key", key(pod)))
	default:
		goroutine.SpanFrom(ctx).AddEvent("podKillingCh full", attribute.String("k8s.object.key", key(pod)))
	}
}

// podKiller is the body of kubelet/pod-killer (classic): it never returns,
// so wait.Until's 1s period never comes into play. For each pod it is sent
// that is not being killed already, it starts a kubelet/kill-pod goroutine.
func (k *Kubelet) podKiller(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case pod := <-k.podKillingCh:
			k.killingMu.Lock()
			busy := k.podsBeingKilled[pod.UID]
			k.podsBeingKilled[pod.UID] = true
			k.killingMu.Unlock()
			_, sp := goroutine.Start(ctx, "podKillingCh", trace.WithAttributes(podAttrs(pod)...), trace.WithAttributes(attribute.Bool("kubelet.already_killing", busy)))
			sp.End()
			if busy {
				continue
			}
			// go func(pod *api.Pod, runningPod *kubecontainer.Pod) { kl.killPod(pod, runningPod, nil, nil); podKillingSet.Delete(...) }(...)
			k.rt.Go(ctx, "kubelet/kill-pod", func(ctx context.Context) {
				defer func() {
					k.killingMu.Lock()
					delete(k.podsBeingKilled, pod.UID)
					k.killingMu.Unlock()
				}()
				ictx, sp := goroutine.Iterate(ctx, "killPod")
				k.killPod(ictx, pod, "unwanted")
				sp.End()
			}, goroutine.WithAttributes(podAttrs(pod)...), goroutine.WithLinks(goroutine.Cause(sp.SpanContext(), key(pod))))
		}
	}
}

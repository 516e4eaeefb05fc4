package controllers

//lint:file-ignore SA1019 the endpoint controller under test writes core/v1 Endpoints, as v1.5's did

import (
	"context"
	"testing"
	"testing/synctest"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/utils/ptr"

	"github.com/kubeloom/kubeloom/sim/informer"
)

// webService selects app=web on its port 80, the pods' port named http.
func webService() *corev1.Service {
	return &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Labels: map[string]string{"tier": "front"}},
		Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "web"},
			Ports: []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromString("http"), Protocol: corev1.ProtocolTCP}}}}
}

func addressOf(p *corev1.Pod) corev1.EndpointAddress {
	return corev1.EndpointAddress{IP: p.Status.PodIP, NodeName: ptr.To(p.Spec.NodeName),
		TargetRef: &corev1.ObjectReference{Kind: "Pod", Namespace: p.Namespace, Name: p.Name, UID: p.UID, ResourceVersion: p.ResourceVersion}}
}

// TestEndpointSync is syncService of one key: the Endpoints object of a
// service holds its pods' addresses, ready or not, with the ports they
// resolve the service's target ports to; it is created, updated only when
// it changed, and deleted with its service.
func TestEndpointSync(t *testing.T) {
	noSelector := webService()
	noSelector.Spec.Selector = nil
	for _, tc := range []struct {
		name      string
		svc       *corev1.Service
		pods      []*corev1.Pod
		endpoints func(pods []*corev1.Pod) *corev1.Endpoints // already in the apiserver, given the pods as stored
		want      func(pods []*corev1.Pod, ep *corev1.Endpoints) []k8stesting.Action
	}{{
		name: "creates the endpoints of a new service",
		svc:  webService(),
		pods: []*corev1.Pod{readyPod("web-a", "web", "node-1", "10.0.0.1", true), readyPod("web-b", "web", "node-2", "10.0.0.2", false),
			readyPod("db", "db", "node-1", "10.0.0.3", true), readyPod("web-c", "web", "", "", false)},
		want: func(pods []*corev1.Pod, _ *corev1.Endpoints) []k8stesting.Action {
			ep := &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Labels: map[string]string{"tier": "front"}},
				Subsets: []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{addressOf(pods[0])}, NotReadyAddresses: []corev1.EndpointAddress{addressOf(pods[1])},
					Ports: []corev1.EndpointPort{{Name: "http", Port: 8080, Protocol: corev1.ProtocolTCP}}}}}
			return []k8stesting.Action{gets("endpoints", "default", "web"), creates("endpoints", ep)}
		},
	}, {
		name: "updates endpoints that changed",
		svc:  webService(),
		pods: []*corev1.Pod{readyPod("web-a", "web", "node-1", "10.0.0.1", true)},
		endpoints: func([]*corev1.Pod) *corev1.Endpoints {
			return &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"}}
		},
		want: func(pods []*corev1.Pod, ep *corev1.Endpoints) []k8stesting.Action {
			upd := ep.DeepCopy()
			upd.Labels = map[string]string{"tier": "front"}
			upd.Subsets = []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{addressOf(pods[0])},
				Ports: []corev1.EndpointPort{{Name: "http", Port: 8080, Protocol: corev1.ProtocolTCP}}}}
			return []k8stesting.Action{gets("endpoints", "default", "web"), updates("endpoints", upd)}
		},
	}, {
		name: "endpoints as they should be: only the read",
		svc:  webService(),
		pods: []*corev1.Pod{readyPod("web-a", "web", "node-1", "10.0.0.1", true)},
		endpoints: func(pods []*corev1.Pod) *corev1.Endpoints {
			return &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Labels: map[string]string{"tier": "front"}},
				Subsets: []corev1.EndpointSubset{{Addresses: []corev1.EndpointAddress{addressOf(pods[0])},
					Ports: []corev1.EndpointPort{{Name: "http", Port: 8080, Protocol: corev1.ProtocolTCP}}}}}
		},
		want: func([]*corev1.Pod, *corev1.Endpoints) []k8stesting.Action {
			return []k8stesting.Action{gets("endpoints", "default", "web")}
		},
	}, {
		name: "the service is gone: its endpoints go",
		endpoints: func([]*corev1.Pod) *corev1.Endpoints {
			return &corev1.Endpoints{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"}}
		},
		want: func([]*corev1.Pod, *corev1.Endpoints) []k8stesting.Action {
			return []k8stesting.Action{deletes("endpoints", "default", "web", metav1.DeleteOptions{})}
		},
	}, {
		name: "no selector: its endpoints are kept by hand, no request",
		svc:  noSelector,
		want: func([]*corev1.Pod, *corev1.Endpoints) []k8stesting.Action { return nil },
	}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, informer.Classic)
				e := newEndpointController(f.ctx, f.cc)
				if tc.svc != nil {
					add(f, e.services, tc.svc)
				}
				var pods []*corev1.Pod
				for _, p := range tc.pods {
					pods = append(pods, add(f, e.pods, p))
				}
				var ep *corev1.Endpoints
				if tc.endpoints != nil {
					ep = serve(f, "endpoints", tc.endpoints(pods))
				}
				f.check(func(ctx context.Context) error { return e.syncService(ctx, "default/web") }, tc.want(pods, ep))
			})
		})
	}
}

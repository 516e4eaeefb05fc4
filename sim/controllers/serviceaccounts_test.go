package controllers

import (
	"context"
	"testing"
	"testing/synctest"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stesting "k8s.io/client-go/testing"

	"github.com/kubeloom/kubeloom/sim/informer"
)

// TestServiceAccountsSync is syncNamespace of one key, a namespace: an
// active namespace without the service account "default" gets one.
func TestServiceAccountsSync(t *testing.T) {
	team := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team"}}
	for _, tc := range []struct {
		name        string
		terminating bool
		sas         []*corev1.ServiceAccount
		want        []k8stesting.Action
	}{{
		name: "creates default where it is missing",
		want: []k8stesting.Action{creates("serviceaccounts", &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: "team"}})},
	}, {
		name: "has it: no request",
		sas:  []*corev1.ServiceAccount{{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: "team"}}},
	}, {
		name: "another account is not default",
		sas:  []*corev1.ServiceAccount{{ObjectMeta: metav1.ObjectMeta{Name: "builder", Namespace: "team"}}},
		want: []k8stesting.Action{creates("serviceaccounts", &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: "team"}})},
	}, {
		name: "terminating: no request", terminating: true,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				f := newFixture(t, informer.Classic)
				sc := newServiceAccountsController(f.ctx, f.cc)
				ns := serve(f, "namespaces", team)
				if tc.terminating {
					ns = deleted(f, "namespaces", ns)
				}
				f.index(sc.namespaces, ns)
				for _, sa := range tc.sas {
					add(f, sc.sas, sa)
				}
				f.check(func(ctx context.Context) error { return sc.sync(ctx, "team") }, tc.want)
			})
		})
	}
}

package controllers

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	certificatesv1 "k8s.io/api/certificates/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kubeloom/kubeloom/sim/informer"
)

func TestResourceQuotaCountsUsage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		for _, n := range []string{"a", "b"} {
			p := readyPod(n, "web", "", "", false)
			p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m")}
			h.c.Client.CoreV1().Pods("default").Create(t.Context(), p, metav1.CreateOptions{})
		}
		h.c.Client.CoreV1().ConfigMaps("default").Create(t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c"}}, metav1.CreateOptions{})
		h.c.Client.CoreV1().ResourceQuotas("default").Create(t.Context(), &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: "q"},
			Spec: corev1.ResourceQuotaSpec{Hard: corev1.ResourceList{"pods": resource.MustParse("10"), "requests.cpu": resource.MustParse("2"),
				"configmaps": resource.MustParse("5")}}}, metav1.CreateOptions{})
		h.start("resourcequota")
		h.after(5 * time.Second)
		q, _ := h.c.Client.CoreV1().ResourceQuotas("default").Get(t.Context(), "q", metav1.GetOptions{})
		used := q.Status.Used
		cpu, cms := used["requests.cpu"], used["configmaps"]
		if used.Pods().Value() != 2 || cpu.MilliValue() != 500 || cms.Value() != 1 {
			t.Errorf("used = %v, want 2 pods, 500m cpu, 1 configmap", used)
		}
		// A deletion replenishes at once.
		h.c.Client.CoreV1().Pods("default").Delete(t.Context(), "a", metav1.DeleteOptions{})
		h.after(5 * time.Second)
		q, _ = h.c.Client.CoreV1().ResourceQuotas("default").Get(t.Context(), "q", metav1.GetOptions{})
		if q.Status.Used.Pods().Value() != 1 {
			t.Errorf("after a pod was deleted: used = %v", q.Status.Used)
		}
		// Pods count for both "pods" and "requests.cpu", but a sync lists
		// them once, as v1.5 runs each evaluator once.
		spans := h.stop()
		byID := map[[8]byte]string{}
		for _, s := range spans {
			byID[s.SpanContext.SpanID()] = s.Name
		}
		syncs := named(spans, "syncResourceQuotaFromKey")
		lists := 0
		for _, s := range named(spans, "pods.List") {
			if byID[s.Parent.SpanID()] == "syncResourceQuotaFromKey" {
				lists++
			}
		}
		if len(syncs) == 0 || lists != len(syncs) {
			t.Errorf("%d pods.List in %d quota syncs, want one per sync", lists, len(syncs))
		}
	})
}

func TestPersistentVolumeBinderBindsTheSmallestFit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		for name, size := range map[string]string{"big": "5Gi", "small": "1Gi", "tiny": "100Mi"} {
			h.c.Client.CoreV1().PersistentVolumes().Create(t.Context(), &corev1.PersistentVolume{ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec: corev1.PersistentVolumeSpec{Capacity: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse(size)},
					AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}}}, metav1.CreateOptions{})
		}
		h.c.Client.CoreV1().PersistentVolumeClaims("default").Create(t.Context(), &corev1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: "data"},
			Spec: corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}, StorageClassName: ptr.To(""),
				Resources: corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("500Mi")}}}}, metav1.CreateOptions{})
		h.start("persistentvolume-binder")
		h.after(20 * time.Second)
		claim, _ := h.c.Client.CoreV1().PersistentVolumeClaims("default").Get(t.Context(), "data", metav1.GetOptions{})
		pv, _ := h.c.Client.CoreV1().PersistentVolumes().Get(t.Context(), "small", metav1.GetOptions{})
		if claim.Spec.VolumeName != "small" || claim.Status.Phase != corev1.ClaimBound || pv.Spec.ClaimRef == nil || pv.Status.Phase != corev1.VolumeBound {
			t.Errorf("claim → %q (%s), volume small ← %+v (%s): want them bound to each other", claim.Spec.VolumeName, claim.Status.Phase, pv.Spec.ClaimRef, pv.Status.Phase)
		}
		if big, _ := h.c.Client.CoreV1().PersistentVolumes().Get(t.Context(), "big", metav1.GetOptions{}); big.Status.Phase != corev1.VolumeAvailable {
			t.Errorf("an unused volume is %q, want Available", big.Status.Phase)
		}
		spans := h.stop()
		if n := len(named(spans, "Resync")); n < 3 {
			t.Errorf("resyncs = %d, want the 15s resyncs of the volume, claim and class informers", n)
		}
	})
}

func TestCertificateControllerApprovesAndSigns(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		h.cc.Config.ClusterSigningCertFile, h.cc.Config.ClusterSigningKeyFile = GenerateCA, GenerateCA
		h.cc.Config.ApproveAllKubeletCSRsForGroup = "system:bootstrappers"
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		der, _ := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: "system:node:node-1"}}, key)
		req := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der})
		for name, groups := range map[string][]string{"kubelet": {"system:bootstrappers"}, "someone": {"system:authenticated"}} {
			h.c.Client.CertificatesV1().CertificateSigningRequests().Create(t.Context(), &certificatesv1.CertificateSigningRequest{ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec: certificatesv1.CertificateSigningRequestSpec{Request: req, Groups: groups, SignerName: "kubernetes.io/kube-apiserver-client-kubelet",
					Usages: []certificatesv1.KeyUsage{certificatesv1.UsageClientAuth}}}, metav1.CreateOptions{})
		}
		if why := h.start("certificatesigningrequests")["certificatesigningrequests"]; why != "" {
			t.Fatalf("not started: %s", why)
		}
		h.after(5 * time.Second)
		csr, _ := h.c.Client.CertificatesV1().CertificateSigningRequests().Get(t.Context(), "kubelet", metav1.GetOptions{})
		block, _ := pem.Decode(csr.Status.Certificate)
		if block == nil {
			t.Fatalf("the kubelet CSR was not signed: %+v", csr.Status)
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil || cert.Subject.CommonName != "system:node:node-1" || !strings.Contains(cert.Issuer.CommonName, "kubeloom") {
			t.Errorf("certificate: %v %v issued by %v", err, cert.Subject, cert.Issuer)
		}
		other, _ := h.c.Client.CertificatesV1().CertificateSigningRequests().Get(t.Context(), "someone", metav1.GetOptions{})
		if len(other.Status.Conditions) != 0 || len(other.Status.Certificate) != 0 {
			t.Errorf("a CSR outside the group was approved: %+v", other.Status)
		}
		h.stop()
	})
}

func TestCertificateControllerNeedsItsCA(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		h.cc.ReadFile = func(name string) ([]byte, error) { return nil, &pathError{name} }
		why := h.start("certificatesigningrequests", "service", "route")
		if !strings.HasPrefix(why["certificatesigningrequests"], "Failed to start certificate controller: open /etc/kubernetes/ca/ca.pem") {
			t.Errorf("certificate controller: %q", why["certificatesigningrequests"])
		}
		if !strings.Contains(why["service"], "no cloud provider provided") || !strings.HasPrefix(why["route"], "Will not configure cloud provider routes") {
			t.Errorf("service: %q, route: %q", why["service"], why["route"])
		}
		spans := h.stop()
		// Both failed controllers built their event broadcasters first.
		comps := map[string]bool{}
		for _, s := range named(spans, "cm/event-broadcast-loop") {
			for _, a := range s.Attributes {
				if string(a.Key) == "event.component" {
					comps[a.Value.AsString()] = true
				}
			}
		}
		if !comps["certificate-controller"] || !comps["service-controller"] {
			t.Errorf("event pipelines of the failed controllers: %v", comps)
		}
	})
}

type pathError struct{ name string }

func (e *pathError) Error() string { return "open " + e.name + ": no such file or directory" }

func TestHPAKeepsReplicasWithinBounds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		h.c.Client.AppsV1().Deployments("default").Create(t.Context(), &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web"},
			Spec:   appsv1.DeploymentSpec{Replicas: ptr.To[int32](6), Selector: selector("web"), Template: template("web")},
			Status: appsv1.DeploymentStatus{Replicas: 6}}, metav1.CreateOptions{})
		h.c.Client.AutoscalingV1().HorizontalPodAutoscalers("default").Create(t.Context(), &autoscalingv1.HorizontalPodAutoscaler{ObjectMeta: metav1.ObjectMeta{Name: "web"},
			Spec: autoscalingv1.HorizontalPodAutoscalerSpec{ScaleTargetRef: autoscalingv1.CrossVersionObjectReference{Kind: "Deployment", Name: "web", APIVersion: "apps/v1"},
				MinReplicas: ptr.To[int32](2), MaxReplicas: 4}}, metav1.CreateOptions{})
		h.start("horizontalpodautoscaling")
		h.after(5 * time.Second)
		d, _ := h.c.Client.AppsV1().Deployments("default").Get(t.Context(), "web", metav1.GetOptions{})
		if *d.Spec.Replicas != 4 {
			t.Errorf("replicas = %d, want 4 (maxReplicas)", *d.Spec.Replicas)
		}
		hpa, _ := h.c.Client.AutoscalingV1().HorizontalPodAutoscalers("default").Get(t.Context(), "web", metav1.GetOptions{})
		if hpa.Status.DesiredReplicas != 4 || hpa.Status.LastScaleTime == nil {
			t.Errorf("status = %+v", hpa.Status)
		}
		// Without a deployment controller the scale's status.replicas stays 6,
		// so each reconcile rescales again, as v1.5 does.
		if r := eventReasons(t, h, "default"); r["SuccessfulRescale"] < 1 {
			t.Errorf("events = %v", r)
		}
		h.stop()
	})
}

func TestDisruptionControllerComputesAllowedDisruptions(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, informer.Classic)
		for i, ready := range []bool{true, true, false} {
			h.c.Client.CoreV1().Pods("default").Create(t.Context(), readyPod(string(rune('a'+i)), "web", "node-1", "10.0.0.1", ready), metav1.CreateOptions{})
		}
		h.c.Client.PolicyV1().PodDisruptionBudgets("default").Create(t.Context(), &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: "web"},
			Spec: policyv1.PodDisruptionBudgetSpec{MinAvailable: ptr.To(intstr.FromInt32(1)), Selector: selector("web")}}, metav1.CreateOptions{})
		h.start("disruption")
		h.after(5 * time.Second)
		pdb, _ := h.c.Client.PolicyV1().PodDisruptionBudgets("default").Get(t.Context(), "web", metav1.GetOptions{})
		if st := pdb.Status; st.CurrentHealthy != 2 || st.DesiredHealthy != 1 || st.ExpectedPods != 3 || st.DisruptionsAllowed != 1 {
			t.Errorf("status = %+v, want 2 healthy of 3, 1 desired, 1 disruption allowed", st)
		}
		h.stop()
	})
}

func TestAttachDetachAttachesCloudDisks(t *testing.T) {
	for _, era := range []informer.Era{informer.Classic, informer.Modern} {
		t.Run(string(era), func(t *testing.T) { testAttachDetach(t, era) })
	}
}

func testAttachDetach(t *testing.T, era informer.Era) {
	synctest.Test(t, func(t *testing.T) {
		h := newHarness(t, era)
		h.c.Client.CoreV1().Nodes().Create(t.Context(), &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-1",
			Annotations: map[string]string{controllerManagedAnnotation: "true"}}}, metav1.CreateOptions{})
		h.start("attachdetach")
		h.after(time.Second) // v1.5 skips pods of nodes it does not manage yet, and never looks at them again
		p := readyPod("db", "db", "node-1", "10.0.0.1", true)
		p.Spec.Volumes = []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{GCEPersistentDisk: &corev1.GCEPersistentDiskVolumeSource{PDName: "disk-1"}}}}
		h.c.Client.CoreV1().Pods("default").Create(t.Context(), p, metav1.CreateOptions{})
		h.after(2 * time.Second)
		n, _ := h.c.Client.CoreV1().Nodes().Get(t.Context(), "node-1", metav1.GetOptions{})
		if len(n.Status.VolumesAttached) != 1 || n.Status.VolumesAttached[0].Name != "kubernetes.io/gce-pd/disk-1" {
			t.Errorf("volumesAttached = %+v", n.Status.VolumesAttached)
		}
		h.c.Client.CoreV1().Pods("default").Delete(t.Context(), "db", metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})
		h.after(2 * time.Second)
		n, _ = h.c.Client.CoreV1().Nodes().Get(t.Context(), "node-1", metav1.GetOptions{})
		if len(n.Status.VolumesAttached) != 0 {
			t.Errorf("after the pod went: volumesAttached = %+v", n.Status.VolumesAttached)
		}
		// v1.5's StartControllers hands NewAttachDetachController the
		// controller manager's own recorder; since 1.6 it builds its own.
		source := map[informer.Era]string{informer.Classic: "controller-manager", informer.Modern: "attachdetach"}[era]
		evs, _ := h.c.Client.CoreV1().Events("").List(t.Context(), metav1.ListOptions{})
		var sources []string
		for _, e := range evs.Items {
			if e.Reason == "SuccessfulAttachVolume" || e.Reason == "SuccessfulDetachVolume" {
				sources = append(sources, e.Source.Component)
			}
		}
		if len(sources) != 2 || sources[0] != source || sources[1] != source {
			t.Errorf("attach and detach events from %q, want two from %q", sources, source)
		}
		spans := h.stop()
		if len(named(spans, "AttachVolume")) != 1 || len(named(spans, "DetachVolume")) != 1 {
			t.Errorf("want one AttachVolume and one DetachVolume span")
		}
		if n := len(named(spans, "cm/event-broadcast-loop")); n != map[informer.Era]int{informer.Classic: 1, informer.Modern: 2}[era] {
			t.Errorf("%d event pipelines, want Run's and, since 1.6, the controller's own", n)
		}
	})
}

package kubelet

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func staticPod() *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "etcd"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "etcd", Image: "gcr.io/google_containers/etcd:2.2.1"}}}}
}

func kubeletOn(node string) *Kubelet { return &Kubelet{o: Options{Node: node}} }

// md5Hex matches a file source's UID: the MD5 of the manifest, in hex.
func md5Hex() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{32}$`) }

// TestApplyDefaults: what the file and URL sources do to a static pod
// (config/common.go applyDefaults).
func TestApplyDefaults(t *testing.T) {
	for _, tc := range []struct {
		name        string
		pod         func() *corev1.Pod
		source      string
		isFile      bool
		wantName    string
		wantNS      string
		wantUID     string // "" : a hash
		wantRestart corev1.RestartPolicy
	}{
		{name: "file", pod: staticPod, source: "file:/etc/kubernetes/manifests/etcd.yaml", isFile: true,
			wantName: "etcd-node-1", wantNS: "default", wantRestart: corev1.RestartPolicyAlways},
		{name: "url", pod: staticPod, source: "url:http://10.0.0.1/pods", wantName: "etcd-node-1", wantNS: "default",
			wantRestart: corev1.RestartPolicyAlways},
		{name: "namespace, UID and restart policy kept", pod: func() *corev1.Pod {
			p := staticPod()
			p.Namespace, p.UID, p.Spec.RestartPolicy = "kube-system", "given-uid", corev1.RestartPolicyNever
			p.Annotations = map[string]string{"keep": "me"}
			return p
		}, source: "file:/m/etcd.yaml", isFile: true, wantName: "etcd-node-1", wantNS: "kube-system", wantUID: "given-uid",
			wantRestart: corev1.RestartPolicyNever},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.pod()
			kubeletOn("node-1").applyDefaults(p, tc.source, tc.isFile)
			if p.Name != tc.wantName || p.Namespace != tc.wantNS || p.Spec.NodeName != "node-1" {
				t.Errorf("name %q, namespace %q, nodeName %q; want %q, %q, node-1", p.Name, p.Namespace, p.Spec.NodeName, tc.wantName, tc.wantNS)
			}
			switch {
			case tc.wantUID != "" && p.UID != types.UID(tc.wantUID):
				t.Errorf("UID %q, want the given %q kept", p.UID, tc.wantUID)
			case tc.wantUID == "" && !md5Hex().MatchString(string(p.UID)):
				t.Errorf("UID %q, want an MD5 in hex", p.UID)
			}
			if got := p.Annotations[annotationHash]; got != string(p.UID) {
				t.Errorf("%s = %q, want the UID %q", annotationHash, got, p.UID)
			}
			if p.Spec.RestartPolicy != tc.wantRestart {
				t.Errorf("restart policy %q, want %q", p.Spec.RestartPolicy, tc.wantRestart)
			}
			if tc.wantUID != "" && p.Annotations["keep"] != "me" {
				t.Errorf("annotations %v lost the pod's own", p.Annotations)
			}
		})
	}
}

// TestApplyDefaultsUID: the UID is a hash of the node (file sources only),
// the source and the pod: the same manifest read again keeps its UID, and
// a changed manifest, another file or another node gets another.
func TestApplyDefaultsUID(t *testing.T) {
	uid := func(node, source string, isFile bool, edit func(*corev1.Pod)) types.UID {
		p := staticPod()
		if edit != nil {
			edit(p)
		}
		kubeletOn(node).applyDefaults(p, source, isFile)
		return p.UID
	}
	const file = "file:/etc/kubernetes/manifests/etcd.yaml"
	base := uid("node-1", file, true, nil)
	if again := uid("node-1", file, true, nil); again != base {
		t.Errorf("the same manifest read again: UID %q, then %q", base, again)
	}
	for name, other := range map[string]types.UID{
		"another node":      uid("node-2", file, true, nil),
		"another file":      uid("node-1", "file:/etc/kubernetes/manifests/etcd2.yaml", true, nil),
		"a changed image":   uid("node-1", file, true, func(p *corev1.Pod) { p.Spec.Containers[0].Image = "gcr.io/google_containers/etcd:3.0.14" }),
		"a URL, not a file": uid("node-1", file, false, nil),
	} {
		if other == base {
			t.Errorf("%s: same UID %q", name, base)
		}
	}
	// A URL's pods are the same on every node: the node is not hashed.
	const url = "url:http://10.0.0.1/pods"
	if a, b := uid("node-1", url, false, nil), uid("node-2", url, false, nil); a != b {
		t.Errorf("one URL manifest on two nodes: UIDs %q and %q, want one", a, b)
	}
}

// TestReadManifestDir: every visible file is a manifest; a hidden file,
// a directory or one that is not a pod is skipped; all are sent as one SET.
func TestReadManifestDir(t *testing.T) {
	h := newHarness(t)
	defer h.stop()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"web.yaml":     "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: web, image: 'nginx:1.11'}]\n",
		"cache.json":   `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"cache","namespace":"kube-system"},"spec":{"containers":[{"name":"c","image":"redis:3.2"}]}}`,
		".hidden.yaml": "apiVersion: v1\nkind: Pod\nmetadata: {name: hidden}\nspec:\n  containers: [{name: h, image: 'busybox:1.25'}]\n",
		"notes.txt":    "not a manifest",
		"svc.yaml":     "apiVersion: v1\nkind: Service\nmetadata: {name: svc}\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	k := h.kubelet(nil)
	k.o.ManifestDir, k.o.Manifests = dir, os.DirFS(dir)
	ch := make(chan podUpdate, 1)
	k.readManifestDir(h.ctx, ch)
	u := <-ch
	if u.op != "SET" || u.source != sourceFile {
		t.Errorf("sent %s from %q, want SET from %q", u.op, u.source, sourceFile)
	}
	got := map[string]*corev1.Pod{}
	for _, p := range u.pods {
		got[p.Namespace+"/"+p.Name] = p
	}
	if len(got) != 2 || got["default/web-node-1"] == nil || got["kube-system/cache-node-1"] == nil {
		t.Fatalf("pods %v, want default/web-node-1 and kube-system/cache-node-1", keys(got))
	}
	// Read again: the same UIDs, so the merge sees no change.
	k.readManifestDir(h.ctx, ch)
	for _, p := range (<-ch).pods {
		if want := got[p.Namespace+"/"+p.Name]; want == nil || want.UID != p.UID {
			t.Errorf("%s/%s read again: UID %q, want %v", p.Namespace, p.Name, p.UID, want)
		}
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

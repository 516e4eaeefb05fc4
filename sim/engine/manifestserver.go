package engine

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/sim/kubelet"
)

// manifestServer is the HTTP server behind --manifest-url: it serves the
// pods of <manifestDir>/url, read again at each request, as one pod or,
// when there are several, a v1 PodList. It serves only what it parsed as
// a pod, encoded again from the parsed object: the server is open to every
// user of this machine while the run lasts, and must not hand them the
// folder's raw files.
type manifestServer struct {
	fsys fs.FS // <manifestDir>/url
	srv  *http.Server
	ln   net.Listener
}

func startManifestServer(m *manifestFiles, listen func(network, address string) (net.Listener, error)) (*manifestServer, string, error) {
	fsys, err := fs.Sub(m.fsys, manifestURLDir)
	if err != nil {
		return nil, "", err
	}
	ln, err := listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", fmt.Errorf("failed to start the manifest URL server: %w", err)
	}
	s := &manifestServer{fsys: fsys, ln: ln}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serve), ReadHeaderTimeout: 10 * time.Second}
	go s.srv.Serve(ln)
	return s, "http://" + ln.Addr().String() + "/manifests", nil
}

func (m *manifestServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/manifests" {
		http.NotFound(w, r)
		return
	}
	manifests, err := kubelet.ReadManifests(m.fsys)
	if err != nil {
		// The error names the folder, not what is in it.
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	// A file that is no pod is left out, as the file source skips it;
	// it has no span of its own to say so.
	var pods []corev1.Pod
	for _, mf := range manifests {
		if mf.Pod != nil {
			pods = append(pods, *mf.Pod)
		}
	}
	var body any
	switch len(pods) {
	case 0:
		return // an empty body: no pods
	case 1:
		pod := pods[0]
		pod.TypeMeta = podTypeMeta("Pod")
		body = &pod
	default:
		body = &corev1.PodList{TypeMeta: podTypeMeta("PodList"), Items: pods}
	}
	data, err := json.Marshal(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(data)
}

func podTypeMeta(kind string) metav1.TypeMeta {
	return metav1.TypeMeta{APIVersion: "v1", Kind: kind}
}

func (m *manifestServer) close() {
	m.srv.Close()
}

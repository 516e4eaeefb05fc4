package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"

	corev1 "k8s.io/api/core/v1"

	"github.com/kubeloom/kubeloom/internal/memnet"
	"github.com/kubeloom/kubeloom/scenarios"
	"github.com/kubeloom/kubeloom/sim/kubelet"
)

// secret is what the files outside a scenario's folder, and the files no
// manifest server or recording may show, hold.
const secret = "hunter2-SECRET"

const podManifest = "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\nspec:\n  containers: [{name: web, image: 'nginx:1.11'}]\n"

// writeFiles writes files (path → content) under dir, making folders.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// kubeletScenario writes a scenario file with the given kubelets line into
// dir/lesson and parses it.
func kubeletScenario(t *testing.T, dir, kubelets string) *scenarios.Scenario {
	t.Helper()
	file := filepath.Join(dir, "lesson", "s.yaml")
	writeFiles(t, dir, map[string]string{"lesson/s.yaml": "apiVersion: kubeloom.dev/v1\nkind: Scenario\nmetadata: {name: s}\nspec:\n  duration: 30s\n  kubelets: " + kubelets + "\n"})
	sc, err := scenarios.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestCheckManifestDir: a manifestDir that reads outside the scenario's
// folder — absolute, with "..", or through a symbolic link (the folder, or a
// file in it or in its url/) — is refused at its line and column, unless
// the user allows host manifests; one inside it, a symbolic link that stays
// inside, and a folder not made yet are fine.
func TestCheckManifestDir(t *testing.T) {
	const why = "a scenario reads manifests only under its own folder"
	tests := []struct {
		name, kubelets string
		setup          func(t *testing.T, dir string) // dir holds lesson/ (the scenario's folder) and outside/
		want           string                         // "" when fine
	}{
		{name: "inside", kubelets: "{manifestDir: manifests, manifestURL: true}"},
		{name: "not there yet", kubelets: "{manifestDir: later/manifests}"},
		{name: "the scenario's folder", kubelets: "{manifestDir: .}"},
		{name: "dot-dot that stays", kubelets: "{manifestDir: manifests/../manifests}"},
		{name: "link inside", kubelets: "{manifestDir: manifests}", setup: func(t *testing.T, dir string) {
			symlink(t, "../other.yaml", filepath.Join(dir, "lesson", "manifests", "other.yaml"))
		}},
		{name: "absolute", kubelets: "{manifestDir: /etc}", want: `s.yaml:6:27: spec.kubelets.manifestDir: "/etc" is an absolute path, and ` + why},
		{name: "escaping", kubelets: "{manifestDir: ../outside}", want: `s.yaml:6:27: spec.kubelets.manifestDir: "../outside" leads out of the scenario's folder, and ` + why},
		{name: "folder link", kubelets: "{manifestDir: m}", setup: func(t *testing.T, dir string) {
			symlink(t, "../outside", filepath.Join(dir, "lesson", "m"))
		}, want: `s.yaml:6:27: spec.kubelets.manifestDir: "m" is a symbolic link out of the scenario's folder`},
		{name: "file links", kubelets: "{manifestDir: manifests, manifestURL: true}", setup: func(t *testing.T, dir string) {
			symlink(t, filepath.Join(dir, "outside", "shadow"), filepath.Join(dir, "lesson", "manifests", "abs"))
			symlink(t, "../../../outside/shadow", filepath.Join(dir, "lesson", "manifests", "url", "rel"))
		}, want: `s.yaml:6:27: spec.kubelets.manifestDir: manifests/abs, manifests/url/rel are symbolic links out of the scenario's folder`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"outside/shadow": secret, "lesson/manifests/web.yaml": podManifest,
				"lesson/manifests/url/web.yaml": podManifest, "lesson/other.yaml": podManifest})
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			sc := kubeletScenario(t, dir, tt.kubelets)
			err := Check(sc)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Check: %v, want no error", err)
			case tt.want != "" && (err == nil || !strings.HasSuffix(filepath.ToSlash(strings.SplitN(err.Error(), ": ", 2)[0]), strings.SplitN(tt.want, ": ", 2)[0]) ||
				!strings.Contains(err.Error(), strings.SplitN(tt.want, ": ", 2)[1])):
				t.Errorf("Check: %v\nwant …%s", err, tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), "--allow-host-manifests"):
				t.Errorf("Check: %v\ndoes not name --allow-host-manifests", err)
			}
			if err := Check(sc, AllowHostManifests(true)); err != nil {
				t.Errorf("Check with AllowHostManifests: %v", err)
			}
		})
	}
}

// TestRecordingQuotesNoManifest runs a scenario whose manifest folder holds
// a pod and a file that is no pod: the recording has the pod, the other's
// name and why, and no byte of it. With AllowHostManifests the folder may
// be anywhere, an absolute path.
func TestRecordingQuotesNoManifest(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"lesson/manifests/web.yaml": podManifest, "lesson/manifests/notes.yaml": "password: " + secret + "\n"})
	rec := runRecording(t, kubeletScenario(t, dir, "{manifestDir: manifests}"), false)
	for _, want := range []string{`"web-node-1"`, `notes.yaml"`, "no kind: not a Kubernetes object (expected kind: Pod)"} {
		if !bytes.Contains(rec, []byte(want)) {
			t.Errorf("the recording lacks %s", want)
		}
	}
	if bytes.Contains(rec, []byte("SECRET")) || bytes.Contains(rec, []byte("hunter2")) {
		t.Errorf("the recording quotes a file that is no pod")
	}

	host := kubeletScenario(t, t.TempDir(), "{manifestDir: "+filepath.Join(dir, "lesson", "manifests")+"}")
	if err := Check(host); err == nil {
		t.Fatal("Check allowed an absolute manifestDir")
	}
	if rec := runRecording(t, host, true); !bytes.Contains(rec, []byte(`"web-node-1"`)) || bytes.Contains(rec, []byte("hunter2")) {
		t.Errorf("with AllowHostManifests: pod web-node-1 recorded %v, a file quoted %v", bytes.Contains(rec, []byte(`"web-node-1"`)), bytes.Contains(rec, []byte("hunter2")))
	}
}

// TestManifestsStayInTheScenarioFolder: a symbolic link out of the
// scenario's folder made after Check (while a run lasts) is not followed
// either: the folder is read through an os.Root on the scenario's folder.
func TestManifestsStayInTheScenarioFolder(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"outside/shadow.yaml": podManifest, "lesson/manifests/web.yaml": podManifest})
	sc := kubeletScenario(t, dir, "{manifestDir: manifests}")
	if err := Check(sc); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(dir, "outside", "shadow.yaml"), filepath.Join(dir, "lesson", "manifests", "shadow.yaml"))
	m, err := openManifests(sc, false)
	if err != nil {
		t.Fatal(err)
	}
	defer m.close()
	got, err := kubelet.ReadManifests(m.fsys)
	if err != nil || len(got) != 2 {
		t.Fatalf("ReadManifests: %d manifests, %v; want 2", len(got), err)
	}
	if got[0].Name != "shadow.yaml" || got[0].Pod != nil || !escapes(got[0].Err) {
		t.Errorf("shadow.yaml, a link out: a pod %v, error %v; want none, and path escapes from parent", got[0].Pod != nil, got[0].Err)
	}
	if got[1].Name != "web.yaml" || got[1].Pod == nil {
		t.Errorf("web.yaml: a pod %v, error %v; want the pod web", got[1].Pod != nil, got[1].Err)
	}
	if want := filepath.Join(dir, "lesson", "manifests"); m.dir != want {
		t.Errorf("--pod-manifest-path %s, want %s", m.dir, want)
	}
}

// runRecording runs sc in virtual time and returns the recording.
func runRecording(t *testing.T, sc *scenarios.Scenario, allowHost bool) []byte {
	t.Helper()
	var rec bytes.Buffer
	synctest.Test(t, func(t *testing.T) {
		net := memnet.New()
		if _, err := Run(context.Background(), Options{Scenario: sc, Recording: &rec, Listen: net.Listen, Dial: net.Dial, AllowHostManifests: allowHost}); err != nil {
			t.Fatalf("Run: %v", err)
		}
	})
	return rec.Bytes()
}

// TestManifestServerServesOnlyPods: the manifest URL server, open to every
// user of the machine while a run lasts, serves the pods it parsed from
// <manifestDir>/url, encoded again, and nothing else of the folder: not a
// file that is no pod, not a comment of one that is.
func TestManifestServerServesOnlyPods(t *testing.T) {
	dir := t.TempDir()
	get := func() []byte {
		t.Helper()
		srv, url, err := startManifestServer(&manifestFiles{dir: dir, fsys: os.DirFS(dir)}, net.Listen)
		if err != nil {
			t.Fatal(err)
		}
		defer srv.close()
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %v %v", url, resp.Status, err)
		}
		return body
	}
	if body := get(); len(body) != 0 {
		t.Errorf("no url/ folder: body %q, want none", body)
	}
	writeFiles(t, dir, map[string]string{"url/web.yaml": "# " + secret + "\n" + podManifest, "url/notes.yaml": "password: " + secret + "\n",
		"url/.hidden.yaml": podManifest, "web.yaml": podManifest})
	body := get()
	var pod corev1.Pod
	if err := json.Unmarshal(body, &pod); err != nil || pod.Kind != "Pod" || pod.APIVersion != "v1" || pod.Name != "web" || len(pod.Spec.Containers) != 1 {
		t.Errorf("one pod: body %s (%v), want the pod web", body, err)
	}
	if bytes.Contains(body, []byte("hunter2")) {
		t.Errorf("the server serves what it did not parse as a pod: %s", body)
	}
	writeFiles(t, dir, map[string]string{"url/cache.json": `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"cache"},"spec":{"containers":[{"name":"c","image":"redis:3.2"}]}}`})
	var list corev1.PodList
	if body := get(); json.Unmarshal(body, &list) != nil || list.Kind != "PodList" || len(list.Items) != 2 ||
		list.Items[0].Name != "cache" || list.Items[1].Name != "web" || bytes.Contains(body, []byte("hunter2")) {
		t.Errorf("two pods: body %s, want a PodList of cache and web", body)
	}
}

package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/kubeloom/kubeloom/scenarios"
)

// manifestURLDir is the subfolder of spec.kubelets.manifestDir whose
// manifests kubeloom serves at the manifest URL. The kubelet's file source
// does not recurse into subfolders, so these pods come only by URL.
const manifestURLDir = "url"

// manifestDir returns the real directory of spec.kubelets.manifestDir: the
// folder itself for a scenario file, a copy for a built-in (whose files
// are embedded in the binary). cleanup removes a copy.
func manifestDir(sc *scenarios.Scenario) (dir string, cleanup func(), err error) {
	k := sc.Spec.Kubelets
	if k == nil || k.ManifestDir == "" {
		return "", func() {}, nil
	}
	name, ok := strings.CutPrefix(sc.Source, "builtin:")
	if !ok {
		if filepath.IsAbs(k.ManifestDir) {
			return k.ManifestDir, func() {}, nil
		}
		return filepath.Join(filepath.Dir(sc.Source), k.ManifestDir), func() {}, nil
	}
	tmp, err := os.MkdirTemp("", "kubeloom-"+name+"-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(tmp) }
	src := path.Clean(k.ManifestDir)
	err = fs.WalkDir(scenarios.BuiltinFiles(), src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		target := filepath.Join(tmp, filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(p, src), "/")))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := fs.ReadFile(scenarios.BuiltinFiles(), p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("built-in scenario %s: manifestDir %s: %w", name, k.ManifestDir, err)
	}
	return tmp, cleanup, nil
}

// manifestServer is the HTTP server behind --manifest-url: it serves the
// manifests of <manifestDir>/url, read again at each request, as one
// manifest or, when there are several, a v1 List.
type manifestServer struct {
	dir string
	srv *http.Server
	ln  net.Listener
}

func startManifestServer(dir string, listen func(network, address string) (net.Listener, error)) (*manifestServer, string, error) {
	ln, err := listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", fmt.Errorf("failed to start the manifest URL server: %w", err)
	}
	m := &manifestServer{dir: filepath.Join(dir, manifestURLDir), ln: ln}
	m.srv = &http.Server{Handler: http.HandlerFunc(m.serve), ReadHeaderTimeout: 10 * time.Second}
	go m.srv.Serve(ln)
	return m, "http://" + ln.Addr().String() + "/manifests", nil
}

func (m *manifestServer) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/manifests" {
		http.NotFound(w, r)
		return
	}
	entries, err := os.ReadDir(m.dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	var docs [][]byte
	var names []string
	for _, e := range entries {
		if !e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(m.dir, n))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		docs = append(docs, data)
	}
	w.Header().Set("Content-Type", "application/yaml")
	switch len(docs) {
	case 0:
		return // an empty body: no pods
	case 1:
		w.Write(docs[0])
		return
	}
	// Several manifests: a PodList whose items are the manifests, each
	// indented under "- ".
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: PodList\nitems:\n")
	for _, d := range docs {
		for i, line := range strings.Split(strings.TrimRight(string(d), "\n"), "\n") {
			if i == 0 {
				b.WriteString("- " + line + "\n")
			} else {
				b.WriteString("  " + line + "\n")
			}
		}
	}
	w.Write([]byte(b.String()))
}

func (m *manifestServer) close() {
	m.srv.Close()
}

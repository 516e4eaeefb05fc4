package engine

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/kubeloom/kubeloom/scenarios"
)

// manifestURLDir is the subfolder of spec.kubelets.manifestDir whose
// manifests kubeloom serves at the manifest URL. The kubelet's file source
// does not recurse into subfolders, so these pods come only by URL.
const manifestURLDir = "url"

// manifestFiles is the folder of spec.kubelets.manifestDir, as the file
// sources and the manifest URL server read it.
type manifestFiles struct {
	dir   string // the folder as --pod-manifest-path names it
	fsys  fs.FS  // its files; it need not exist yet
	close func()
}

// openManifests opens the folder of spec.kubelets.manifestDir, or returns
// nil without one. A scenario file reads it through an os.Root on its own
// folder, so that no path, symbolic link or one made while the run lasts
// leads out of that folder (Check has refused the paths that would, with
// their line) — unless allowHost, when manifestDir may be any folder of
// this machine. A built-in's folder is copied out of the binary to a new
// temporary folder: only its embedded files.
func openManifests(sc *scenarios.Scenario, allowHost bool) (*manifestFiles, error) {
	k := sc.Spec.Kubelets
	if k == nil || k.ManifestDir == "" {
		return nil, nil
	}
	if name, ok := strings.CutPrefix(sc.Source, "builtin:"); ok {
		return copyBuiltinManifests(name, k.ManifestDir)
	}
	base := scenarioFolder(sc)
	if allowHost {
		dir := k.ManifestDir
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(base, dir)
		}
		return &manifestFiles{dir: dir, fsys: os.DirFS(dir), close: func() {}}, nil
	}
	root, err := os.OpenRoot(base)
	if err != nil {
		return nil, fmt.Errorf("%s: spec.kubelets.manifestDir: %w", k.ManifestDirPos, err)
	}
	fsys, err := fs.Sub(root.FS(), localPath(k.ManifestDir))
	if err != nil { // Check refuses what fs.Sub would
		root.Close()
		return nil, fmt.Errorf("%s: spec.kubelets.manifestDir: %w", k.ManifestDirPos, err)
	}
	return &manifestFiles{dir: filepath.Join(base, k.ManifestDir), fsys: fsys, close: func() { root.Close() }}, nil
}

// scenarioFolder is the folder of a scenario file, which a relative
// manifestDir starts from. A scenario with no file (read from standard
// input) has none: the current folder.
func scenarioFolder(sc *scenarios.Scenario) string {
	if noFolder(sc) {
		return "."
	}
	return filepath.Dir(sc.Source)
}

func noFolder(sc *scenarios.Scenario) bool { return sc.Source == "" || sc.Source == "-" }

// localPath is a relative manifestDir as an io/fs path: slashes, cleaned.
func localPath(dir string) string { return path.Clean(filepath.ToSlash(dir)) }

// copyBuiltinManifests copies a built-in's manifestDir out of the binary to
// a new temporary folder, which close removes.
func copyBuiltinManifests(name, dir string) (*manifestFiles, error) {
	tmp, err := os.MkdirTemp("", "kubeloom-"+name+"-")
	if err != nil {
		return nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	src := path.Clean(dir)
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
		return nil, fmt.Errorf("built-in scenario %s: manifestDir %s: %w", name, dir, err)
	}
	return &manifestFiles{dir: tmp, fsys: os.DirFS(tmp), close: cleanup}, nil
}

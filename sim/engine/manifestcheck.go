package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/kubeloom/kubeloom/scenarios"
)

// CheckOption changes what Check accepts.
type CheckOption func(*checkConfig)

type checkConfig struct{ allowHostManifests bool }

// AllowHostManifests lets spec.kubelets.manifestDir be an absolute path or
// lead out of the scenario's folder, symbolic links included (run
// --allow-host-manifests).
func AllowHostManifests(allow bool) CheckOption {
	return func(c *checkConfig) { c.allowHostManifests = allow }
}

// checkManifestDir refuses a manifestDir that reads this machine's files
// outside the scenario's folder: an absolute path, one with "..", or a
// symbolic link that leads out (the folder itself, or a file in it or in
// its url/). A scenario is often someone else's, and the file source puts
// what it reads in the recording, which is made to be shared. A built-in
// reads only its embedded files.
func checkManifestDir(sc *scenarios.Scenario, c checkConfig) []error {
	k := sc.Spec.Kubelets
	if k == nil || k.ManifestDir == "" || c.allowHostManifests || strings.HasPrefix(sc.Source, "builtin:") {
		return nil
	}
	at := k.ManifestDirPos.String()
	if k.ManifestDirPos.Line == 0 {
		at = sc.Source
	}
	refuse := func(why string) []error {
		return []error{fmt.Errorf("%s: spec.kubelets.manifestDir: %s, and a scenario reads manifests only under its own folder, "+
			"so that one written by someone else cannot read this machine's files into a recording; "+
			"use a folder next to the scenario file, or pass --allow-host-manifests to allow it", at, why)}
	}
	dir := k.ManifestDir
	switch {
	case filepath.IsAbs(dir):
		return refuse(fmt.Sprintf("%q is an absolute path", dir))
	case !filepath.IsLocal(dir):
		return refuse(fmt.Sprintf("%q leads out of the scenario's folder", dir))
	case noFolder(sc):
		return refuse("a scenario read from standard input has no folder")
	}
	root, err := os.OpenRoot(scenarioFolder(sc))
	if err != nil {
		return []error{fmt.Errorf("%s: spec.kubelets.manifestDir: %w", at, err)}
	}
	defer root.Close()
	rel := localPath(dir)
	if _, err := fs.Stat(root.FS(), rel); escapes(err) {
		return refuse(fmt.Sprintf("%q is a symbolic link out of the scenario's folder", dir))
	}
	var links []string
	for _, sub := range []string{rel, path.Join(rel, manifestURLDir)} {
		entries, _ := fs.ReadDir(root.FS(), sub) // a folder not there (yet) holds nothing
		for _, e := range entries {
			if e.Type()&fs.ModeSymlink == 0 || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			if _, err := fs.Stat(root.FS(), path.Join(sub, e.Name())); escapes(err) {
				links = append(links, path.Join(sub, e.Name()))
			}
		}
	}
	if len(links) > 0 {
		what := "is a symbolic link"
		if len(links) > 1 {
			what = "are symbolic links"
		}
		return refuse(fmt.Sprintf("%s %s out of the scenario's folder", strings.Join(links, ", "), what))
	}
	return nil
}

// escapes reports os.Root's refusal of a path that leads out of it. Go
// does not export that error; its text has been the same since os.Root
// came (Go 1.24), and TestCheckManifestDir fails if it changes.
func escapes(err error) bool {
	var pe *fs.PathError
	return errors.As(err, &pe) && pe.Err.Error() == "path escapes from parent"
}

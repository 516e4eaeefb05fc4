package scenarios

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// builtinFS holds the built-in scenario library: builtin/NAME.yaml, where NAME is the
// scenario's metadata.name, and the files they name (builtin/NAME/manifests/...).
//
//go:embed builtin
var builtinFS embed.FS

// BuiltinFiles returns the folder of the built-in scenarios, so that a built-in's relative
// paths (spec.kubelets.manifestDir) can be read as a file scenario's are read from its folder.
func BuiltinFiles() fs.FS {
	sub, _ := fs.Sub(builtinFS, "builtin") // a valid path: cannot fail
	return sub
}

// builtinNames returns the names of the built-in scenarios, sorted.
func builtinNames() []string {
	entries, _ := fs.ReadDir(builtinFS, "builtin") // embedded: cannot fail
	var names []string
	for _, e := range entries {
		if name, ok := strings.CutSuffix(e.Name(), ".yaml"); ok && !e.IsDir() {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// figureMarkers are the <!--fig:NAME--> and <!--/fig--> around the figures
// of a run that the built-ins' descriptions state: docs/figures_test.go
// checks them against runs, as it does the docs'. Users never see them.
var figureMarkers = regexp.MustCompile(`<!--(fig:[a-z0-9.\-/]+|/fig)-->`)

// BuiltinSource returns the YAML text of a built-in scenario, comments included (what
// `kubeloom scenarios show NAME` prints), without the figure markers of its
// texts (see figureMarkers).
func BuiltinSource(name string) ([]byte, bool) {
	if name == "" || strings.ContainsAny(name, `/\`) || !fs.ValidPath(name) {
		return nil, false
	}
	data, err := builtinFS.ReadFile(path.Join("builtin", name+".yaml"))
	if err != nil {
		return nil, false
	}
	return figureMarkers.ReplaceAll(data, nil), true
}

// Builtin parses a built-in scenario. Its Source is "builtin:NAME". An unknown name's error
// lists the built-in names.
func Builtin(name string) (*Scenario, error) {
	data, ok := BuiltinSource(name)
	if !ok {
		return nil, fmt.Errorf("unknown built-in scenario %s; the built-ins are %s (kubeloom scenarios list describes them)",
			quote(name), strings.Join(builtinNames(), ", "))
	}
	s, err := Parse(path.Join("builtin", name+".yaml"), data)
	if err != nil {
		return nil, fmt.Errorf("built-in scenario %s is invalid, which is a kubeloom bug: %w", name, err)
	}
	s.Source = "builtin:" + name
	return s, nil
}

// Builtins returns the name and description of every built-in scenario, sorted by name.
func Builtins() []Summary {
	var out []Summary
	for _, name := range builtinNames() {
		sum := Summary{Name: name}
		if s, err := Builtin(name); err == nil {
			sum.Description = s.Metadata.Description
		} else {
			sum.Description = "(invalid: " + err.Error() + ")"
		}
		out = append(out, sum)
	}
	return out
}

// Resolve loads a scenario named on the command line. A path is loaded as a file: an argument
// that contains a path separator, ends in .yaml or .yml, or names an existing file. Anything
// else is a built-in name.
func Resolve(nameOrPath string) (*Scenario, error) {
	if isPath(nameOrPath) {
		return LoadFile(nameOrPath)
	}
	if _, ok := BuiltinSource(nameOrPath); ok {
		return Builtin(nameOrPath)
	}
	return nil, unknownScenario(nameOrPath)
}

// ResolveSource returns the YAML of the scenario Resolve would load, as it
// is written (a built-in's with its comments). Of a file it reads no more than Resolve does.
func ResolveSource(nameOrPath string) ([]byte, error) {
	if isPath(nameOrPath) {
		return readFile(nameOrPath)
	}
	if src, ok := BuiltinSource(nameOrPath); ok {
		return src, nil
	}
	return nil, unknownScenario(nameOrPath)
}

func unknownScenario(name string) error {
	return fmt.Errorf("unknown scenario %s: no such file, and no built-in of that name; the built-ins are %s (kubeloom scenarios list describes them)",
		quote(name), strings.Join(builtinNames(), ", "))
}

func isPath(s string) bool {
	if strings.ContainsRune(s, '/') || strings.ContainsRune(s, filepath.Separator) {
		return true
	}
	if ext := strings.ToLower(filepath.Ext(s)); ext == ".yaml" || ext == ".yml" {
		return true
	}
	fi, err := os.Stat(s)
	return err == nil && !fi.IsDir()
}

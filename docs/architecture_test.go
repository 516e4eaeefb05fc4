package docs

import (
	"bufio"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The architecture pages are a newcomer's map of the code: their package
// table and diagram must match the tree, and the layers they give must be
// the ones the imports keep.

// architecturePages are the pages that carry the package table.
var architecturePages = []string{"architecture.md", "zh/architecture.md"}

// pkg is a Go package of the module, as the tree has it.
type pkg struct {
	path    string   // relative to the module's root, e.g. "sim/clock"
	imports []string // the module's packages its non-test files import
	code    bool     // it has files that are not tests
}

// layerRow is a row of a page's package table.
type layerRow struct {
	layer int // -1 for "—": a package of tests only
	line  int
}

func TestArchitectureTableIsTheTree(t *testing.T) {
	module, pkgs := modulePackages(t)
	for _, page := range architecturePages {
		rows := packageTable(t, page)
		for _, p := range pkgs {
			row, ok := rows[p.path]
			switch {
			case !ok:
				t.Errorf("docs/%s: package %s is missing from the package table: add a row with its layer and what it is for", page, p.path)
			case row.layer < 0 && p.code:
				t.Errorf("docs/%s:%d: %s has code, so it needs a layer, not —", page, row.line, p.path)
			}
		}
		for path, row := range rows {
			if !slices.ContainsFunc(pkgs, func(p pkg) bool { return p.path == path }) {
				t.Errorf("docs/%s:%d: the table names %s, which is no package of %s", page, row.line, path, module)
			}
		}
	}
	en, zh := packageTable(t, architecturePages[0]), packageTable(t, architecturePages[1])
	for path, row := range en {
		if z, ok := zh[path]; ok && z.layer != row.layer {
			t.Errorf("docs/%s:%d puts %s in layer %d, docs/%s:%d in layer %d", architecturePages[0], row.line, path, row.layer,
				architecturePages[1], z.line, z.layer)
		}
	}
}

// TestImportsPointDown holds the code to the table's layers: a package
// imports only packages of lower layers.
func TestImportsPointDown(t *testing.T) {
	_, pkgs := modulePackages(t)
	rows := packageTable(t, architecturePages[0])
	for _, p := range pkgs {
		from, ok := rows[p.path]
		if !ok {
			continue // TestArchitectureTableIsTheTree says so
		}
		for _, imp := range p.imports {
			to, ok := rows[imp]
			if ok && to.layer >= from.layer {
				t.Errorf("%s (layer %d) imports %s (layer %d): imports point down; move the code, or the package in the table of docs/architecture.md if its layer is wrong",
					p.path, from.layer, imp, to.layer)
			}
		}
	}
}

// TestBoundaries holds the two boundaries of DESIGN: a recording is the only
// interface between simulating and viewing, and scenarios are data.
func TestBoundaries(t *testing.T) {
	_, pkgs := modulePackages(t)
	for _, p := range pkgs {
		for _, imp := range p.imports {
			if !strings.HasPrefix(imp, "sim/") {
				continue
			}
			switch {
			case under(p.path, "traces") && imp != "sim/catalog" && imp != "sim/catalog/locale":
				t.Errorf("%s imports %s: traces/ may import nothing from sim/ but the catalog, so that a recording made by an older kubeloom still replays", p.path, imp)
			case under(p.path, "scenarios"):
				t.Errorf("%s imports %s: scenarios/ is data and validation and imports nothing from sim/", p.path, imp)
			}
		}
	}
}

// TestArchitectureDiagramNamesPackages: every package path the pages'
// diagrams name is a package of the tree.
func TestArchitectureDiagramNamesPackages(t *testing.T) {
	_, pkgs := modulePackages(t)
	known := map[string]bool{}
	for _, p := range pkgs {
		known[p.path] = true
	}
	path := regexp.MustCompile(`\b(?:cmd|sim|traces|scenarios|internal)(?:/[a-z]+)*/?`)
	for _, page := range architecturePages {
		diagram := firstTextBlock(t, page)
		if diagram == "" {
			t.Errorf("docs/%s has no diagram (a ```text block)", page)
			continue
		}
		for _, m := range path.FindAllString(diagram, -1) {
			if !known[strings.TrimSuffix(m, "/")] {
				t.Errorf("docs/%s: the diagram names %s, which is no package", page, m)
			}
		}
	}
}

func under(path, dir string) bool { return path == dir || strings.HasPrefix(path, dir+"/") }

// modulePackages lists the module's packages: every folder of the tree with
// Go files, but testdata, other modules (tools/) and what make writes.
func modulePackages(t *testing.T) (module string, pkgs []pkg) {
	t.Helper()
	root := ".."
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	module = strings.TrimSpace(strings.TrimPrefix(strings.SplitN(string(gomod), "\n", 2)[0], "module"))
	byDir := map[string]*pkg{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(file string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, file)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			name := d.Name()
			if rel != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin" || name == "recordings" || name == "node_modules") {
				return filepath.SkipDir
			}
			if rel != "." {
				if _, err := os.Stat(filepath.Join(file, "go.mod")); err == nil {
					return filepath.SkipDir // a module of its own
				}
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		p := byDir[dir]
		if p == nil {
			p = &pkg{path: dir}
			byDir[dir] = p
		}
		if strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		p.code = true
		f, err := parser.ParseFile(fset, file, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if rest, ok := strings.CutPrefix(path, module+"/"); ok && !slices.Contains(p.imports, rest) {
				p.imports = append(p.imports, rest)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range byDir {
		pkgs = append(pkgs, *p)
	}
	slices.SortFunc(pkgs, func(a, b pkg) int { return strings.Compare(a.path, b.path) })
	return module, pkgs
}

// packageTable reads a page's package table: its rows "| layer | `package` | … |".
func packageTable(t *testing.T, page string) map[string]layerRow {
	t.Helper()
	f, err := os.Open(page)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	row := regexp.MustCompile("^\\| *(\\d+|—) *\\| *`([^`]+)` *\\|")
	rows := map[string]layerRow{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		m := row.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		r := layerRow{layer: -1, line: n}
		if m[1] != "—" {
			r.layer, _ = strconv.Atoi(m[1])
		}
		if prev, dup := rows[m[2]]; dup {
			t.Errorf("docs/%s:%d: %s has a row already, at line %d", page, n, m[2], prev.line)
		}
		rows[m[2]] = r
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("docs/%s has no package table (rows | layer | `package` | what it is for |)", page)
	}
	return rows
}

// firstTextBlock returns the page's first ```text block: its diagram.
func firstTextBlock(t *testing.T, page string) string {
	t.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "```text\n")
	if !ok {
		return ""
	}
	block, _, _ := strings.Cut(rest, "```")
	return block
}

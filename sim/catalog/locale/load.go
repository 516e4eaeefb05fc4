package locale

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	goccy "github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/parser"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
)

// dir is where the language folders are in the repository, for errors
// that say which file to open.
const dir = "sim/catalog/locale"

// plainText are the files whose texts are not messages but told as they
// are: the catalog's stories, whose summaries and quotes of code hold
// braces of their own.
var plainText = map[string]bool{"goroutines": true, "steps": true}

// isCode says whether a folder's name is a language code: a BCP 47
// language subtag, optionally with a region or script ("en", "zh",
// "pt-BR"). Hand-written, not a regexp: this package compiles nothing at
// start-up.
func isCode(name string) bool {
	parts := strings.Split(name, "-")
	if len(parts[0]) < 2 || len(parts[0]) > 3 || strings.Trim(parts[0], "abcdefghijklmnopqrstuvwxyz") != "" {
		return false
	}
	for _, sub := range parts[1:] {
		if len(sub) < 2 || len(sub) > 8 || strings.IndexFunc(sub, func(r rune) bool {
			return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9')
		}) >= 0 {
			return false
		}
	}
	return true
}

// pos is where a key is: file, line and column.
type pos struct {
	file      string
	line, col int
}

func (p pos) String() string {
	switch {
	case p.line == 0:
		return dir + "/" + p.file
	case p.col == 0:
		return fmt.Sprintf("%s/%s:%d", dir, p.file, p.line)
	}
	return fmt.Sprintf("%s/%s:%d:%d", dir, p.file, p.line, p.col)
}

// node is a key of a data file: a text, or a mapping of keys.
type node struct {
	pos  pos
	text string
	kids map[string]*node // nil for a text
	keys []string         // kids' keys in the file's order
	// broken is a file that could not be read: compared with nothing.
	broken bool
}

// problems collects what is wrong with the data, each with its place.
type problems []string

func (ps *problems) add(p pos, format string, args ...any) {
	*ps = append(*ps, p.String()+": "+fmt.Sprintf(format, args...))
}

func (ps problems) err() error {
	if len(ps) == 0 {
		return nil
	}
	slices.Sort(ps)
	return errors.New(strings.Join(ps, "\n"))
}

// load reads every language folder of fsys and checks it against the
// reference: the same files and keys, messages that parse and name no
// argument the reference's do not.
func load(fsys fs.FS) (map[string]*Language, error) {
	var ps problems
	tops, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("failed to list the language folders of %s: %w", dir, err)
	}
	langs := map[string]*Language{}
	for _, d := range tops {
		if !d.IsDir() {
			ps.add(pos{file: d.Name()}, "not a language folder: the texts go in a folder per language (%s/en/…)", dir)
			continue
		}
		if !isCode(d.Name()) {
			ps.add(pos{file: d.Name()}, "a language folder is named by its code (en, zh, pt-BR), not %q", d.Name())
			continue
		}
		l, lps := loadLanguage(fsys, d.Name())
		ps = append(ps, lps...)
		langs[d.Name()] = l
	}
	ref := langs[Reference]
	if ref == nil {
		return nil, fmt.Errorf("%s has no %s folder: English is the reference every language is checked against", dir, Reference)
	}
	ps = append(ps, ref.compile(ref)...)
	for _, l := range langs {
		if l != ref {
			compare(&ps, ref, l)
			ps = append(ps, l.compile(ref)...)
		}
	}
	if err := ps.err(); err != nil {
		return nil, err
	}
	return langs, nil
}

// loadLanguage reads the files of one language folder.
func loadLanguage(fsys fs.FS, code string) (*Language, problems) {
	var ps problems
	l := &Language{Code: code, files: map[string]*node{}}
	entries, err := fs.ReadDir(fsys, code)
	if err != nil {
		ps.add(pos{file: code}, "%v", err)
		return l, ps
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || path.Ext(name) != ".yaml" {
			ps.add(pos{file: code + "/" + name}, "a language folder holds only .yaml files")
			continue
		}
		file := code + "/" + name
		src, err := fs.ReadFile(fsys, file)
		if err != nil {
			ps.add(pos{file: file}, "%v", err)
			continue
		}
		n, fps := parseFile(file, src)
		ps = append(ps, fps...)
		if n == nil {
			// Not read: one problem is enough, not one for every
			// key it lacks.
			n = &node{pos: pos{file: file}, broken: true}
		}
		l.files[strings.TrimSuffix(name, ".yaml")] = n
	}
	return l, ps
}

// parseFile reads one data file: a mapping whose values are texts or
// mappings of the same kind. It reads with go.yaml.in/yaml/v3 rather than
// goccy/go-yaml (which reads scenarios, for its precise errors): the
// stories are 200 kB that every step-through and HTML page reads at
// start, and yaml.v3 parses them five to six times as fast with a fifth
// of the allocations (docs/design.md, Languages).
func parseFile(file string, src []byte) (*node, problems) {
	var ps problems
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		p, msg := syntaxError(file, src, err)
		ps.add(p, "not valid YAML: %s", msg)
		return nil, ps
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		ps.add(pos{file: file, line: 1, col: 1}, "expected a mapping of keys to texts")
		return nil, ps
	}
	n := toNode(&ps, file, doc.Content[0])
	if n != nil && n.kids == nil {
		ps.add(n.pos, "expected a mapping of keys to texts at the top of the file, not a text")
		return nil, ps
	}
	return n, ps
}

// syntaxError says where src is not YAML and why. yaml.v3 gives a line
// only, not always the one at fault; goccy/go-yaml, which reads the
// scenario files for their errors' sake, points at the token.
func syntaxError(file string, src []byte, err error) (pos, string) {
	p := pos{file: file}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if n, after, ok := strings.Cut(rest, ": "); ok {
			if line, err := strconv.Atoi(n); err == nil {
				p.line, msg = line, after
			}
		}
	}
	if _, gerr := parser.ParseBytes(src, 0); gerr != nil {
		var yerr goccy.Error
		if errors.As(gerr, &yerr) && yerr.GetToken() != nil && yerr.GetToken().Position != nil {
			msg = yerr.GetMessage()
			p.line, p.col = yerr.GetToken().Position.Line, yerr.GetToken().Position.Column
		}
	}
	return p, msg
}

// toNode turns a YAML value into a node, reporting what a data file may
// not hold: numbers, booleans and nulls (a text must be text: quote it),
// lists, anchors, aliases and tags.
func toNode(ps *problems, file string, v *yaml.Node) *node {
	at := pos{file: file, line: v.Line, col: v.Column}
	switch {
	case v.Anchor != "" || v.Kind == yaml.AliasNode:
		ps.add(at, "anchors and aliases (&a, *a) are not supported: write the text out in full")
	case v.Style&yaml.TaggedStyle != 0:
		ps.add(at, "tags (%s) are not supported: put the text in quotes", v.Tag)
	case v.Kind == yaml.ScalarNode && v.Tag == "!!str":
		if strings.TrimSpace(v.Value) == "" {
			ps.add(at, "an empty text: write it (or leave the key out of every language)")
		}
		return &node{pos: at, text: v.Value}
	case v.Kind == yaml.ScalarNode && v.Tag == "!!null":
		ps.add(at, "no text: write it (or leave the key out of every language)")
	case v.Kind == yaml.ScalarNode:
		what := map[string]string{"!!int": "a number", "!!float": "a number", "!!bool": "true or false", "!!timestamp": "a time"}[v.Tag]
		ps.add(at, "%s is read as %s, not a text: put it in quotes", v.Value, cmp.Or(what, "a "+v.Tag))
	case v.Kind == yaml.MappingNode:
		return toMapping(ps, file, v)
	default:
		ps.add(at, "expected a text or a mapping: data files hold no lists")
	}
	// The key is there, if wrong: one problem is enough.
	return &node{pos: at}
}

func toMapping(ps *problems, file string, m *yaml.Node) *node {
	n := len(m.Content) / 2
	out := &node{pos: pos{file: file, line: m.Line, col: m.Column}, kids: make(map[string]*node, n), keys: make([]string, 0, n)}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		at := pos{file: file, line: k.Line, col: k.Column}
		if k.Kind != yaml.ScalarNode || k.Tag != "!!str" {
			ps.add(at, "the key %s is not a text: put it in quotes", k.Value)
			continue
		}
		kid := toNode(ps, file, v)
		// A key's place is the key's, where a reader looks.
		kid.pos = at
		if prev, dup := out.kids[k.Value]; dup {
			ps.add(at, "%q is there twice (first at line %d)", k.Value, prev.pos.line)
			continue
		}
		out.kids[k.Value] = kid
		out.keys = append(out.keys, k.Value)
	}
	return out
}

// compare reports where l's files and keys differ from the reference's.
func compare(ps *problems, ref, l *Language) {
	for _, file := range sortedKeys(ref.files) {
		n, ok := l.files[file]
		if !ok {
			ps.add(pos{file: l.Code + "/" + file + ".yaml"}, "missing: every language has the files of %s/%s/ (copy %s.yaml and translate it)", dir, Reference, file)
			continue
		}
		compareNodes(ps, file, ref.files[file], n)
	}
	for _, file := range sortedKeys(l.files) {
		if _, ok := ref.files[file]; !ok {
			ps.add(l.files[file].pos, "%s.yaml is not in %s/%s/, the reference: remove it, or add it to English first", file, dir, Reference)
		}
	}
}

func compareNodes(ps *problems, key string, ref, n *node) {
	switch {
	case ref.broken || n.broken:
		return
	case ref.kids == nil && n.kids != nil:
		ps.add(n.pos, "%s: expected a text, as in %s", key, ref.pos)
		return
	case ref.kids != nil && n.kids == nil:
		ps.add(n.pos, "%s: expected a mapping of keys, as in %s", key, ref.pos)
		return
	case ref.kids == nil:
		return
	}
	for _, k := range ref.keys {
		kid, ok := n.kids[k]
		if !ok {
			ps.add(n.pos, "%s: %q is missing (%s has it at %s): translate it", key, k, Reference, ref.kids[k].pos)
			continue
		}
		compareNodes(ps, key+"."+k, ref.kids[k], kid)
	}
	for _, k := range n.keys {
		if _, ok := ref.kids[k]; !ok {
			ps.add(n.kids[k].pos, "%s: %q is not in %s, the reference: remove it, or add it to English first", key, k, Reference)
		}
	}
}

// compile parses l's messages and its language file, and checks that a
// message names only arguments that the reference's names.
func (l *Language) compile(ref *Language) problems {
	var ps problems
	l.messages = map[string]*message{}
	for _, file := range sortedKeys(l.files) {
		if plainText[file] {
			continue
		}
		walk([]string{file}, l.files[file], func(path []string, n *node) {
			key := strings.Join(path, ".")
			for _, part := range path {
				if strings.Contains(part, ".") {
					// Format finds a message by its dotted key.
					ps.add(n.pos, "%s: the key %q of a message may not hold a dot", key, part)
					return
				}
			}
			m, err := parseMessage(n.text)
			if err != nil {
				ps.add(n.pos, "%s: %v", key, err)
				return
			}
			m.pos = n.pos
			l.messages[key] = m
		})
	}

	if l != ref {
		for key, m := range l.messages {
			rm := ref.messages[key]
			if rm == nil {
				continue // reported by compare
			}
			for a := range m.args {
				if !rm.args[a] {
					ps.add(m.pos, "%s: {%s} is not an argument of this message (%s has %s)", key, a, Reference, argList(rm))
				}
			}
		}
	}
	name, short, tag := l.messages["language.name"], l.messages["language.short"], l.messages["language.tag"]
	if name == nil || short == nil || tag == nil {
		ps.add(pos{file: l.Code + "/language.yaml"}, "a language names itself: language.yaml needs name, short and tag")
		return ps
	}
	l.Name, l.Short, l.Tag = name.format(nil, nil), short.format(nil, nil), tag.format(nil, nil)
	t, err := language.Parse(l.Tag)
	if err != nil {
		ps.add(tag.pos, "tag %q is not a BCP 47 language tag (en, zh-CN): %v", l.Tag, err)
		return ps
	}
	l.plural = pluralRule(t)
	return ps
}

// walk calls f for every text under n, with its path of keys.
func walk(path []string, n *node, f func(path []string, n *node)) {
	if n.kids == nil {
		f(path, n)
		return
	}
	for _, k := range n.keys {
		walk(append(path[:len(path):len(path)], k), n.kids[k], f)
	}
}

func argList(m *message) string {
	if len(m.args) == 0 {
		return "none"
	}
	var out []string
	for _, a := range sortedKeys(m.args) {
		out = append(out, "{"+a+"}")
	}
	return strings.Join(out, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, cmp.Compare)
	return keys
}

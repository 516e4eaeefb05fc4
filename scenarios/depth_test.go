package scenarios

import (
	"fmt"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// treeDepth is the deepest nesting of collections in the YAML tree of data, as the parser
// builds it: what scanDepth must never underestimate. ok is false when data does not parse.
func treeDepth(data []byte) (depth int, ok bool) {
	f, err := parser.ParseBytes(data, 0, parser.AllowDuplicateMapKey())
	if err != nil {
		return 0, false
	}
	for _, doc := range f.Docs {
		if doc != nil {
			depth = max(depth, nodeDepth(doc.Body))
		}
	}
	return depth, true
}

func nodeDepth(n ast.Node) int {
	switch v := n.(type) {
	case *ast.MappingNode:
		d := 0
		for _, mv := range v.Values {
			d = max(d, nodeDepth(mv.Key), nodeDepth(mv.Value))
		}
		return d + 1
	case *ast.MappingValueNode: // a mapping of one key, written without its MappingNode
		return max(nodeDepth(v.Key), nodeDepth(v.Value)) + 1
	case *ast.SequenceNode:
		d := 0
		for _, item := range v.Values {
			d = max(d, nodeDepth(item))
		}
		return d + 1
	case *ast.AnchorNode:
		return nodeDepth(v.Value)
	case *ast.TagNode:
		return nodeDepth(v.Value)
	case *ast.MappingKeyNode:
		return nodeDepth(v.Value)
	}
	return 0
}

// deepFlow is a scenario with a spec field of n nested brackets, the first on line 6, column 6.
func deepFlow(n int) []byte {
	return []byte(head + "spec:\n  duration: 1s\n  x: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n")
}

// manyObjects is a valid scenario preloading n ConfigMaps, one a line.
func manyObjects(n int) []byte {
	var b strings.Builder
	b.WriteString(head + "spec:\n  duration: 1s\n  informers: [{resource: pods}]\n  objects:\n")
	for i := range n {
		fmt.Fprintf(&b, "  - {apiVersion: v1, kind: ConfigMap, metadata: {name: c%d, namespace: default}}\n", i)
	}
	return []byte(b.String())
}

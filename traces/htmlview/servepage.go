package htmlview

import _ "embed"

// The page of `kubeloom serve` (package serve): the same timeline, mounted
// in assets/serve.html beside the live controls, its script the bundle of
// assets/js/entry-serve.js and its style assets/serve.css besides the
// timeline's. The server serves them as files, so that its page runs no
// inline script.
var (
	//go:embed assets/serve.html
	serveHTML string
	//go:embed assets/serve.css
	serveCSS string
)

// ServePage is the live page's HTML; its {{WORDS}} marker takes the words
// of every language, as JSON.
func ServePage() string { return serveHTML }

// ServeStyle is the live page's own style (the live controls); the
// timeline's is the export page's.
func ServeStyle() string { return serveCSS }

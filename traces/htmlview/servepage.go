package htmlview

import (
	_ "embed"
	"strings"
)

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

// servePage is serve.html with the timeline's markup, page.html's own, at
// its {{TIMELINE}} marker: one copy of the elements the timeline's modules
// look up, so that the two pages cannot drift apart.
var servePage = strings.Replace(serveHTML, "<!--{{TIMELINE}}-->\n", timelineMarkup(), 1)

// timelineMarkup is the body of page.html up to its data: the bar, the
// canvas and the panels.
func timelineMarkup() string {
	_, body, ok := strings.Cut(pageHTML, "<body>\n")
	markup, _, ok2 := strings.Cut(body, "<script id=\"kubeloom-data\"")
	if !ok || !ok2 {
		panic("htmlview: page.html has no <body> or no data script")
	}
	return markup
}

// ServePage is the live page's HTML; its {{WORDS}} marker takes the words
// of every language, as JSON.
func ServePage() string { return servePage }

// ServeStyle is the live page's own style (the live controls); the
// timeline's is the export page's.
func ServeStyle() string { return serveCSS }

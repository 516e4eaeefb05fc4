package htmlview

import (
	"bufio"
	"embed"
	"errors"
	"fmt"
	"html"
	"io"
	"strings"

	"github.com/kubeloom/kubeloom/traces/timeline"
)

//go:generate go run ./internal/bundle/generate -assets assets

// The page is assets/page.html with the style, the data and the script put
// in at its markers. They are separate files so that they can be read and
// linted as CSS and JavaScript. The scripts are ES modules (assets/js),
// bundled into one script per page (assets/dist, `make assets`).
var (
	//go:embed assets/page.html
	pageHTML string
	//go:embed assets/timeline.css
	timelineCSS string
	//go:embed assets/dist/*.js
	bundles embed.FS
	// timelineJS is the export page's script.
	timelineJS = mustScript("export.js")
)

// Script returns the bundle of assets/js/entry-NAME.js, name "NAME.js"
// ("export.js", the export page's; "serve.js", kubeloom serve's), and
// whether there is one. It is one classic script (an IIFE), to be put in
// a page whose elements are page.html's.
func Script(name string) (string, bool) {
	if strings.ContainsAny(name, "/\\") {
		return "", false
	}
	b, err := bundles.ReadFile("assets/dist/" + name)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// Style returns the page's style sheet, assets/timeline.css.
func Style() string { return timelineCSS }

func mustScript(name string) string {
	s, ok := Script(name)
	if !ok {
		panic("htmlview: assets/dist has no " + name + ": run make assets")
	}
	return s
}

// Markers in page.html.
const (
	markTitle = "{{TITLE}}"
	markCSS   = "/*{{CSS}}*/"
	markData  = "{{DATA}}"
	markJS    = "/*{{JS}}*/"
)

// page is page.html cut at its markers: page[0], title, page[1], CSS,
// page[2], data, page[3], script, page[4].
var page = mustSplit(pageHTML, markTitle, markCSS, markData, markJS)

func mustSplit(s string, markers ...string) []string {
	var parts []string
	for _, m := range markers {
		before, after, ok := strings.Cut(s, m)
		if !ok {
			panic("htmlview: page.html has no " + m)
		}
		parts = append(parts, before)
		s = after
	}
	return append(parts, s)
}

// Write writes tl as one self-contained HTML page: a canvas timeline with
// one lane per goroutine under its instance, component and family
// (timeline.Group; a recording of more than 60 lanes opens with the groups
// folded), a search by goroutine, object key or group, zoom at the pointer
// (wheel, pinch), around the current step (+, −) and to it (z), an
// overview strip to drag, work drawn apart from waiting; the details of a
// span on hover or click and arrows to its causes and effects; and the
// step-through of timeline.Steps (buttons, ← and →) with each step's
// narrative from the goroutine catalog, in any language of
// sim/catalog/locale. The URL fragment keeps the step, the window, the
// open groups and the language.
//
// The page needs nothing but a browser: no server, no network. It exposes
// window.kubeloom for tests and scripts (see assets/js/api.js).
func Write(w io.Writer, tl *timeline.Timeline) error {
	if tl == nil {
		return errors.New("htmlview: no timeline")
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	title := "kubeloom"
	if tl.Scenario != "" {
		title = tl.Scenario + " — kubeloom"
	}
	bw.WriteString(page[0])
	bw.WriteString(html.EscapeString(title))
	bw.WriteString(page[1])
	bw.WriteString(timelineCSS)
	bw.WriteString(page[2])
	// encoding/json escapes <, > and & in strings, so no "</script>" can
	// end the data early. The newline is json.Encoder's, which wrote the
	// data before writeData.
	if err := writeData(bw, encode(tl)); err != nil {
		return fmt.Errorf("failed to encode the timeline: %w", err)
	}
	bw.WriteString("\n")
	bw.WriteString(page[3])
	bw.WriteString(timelineJS)
	bw.WriteString(page[4])
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("failed to write the HTML page: %w", err)
	}
	return nil
}

// Package htmlview writes a recording's timeline as one self-contained HTML
// page: the lanes of every instance drawn on a canvas, zoom and pan, the
// details of a span on hover, and the step-through of timeline.Steps with
// the catalog's narrative in English and Chinese. The page loads nothing
// from the network: its data is embedded JSON, its script and style inline.
package htmlview

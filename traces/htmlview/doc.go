// Package htmlview writes a recording's timeline as one self-contained HTML
// page: the lanes of every instance on a canvas, folded into the timeline's
// groups when there are many, a search, zoom and pan with an overview of the
// whole run, the details of a span on hover, arrows between causes and
// effects, and the step-through of timeline.Steps with the catalog's
// narrative in every language of sim/catalog/locale (English, Chinese),
// words and all. The page loads nothing from the network: its data is
// embedded JSON, its script and style inline.
package htmlview

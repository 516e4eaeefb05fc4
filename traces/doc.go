// Package traces reads and writes kubeloom recordings and builds the views of
// them. A recording (trace file) is JSON Lines: one span per line, each line
// exactly the object the OpenTelemetry Go stdouttrace exporter writes, so any
// tool that reads stdouttrace output reads it. Recorder is the fast span
// exporter that writes such files; Read and ReadFile load them back as Spans
// for the timeline, the renderers and the exporters.
package traces

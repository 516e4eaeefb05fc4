// Package push sends a recording to an OpenTelemetry collector or Jaeger
// over OTLP, as if the run were happening now: every span keeps its
// original trace and span IDs, parent, timestamps, attributes, events,
// links, resource and instrumentation scope, so that a recording pushed
// later looks in Jaeger exactly like a run exported live with
// `kubeloom run --otlp-endpoint`.
package push

// Package tracing sets up OpenTelemetry for a simulation: one TracerProvider
// per instance (its resource names the component and instance), all feeding
// the same span processors — the JSON Lines recorder always, stdout and OTLP
// when asked. Each exporter has its own batch processor, so an exporter that
// fails or hangs never costs the recording a span.
package tracing

// Package otlp builds the OTLP span exporter that `kubeloom run
// --otlp-endpoint` and `kubeloom push` send spans with: OTLP/HTTP or
// OTLP/gRPC, from a URL or from the standard OTEL_EXPORTER_OTLP_*
// environment variables, every export bounded by a timeout so that a
// collector that does not answer cannot hold a run.
package otlp

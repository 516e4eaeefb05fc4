// Package export converts a kubeloom recording ([]traces.Span, as
// traces.Read returns it) into the formats other tools open: Jaeger JSON
// (the shape of Jaeger's query API, which Jaeger UI's "upload JSON" loads)
// and the Chrome/Perfetto trace event format (goroutines as threads, on a
// clock of simulated time). Both writers are deterministic: the same spans,
// in any order, give the same bytes.
package export

// Package jaegertest runs a real Jaeger for tests: the all-in-one binary
// built from the tools/ module (`make jaeger-build`), on 127.0.0.1 only,
// with in-memory storage, and queries its HTTP APIs — /api/traces, the
// JSON the Jaeger UI reads, and /api/v3/traces, OTLP JSON that keeps span
// links with their attributes.
//
// Start skips the test with a message saying how to build Jaeger when it
// is not built yet, except under CI=true, where a missing Jaeger fails the
// test: CI must prove the export to Jaeger.
package jaegertest

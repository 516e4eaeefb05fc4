package otlp

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// EnvEndpoint is the endpoint that means "configure the exporter from the
// standard OTEL_EXPORTER_OTLP_* environment variables".
const EnvEndpoint = "env"

// NewExporter returns an OTLP span exporter for endpoint, each export
// bounded by timeout:
//
//   - "http://HOST:PORT[/PATH]" or "https://...": OTLP/HTTP (protobuf); the
//     path defaults to /v1/traces, as collectors and Jaeger serve it.
//   - "grpc://HOST:PORT": OTLP/gRPC without TLS; "grpcs://HOST:PORT" with TLS.
//   - "env" (EnvEndpoint): the standard OTEL_EXPORTER_OTLP_* variables
//     (endpoint, headers, certificates, timeout...), over gRPC when
//     OTEL_EXPORTER_OTLP_TRACES_PROTOCOL or OTEL_EXPORTER_OTLP_PROTOCOL is
//     "grpc", else over HTTP.
//
// These are the endpoints `kubeloom run --otlp-endpoint` and `kubeloom
// push --otlp-endpoint` accept.
func NewExporter(ctx context.Context, endpoint string, timeout time.Duration) (sdktrace.SpanExporter, error) {
	if err := Check(endpoint); err != nil {
		return nil, err
	}
	if endpoint == EnvEndpoint {
		if envProtocol() == "grpc" {
			return otlptracegrpc.New(ctx, otlptracegrpc.WithTimeout(timeout))
		}
		return otlptracehttp.New(ctx, otlptracehttp.WithTimeout(timeout))
	}
	u, _ := url.Parse(endpoint)
	switch u.Scheme {
	case "http", "https":
		// An own transport, so that Shutdown can close its idle
		// connections: a push leaves nothing running behind it.
		transport := http.DefaultTransport.(*http.Transport).Clone()
		opts := []otlptracehttp.Option{
			otlptracehttp.WithEndpointURL(endpoint),
			otlptracehttp.WithTimeout(timeout),
			otlptracehttp.WithHTTPClient(&http.Client{Transport: transport, Timeout: timeout}),
		}
		if u.Path == "" || u.Path == "/" {
			opts = append(opts, otlptracehttp.WithURLPath("/v1/traces"))
		}
		exp, err := otlptracehttp.New(ctx, opts...)
		if err != nil {
			return nil, err
		}
		return &closeIdle{SpanExporter: exp, transport: transport}, nil
	case "grpc":
		return otlptracegrpc.New(ctx, otlptracegrpc.WithEndpoint(u.Host), otlptracegrpc.WithInsecure(), otlptracegrpc.WithTimeout(timeout))
	case "grpcs":
		return otlptracegrpc.New(ctx, otlptracegrpc.WithEndpoint(u.Host), otlptracegrpc.WithTimeout(timeout))
	}
	panic("unreachable: Check accepted " + endpoint)
}

// Check says whether NewExporter would accept endpoint, without
// connecting: a URL of a scheme it knows, or "env" with variables that
// make sense. Commands check before they create any file.
func Check(endpoint string) error {
	if endpoint == EnvEndpoint {
		if err := checkEnvEndpoint(); err != nil {
			return err
		}
		switch p := envProtocol(); p {
		case "", "grpc", "http/protobuf":
			return nil
		default:
			return fmt.Errorf("unsupported OTLP protocol %q in the environment: use grpc or http/protobuf", p)
		}
	}
	u, err := url.Parse(endpoint)
	if err != nil || u.Host == "" {
		return fmt.Errorf("invalid OTLP endpoint %q: expected a URL like http://127.0.0.1:4318 or grpc://127.0.0.1:4317", endpoint)
	}
	switch u.Scheme {
	case "http", "https", "grpc", "grpcs":
		return nil
	}
	return fmt.Errorf("invalid OTLP endpoint %q: the scheme must be http, https, grpc or grpcs", endpoint)
}

// envProtocol is the OTLP protocol the environment asks for, the
// signal-specific variable first, as the specification orders them.
func envProtocol() string {
	for _, k := range []string{"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"} {
		if v := strings.TrimSpace(os.Getenv(k)); v != "" {
			return strings.ToLower(v)
		}
	}
	return ""
}

// EnvEndpointURL is where the OTEL_EXPORTER_OTLP_* variables send traces;
// "" when neither endpoint variable is set. A non-empty value makes
// `kubeloom run` and `kubeloom push` export without --otlp-endpoint.
func EnvEndpointURL() string {
	_, v := envEndpoint()
	return v
}

func envEndpoint() (name, value string) {
	for _, k := range []string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT"} {
		if v := strings.TrimSpace(os.Getenv(k)); v != "" {
			return k, v
		}
	}
	return "", ""
}

// checkEnvEndpoint rejects an endpoint variable that is not a URL. The
// OpenTelemetry exporters would silently fall back to localhost instead.
func checkEnvEndpoint() error {
	name, v := envEndpoint()
	if v == "" {
		return nil
	}
	if u, err := url.Parse(v); err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("%s=%q is not a URL: expected one like http://127.0.0.1:4318 (the OpenTelemetry specification wants the scheme for gRPC too: http://127.0.0.1:4317 with OTEL_EXPORTER_OTLP_PROTOCOL=grpc)", name, v)
	}
	return nil
}

// Describe names an endpoint for messages: "env" becomes the URL the
// OTEL_EXPORTER_OTLP_* variables give.
func Describe(endpoint string) string {
	if endpoint != EnvEndpoint {
		return endpoint
	}
	p := envProtocol()
	if p == "" {
		p = "http/protobuf"
	}
	if u := EnvEndpointURL(); u != "" {
		return fmt.Sprintf("%s (%s, from OTEL_EXPORTER_OTLP_*)", u, p)
	}
	return fmt.Sprintf("the OTLP default for %s (no OTEL_EXPORTER_OTLP_ENDPOINT set)", p)
}

// closeIdle closes the exporter's own HTTP connections when it shuts down.
type closeIdle struct {
	sdktrace.SpanExporter
	transport *http.Transport
}

var _ sdktrace.SpanExporter = (*closeIdle)(nil)

func (c *closeIdle) Shutdown(ctx context.Context) error {
	err := c.SpanExporter.Shutdown(ctx)
	c.transport.CloseIdleConnections()
	return err
}

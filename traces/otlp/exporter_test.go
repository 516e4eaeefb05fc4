package otlp

import (
	"context"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		endpoint string
		env      map[string]string
		wantErr  string // "" for accepted
	}{
		{endpoint: "http://127.0.0.1:4318"},
		{endpoint: "https://collector.example:4318/custom/path"},
		{endpoint: "grpc://127.0.0.1:4317"},
		{endpoint: "grpcs://127.0.0.1:4317"},
		{endpoint: "127.0.0.1:4318", wantErr: `invalid OTLP endpoint "127.0.0.1:4318": expected a URL`},
		{endpoint: "http://", wantErr: "expected a URL"},
		{endpoint: "ftp://127.0.0.1:1", wantErr: "the scheme must be http, https, grpc or grpcs"},
		{endpoint: "env"},
		{endpoint: "env", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}},
		{endpoint: "env", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "127.0.0.1:4317"},
			wantErr: `OTEL_EXPORTER_OTLP_ENDPOINT="127.0.0.1:4317" is not a URL`},
		{endpoint: "env", env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "localhost"},
			wantErr: `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT="localhost" is not a URL`},
		{endpoint: "env", env: map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"},
			wantErr: `unsupported OTLP protocol "http/json"`},
		{endpoint: "env", env: map[string]string{"OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL": "grpc"}},
	} {
		t.Run(tc.endpoint+" "+envString(tc.env), func(t *testing.T) {
			clearEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			err := Check(tc.endpoint)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("Check: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("Check = %v, want an error with %q", err, tc.wantErr)
			}
			// NewExporter agrees with Check, and builds without connecting.
			exp, err := NewExporter(context.Background(), tc.endpoint, time.Second)
			if (err == nil) != (tc.wantErr == "") {
				t.Fatalf("NewExporter error %v, Check error %q", err, tc.wantErr)
			}
			if exp != nil {
				if err := exp.Shutdown(context.Background()); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	clearEnv(t)
	if got := Describe("grpc://127.0.0.1:4317"); got != "grpc://127.0.0.1:4317" {
		t.Errorf("Describe(URL) = %q", got)
	}
	if got := Describe(EnvEndpoint); got != "the OTLP default for http/protobuf (no OTEL_EXPORTER_OTLP_ENDPOINT set)" {
		t.Errorf("Describe(env) without variables = %q", got)
	}
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4317")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")
	if got := Describe(EnvEndpoint); got != "http://127.0.0.1:4317 (grpc, from OTEL_EXPORTER_OTLP_*)" {
		t.Errorf("Describe(env) = %q", got)
	}
	if got := EnvEndpointURL(); got != "http://127.0.0.1:4317" {
		t.Errorf("EnvEndpointURL() = %q", got)
	}
}

// clearEnv unsets the variables these tests read, for the test's duration.
func clearEnv(t *testing.T) {
	for _, k := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"} {
		t.Setenv(k, "")
	}
}

func envString(env map[string]string) string {
	var parts []string
	for k, v := range env {
		parts = append(parts, k+"="+v)
	}
	return strings.Join(parts, " ")
}

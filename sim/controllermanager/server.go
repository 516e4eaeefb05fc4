package controllermanager

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/pprof"
	"strconv"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// serve is the body of cm/http-server (controllermanager.Run's `go
// func(){ … glog.Fatal(server.ListenAndServe()) }()`): /healthz, /configz,
// /metrics and, with --profiling, /debug/pprof/. Each request is an
// iteration of the goroutine. A failure to listen is fatal, as glog.Fatal is.
func (p *process) serve(ctx context.Context) {
	mux := http.NewServeMux()
	paths := []string{"/healthz", "/configz", "/metrics"}
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) })
	if p.s.EnableProfiling {
		paths = append(paths, "/debug/pprof/")
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	}
	mux.HandleFunc("/configz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"componentconfig": p.s.Config})
	})
	mux.Handle("/metrics", promhttp.HandlerFor(p.metrics, promhttp.HandlerOpts{}))

	addr := net.JoinHostPort(p.s.Address, strconv.Itoa(int(p.s.Port)))
	ln, err := p.o.Listen("tcp", addr)
	if err != nil {
		goroutine.SpanFrom(ctx).RecordError(err)
		p.fatal(errors.New("the HTTP server failed: " + err.Error()))
		return
	}
	goroutine.SpanFrom(ctx).AddEvent("serving", attribute.String("server.address", ln.Addr().String()))
	if p.o.OnServing != nil {
		p.o.OnServing(ln.Addr().String(), paths)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, sp := goroutine.Iterate(ctx, r.Method+" "+r.URL.Path, trace.WithAttributes(
			attribute.String("http.request.method", r.Method), attribute.String("url.path", r.URL.Path)))
		defer sp.End()
		mux.ServeHTTP(w, r)
	})}
	stop := context.AfterFunc(ctx, func() { srv.Close() })
	defer stop()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) && ctx.Err() == nil {
		p.fatal(errors.New("the HTTP server failed: " + err.Error()))
	}
}

// newMetrics is the registry /metrics serves: the goroutines of this
// process alive now, by catalog name, and whether it leads.
func (p *process) newMetrics() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(&goroutineCollector{p: p, desc: prometheus.NewDesc("kubeloom_goroutines",
		"Simulated goroutines of this process alive now, by catalog name.", []string{"goroutine"}, nil)})
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "leader_election_master_status", Help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master.",
		ConstLabels: prometheus.Labels{"name": "kube-controller-manager"},
	}, func() float64 {
		if p.leading() {
			return 1
		}
		return 0
	}))
	return reg
}

type goroutineCollector struct {
	p    *process
	desc *prometheus.Desc
}

func (c *goroutineCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c *goroutineCollector) Collect(ch chan<- prometheus.Metric) {
	for name, n := range c.p.rt.Live() {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(n), name)
	}
}

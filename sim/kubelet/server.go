package kubelet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/kubeloom/kubeloom/sim/containerruntime"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// serveHealthz is one call of the healthz goroutine's
// http.ListenAndServe(healthz address, nil): it serves /healthz until the
// kubelet stops, or fails at once (the port is taken) and wait.Until
// calls it again 5s later.
func (k *Kubelet) serveHealthz(ctx context.Context) {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) })
	if err := k.listenAndServe(ctx, ServerHealthz, k.o.HealthzAddr, mux, []string{"/healthz"}); err != nil {
		// glog.Errorf("Starting health server failed: %v", err)
		// Wrapped, so that a cause the error carries (a port a scenario
		// took, goroutine.CausedBy) links the iteration to it.
		//lint:ignore ST1005 the kubelet's own message, as it logs it
		goroutine.SpanFrom(ctx).RecordError(fmt.Errorf("Starting health server failed: %w", err))
	}
}

// serveKubelet returns the body of kubelet/server or
// kubelet/readonly-server: ListenAndServeKubeletServer, whose failure is
// fatal (glog.Fatal(s.ListenAndServe())).
func (k *Kubelet) serveKubelet(which string) func(ctx context.Context) {
	return func(ctx context.Context) {
		mux := http.NewServeMux()
		mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok")) })
		mux.HandleFunc("/pods", k.servePods)
		mux.HandleFunc("/stats/summary", k.serveSummary)
		paths := []string{"/healthz", "/pods", "/stats/summary"}
		addr := k.o.ReadOnlyAddr
		if which == ServerKubelet {
			// The debugging handlers (EnableDebuggingHandlers, default true).
			mux.HandleFunc("/runningpods/", k.serveRunningPods)
			paths = append(paths, "/runningpods/")
			addr = k.o.ServerAddr
		}
		if err := k.listenAndServe(ctx, which, addr, mux, paths); err != nil {
			k.fatal(fmt.Errorf("the kubelet %s failed: %w", which, err))
		}
	}
}

// listenAndServe serves mux on addr (127.0.0.1 on an ephemeral port when
// empty) until ctx ends; each request is a span of the serving iteration.
func (k *Kubelet) listenAndServe(ctx context.Context, which, addr string, mux *http.ServeMux, paths []string) error {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := k.o.Listen("tcp", addr)
	if err != nil {
		return err
	}
	sp := goroutine.SpanFrom(ctx)
	sp.AddEvent("serving", attribute.String("server.address", ln.Addr().String()))
	if k.o.OnServing != nil {
		k.o.OnServing(which, ln.Addr().String(), paths)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, rsp := goroutine.Start(ctx, r.Method+" "+r.URL.Path, trace.WithAttributes(
			attribute.String("http.request.method", r.Method), attribute.String("url.path", r.URL.Path)))
		defer rsp.End()
		mux.ServeHTTP(w, r)
	}), MaxHeaderBytes: 1 << 20, ReadHeaderTimeout: 10 * time.Second}
	stop := context.AfterFunc(ctx, func() { srv.Close() })
	defer stop()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) && ctx.Err() == nil {
		return err
	}
	return nil
}

// servePods is /pods: the pods the kubelet runs, as a v1 PodList, each
// with the status the status manager holds.
func (k *Kubelet) servePods(w http.ResponseWriter, _ *http.Request) {
	list := corev1.PodList{TypeMeta: metav1.TypeMeta{Kind: "PodList", APIVersion: "v1"}}
	for _, p := range k.pods.list() {
		p = p.DeepCopy()
		if s, ok := k.status.get(p.UID); ok {
			p.Status = s
		}
		list.Items = append(list.Items, *p)
	}
	writeJSON(w, list)
}

// serveRunningPods is /runningpods/: the pods the runtime runs.
func (k *Kubelet) serveRunningPods(w http.ResponseWriter, _ *http.Request) {
	list := corev1.PodList{TypeMeta: metav1.TypeMeta{Kind: "PodList", APIVersion: "v1"}}
	byPod := map[string]*corev1.Pod{}
	var order []string
	for _, c := range k.o.Runtime.ListContainers(false) {
		p, ok := byPod[c.PodUID]
		if !ok {
			p = &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: c.PodName, Namespace: c.PodNamespace, UID: types.UID(c.PodUID)}}
			byPod[c.PodUID] = p
			order = append(order, c.PodUID)
		}
		if c.Name != containerruntime.PodInfraContainerName {
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: c.Name, Image: c.Image})
		}
	}
	for _, uid := range order {
		list.Items = append(list.Items, *byPod[uid])
	}
	writeJSON(w, list)
}

// summary is the shape of /stats/summary (stats/v1alpha1.Summary), the
// fields kubeloom fills.
type summary struct {
	Node struct {
		NodeName  string    `json:"nodeName"`
		StartTime time.Time `json:"startTime"`
		Memory    struct {
			AvailableBytes uint64 `json:"availableBytes"`
		} `json:"memory"`
		Runtime struct {
			ImageFs fsStats `json:"imageFs"`
		} `json:"runtime"`
	} `json:"node"`
	Pods []podStats `json:"pods"`
}

type fsStats struct {
	AvailableBytes int64 `json:"availableBytes"`
	CapacityBytes  int64 `json:"capacityBytes"`
	UsedBytes      int64 `json:"usedBytes"`
}

type podStats struct {
	PodRef struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
		UID       string `json:"uid"`
	} `json:"podRef"`
	Containers []containerStats `json:"containers"`
	VolumeUsed uint64           `json:"volumeUsedBytes"`
}

type containerStats struct {
	Name string `json:"name"`
	CPU  struct {
		UsageNanoCores uint64 `json:"usageNanoCores"`
	} `json:"cpu"`
	Memory struct {
		WorkingSetBytes uint64 `json:"workingSetBytes"`
	} `json:"memory"`
	Rootfs struct {
		UsedBytes uint64 `json:"usedBytes"`
	} `json:"rootfs"`
}

// serveSummary is /stats/summary, from the runtime's stats.
func (k *Kubelet) serveSummary(w http.ResponseWriter, _ *http.Request) {
	var s summary
	s.Node.NodeName = k.o.Node
	s.Node.StartTime = k.started
	s.Node.Memory.AvailableBytes = k.o.Runtime.MemoryAvailable()
	fs := k.o.Runtime.ImageFsInfo()
	s.Node.Runtime.ImageFs = fsStats{AvailableBytes: fs.Capacity - fs.Usage, CapacityBytes: fs.Capacity, UsedBytes: fs.Usage}
	for _, ps := range k.o.Runtime.Stats() {
		var p podStats
		p.PodRef.Name, p.PodRef.Namespace, p.PodRef.UID = ps.Name, ps.Namespace, ps.PodUID
		p.VolumeUsed = k.analyzer.podVolumeUsed(types.UID(ps.PodUID))
		for _, c := range ps.Containers {
			var cs containerStats
			cs.Name = c.Name
			cs.CPU.UsageNanoCores, cs.Memory.WorkingSetBytes, cs.Rootfs.UsedBytes = c.CPUNanoCores, c.MemoryWorkingSetBytes, c.RootfsUsedBytes
			p.Containers = append(p.Containers, cs)
		}
		s.Pods = append(s.Pods, p)
	}
	sort.Slice(s.Pods, func(i, j int) bool {
		return s.Pods[i].PodRef.Namespace+"/"+s.Pods[i].PodRef.Name < s.Pods[j].PodRef.Namespace+"/"+s.Pods[j].PodRef.Name
	})
	writeJSON(w, s)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

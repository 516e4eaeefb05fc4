package kubelet

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/scheme"

	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
)

// makePodSourceConfig builds the PodConfig and its sources, in v1.3's
// order: the manifest file or directory, the manifest URL, the apiserver.
func (k *Kubelet) makePodSourceConfig(ctx context.Context) {
	ctx, sp := goroutine.Start(ctx, "makePodSourceConfig")
	defer sp.End()
	k.config = newPodConfig()
	if k.o.Manifests != nil {
		// config.NewSourceFile(s.PodManifestPath, nodeName, s.FileCheckFrequency, cfg.Channel(kubetypes.FileSource))
		sctx, ssp := goroutine.Start(ctx, "NewSourceFile", trace.WithAttributes(attribute.String("path", k.o.ManifestDir)))
		ch := k.config.channel(sctx, sourceFile)
		k.rt.Until(sctx, "kubelet/source-file", fileCheckFrequency, func(ctx context.Context) { k.readManifestDir(ctx, ch) },
			goroutine.WithIterationName("run"))
		ssp.End()
	}
	if k.o.ManifestURL != "" {
		// config.NewSourceURL(s.ManifestURL, header, nodeName, s.HTTPCheckFrequency, cfg.Channel(kubetypes.HTTPSource))
		sctx, ssp := goroutine.Start(ctx, "NewSourceURL", trace.WithAttributes(attribute.String("url.full", k.o.ManifestURL)))
		ch := k.config.channel(sctx, sourceHTTP)
		// Timing out requests leads to retries; the client only reads the manifest URL.
		client := &http.Client{Timeout: 10 * time.Second}
		if k.o.Dial != nil {
			client.Transport = &http.Transport{DialContext: k.o.Dial}
		}
		src := &urlSource{k: k, ch: ch, client: client}
		context.AfterFunc(sctx, client.CloseIdleConnections)
		k.rt.Until(sctx, "kubelet/source-url", httpCheckFrequency, src.run, goroutine.WithIterationName("run"))
		ssp.End()
	}
	// config.NewSourceApiserver(kc.KubeClient, nodeName, cfg.Channel(kubetypes.ApiserverSource))
	sctx, ssp := goroutine.Start(ctx, "NewSourceApiserver", trace.WithAttributes(
		attribute.String("k8s.field_selector", "spec.nodeName="+k.o.Node)))
	ch := k.config.channel(sctx, sourceAPI)
	inf, err := informer.New(informer.Config{
		Name: "kubelet-pods", Resource: corev1.SchemeGroupVersion.WithResource("pods"), Kind: corev1.SchemeGroupVersion.WithKind("Pod"),
		Era: k.o.Era, Source: k.o.Cluster, Mode: informer.ReflectorOnly,
		FieldSelector: "spec.nodeName=" + k.o.Node, ReflectorName: "kubelet/source-apiserver",
		// cache.NewUndeltaStore(send, cache.MetaNamespaceKeyFunc)
		Send: func(ctx context.Context, objs []any) {
			pods := make([]*corev1.Pod, 0, len(objs))
			for _, o := range objs {
				pods = append(pods, o.(*corev1.Pod))
			}
			_, sp := goroutine.Start(ctx, "send", trace.WithAttributes(attribute.Int("k8s.pods", len(pods))))
			defer sp.End()
			select {
			case ch <- podUpdate{pods: pods, op: opSet, source: sourceAPI, cause: sp.SpanContext()}:
			case <-ctx.Done():
			}
		},
	})
	if err != nil {
		ssp.RecordError(err)
	} else {
		inf.Run(sctx)
	}
	ssp.End()
}

// readManifestDir is sourceFile.run (pkg/kubelet/config/file.go): read
// every manifest in the directory and send them all as a SET.
func (k *Kubelet) readManifestDir(ctx context.Context, ch chan<- podUpdate) {
	sp := goroutine.SpanFrom(ctx)
	// A path that does not exist (yet) is an empty set of pods, so that
	// the source still sends and counts as ready.
	manifests, err := ReadManifests(k.o.Manifests)
	if err != nil {
		sp.RecordError(fmt.Errorf("unable to read manifest path %q: %w", k.o.ManifestDir, err))
		return
	}
	var pods []*corev1.Pod
	for _, m := range manifests {
		path := filepath.Join(k.o.ManifestDir, m.Name)
		var invalid *InvalidManifest
		switch {
		case errors.As(m.Err, &invalid):
			// The file's name and kubeloom's reason, never the file.
			sp.AddEvent("skipped", attribute.String("path", path), attribute.String("error", invalid.Reason))
			continue
		case m.Err != nil:
			sp.RecordError(m.Err)
			continue
		}
		// Kubernetes hashes the manifest's path into the UID; kubeloom
		// hashes its name within the manifest dir, which is a new temporary
		// folder every run, so that UIDs are the same from run to run.
		k.applyDefaults(m.Pod, "file:"+m.Name, true)
		pods = append(pods, m.Pod)
	}
	sp.SetAttributes(attribute.Int("k8s.pods", len(pods)))
	select {
	case ch <- podUpdate{pods: pods, op: opSet, source: sourceFile, cause: sp.SpanContext()}:
	case <-ctx.Done():
	}
}

// urlSource is sourceURL (pkg/kubelet/config/http.go).
type urlSource struct {
	k      *Kubelet
	ch     chan<- podUpdate
	client *http.Client
	data   []byte // the last body, to send only changes
}

func (s *urlSource) run(ctx context.Context) {
	sp := goroutine.SpanFrom(ctx)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.k.o.ManifestURL, nil)
	if err != nil {
		sp.RecordError(err)
		return
	}
	resp, err := s.client.Do(req)
	if err != nil {
		sp.RecordError(err)
		return
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	sp.SetAttributes(attribute.Int("http.response.status_code", resp.StatusCode))
	if err != nil || resp.StatusCode != http.StatusOK {
		sp.RecordError(fmt.Errorf("%v: %v", s.k.o.ManifestURL, cmpErr(err, resp.Status)))
		return
	}
	if len(data) == 0 {
		// An empty body is an empty list of pods (http.go's extractFromURL).
		data = []byte("{}")
	}
	if bytes.Equal(data, s.data) {
		return // unchanged: nothing to send
	}
	s.data = data
	var pods []*corev1.Pod
	if pod, err := decodePod(data); err == nil && pod.Name != "" {
		pods = append(pods, pod)
	} else if list, lerr := decodePodList(data); lerr == nil {
		for i := range list.Items {
			pods = append(pods, &list.Items[i])
		}
	} else {
		// As the file source: the reason, not the decoder's message, which
		// quotes the body.
		sp.RecordError(fmt.Errorf("%v: received invalid manifest: %s", s.k.o.ManifestURL, manifestReason(lerr)))
		return
	}
	for _, p := range pods {
		s.k.applyDefaults(p, "url:"+urlPath(s.k.o.ManifestURL), false) // its port changes every run
	}
	sp.SetAttributes(attribute.Int("k8s.pods", len(pods)))
	select {
	case s.ch <- podUpdate{pods: pods, op: opSet, source: sourceHTTP, cause: sp.SpanContext()}:
	case <-ctx.Done():
	}
}

func cmpErr(err error, status string) any {
	if err != nil {
		return err
	}
	return status
}

func decodePod(data []byte) (*corev1.Pod, error) {
	obj, gvk, err := scheme.Codecs.UniversalDeserializer().Decode(data, nil, nil)
	if err != nil {
		return nil, err
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return nil, &notAPod{gvk: *gvk} // a kind of the scheme: no word of the file
	}
	return pod, nil
}

func decodePodList(data []byte) (*corev1.PodList, error) {
	var list corev1.PodList
	if err := runtime.DecodeInto(scheme.Codecs.UniversalDeserializer(), data, &list); err != nil {
		return nil, err
	}
	return &list, nil
}

// applyDefaults is what the file and URL sources do to a static pod
// (config/common.go applyDefaults): a UID hashed from the node, the
// source and the pod; the node's name appended to the pod's; the default
// namespace; bound to this node.
func (k *Kubelet) applyDefaults(pod *corev1.Pod, source string, isFile bool) {
	h := md5.New()
	if isFile {
		fmt.Fprintf(h, "host:%s", k.o.Node)
	}
	fmt.Fprintf(h, "%s", source)
	b, _ := json.Marshal(pod)
	h.Write(b)
	if pod.UID == "" {
		pod.UID = types.UID(hex.EncodeToString(h.Sum(nil)))
	}
	if pod.Name == "" {
		pod.Name = string(pod.UID) // as applyDefaults names a nameless manifest
	}
	pod.Name = pod.Name + "-" + strings.ToLower(k.o.Node)
	if pod.Namespace == "" {
		pod.Namespace = corev1.NamespaceDefault
	}
	pod.Spec.NodeName = k.o.Node
	if pod.Annotations == nil {
		pod.Annotations = map[string]string{}
	}
	pod.Annotations[annotationHash] = string(pod.UID)
	if pod.Spec.RestartPolicy == "" {
		pod.Spec.RestartPolicy = corev1.RestartPolicyAlways
	}
}

// sortedPods sorts pods by namespace and name, for stable iteration; by
// UID between pods of one name (a pod deleted and made again, the old one
// still terminating), which would otherwise keep their map order.
func sortedPods(pods []*corev1.Pod) []*corev1.Pod {
	sort.Slice(pods, func(i, j int) bool {
		if pods[i].Namespace != pods[j].Namespace {
			return pods[i].Namespace < pods[j].Namespace
		}
		if pods[i].Name != pods[j].Name {
			return pods[i].Name < pods[j].Name
		}
		return pods[i].UID < pods[j].UID
	})
	return pods
}

// urlPath is a manifest URL without its host and port, for the UIDs of the
// pods it serves.
func urlPath(u string) string {
	if parsed, err := url.Parse(u); err == nil {
		return parsed.RequestURI()
	}
	return u
}

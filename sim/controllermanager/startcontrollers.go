package controllermanager

import (
	"context"
	"strings"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/controllers"
	"github.com/kubeloom/kubeloom/sim/goroutine"
	"github.com/kubeloom/kubeloom/sim/informer"
)

// Span attributes of a controller's start span.
const (
	AttrControllerID      = catalog.AttrControllerID
	AttrControllerName    = "kubeloom.controller.name"
	AttrControllerStarted = "kubeloom.controller.started"
)

// runControllers is the run closure OnStartedLeading calls: StartControllers,
// then select {} — it returns only when the process ends.
func (p *process) runControllers(ctx context.Context) {
	p.startControllers(ctx)
	<-ctx.Done()
}

// startControllers builds the shared informer factory, starts every
// controller in the article's order — each a span, "start <Name>", with an
// event saying why when it does not start — pausing
// --controller-start-interval (jittered) after each, and finally starts the
// shared informers.
func (p *process) startControllers(ctx context.Context) {
	ctx, sp := goroutine.Start(ctx, "StartControllers")
	defer sp.End()
	resync := time.Duration(float64(p.s.MinResyncPeriod.Duration) * (p.rand.Float64() + 1)) // ResyncPeriod(s)()
	factory := informer.NewFactory(p.o.Cluster, p.o.Era, resync)
	sp.SetAttributes(attribute.Float64("informers.resync_s", resync.Seconds()))
	cc := &controllers.Context{
		Config: p.s.Config, Era: p.o.Era, Client: p.o.Cluster.Client, API: p.o.Cluster, Informers: factory,
		APIEnabled: p.apiEnabled, NewEvents: p.newEvents, Events: p.events, Rand: p.rand, ReadFile: p.o.ReadFile,
	}
	enabled := enabledControllers(p.o.Controllers)
	clk := p.rt.Clock()
	for _, d := range controllers.All() {
		if d.ID == controllers.DiscoveryBefore {
			p.discover(ctx, cc)
		}
		name := d.Name(p.o.Era)
		cctx, csp := goroutine.Start(ctx, "start "+name, trace.WithAttributes(
			attribute.String(AttrControllerID, d.ID), attribute.String(AttrControllerName, name)))
		why := ""
		if !enabled(d.ID) {
			why = "disabled by --controllers"
		} else {
			why = d.Start(cctx, cc)
		}
		csp.SetAttributes(attribute.Bool(AttrControllerStarted, why == ""))
		if why != "" {
			csp.AddEvent("not started", attribute.String("reason", why))
		}
		csp.End()
		// time.Sleep(wait.Jitter(s.ControllerStartInterval.Duration, ControllerStartJitter))
		for range d.Pauses.Count(why == "") {
			if d := p.s.ControllerStartInterval.Duration; d > 0 {
				t := clk.NewTimer(d + time.Duration(p.rand.Float64()*float64(d)))
				select {
				case <-ctx.Done():
					t.Stop()
					return
				case <-t.C():
				}
			}
		}
	}
	sctx, ssp := goroutine.Start(ctx, "sharedInformers.Start")
	factory.Start(sctx)
	ssp.End()
}

// discover is v1.5's discovery step in StartControllers:
//
//	err = wait.PollImmediate(time.Second, 10*time.Second, func() (bool, error) {
//		if versionStrings, err = restclient.ServerAPIVersions(kubeconfig); err == nil { return true, nil }
//		…
//	})
//	resourceMap, err := discoveryClient.ServerResources()
//
// PollImmediate tries once on the caller's goroutine and starts its poller
// goroutine only when that try fails; the simulated apiserver always
// answers, so there is none. What is served then gates the API-group blocks
// (Context.APIEnabled).
func (p *process) discover(ctx context.Context, cc *controllers.Context) {
	_, sp := goroutine.Start(ctx, "ServerAPIVersions", trace.WithAttributes(
		attribute.String("wait.poll", "PollImmediate(1s, 10s)")))
	groups, err := cc.Client.Discovery().ServerGroups()
	if err == nil {
		sp.SetAttributes(attribute.Int("k8s.api.group_versions", len(metav1.ExtractGroupVersions(groups))))
	} else {
		sp.RecordError(err)
	}
	sp.End()
	_, sp = goroutine.Start(ctx, "ServerResources")
	lists, err := cc.Resources()
	if err != nil {
		sp.RecordError(err)
	}
	sp.SetAttributes(attribute.Int("k8s.api.resource_lists", len(lists)))
	sp.End()
}

// enabledControllers is --controllers: "*" turns on the default set, "name"
// one controller, "-name" turns one off.
func enabledControllers(list []string) func(id string) bool {
	if len(list) == 0 {
		list = []string{"*"}
	}
	canon := func(n string) string {
		if a, ok := controllers.Alias(n); ok {
			return a
		}
		return n
	}
	on, off, star := map[string]bool{}, map[string]bool{}, false
	for _, c := range list {
		switch {
		case c == "*":
			star = true
		case len(c) > 0 && c[0] == '-':
			off[canon(c[1:])] = true
		default:
			on[canon(c)] = true
		}
	}
	return func(id string) bool {
		if off[id] {
			return false
		}
		return on[id] || star
	}
}

// v15API reports whether the v1.5 apiserver serves a group/version by
// default (DefaultAPIResourceConfigSource): batch/v2alpha1, for one, it
// does not.
func v15API(gv string) bool {
	switch gv {
	case "v1", "extensions/v1beta1", "batch/v1", "authentication.k8s.io/v1beta1", "autoscaling/v1",
		"apps/v1beta1", "policy/v1beta1", "rbac.authorization.k8s.io/v1alpha1", "storage.k8s.io/v1beta1",
		"certificates.k8s.io/v1alpha1", "authorization.k8s.io/v1beta1":
		return true
	}
	return false
}

// apiEnabled: --runtime-config first, then the era's defaults (today every
// GA group/version, none of the alpha or beta ones).
func (p *process) apiEnabled(gv string) bool {
	if on, ok := p.o.RuntimeConfig[gv]; ok {
		return on
	}
	if p.o.Era == informer.Modern {
		return !strings.Contains(gv, "alpha") && !strings.Contains(gv, "beta")
	}
	return v15API(gv)
}

// ControllerIDs are the --controllers names, in the article's order.
func ControllerIDs() []string {
	var ids []string
	for _, d := range controllers.All() {
		ids = append(ids, d.ID)
	}
	return ids
}

// KnownController reports whether a --controllers name exists.
func KnownController(name string) bool {
	if _, ok := controllers.Alias(name); ok {
		return true
	}
	for _, d := range controllers.All() {
		if d.ID == name {
			return true
		}
	}
	return false
}

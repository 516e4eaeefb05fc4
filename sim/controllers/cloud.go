package controllers

import (
	"context"
	"fmt"
)

// ServiceController (pkg/controller/service/servicecontroller.go, v1.5)
// keeps cloud load balancers for services of type LoadBalancer. kubeloom
// simulates no cloud provider, so it fails to start the way v1.5 does with
// none: servicecontroller.New has already started its event broadcaster
// (sink only) when init() finds no cloud, so those two goroutines run on,
// for nothing, until the process ends.
func startService(ctx context.Context, c *Context) string {
	c.NewEvents(ctx, "service-controller", false, true)
	return "Failed to start service controller: WARNING: no cloud provider provided, services of type LoadBalancer will fail."
}

// RouteController (pkg/controller/route) programs cloud routes for pod
// CIDRs. It starts only with --allocate-node-cidrs and
// --configure-cloud-routes and a cloud provider that supports routes.
func startRoute(ctx context.Context, c *Context) string {
	if c.Config.AllocateNodeCIDRs && c.Config.ConfigureCloudRoutes {
		return "configure-cloud-routes is set, but no cloud provider specified. Will not configure cloud provider routes."
	}
	return fmt.Sprintf("Will not configure cloud provider routes for allocate-node-cidrs: %v, configure-cloud-routes: %v.",
		c.Config.AllocateNodeCIDRs, c.Config.ConfigureCloudRoutes)
}

package controllers

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// call is one request of a controller to the apiserver, traced as a span
// named resource.Verb ("pods.Create", "endpoints.Update") with the object's
// key, so that a learner sees each write a sync makes.
func call[T any](ctx context.Context, name, key string, req func(ctx context.Context) (T, error)) (T, error) {
	ctx, sp := goroutine.Start(ctx, name, trace.WithAttributes(attribute.String(catalog.AttrObjectKey, key)))
	defer sp.End()
	out, err := req(ctx)
	if err != nil {
		sp.RecordError(err)
		sp.SetAttributes(attribute.String("error", err.Error()))
	}
	return out, err
}

// do is call for requests that return only an error (deletes).
func do(ctx context.Context, name, key string, req func(ctx context.Context) error) error {
	_, err := call(ctx, name, key, func(ctx context.Context) (struct{}, error) { return struct{}{}, req(ctx) })
	return err
}

package controller

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/goroutine"
)

// Call is one request to the apiserver, traced as a span named
// resource.Verb ("pods.Create", "endpoints.Update") with the object's key.
func Call[T any](ctx context.Context, name, key string, do func(ctx context.Context) (T, error)) (T, error) {
	ctx, sp := goroutine.Start(ctx, name, trace.WithAttributes(attribute.String(catalog.AttrObjectKey, key)))
	defer sp.End()
	out, err := do(ctx)
	if err != nil {
		sp.RecordError(err)
		sp.SetAttributes(attribute.String("error", err.Error()))
	}
	return out, err
}

// Do is Call for requests that return only an error (deletes).
func Do(ctx context.Context, name, key string, do func(ctx context.Context) error) error {
	_, err := Call(ctx, name, key, func(ctx context.Context) (struct{}, error) { return struct{}{}, do(ctx) })
	return err
}

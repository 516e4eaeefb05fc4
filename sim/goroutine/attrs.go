package goroutine

import (
	"go.opentelemetry.io/otel/attribute"

	"github.com/kubeloom/kubeloom/sim/catalog"
)

const attrObjectKey = catalog.AttrObjectKey

// linkCause is the attribute of every cause link.
func linkCause() attribute.KeyValue { return attribute.String(catalog.AttrLink, catalog.LinkCause) }

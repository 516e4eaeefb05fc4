package goroutine

import (
	"go.opentelemetry.io/otel/attribute"

	"github.com/kubeloom/kubeloom/sim/catalog"
)

const attrObjectKey = catalog.AttrObjectKey

var linkCause = attribute.String(catalog.AttrLink, catalog.LinkCause)

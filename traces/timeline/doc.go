// Package timeline turns a recording ([]traces.Span) into the model every
// viewer draws: instances (one per service.name and service.instance.id),
// each with one lane per goroutine, holding the goroutine's lifetime, its
// loop iterations, the other calls it made and its span events. Times stay
// simulated time; Timeline.Offset gives the seconds since the recording began.
package timeline

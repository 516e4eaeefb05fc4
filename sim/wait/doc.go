// Package wait is pkg/util/wait's Poll as the articles' era wrote it
// (v1.3-v1.5): a poller goroutine of its own per call, ticking at the
// interval, and the condition checked on the caller's goroutine each time
// a tick gets through — the shape real goroutine dumps of the era show
// (main in wait.WaitFor, beside a goroutine created by wait.poller).
// Today's apimachinery polls on the caller's goroutine with a timer; the
// modern era's loops do that themselves.
package wait

package stepview

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
)

// window returns the indexes of the first and last steps between from and
// to (offsets from the start of the recording; to 0 means the end).
func (d *data) window(from, to time.Duration) (lo, hi int, err error) {
	if from < 0 || to < 0 {
		return 0, 0, fmt.Errorf("window %s to %s is invalid: times are offsets from the start of the recording and cannot be negative",
			formatOffset(from), formatOffset(to))
	}
	if to != 0 && to < from {
		return 0, 0, fmt.Errorf("window %s to %s is empty: --to must be after --from", formatOffset(from), formatOffset(to))
	}
	lo, hi = -1, -1
	for i, s := range d.steps {
		off := d.tl.Offset(s.At)
		if off < from || (to != 0 && off > to) {
			continue
		}
		if lo < 0 {
			lo = i
		}
		hi = i
	}
	if lo < 0 {
		if len(d.steps) == 0 {
			return 0, 0, fmt.Errorf("the recording has no steps: it holds no goroutine, iteration, call or event")
		}
		return 0, 0, fmt.Errorf("no step between %s and %s: the recording runs from 0s to %s; choose a window inside it",
			formatOffset(from), formatOffset(to), formatOffset(d.tl.Duration()))
	}
	return lo, hi, nil
}

// at returns the first step of lo..hi at or after offset, and false when
// the window ends before it.
func (d *data) at(offset time.Duration, lo, hi int) (int, bool) {
	for i := lo; i <= hi; i++ {
		if d.tl.Offset(d.steps[i].At) >= offset {
			return i, true
		}
	}
	return hi, false
}

// parseOffset reads a time typed at the jump prompt: a Go duration (1m30s,
// 90s, 1.5m), with an optional leading +, or a plain number of seconds.
func parseOffset(s string) (time.Duration, error) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "+")
	if s == "" {
		return 0, fmt.Errorf("type a time such as 1m30s")
	}
	if d, err := time.ParseDuration(s); err == nil {
		if d < 0 {
			return 0, fmt.Errorf("%s is before the start: times count from the start of the recording", s)
		}
		return d, nil
	}
	if d, err := time.ParseDuration(s + "s"); err == nil && d >= 0 {
		return d, nil
	}
	return 0, fmt.Errorf("%q is no time: type a duration such as 1m30s, 90s or 250ms", s)
}

// matcher returns a test of lane labels for a search pattern: a glob
// (* any text, ? one character, [abc] a class) matching the whole label
// when the pattern has one of *?[, else a substring; both ignore case.
func matcher(pattern string) (func(label string) bool, error) {
	p := strings.ToLower(strings.TrimSpace(pattern))
	if p == "" {
		return nil, fmt.Errorf("type part of a goroutine's name, or a glob such as *gc*")
	}
	if !strings.ContainsAny(p, "*?[") {
		return func(label string) bool { return strings.Contains(strings.ToLower(label), p) }, nil
	}
	var re strings.Builder
	re.WriteString("^")
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '*':
			re.WriteString(".*")
		case '?':
			re.WriteString(".")
		case '[':
			end := strings.IndexByte(p[i+1:], ']')
			if end < 0 {
				return nil, fmt.Errorf("%q has a [ without its ]", pattern)
			}
			class := p[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			re.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		default:
			re.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	re.WriteString("$")
	rx, err := regexp.Compile(re.String())
	if err != nil {
		return nil, fmt.Errorf("%q is no glob kubeloom can read: %v", pattern, err)
	}
	return func(label string) bool { return rx.MatchString(strings.ToLower(label)) }, nil
}

// search returns the next step after cur in lo..hi on a lane whose label
// matches, wrapping around to lo; wrapped says it did.
func (d *data) search(match func(string) bool, cur, lo, hi int) (next int, wrapped, ok bool) {
	for n := 1; n <= hi-lo+1; n++ {
		i := cur + n
		if i > hi {
			i -= hi - lo + 1
		}
		if match(d.steps[i].Lane.Label) {
			return i, i <= cur, true
		}
	}
	return cur, false, false
}

// follow returns the next step after cur in lo..hi that continues the
// current step's story: its span names the current step's span, or a call
// made inside it, as its cause (kubeloom.link=cause: the kubelet's plegCh
// iteration calls HandlePodSyncs, which the pod worker's syncPod names),
// or it carries the same object key (k8s.object.key), which it returns.
// Of the steps the current one causes,
// it prefers the first the story can go on from (one with a key or effects
// of its own): an injected OOM in a pod's container is heard by the OOM
// watcher, which does nothing with it, and then seen by the PLEG, which
// restarts the container. can is false when the current step has neither
// a key nor a span that anything names as its cause.
func (d *data) follow(cur, hi int) (next int, key string, found, can bool) {
	key = d.attrs(cur).String(catalog.AttrObjectKey)
	span := d.span[cur]
	if key == "" && !d.isCause[span] {
		return cur, "", false, false
	}
	deadEnd := -1 // the first effect the story cannot go on from
	for i := cur + 1; i <= hi; i++ {
		if key != "" && d.attrs(i).String(catalog.AttrObjectKey) == key {
			return i, key, true, true
		}
		if span.IsValid() && d.causedBy(i, span) {
			if d.isCause[d.span[i]] || d.attrs(i).String(catalog.AttrObjectKey) != "" {
				return i, key, true, true
			}
			if deadEnd < 0 {
				deadEnd = i
			}
		}
	}
	if deadEnd >= 0 {
		return deadEnd, key, true, true
	}
	return cur, key, false, true
}

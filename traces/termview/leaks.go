package termview

import (
	"fmt"
	"strings"

	"github.com/kubeloom/kubeloom/internal/printable"
	"github.com/kubeloom/kubeloom/sim/catalog"
)

// leaks is the summary's line about leaked goroutines: the pre-1.5
// reflector's resync goroutines that re-lists left behind (kubernetes#35015),
// counted per instance and informer, among the rows the table shows. Their
// lanes end when the process stops, not "running": what the recording
// says of them is that their call returned and they did not. With a window,
// a lane counts if it was left behind by the window's end. Nothing when
// none leaked.
func (v *view) leaks(rows []LaneSummary) []string {
	type key struct{ inst, informer string }
	var order []key
	n := map[key]int{}
	total := 0
	for _, r := range rows {
		l := r.Lane
		if !l.Leaked() {
			continue
		}
		if at, ok := l.LeakedAt(); ok && v.windowed && v.tl.Offset(at) > v.to {
			continue
		}
		k := key{r.Instance.Name(), l.Attributes.String(catalog.AttrInformer)}
		if n[k] == 0 {
			order = append(order, k)
		}
		n[k]++
		total++
	}
	if total == 0 {
		return nil
	}
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = printable.String(fmt.Sprintf("%s %s %s ×%d", k.inst, "reflector/resync-timer", k.informer, n[k]))
	}
	return []string{v.p.open.paint(fmt.Sprintf("LEAKED %s, left behind by re-lists of the pre-1.5 reflector (kubernetes#35015): %s",
		plural(total, "goroutine"), strings.Join(parts, ", ")))}
}

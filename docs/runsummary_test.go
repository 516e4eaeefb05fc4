package docs

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// runSummary is what `kubeloom run` prints at the end of a run
// (cmd/kubeloom printSummary, pinned by its golden files), read back: the
// figures about a run state what its user saw.
type runSummary struct {
	Duration  time.Duration // simulated time run
	Instances []runInstance
	Leftovers []runLeftover
}

// runInstance is one instance of the summary: "  kubelet node-1", and
// "    exited: …" when its process ended before the run did.
type runInstance struct {
	Service, ID, Exit string
}

// runLeftover is a goroutine family still running after the grace period.
type runLeftover struct {
	Instance, Name string
	N              int
}

var (
	summaryHead     = regexp.MustCompile(`(?m)^(?:finished|interrupted) \S+: (\S+) simulated in `)
	summaryLeftover = regexp.MustCompile(`(\S+) (\S+) ×(\d+)`)
)

// parseRunSummary reads a run's summary out of what it printed.
func parseRunSummary(text string) (runSummary, error) {
	var sum runSummary
	m := summaryHead.FindStringSubmatchIndex(text)
	if m == nil {
		return sum, fmt.Errorf("no run summary in:\n%s", text)
	}
	d, err := time.ParseDuration(text[m[2]:m[3]])
	if err != nil {
		return sum, fmt.Errorf("the summary's simulated time: %v", err)
	}
	sum.Duration = d
	for _, line := range strings.Split(text[m[0]:], "\n")[1:] {
		switch {
		case strings.HasPrefix(line, "  LEFTOVER goroutines still running after the grace period: "):
			for _, l := range summaryLeftover.FindAllStringSubmatch(line[strings.Index(line, ": ")+2:], -1) {
				n, _ := strconv.Atoi(l[3])
				sum.Leftovers = append(sum.Leftovers, runLeftover{Instance: l[1], Name: l[2], N: n})
			}
		case strings.HasPrefix(line, "    exited: ") && len(sum.Instances) > 0:
			sum.Instances[len(sum.Instances)-1].Exit = strings.TrimPrefix(line, "    exited: ")
		case strings.HasPrefix(line, "  ") && !strings.HasPrefix(line, "   ") && strings.Count(strings.TrimSpace(line), " ") == 1:
			f := strings.Fields(line)
			sum.Instances = append(sum.Instances, runInstance{Service: f[0], ID: f[1]})
		}
	}
	return sum, nil
}

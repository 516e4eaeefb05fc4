package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"time"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/traces"
)

// loopPeriods is what a pass over a recording learns of its periodic
// loops: each loop goroutine's period, and the first and last iteration
// of each span that has iterations. It reads the recording line by line
// (a 1,000-node recording has millions of spans: traces.Read would hold
// them all), picking the few fields it needs out of the recorder's fixed
// stdouttrace layout by position.
type loopPeriods struct {
	loops map[string]loop      // goroutine span ID → its loop
	iters map[string]iterRange // parent span ID → its iterations
}

type loop struct {
	label  string
	period time.Duration
}

type iterRange struct {
	first, last           int64
	firstStart, lastStart time.Time
}

func loopPeriodsOf(path string) (*loopPeriods, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	text, err := traces.Decompress(f) // plain or compressed
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer text.Close()
	return readLoopPeriods(text)
}

func readLoopPeriods(r io.Reader) (*loopPeriods, error) {
	lp := &loopPeriods{loops: map[string]loop{}, iters: map[string]iterRange{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Bytes()
		if p, ok := field(line, `{"Key":"goroutine.period_s","Value":{"Type":"FLOAT64","Value":`, '}'); ok {
			kind, _ := field(line, `{"Key":"goroutine.kind","Value":{"Type":"STRING","Value":"`, '"')
			switch string(kind) {
			case catalog.KindUntil, catalog.KindForever, catalog.KindMain:
			default:
				continue
			}
			name, _ := field(line, `{"Key":"goroutine.name","Value":{"Type":"STRING","Value":"`, '"')
			if string(name) == "cm/leader-acquire" { // jittered by design
				continue
			}
			secs, err := strconv.ParseFloat(string(p), 64)
			id := spanID(line, `"SpanContext":`)
			if err != nil || id == "" {
				return nil, fmt.Errorf("line %d: a goroutine span whose period or ID does not read", n)
			}
			inst, _ := field(line, `{"Key":"service.instance.id","Value":{"Type":"STRING","Value":"`, '"')
			lp.loops[id] = loop{label: string(inst) + " " + string(name), period: time.Duration(math.Round(secs * float64(time.Second)))}
			continue
		}
		it, ok := field(line, `{"Key":"iteration","Value":{"Type":"INT64","Value":`, '}')
		if !ok {
			continue
		}
		i, err := strconv.ParseInt(string(it), 10, 64)
		start, _ := field(line, `"StartTime":"`, '"')
		t, terr := time.Parse(time.RFC3339Nano, string(start))
		if err != nil || terr != nil {
			return nil, fmt.Errorf("line %d: an iteration whose number or start does not read", n)
		}
		parent := spanID(line, `"Parent":`)
		r, seen := lp.iters[parent]
		if !seen || i < r.first {
			r.first, r.firstStart = i, t
		}
		if !seen || i > r.last {
			r.last, r.lastStart = i, t
		}
		lp.iters[parent] = r
	}
	return lp, sc.Err()
}

// worst is the largest relative difference between a loop's period and
// the one it kept on average over at least 10 iterations (sampled-out
// iterations counted by their numbers), as periodDeviation measures a
// timeline.
func (lp *loopPeriods) worst() (worst float64, lane string) {
	for id, l := range lp.loops {
		r := lp.iters[id]
		n := r.last - r.first
		if n < 10 {
			continue
		}
		kept := r.lastStart.Sub(r.firstStart) / time.Duration(n)
		if dev := math.Abs(float64(kept-l.period)) / float64(l.period); dev > worst {
			worst, lane = dev, fmt.Sprintf("%s (%s kept, %s wanted)", l.label, kept, l.period)
		}
	}
	return worst, lane
}

// field is the bytes after prefix up to (not including) end.
func field(line []byte, prefix string, end byte) ([]byte, bool) {
	i := bytes.Index(line, []byte(prefix))
	if i < 0 {
		return nil, false
	}
	rest := line[i+len(prefix):]
	j := bytes.IndexByte(rest, end)
	if j < 0 {
		return nil, false
	}
	return rest[:j], true
}

// spanID is the SpanID of the span context that follows key.
func spanID(line []byte, key string) string {
	i := bytes.Index(line, []byte(key))
	if i < 0 {
		return ""
	}
	id, _ := field(line[i:], `"SpanID":"`, '"')
	return string(id)
}

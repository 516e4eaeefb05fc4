package htmlview

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/catalog/locale"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// formatVersion is the version of the page's data; the script checks it.
// Version 2: lanes in display order with their groups, short labels, the
// causal links between marks (flows) and the article quotes' English
// renderings. Version 3: the page's languages with their words (langs),
// and the catalog's stories by language.
const formatVersion = 3

// The data embedded in the page is shaped for a browser that has to parse
// and draw 100,000 spans in well under two seconds: marks are flat arrays of
// integers (times in microseconds from the start of the recording, names
// and attribute keys as indexes into one string table, attribute values as
// indexes into one value table, attribute sets shared between marks), not
// one JSON object per span.

// Strides of the flat mark arrays of a lane, and what each field holds.
const (
	// Iterations: start, duration, name, iteration, skipped, attrs.
	iterStride = 6
	// Calls: start, duration, name, attrs.
	callStride = 4
	// Events: time, name, attrs.
	eventStride = 3
	// Steps: lane, kind, mark (the index of the mark in its lane's
	// iterations, calls or events, by kind; -1 for started and stopped).
	stepStride = 3
	// Flows: the cause's lane, kind, mark, then the effect's lane, kind,
	// mark. A kind is a step kind: 0 for a lane's lifetime span (mark 0),
	// 1 an iteration, 2 a call.
	flowStride = 6
)

// Step kinds as the page numbers them.
var stepKinds = map[timeline.StepKind]int64{
	timeline.StepStarted:   0,
	timeline.StepIteration: 1,
	timeline.StepCall:      2,
	timeline.StepEvent:     3,
	timeline.StepStopped:   4,
}

// data is the JSON object embedded in the page.
type data struct {
	Version  int    `json:"v"`
	Scenario string `json:"scenario"`
	// Start is the simulated time of offset 0 (RFC 3339); every other time
	// is an offset from it in microseconds.
	Start    string `json:"start"`
	Duration int64  `json:"duration"`
	Spans    int    `json:"spans"`
	Orphans  int    `json:"orphans"`
	Links    int    `json:"links"`

	// Langs are the languages of sim/catalog/locale, English first: the
	// language button goes through them in turn. Articles is the
	// language of the article quotes, which need no rendering in it.
	Langs    []pageLang `json:"langs"`
	Articles string     `json:"articles"`

	Strings []string          `json:"strings"`
	Values  []json.RawMessage `json:"values"`
	// Attrs are attribute sets: key (string index), value (value index)
	// pairs, sorted by key. Set 0 is the empty set.
	Attrs [][]int `json:"attrs"`

	Entries []entry `json:"entries"`
	// Startup are the catalog's stories of startup steps (calls on main
	// lanes); StepStartup maps a step's index to its story.
	Startup     []startupStep  `json:"startup"`
	StepStartup map[string]int `json:"stepStartup"`
	Instances   []instance     `json:"instances"`
	// Groups are the instances' components and their families
	// (timeline.Group), components before their families; each holds a
	// run of Lanes, which are in display order (Instance.Display).
	Groups []group `json:"groups"`
	Lanes  []lane  `json:"lanes"`
	Steps  []int64 `json:"steps"`
	// Flows are the causal links (kubeloom.link=cause) between marks, by
	// flowStride: what the page draws as arrows for the selected span.
	Flows   []int64        `json:"flows"`
	Strides map[string]int `json:"strides"`
	// PodStarts are how long the recording's pods took to start.
	PodStarts podStarts `json:"podStarts"`
	// Diff is what a comparison's page adds (diffpage.go); absent from
	// an export's.
	Diff *diffData `json:"diff,omitempty"`
}

// pageLang is a language of the page: its name (the language button
// offers it by it), its BCP 47 tag (the page's lang attribute and plural
// rules) and its words, sim/catalog/locale/<code>/page.yaml as written:
// the script formats them as locale does in Go.
type pageLang struct {
	Code string            `json:"code"`
	Name string            `json:"name"`
	Tag  string            `json:"tag"`
	Text map[string]string `json:"text"`
}

// pageLangs are the page's languages.
func pageLangs() []pageLang {
	var out []pageLang
	for _, code := range locale.Codes() {
		l := locale.Get(code)
		out = append(out, pageLang{Code: code, Name: l.Name, Tag: l.Tag, Text: l.Messages("page")})
	}
	return out
}

// story is catalog.Story in one language, without the quote, which is the
// same in all of them.
type story struct {
	Summary   string `json:"summary"`
	Rendering string `json:"rendering,omitempty"` // "" when there is nothing to render
	Now       string `json:"now,omitempty"`
}

// stories returns the story of every language, by code, and the quote.
func stories(of func(lang string) catalog.Story) (map[string]story, string) {
	out := map[string]story{}
	quote := ""
	for _, code := range locale.Codes() {
		st := of(code)
		out[code] = story{Summary: st.Summary, Rendering: st.Rendering, Now: st.Now}
		quote = st.Quote
	}
	return out, quote
}

// entry is a catalog entry of a goroutine that has a lane.
type entry struct {
	Name      string  `json:"name"`
	Component string  `json:"component"`
	Kind      string  `json:"kind"`
	Period    float64 `json:"period"` // seconds; 0 when event driven
	Function  string  `json:"function"`
	File      string  `json:"file"`
	Article   string  `json:"article"`
	// Quote is the article's words, verbatim, in every language.
	Quote string           `json:"quote"`
	Story map[string]story `json:"story"` // by language code
}

// startupStep is the catalog's story of a startup step.
type startupStep struct {
	Component string           `json:"component"`
	Name      string           `json:"name"`
	Function  string           `json:"function"`
	File      string           `json:"file"`
	Article   string           `json:"article"`
	Quote     string           `json:"quote"`
	Story     map[string]story `json:"story"`
}

type instance struct {
	Name    int   `json:"name"` // strings
	Service int   `json:"service"`
	ID      int   `json:"id"`
	First   int   `json:"first"` // index of its first lane
	Count   int   `json:"count"`
	Groups  []int `json:"groups"` // its components, in display order
}

// group is a timeline.Group: its lanes are Lanes[First:First+Count].
type group struct {
	Key    int   `json:"key"`  // strings
	Name   int   `json:"name"` // strings
	In     int   `json:"in"`
	Parent int   `json:"parent"` // -1 for a component
	Groups []int `json:"groups"` // a component's families
	First  int   `json:"first"`
	Count  int   `json:"count"`
}

type lane struct {
	Instance  int   `json:"in"`
	Label     int   `json:"label"` // strings
	Short     int   `json:"short"` // strings: the label inside its group
	Group     int   `json:"grp"`   // its innermost group, -1 if none
	Goroutine int   `json:"g"`     // strings
	Kind      int   `json:"kind"`  // strings
	Period    int64 `json:"period"`
	Start     int64 `json:"start"`
	End       int64 `json:"end"`
	Open      bool  `json:"open,omitempty"`
	Attrs     int   `json:"attrs"`
	Entry     int   `json:"entry"` // entries, -1 if the catalog has none

	Iterations []int64 `json:"it"`
	Calls      []int64 `json:"calls"`
	Events     []int64 `json:"events"`
}

// encoder builds the string, value and attribute-set tables.
type encoder struct {
	origin   time.Time // what times are encoded from
	d        *data
	strs     map[string]int
	vals     map[string]int // by the value's JSON
	known    map[any]int    // values of comparable types, by value
	sets     map[string]int
	entries  map[string]int
	startups map[string]int
	keyBuf   []byte
	pairs    [][2]int
}

// encode turns a timeline into the page's data.
func encode(tl *timeline.Timeline) *data {
	parts := make([]part, len(tl.Instances))
	for i, in := range tl.Instances {
		parts[i] = part{tl: tl, in: in, name: in.Name()}
	}
	e := newEncoder(tl)
	e.d.Duration = e.off(tl.End)
	e.encodeParts(parts)
	e.d.PodStarts = podStartsOf(tl)
	return e.d
}

// A part is an instance the page shows, from a timeline whose start is
// its times' origin, under a name; a comparison (diffpage.go) shows the
// instances of two timelines, each from its own start, their groups' keys
// prefixed with their side.
type part struct {
	tl        *timeline.Timeline
	in        *timeline.Instance
	name      string
	keyPrefix string
}

// newEncoder starts the page's data with head's scenario and counts.
func newEncoder(head *timeline.Timeline) *encoder {
	e := &encoder{
		origin: head.Start,
		d: &data{
			Version:  formatVersion,
			Scenario: head.Scenario,
			Spans:    head.Spans,
			Orphans:  head.Orphans,
			Links:    head.Links,
			Langs:    pageLangs(),
			Articles: locale.Articles,
			Strings:  []string{},
			Values:   []json.RawMessage{},
			Attrs:    [][]int{{}},
			Entries:  []entry{},
			Groups:   []group{},
			Startup:  []startupStep{}, StepStartup: map[string]int{},
			Strides: map[string]int{
				"it": iterStride, "calls": callStride, "events": eventStride, "steps": stepStride, "flows": flowStride,
			},
		},
		strs:     map[string]int{},
		vals:     map[string]int{},
		known:    map[any]int{},
		sets:     map[string]int{"": 0},
		entries:  map[string]int{},
		startups: map[string]int{},
	}
	if !head.Start.IsZero() {
		e.d.Start = head.Start.UTC().Format(time.RFC3339Nano)
	}
	e.str("") // string 0 is the empty string
	return e
}

// encodeParts encodes the instances, their lanes and groups, the causal
// links between their marks and the steps, in the parts' order.
func (e *encoder) encodeParts(parts []part) {
	d := e.d
	laneIndex := map[*timeline.Lane]int{}
	// Each timeline's lanes, by page index: a timeline's links and steps
	// are those of its own lanes that the page shows.
	own := map[*timeline.Timeline]map[*timeline.Lane]int{}
	var tls []*timeline.Timeline
	for ii, p := range parts {
		e.use(p.tl)
		if own[p.tl] == nil {
			own[p.tl] = map[*timeline.Lane]int{}
			tls = append(tls, p.tl)
		}
		in := p.in
		display := pageLanes(in)
		grouped := len(in.Display()) == len(in.Lanes)
		di := instance{
			Name: e.str(p.name), Service: e.str(in.Service), ID: e.str(in.ID),
			First: len(d.Lanes), Count: len(display), Groups: []int{},
		}
		for _, l := range display {
			laneIndex[l] = len(d.Lanes)
			own[p.tl][l] = len(d.Lanes)
			d.Lanes = append(d.Lanes, e.lane(ii, l))
		}
		if grouped {
			for _, c := range in.Groups() {
				di.Groups = append(di.Groups, e.group(ii, -1, c, laneIndex, p.keyPrefix))
			}
		}
		d.Instances = append(d.Instances, di)
	}
	if d.Instances == nil {
		d.Instances = []instance{}
		d.Lanes = []lane{}
	}
	// The links and the steps of each timeline, once: span IDs are unique
	// in a recording, not across two (the same scenario and seed make the
	// same IDs), and two parts may be instances of one timeline.
	d.Flows = []int64{}
	var steps []timeline.StepRef
	for _, tl := range tls {
		d.Flows = append(d.Flows, flows(tl, own[tl])...)
		steps = mergeSteps(steps, tls[0].Start, timeline.StepRefs(tl), tl.Start, own[tl], len(own[tl]) == tl.LaneCount())
	}
	// The steps of timeline.Steps, without the catalog's stories but for
	// the startup steps': a million-span recording has as many steps.
	d.Steps = make([]int64, 0, len(steps)*stepStride)
	for _, s := range steps {
		if st, ok := s.Startup(); ok {
			d.StepStartup[strconv.Itoa(len(d.Steps)/stepStride)] = e.startup(st)
		}
		d.Steps = append(d.Steps, int64(laneIndex[s.Lane]), stepKinds[s.Kind], int64(s.Index))
	}
}

// mergeSteps returns the steps of two timelines (a, from originA, and b,
// from originB) in the order of their times from their origins, a's
// first at equal times, without those of lanes the page does not show
// (unless it shows all of b's timeline's).
func mergeSteps(a []timeline.StepRef, originA time.Time, b []timeline.StepRef, originB time.Time, shown map[*timeline.Lane]int, all bool) []timeline.StepRef {
	if !all { // an export shows every lane: no need to look each step's up
		b = slices.DeleteFunc(b, func(s timeline.StepRef) bool { _, ok := shown[s.Lane]; return !ok })
	}
	if len(a) == 0 {
		return b
	}
	out := make([]timeline.StepRef, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if b[j].At.Sub(originB) < a[i].At.Sub(originA) {
			out = append(out, b[j])
			j++
		} else {
			out = append(out, a[i])
			i++
		}
	}
	return append(append(out, a[i:]...), b[j:]...)
}

// pageLanes are in's lanes in the page's order: its display order, or
// for an instance built by hand (no groups) its lanes'.
func pageLanes(in *timeline.Instance) []*timeline.Lane {
	if display := in.Display(); len(display) == len(in.Lanes) {
		return display
	}
	return in.Lanes
}

// use makes tl's start the origin of the times encoded next.
func (e *encoder) use(tl *timeline.Timeline) { e.origin = tl.Start }

func (e *encoder) lane(inst int, l *timeline.Lane) lane {
	out := lane{
		Instance:   inst,
		Label:      e.str(l.Label),
		Short:      e.str(cmp.Or(l.Short, l.Label)),
		Group:      -1, // set once the groups are encoded
		Goroutine:  e.str(l.Goroutine),
		Kind:       e.str(l.Kind),
		Period:     l.Period.Microseconds(),
		Start:      e.off(l.Start),
		End:        e.off(l.End),
		Open:       l.Open,
		Attrs:      e.attrs(l.Attributes, nil),
		Entry:      e.entry(l.Goroutine),
		Iterations: make([]int64, 0, len(l.Iterations)*iterStride),
		Calls:      make([]int64, 0, len(l.Calls)*callStride),
		Events:     make([]int64, 0, len(l.Events)*eventStride),
	}
	// An iteration's number and skipped count have fields of their own.
	structural := []string{catalog.AttrIteration, catalog.AttrSkipped}
	for _, m := range l.Iterations {
		start := e.off(m.Start)
		out.Iterations = append(out.Iterations,
			start, e.off(m.End)-start, int64(e.str(m.Name)), m.Iteration, m.Skipped, int64(e.attrs(m.Attributes, structural)))
	}
	for _, m := range l.Calls {
		start := e.off(m.Start)
		out.Calls = append(out.Calls, start, e.off(m.End)-start, int64(e.str(m.Name)), int64(e.attrs(m.Attributes, nil)))
	}
	for _, m := range l.Events {
		out.Events = append(out.Events, e.off(m.Start), int64(e.str(m.Name)), int64(e.attrs(m.Attributes, nil)))
	}
	return out
}

// group adds a group and its families to Groups and returns its index. A
// group's lanes must be a run of the instance's display order, which
// timeline.Instance.Display guarantees (component, then family). Each lane
// gets the index of its innermost group (Lane.Group): a family, encoded
// after its component, overwrites the component's.
func (e *encoder) group(inst, parent int, g *timeline.Group, laneIndex map[*timeline.Lane]int, keyPrefix string) int {
	i := len(e.d.Groups)
	out := group{Key: e.str(keyPrefix + g.Key), Name: e.str(g.Name), In: inst, Parent: parent, Groups: []int{}, Count: len(g.Lanes)}
	if len(g.Lanes) > 0 {
		out.First = laneIndex[g.Lanes[0]]
	}
	for k, l := range g.Lanes {
		if li, ok := laneIndex[l]; !ok || li != out.First+k {
			panic(fmt.Sprintf("htmlview: the lanes of group %s are not a run of its instance's display order", g.Key))
		}
		e.d.Lanes[out.First+k].Group = i
	}
	e.d.Groups = append(e.d.Groups, out)
	for _, f := range g.Groups {
		fi := e.group(inst, i, f, laneIndex, keyPrefix)
		e.d.Groups[i].Groups = append(e.d.Groups[i].Groups, fi)
	}
	return i
}

// flows returns the causal links between the marks of tl's lanes, by
// flowStride: for each goroutine's start (Lane.Causes), iteration and
// call (Mark.Causes), in lane order, the spans it names as its causes that
// are a lane's lifetime, an iteration or a call of the recording. A cause the recording lacks (it
// had not ended when the recording stopped) has no arrow.
func flows(tl *timeline.Timeline, laneIndex map[*timeline.Lane]int) []int64 {
	type at struct{ lane, kind, mark int64 }
	spans, causes := 0, 0
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			spans += 1 + len(l.Iterations) + len(l.Calls)
			causes += len(l.Causes)
			for i := range l.Iterations {
				causes += len(l.Iterations[i].Causes)
			}
			for i := range l.Calls {
				causes += len(l.Calls[i].Causes)
			}
		}
	}
	// Sized once: a map or slice that doubles its way to a million
	// entries leaves as much again behind it.
	bySpan := make(map[trace.SpanID]at, spans)
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			i, shown := laneIndex[l]
			if !shown {
				continue
			}
			li := int64(i)
			if l.SpanID.IsValid() {
				bySpan[l.SpanID] = at{li, stepKinds[timeline.StepStarted], 0}
			}
			for i, m := range l.Iterations {
				bySpan[m.SpanID] = at{li, stepKinds[timeline.StepIteration], int64(i)}
			}
			for i, m := range l.Calls {
				bySpan[m.SpanID] = at{li, stepKinds[timeline.StepCall], int64(i)}
			}
		}
	}
	out := make([]int64, 0, causes*flowStride)
	add := func(li int64, kind timeline.StepKind, i int, causes []trace.SpanID) {
		for _, id := range causes {
			if c, ok := bySpan[id]; ok {
				out = append(out, c.lane, c.kind, c.mark, li, stepKinds[kind], int64(i))
			}
		}
	}
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			i, shown := laneIndex[l]
			if !shown {
				continue
			}
			li := int64(i)
			add(li, timeline.StepStarted, 0, l.Causes)
			for i, m := range l.Iterations {
				add(li, timeline.StepIteration, i, m.Causes)
			}
			for i, m := range l.Calls {
				add(li, timeline.StepCall, i, m.Causes)
			}
		}
	}
	return out
}

// off is t as microseconds from the start of the recording.
func (e *encoder) off(t time.Time) int64 {
	if t.IsZero() || e.origin.IsZero() {
		return 0
	}
	return t.Sub(e.origin).Microseconds()
}

func (e *encoder) str(s string) int {
	if i, ok := e.strs[s]; ok {
		return i
	}
	i := len(e.d.Strings)
	e.strs[s] = i
	e.d.Strings = append(e.d.Strings, s)
	return i
}

func (e *encoder) value(v any) int {
	// Most values repeat (goroutine names, object keys, small numbers):
	// look them up before encoding them. Values of other types are
	// encoded every time.
	comparable := false
	switch x := v.(type) {
	case string, int64, bool:
		comparable = true
	case float64:
		// NaN equals nothing, and 0 equals -0, which encodes as "-0".
		comparable = !math.IsNaN(x) && x != 0
	}
	if !comparable {
		return e.encodedValue(v)
	}
	if i, ok := e.known[v]; ok {
		return i
	}
	i := e.encodedValue(v)
	e.known[v] = i
	return i
}

func (e *encoder) encodedValue(v any) int {
	raw := jsonValue(v)
	if i, ok := e.vals[string(raw)]; ok {
		return i
	}
	i := len(e.d.Values)
	e.vals[string(raw)] = i
	e.d.Values = append(e.d.Values, raw)
	return i
}

// attrs returns the index of the attribute set a, without the keys in skip.
func (e *encoder) attrs(a traces.Attributes, skip []string) int {
	e.pairs = e.pairs[:0]
	for k, v := range a {
		if slices.Contains(skip, k) {
			continue
		}
		e.pairs = append(e.pairs, [2]int{e.str(k), e.value(v)})
	}
	if len(e.pairs) == 0 {
		return 0
	}
	slices.SortFunc(e.pairs, func(x, y [2]int) int {
		return strings.Compare(e.d.Strings[x[0]], e.d.Strings[y[0]])
	})
	e.keyBuf = e.keyBuf[:0]
	for _, p := range e.pairs {
		e.keyBuf = strconv.AppendInt(e.keyBuf, int64(p[0]), 36)
		e.keyBuf = append(e.keyBuf, ':')
		e.keyBuf = strconv.AppendInt(e.keyBuf, int64(p[1]), 36)
		e.keyBuf = append(e.keyBuf, ',')
	}
	if i, ok := e.sets[string(e.keyBuf)]; ok {
		return i
	}
	set := make([]int, 0, 2*len(e.pairs))
	for _, p := range e.pairs {
		set = append(set, p[0], p[1])
	}
	i := len(e.d.Attrs)
	e.sets[string(e.keyBuf)] = i
	e.d.Attrs = append(e.d.Attrs, set)
	return i
}

func (e *encoder) entry(goroutine string) int {
	if i, ok := e.entries[goroutine]; ok {
		return i
	}
	c, ok := catalog.Lookup(goroutine)
	if !ok {
		e.entries[goroutine] = -1
		return -1
	}
	i := len(e.d.Entries)
	e.entries[goroutine] = i
	byLang, quote := stories(c.Story)
	e.d.Entries = append(e.d.Entries, entry{
		Name: c.Name, Component: c.Component, Kind: c.Kind, Period: c.Period.Seconds(),
		Function: c.Function, File: c.File, Article: c.Article, Quote: quote, Story: byLang,
	})
	return i
}

// startup returns the index of a startup step's story in Startup.
func (e *encoder) startup(st catalog.Step) int {
	key := st.Component + "\x00" + st.Name
	if i, ok := e.startups[key]; ok {
		return i
	}
	i := len(e.d.Startup)
	e.startups[key] = i
	byLang, quote := stories(st.Story)
	e.d.Startup = append(e.d.Startup, startupStep{
		Component: st.Component, Name: st.Name, Function: st.Function, File: st.File, Article: st.Article,
		Quote: quote, Story: byLang,
	})
	return i
}

// maxSafeInt is the largest integer a JavaScript number holds exactly.
const maxSafeInt = 1<<53 - 1

// jsonValue encodes an attribute value for the page. What JSON cannot hold
// exactly (NaN, ±Inf, integers beyond 2^53) becomes a string.
func jsonValue(v any) json.RawMessage {
	switch x := v.(type) {
	case int64:
		if x > maxSafeInt || x < -maxSafeInt {
			v = strconv.FormatInt(x, 10)
		}
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			v = strconv.FormatFloat(x, 'g', -1, 64)
		}
	}
	raw, err := json.Marshal(v)
	if err != nil {
		raw, _ = json.Marshal(fmt.Sprint(v))
	}
	return raw
}

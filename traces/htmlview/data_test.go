package htmlview

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/trace"

	"github.com/kubeloom/kubeloom/sim/catalog"
	"github.com/kubeloom/kubeloom/sim/catalog/locale"
	"github.com/kubeloom/kubeloom/traces"
	"github.com/kubeloom/kubeloom/traces/timeline"
)

// pageData writes tl's page and decodes the data embedded in it, so that
// the checks see what a browser sees.
func pageData(t testing.TB, tl *timeline.Timeline) (*data, string) {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, tl); err != nil {
		t.Fatalf("Write: %v", err)
	}
	page := buf.String()
	const open = `<script id="kubeloom-data" type="application/json">`
	_, rest, ok := strings.Cut(page, open)
	if !ok {
		t.Fatalf("the page has no %s", open)
	}
	raw, _, ok := strings.Cut(rest, "</script>")
	if !ok {
		t.Fatal("the data script does not end")
	}
	var d data
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("decoding the page's data: %v", err)
	}
	return &d, page
}

func TestDataShape(t *testing.T) {
	for _, tc := range []struct {
		name string
		tl   func(t *testing.T) *timeline.Timeline
	}{
		{"small", func(*testing.T) *timeline.Timeline { return timeline.Build(small()) }},
		{"synthetic", func(*testing.T) *timeline.Timeline { return timeline.Build(synthetic(5000)) }},
		{"empty", func(*testing.T) *timeline.Timeline { return timeline.Build(nil) }},
		// A real recording: components, families, and causal links.
		{"cluster-basics", func(t *testing.T) *timeline.Timeline { return recordBuiltin(t, "cluster-basics") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl := tc.tl(t)
			d, _ := pageData(t, tl)
			checkData(t, tl, d)
			if tc.name == "small" && len(d.Flows) != 3*flowStride {
				t.Errorf("small: %d flows, want 3 (to a call, to a lifetime, from a call to a goroutine's start; the fourth link's cause is not recorded)", len(d.Flows)/flowStride)
			}
			if tc.name == "cluster-basics" && (len(d.Groups) < 20 || len(d.Flows) < 100) {
				t.Errorf("cluster-basics: %d groups and %d flows; want a real recording's", len(d.Groups), len(d.Flows)/flowStride)
			}
		})
	}
}

// checkData checks that d holds tl exactly, in the shape the script reads.
func checkData(t *testing.T, tl *timeline.Timeline, d *data) {
	t.Helper()
	if d.Version != formatVersion || d.Scenario != tl.Scenario || d.Spans != tl.Spans || d.Orphans != tl.Orphans || d.Links != tl.Links {
		t.Errorf("header = v%d %q spans=%d orphans=%d links=%d, want v%d %q %d %d %d",
			d.Version, d.Scenario, d.Spans, d.Orphans, d.Links, formatVersion, tl.Scenario, tl.Spans, tl.Orphans, tl.Links)
	}
	if d.Duration != tl.Duration().Microseconds() {
		t.Errorf("duration = %dµs, want %dµs", d.Duration, tl.Duration().Microseconds())
	}
	want := map[string]int{"it": iterStride, "calls": callStride, "events": eventStride, "steps": stepStride, "flows": flowStride}
	if !maps.Equal(d.Strides, want) {
		t.Errorf("strides = %v, want %v", d.Strides, want)
	}

	// Tables: strings unique with "" first, attribute sets of valid,
	// sorted keys, set 0 empty.
	if len(d.Strings) > 0 && d.Strings[0] != "" {
		t.Errorf("string 0 = %q, want the empty string", d.Strings[0])
	}
	seen := map[string]bool{}
	for _, s := range d.Strings {
		if seen[s] {
			t.Errorf("string %q appears twice in the string table", s)
		}
		seen[s] = true
	}
	str := func(i int) string {
		if i < 0 || i >= len(d.Strings) {
			t.Fatalf("string index %d out of range (%d strings)", i, len(d.Strings))
		}
		return d.Strings[i]
	}
	if len(d.Attrs) == 0 || len(d.Attrs[0]) != 0 {
		t.Fatalf("attribute set 0 = %v, want the empty set", d.Attrs)
	}
	for i, set := range d.Attrs {
		if len(set)%2 != 0 {
			t.Fatalf("attribute set %d has an odd length: %v", i, set)
		}
		for k := 0; k+2 < len(set); k += 2 {
			if str(set[k]) >= str(set[k+2]) {
				t.Errorf("attribute set %d: keys %q, %q not sorted", i, str(set[k]), str(set[k+2]))
			}
		}
		for k := 1; k < len(set); k += 2 {
			if set[k] < 0 || set[k] >= len(d.Values) {
				t.Fatalf("attribute set %d: value index %d out of range", i, set[k])
			}
		}
	}
	// checkAttrs checks that set i holds exactly a, minus the keys in skip.
	checkAttrs := func(where string, i int, a traces.Attributes, skip ...string) {
		t.Helper()
		if i < 0 || i >= len(d.Attrs) {
			t.Fatalf("%s: attribute set %d out of range", where, i)
		}
		got := map[string]string{}
		set := d.Attrs[i]
		for k := 0; k < len(set); k += 2 {
			got[str(set[k])] = string(d.Values[set[k+1]])
		}
		wantA := map[string]string{}
		for k, v := range a {
			if !slices.Contains(skip, k) {
				wantA[k] = string(jsonValue(v))
			}
		}
		if !maps.Equal(got, wantA) {
			t.Errorf("%s: attributes = %v, want %v", where, got, wantA)
		}
	}
	entryIdx := map[string]int{}
	for i, e := range d.Entries {
		entryIdx[e.Name] = i
	}

	// Instances and lanes, in the timeline's order; each instance's lanes
	// in display order (component, family, lane), with their groups.
	if len(d.Lanes) != tl.LaneCount() || len(d.Instances) != len(tl.Instances) {
		t.Fatalf("%d instances, %d lanes; want %d and %d", len(d.Instances), len(d.Lanes), len(tl.Instances), tl.LaneCount())
	}
	checkGroups(t, tl, d)
	next := 0
	for ii, in := range tl.Instances {
		di := d.Instances[ii]
		if str(di.Name) != in.Name() || str(di.Service) != in.Service || str(di.ID) != in.ID || di.First != next || di.Count != len(in.Lanes) {
			t.Errorf("instance %d = %q %q %q lanes %d+%d, want %q %q %q %d+%d", ii,
				str(di.Name), str(di.Service), str(di.ID), di.First, di.Count, in.Name(), in.Service, in.ID, next, len(in.Lanes))
		}
		if len(in.Display()) != len(in.Lanes) {
			t.Fatalf("instance %s: Display() has %d lanes of %d", in.Name(), len(in.Display()), len(in.Lanes))
		}
		for _, l := range in.Display() {
			dl := d.Lanes[next]
			where := fmt.Sprintf("lane %d %s", next, l.Label)
			next++
			if str(dl.Short) != cmp.Or(l.Short, l.Label) {
				t.Errorf("%s: short label %q, want %q", where, str(dl.Short), l.Short)
			}
			if l.Group == nil && dl.Group != -1 || l.Group != nil && (dl.Group < 0 || dl.Group >= len(d.Groups) || str(d.Groups[dl.Group].Key) != l.Group.Key) {
				t.Errorf("%s: group %d, want %v", where, dl.Group, l.Group)
			}
			if dl.Instance != ii || str(dl.Label) != l.Label || str(dl.Goroutine) != l.Goroutine || str(dl.Kind) != l.Kind ||
				dl.Period != l.Period.Microseconds() || dl.Open != l.Open ||
				dl.Start != tl.Offset(l.Start).Microseconds() || dl.End != tl.Offset(l.End).Microseconds() {
				t.Errorf("%s = %+v", where, dl)
			}
			checkAttrs(where, dl.Attrs, l.Attributes)
			if e, ok := catalog.Lookup(l.Goroutine); ok {
				if dl.Entry < 0 || dl.Entry >= len(d.Entries) || d.Entries[dl.Entry].Name != e.Name ||
					d.Entries[dl.Entry].Quote != e.Story("en").Quote {
					t.Errorf("%s: entry %d, want the catalog's %s", where, dl.Entry, e.Name)
				} else {
					for _, lang := range locale.Codes() {
						st := e.Story(lang)
						if got, want := d.Entries[dl.Entry].Story[lang], (story{st.Summary, st.Rendering, st.Now}); got != want {
							t.Errorf("%s: the %s story of %s is %+v, want %+v", where, lang, e.Name, got, want)
						}
					}
				}
			} else if dl.Entry != -1 {
				t.Errorf("%s: entry %d, want -1 (not in the catalog)", where, dl.Entry)
			}
			checkMarks(t, where+" iterations", dl.Iterations, iterStride, l.Iterations, func(i int, m timeline.Mark, f []int64) {
				if str(int(f[2])) != m.Name || f[3] != m.Iteration || f[4] != m.Skipped {
					t.Errorf("%s iteration %d = %v, want %s n=%d skipped=%d", where, i, f, m.Name, m.Iteration, m.Skipped)
				}
				checkAttrs(fmt.Sprintf("%s iteration %d", where, i), int(f[5]), m.Attributes, catalog.AttrIteration, catalog.AttrSkipped)
			}, tl)
			checkMarks(t, where+" calls", dl.Calls, callStride, l.Calls, func(i int, m timeline.Mark, f []int64) {
				if str(int(f[2])) != m.Name {
					t.Errorf("%s call %d = %q, want %q", where, i, str(int(f[2])), m.Name)
				}
				checkAttrs(fmt.Sprintf("%s call %d", where, i), int(f[3]), m.Attributes)
			}, tl)
			checkMarks(t, where+" events", dl.Events, eventStride, l.Events, func(i int, m timeline.Mark, f []int64) {
				if str(int(f[1])) != m.Name {
					t.Errorf("%s event %d = %q, want %q", where, i, str(int(f[1])), m.Name)
				}
				checkAttrs(fmt.Sprintf("%s event %d", where, i), int(f[2]), m.Attributes)
			}, tl)
		}
	}

	// Steps: the same stream as timeline.Steps, pointing at the same marks.
	steps := timeline.Steps(tl)
	if len(d.Steps) != len(steps)*stepStride {
		t.Fatalf("steps array has %d numbers, want %d (%d steps × %d)", len(d.Steps), len(steps)*stepStride, len(steps), stepStride)
	}
	for i, s := range steps {
		li, kind, mi := d.Steps[i*stepStride], d.Steps[i*stepStride+1], d.Steps[i*stepStride+2]
		if li < 0 || int(li) >= len(d.Lanes) || str(d.Lanes[li].Label) != s.Lane.Label ||
			d.Lanes[li].Instance != slices.Index(tl.Instances, s.Instance) || kind != stepKinds[s.Kind] {
			t.Fatalf("step %d = lane %d kind %d, want %s %s", i, li, kind, s.Lane.Label, s.Kind)
		}
		var arr []int64
		stride, nameAt := 0, 2
		switch s.Kind {
		case timeline.StepIteration:
			arr, stride = d.Lanes[li].Iterations, iterStride
		case timeline.StepCall:
			arr, stride = d.Lanes[li].Calls, callStride
		case timeline.StepEvent:
			arr, stride, nameAt = d.Lanes[li].Events, eventStride, 1
		default:
			if mi != -1 {
				t.Errorf("step %d (%s) has mark %d, want -1", i, s.Kind, mi)
			}
			continue
		}
		o := int(mi) * stride
		if mi < 0 || o >= len(arr) || arr[o] != tl.Offset(s.At).Microseconds() || str(int(arr[o+nameAt])) != s.Name() {
			t.Errorf("step %d (%s %s at %v) points at mark %d", i, s.Kind, s.Name(), tl.Offset(s.At), mi)
		}
	}
	checkFlows(t, tl, d)
}

// checkGroups checks that d's groups are tl's: each instance's
// components in order, a component's families after it, each group's
// lanes the run of display-ordered lanes that it holds.
func checkGroups(t *testing.T, tl *timeline.Timeline, d *data) {
	t.Helper()
	seen := 0
	var check func(where string, gi, parent int, g *timeline.Group)
	check = func(where string, gi, parent int, g *timeline.Group) {
		if gi < 0 || gi >= len(d.Groups) {
			t.Fatalf("%s: group index %d out of range (%d groups)", where, gi, len(d.Groups))
		}
		seen++
		dg := d.Groups[gi]
		if d.Strings[dg.Key] != g.Key || d.Strings[dg.Name] != g.Name || dg.Parent != parent || dg.Count != len(g.Lanes) ||
			dg.First < 0 || dg.First+dg.Count > len(d.Lanes) || len(dg.Groups) != len(g.Groups) {
			t.Fatalf("%s: group %d = %+v, want %s (%q) with %d lanes, %d families", where, gi, dg, g.Key, g.Name, len(g.Lanes), len(g.Groups))
		}
		for k, l := range g.Lanes {
			dl := d.Lanes[dg.First+k]
			if d.Strings[dl.Label] != l.Label || dl.Instance != d.Lanes[dg.First].Instance {
				t.Errorf("%s: lane %d of group %s is %q, want %q", where, k, g.Key, d.Strings[dl.Label], l.Label)
			}
		}
		for k, f := range g.Groups {
			check(where+" › "+f.Name, dg.Groups[k], gi, f)
		}
	}
	for ii, in := range tl.Instances {
		comps := in.Groups()
		if len(d.Instances[ii].Groups) != len(comps) {
			t.Fatalf("instance %s: %d components, want %d", in.Name(), len(d.Instances[ii].Groups), len(comps))
		}
		for k, c := range comps {
			check(in.Name()+" › "+c.Name, d.Instances[ii].Groups[k], -1, c)
		}
	}
	if seen != len(d.Groups) {
		t.Errorf("the page has %d groups, the timeline %d", len(d.Groups), seen)
	}
}

// checkFlows checks that d's flows are exactly the causal links of tl's
// marks whose causes are in the recording, each pointing at the marks
// whose span IDs the link joins.
func checkFlows(t *testing.T, tl *timeline.Timeline, d *data) {
	t.Helper()
	// The span ID of a (lane, kind, mark) of the page.
	byLane := map[int]*timeline.Lane{}
	ids := map[trace.SpanID]bool{}
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			if l.SpanID.IsValid() {
				ids[l.SpanID] = true
			}
			for _, m := range l.Iterations {
				ids[m.SpanID] = true
			}
			for _, m := range l.Calls {
				ids[m.SpanID] = true
			}
		}
		for k, l := range in.Display() {
			byLane[d.Instances[slices.Index(tl.Instances, in)].First+k] = l
		}
	}
	span := func(li, kind, m int64) (trace.SpanID, []trace.SpanID) {
		l := byLane[int(li)]
		if l == nil {
			t.Fatalf("flow: lane %d out of range", li)
		}
		switch {
		case kind == stepKinds[timeline.StepStarted] && m == 0:
			return l.SpanID, l.Causes
		case kind == stepKinds[timeline.StepIteration] && m >= 0 && int(m) < len(l.Iterations):
			return l.Iterations[m].SpanID, l.Iterations[m].Causes
		case kind == stepKinds[timeline.StepCall] && m >= 0 && int(m) < len(l.Calls):
			return l.Calls[m].SpanID, l.Calls[m].Causes
		}
		t.Fatalf("flow: lane %d kind %d mark %d is no span", li, kind, m)
		return trace.SpanID{}, nil
	}
	if len(d.Flows)%flowStride != 0 {
		t.Fatalf("flows: %d numbers, not a multiple of %d", len(d.Flows), flowStride)
	}
	for o := 0; o < len(d.Flows); o += flowStride {
		f := d.Flows[o : o+flowStride]
		cause, _ := span(f[0], f[1], f[2])
		effect, causes := span(f[3], f[4], f[5])
		if f[4] == stepKinds[timeline.StepStarted] && !effect.IsValid() {
			t.Errorf("flow %d: the effect is the start of a lane without a lifetime span", o/flowStride)
		}
		if !slices.Contains(causes, cause) {
			t.Errorf("flow %d: the effect's causes %v do not hold its cause %s", o/flowStride, causes, cause)
		}
	}
	want := 0
	for _, in := range tl.Instances {
		for _, l := range in.Lanes {
			for _, c := range l.Causes {
				if ids[c] {
					want++
				}
			}
			for _, ms := range [][]timeline.Mark{l.Iterations, l.Calls} {
				for _, m := range ms {
					for _, c := range m.Causes {
						if ids[c] {
							want++
						}
					}
				}
			}
		}
	}
	if got := len(d.Flows) / flowStride; got != want {
		t.Errorf("%d flows, want %d (the links whose cause is in the recording)", got, want)
	}
}

// checkMarks checks a flat mark array against the marks: its length, the
// times (µs from the start) and their order, which the page's binary
// searches depend on; each calls more for the other fields.
func checkMarks(t *testing.T, where string, arr []int64, stride int, marks []timeline.Mark, each func(int, timeline.Mark, []int64), tl *timeline.Timeline) {
	t.Helper()
	if len(arr) != len(marks)*stride {
		t.Fatalf("%s: %d numbers, want %d (%d marks × %d)", where, len(arr), len(marks)*stride, len(marks), stride)
	}
	for i, m := range marks {
		f := arr[i*stride : (i+1)*stride]
		start := tl.Offset(m.Start).Microseconds()
		if f[0] != start {
			t.Errorf("%s %d (%s): start %dµs, want %dµs", where, i, m.Name, f[0], start)
		}
		if stride != eventStride && f[1] != tl.Offset(m.End).Microseconds()-start {
			t.Errorf("%s %d (%s): duration %dµs, want %v", where, i, m.Name, f[1], m.End.Sub(m.Start))
		}
		if i > 0 && f[0] < arr[(i-1)*stride] {
			t.Errorf("%s %d (%s): starts at %dµs, before the mark before it (%dµs)", where, i, m.Name, f[0], arr[(i-1)*stride])
		}
		each(i, m, f)
	}
}

func TestDataValues(t *testing.T) {
	// Values JSON cannot hold exactly become strings; the page shows them as text.
	for _, tc := range []struct {
		v    any
		want string
	}{
		{"a</script>", `"a\u003c/script\u003e"`},
		{int64(42), `42`},
		{int64(1) << 60, `"1152921504606846976"`},
		{3.5, `3.5`},
		{[]string{"x", "y"}, `["x","y"]`},
		{true, `true`},
		{nil, `null`},
	} {
		if got := string(jsonValue(tc.v)); got != tc.want {
			t.Errorf("jsonValue(%#v) = %s, want %s", tc.v, got, tc.want)
		}
	}
	for _, v := range []float64{1 / zero(), -1 / zero(), zero() / zero()} {
		var s string
		if err := json.Unmarshal(jsonValue(v), &s); err != nil {
			t.Errorf("jsonValue(%v) = %s, want a string", v, jsonValue(v))
		}
	}
}

func zero() float64 { return 0 }

// TestDataShared checks that marks share attribute sets and strings: the
// page of a large recording grows with its spans by a few numbers each, not
// by their names and attributes.
func TestDataShared(t *testing.T) {
	spans := synthetic(20_000)
	tl := timeline.Build(spans)
	d, page := pageData(t, tl)
	// At most one attribute set per lane (its lifetime's: goroutine, kind,
	// period), whatever the number of iterations and calls: the fixture's
	// lanes are one per node and kubelet catalog entry.
	lanes := 0
	for _, in := range tl.Instances {
		lanes += len(in.Lanes)
	}
	if len(d.Attrs) > lanes || len(d.Strings) > 500 {
		t.Errorf("%d attribute sets and %d strings for %d spans on %d lanes; want them shared between marks", len(d.Attrs), len(d.Strings), len(spans), lanes)
	}
	// About 30 bytes a span (a few integers) plus the catalog and the script.
	if perSpan := len(page) / len(spans); perSpan > 60 {
		t.Errorf("the page takes %d bytes per span (%d bytes, %d spans), want at most 60", perSpan, len(page), len(spans))
	}
}

func TestWriteSelfContained(t *testing.T) {
	_, page := pageData(t, timeline.Build(small()))
	// One data script, one code script: the attribute "</script><script>"
	// in small() must not end the data.
	if n := strings.Count(page, "<script"); n != 2 {
		t.Errorf("the page has %d <script elements, want 2", n)
	}
	if n := strings.Count(page, "</script>"); n != 2 {
		t.Errorf("the page has %d </script> tags, want 2", n)
	}
	for _, bad := range []string{"src=", "href=", "@import", "url(", "http://", "https://", "fetch(", "XMLHttpRequest"} {
		if strings.Contains(page, bad) {
			i := strings.Index(page, bad)
			t.Errorf("the page contains %q (%q): it must load nothing", bad, page[max(0, i-40):min(len(page), i+40)])
		}
	}
	if !strings.Contains(page, `http-equiv="Content-Security-Policy" content="default-src 'none'`) {
		t.Error("the page has no Content-Security-Policy that forbids loading anything")
	}
	if !strings.Contains(page, "<title>small — kubeloom</title>") {
		t.Error("the page's title does not name the scenario")
	}
	for name, asset := range map[string]string{"timeline.js": timelineJS, "timeline.css": timelineCSS} {
		if strings.Contains(strings.ToLower(asset), "</script") || strings.Contains(strings.ToLower(asset), "</style") {
			t.Errorf("%s contains a closing tag that would end its element early", name)
		}
	}
}

func TestWriteErrors(t *testing.T) {
	if err := Write(&bytes.Buffer{}, nil); err == nil {
		t.Error("Write(nil timeline) = nil, want an error")
	}
	broken := errors.New("disk full")
	err := Write(failingWriter{broken}, timeline.Build(small()))
	if !errors.Is(err, broken) {
		t.Errorf("Write to a failing writer = %v, want it to wrap %v", err, broken)
	}
}

type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }

// The page carries every language with its words, which the script
// formats: the script itself holds none.
func TestPageCarriesItsLanguages(t *testing.T) {
	d := encode(timeline.Build(nil))
	codes := locale.Codes()
	if len(d.Langs) != len(codes) || d.Articles != locale.Articles {
		t.Fatalf("the page has %d languages (articles %q), want %v (%q)", len(d.Langs), d.Articles, codes, locale.Articles)
	}
	for i, pl := range d.Langs {
		l := locale.Get(codes[i])
		if pl.Code != l.Code || pl.Name != l.Name || pl.Tag != l.Tag || !maps.Equal(pl.Text, l.Messages("page")) {
			t.Errorf("language %d is %s %q %q with %d words, want %s %q %q and page.yaml's %d", i, pl.Code, pl.Name, pl.Tag, len(pl.Text), l.Code, l.Name, l.Tag, len(l.Messages("page")))
		}
		// As a string of the script or a text of the HTML, not in a
		// comment; a phrase, not a word that names things in code too.
		for key, text := range pl.Text {
			if !strings.Contains(text, " ") {
				continue
			}
			for _, quoted := range []string{"'" + text, `"` + text, "`" + text, ">" + text + "<"} {
				if strings.Contains(timelineJS, quoted) || strings.Contains(pageHTML, quoted) {
					t.Errorf("the page's script or HTML writes %s's page.%s itself: %q", pl.Code, key, text)
				}
			}
		}
	}
}

package traces

// The span reader: one line of a recording, the object the stdouttrace
// exporter writes for a span, read straight into a Span. It reads every
// line, well formed or not, and says what is wrong with a line it refuses.
//
// Lines as the Recorder writes them (every key in its place, no spaces)
// cost the least: a key in its place is recognised by comparing its bytes,
// the values that repeat are shared (internTable), and so are the Resource
// maps of the spans of one resource. Any other layout of the same object,
// such as another exporter's key order or added whitespace, reads the same.
//
// Keys are matched exactly, as stdouttrace writes them; keys the span does
// not have are skipped (a newer exporter's additions), and a key the span
// has, given twice, is an error. null reads as a field left out. When a
// line has several problems, the one reported is a syntax error if there
// is one (so a line cut short is always ErrTruncated), else the first met
// reading the line, else a missing field.

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// The keys of the objects of a span line, in the order they are written.
var (
	spanOrder     = order("Name", "SpanContext", "Parent", "SpanKind", "StartTime", "EndTime", "Attributes", "Events", "Links", "Status", "DroppedAttributes", "DroppedEvents", "DroppedLinks", "ChildSpanCount", "Resource", "InstrumentationScope", "InstrumentationLibrary")
	contextOrder  = order("TraceID", "SpanID", "TraceFlags", "TraceState", "Remote")
	keyValueOrder = order("Key", "Value")
	valueOrder    = order("Type", "Value")
	eventOrder    = order("Name", "Attributes", "DroppedAttributeCount", "Time")
	linkOrder     = order("SpanContext", "Attributes", "DroppedAttributeCount")
	statusOrder   = order("Code", "Description")
	scopeOrder    = order("Name", "Version", "SchemaURL", "Attributes")
)

// Fields of a span, to tell a key given twice and the ones missing.
const (
	fName = 1 << iota
	fSpanContext
	fParent
	fSpanKind
	fStartTime
	fEndTime
	fAttributes
	fEvents
	fLinks
	fStatus
	fResource
	fScope
	fLibrary
)

// parse reads line (not blank) into *s, a zero Span; on an error *s is
// left zero. atEOF says the line is the last of the input and has no
// newline.
func (tab *internTable) parse(line []byte, atEOF bool, s *Span) error {
	p := parser{b: line, tab: tab}
	err := p.span(s)
	if err == nil {
		if p.ws(); p.p == len(line) {
			return nil
		}
		err = errSyntax
	}
	*s = Span{}
	return explain(line, atEOF, err)
}

func (p *parser) span(s *Span) error {
	if p.peek() != '{' {
		return errSyntax // explain tells a JSON value of another kind
	}
	var seen, have int
	var scope, library string
	s.StatusCode = "Unset"
	_, err := p.object(spanOrder, func(key []byte) error {
		var bit int
		switch string(key) {
		case "Name":
			bit = fName
		case "SpanContext":
			bit = fSpanContext
		case "Parent":
			bit = fParent
		case "SpanKind":
			bit = fSpanKind
		case "StartTime":
			bit = fStartTime
		case "EndTime":
			bit = fEndTime
		case "Attributes":
			bit = fAttributes
		case "Events":
			bit = fEvents
		case "Links":
			bit = fLinks
		case "Status":
			bit = fStatus
		case "Resource":
			bit = fResource
		case "InstrumentationScope":
			bit = fScope
		case "InstrumentationLibrary":
			bit = fLibrary
		default:
			return p.skipValue()
		}
		if seen&bit != 0 {
			return twice(string(key))
		}
		seen |= bit
		var err error
		switch bit {
		case fName:
			var b []byte
			var null bool
			if b, null, err = p.stringOrNull(); err == nil && !null {
				s.Name, have = p.tab.str(b), have|fName
			}
			err = p.field("Name", "a string", err)
		case fSpanContext:
			tid, sid, null, err := p.spanContext()
			if err != nil || null {
				return p.field("SpanContext", "an object", err)
			}
			have |= fSpanContext
			if err := hexID("SpanContext.TraceID", tid, 32, false); err != nil {
				return err
			}
			if err := hexID("SpanContext.SpanID", sid, 16, false); err != nil {
				return err
			}
			s.TraceID, s.SpanID = traceIDOf(tid), spanIDOf(sid)
		case fParent:
			tid, sid, _, err := p.spanContext()
			if err != nil || len(tid) == 0 && len(sid) == 0 {
				return p.field("Parent", "an object", err) // none: a root span
			}
			if err := hexID("Parent.TraceID", tid, 32, true); err != nil {
				return err
			}
			if err := hexID("Parent.SpanID", sid, 16, true); err != nil {
				return err
			}
			s.ParentSpanID = spanIDOf(sid)
		case fSpanKind:
			var n int64
			n, err = p.integerOrNull()
			s.Kind = int(n)
			err = p.field("SpanKind", "an integer", err)
		case fStartTime:
			s.Start, err = p.time("StartTime")
			have |= fStartTime
		case fEndTime:
			s.End, err = p.time("EndTime")
			have |= fEndTime
		case fAttributes:
			s.Attributes, err = p.attributes("Attributes")
		case fEvents:
			s.Events, err = p.events()
		case fLinks:
			s.Links, err = p.links()
		case fStatus:
			s.StatusCode, s.StatusDesc, err = p.status()
		case fResource:
			s.Resource, err = p.resource()
		case fScope:
			var present bool
			if scope, present, err = p.scope("InstrumentationScope"); !present {
				seen &^= fScope // null: as if left out
			}
		case fLibrary:
			var present bool
			if library, present, err = p.scope("InstrumentationLibrary"); !present {
				seen &^= fLibrary
			}
		}
		return err
	})
	if err != nil {
		return err
	}
	for _, f := range []struct {
		bit  int
		name string
		want string
	}{
		{fName, "Name", "the span's name (a JSON string)"},
		{fSpanContext, "SpanContext", `{"TraceID":"<32 hex digits>","SpanID":"<16 hex digits>",...}`},
		{fStartTime, "StartTime", wantTime},
		{fEndTime, "EndTime", wantTime},
	} {
		if have&f.bit == 0 {
			if key := spelledOtherwise(p.b, f.name); key != "" {
				return missing(f.name, f.want+" (keys are case-sensitive: the line has "+quote(key)+")")
			}
			return missing(f.name, f.want)
		}
	}
	switch {
	case seen&fScope != 0:
		s.Scope = scope
	case seen&fLibrary != 0: // older stdouttrace versions wrote only this
		s.Scope = library
	}
	return nil
}

// spelledOtherwise returns a key of the span object line, if it has one,
// that is name in other letter cases: what encoding/json would have taken
// for it, and earlier versions of kubeloom did.
func spelledOtherwise(line []byte, name string) string {
	var found string
	p := parser{b: line}
	_, _ = p.object(nil, func(key []byte) error {
		if found == "" && string(key) != name && strings.EqualFold(string(key), name) {
			found = string(key)
		}
		return p.skipValue()
	})
	return found
}

// spanContext reads {"TraceID":...,"SpanID":...,...}, or null; the IDs
// as written, nil where missing or null.
func (p *parser) spanContext() (traceID, spanID []byte, null bool, err error) {
	var seen int
	null, err = p.object(contextOrder, func(key []byte) error {
		var err error
		switch string(key) {
		case "TraceID":
			if seen&1 != 0 {
				return twice("TraceID")
			}
			seen |= 1
			traceID, _, err = p.stringOrNull()
			return p.field("TraceID", "a string", err)
		case "SpanID":
			if seen&2 != 0 {
				return twice("SpanID")
			}
			seen |= 2
			spanID, _, err = p.stringOrNull()
			return p.field("SpanID", "a string", err)
		}
		return p.skipValue()
	})
	return traceID, spanID, null, err
}

// hexID checks that the ID of field is n hex digits (all zeros only if
// zeroOK: no parent, a link to an invalid span context).
func hexID(field string, b []byte, n int, zeroOK bool) error {
	if len(b) != n || !isHexAnyCase(b) {
		return &fieldError{field, fmt.Errorf("expected %d hex digits, got %s", n, quote(string(b)))}
	}
	if !zeroOK && isZero(b) {
		return &fieldError{field, errors.New("expected a valid ID, got all zeros")}
	}
	return nil
}

func isZero(b []byte) bool {
	for _, c := range b {
		if c != '0' {
			return false
		}
	}
	return true
}

// events reads the Events list.
func (p *parser) events() ([]Event, error) {
	var evs []Event
	drop := p.tab.keep.noEvents
	if drop {
		// Read them all the same, keeping nothing.
		keys := p.tab.keep.keys
		p.tab.keep.keys = dropAll
		defer func() { p.tab.keep.keys = keys }()
	}
	_, err := p.array(func(i int) error {
		var ev Event
		var seen int
		_, err := p.object(eventOrder, func(key []byte) error {
			var bit int
			switch string(key) {
			case "Name":
				bit = 1
			case "Attributes":
				bit = 2
			case "Time":
				bit = 4
			default:
				return p.skipValue()
			}
			if seen&bit != 0 {
				return twice(string(key))
			}
			seen |= bit
			var err error
			switch bit {
			case 1:
				var b []byte
				b, _, err = p.stringOrNull()
				ev.Name = p.tab.str(b)
				err = p.field("Name", "a string", err)
			case 2:
				ev.Attributes, err = p.attributes("Attributes")
			case 4:
				ev.Time, err = p.time("Time")
			}
			return err
		})
		if err == nil && seen&4 == 0 {
			err = missing("Time", wantTime)
		}
		if err != nil {
			return p.field(fmt.Sprintf("Events[%d]", i), "an object", err)
		}
		if !drop {
			evs = append(evs, ev)
		}
		return nil
	})
	if len(evs) == 0 {
		evs = nil
	}
	return evs, p.kind("Events", "an array", err)
}

// links reads the Links list.
func (p *parser) links() ([]Link, error) {
	var links []Link
	_, err := p.array(func(i int) error {
		var l Link
		var seen int
		var traceID, spanID []byte
		_, err := p.object(linkOrder, func(key []byte) error {
			var err error
			switch string(key) {
			case "SpanContext":
				if seen&1 != 0 {
					return twice("SpanContext")
				}
				seen |= 1
				traceID, spanID, _, err = p.spanContext()
				return p.field("SpanContext", "an object", err)
			case "Attributes":
				if seen&2 != 0 {
					return twice("Attributes")
				}
				seen |= 2
				l.Attributes, err = p.attributes("Attributes")
				return err
			}
			return p.skipValue()
		})
		if err == nil {
			err = hexID("SpanContext.TraceID", traceID, 32, true)
		}
		if err == nil {
			err = hexID("SpanContext.SpanID", spanID, 16, true)
		}
		if err != nil {
			return p.field(fmt.Sprintf("Links[%d]", i), "an object", err)
		}
		l.TraceID, l.SpanID = traceIDOf(traceID), spanIDOf(spanID)
		links = append(links, l)
		return nil
	})
	if len(links) == 0 {
		links = nil
	}
	return links, p.kind("Links", "an array", err)
}

// status reads {"Code":...,"Description":...} or null.
func (p *parser) status() (code, desc string, err error) {
	code = "Unset"
	var seen int
	_, err = p.object(statusOrder, func(key []byte) error {
		switch string(key) {
		case "Code":
			if seen&1 != 0 {
				return twice("Code")
			}
			seen |= 1
			p.ws()
			start := p.p
			if err := p.skipValue(); err != nil {
				return err
			}
			var err error
			code, err = statusCode(p.b[start:p.p])
			return err
		case "Description":
			if seen&2 != 0 {
				return twice("Description")
			}
			seen |= 2
			b, _, err := p.stringOrNull()
			desc = p.tab.str(b)
			return p.field("Description", "a string", err)
		}
		return p.skipValue()
	})
	return code, desc, p.field("Status", "an object", err)
}

// statusCode reads a status code as codes.Code unmarshals it: its name,
// or its number.
func statusCode(raw []byte) (string, error) {
	switch string(raw) {
	case `"Unset"`, "0", "null":
		return "Unset", nil
	case `"Error"`, "1":
		return "Error", nil
	case `"Ok"`, "2":
		return "Ok", nil
	}
	got := string(raw)
	if raw[0] == '"' {
		sub := parser{b: raw}
		b, _ := sub.stringBytes()
		switch s := string(b); s {
		case "Unset", "Error", "Ok":
			return s, nil // written with escapes
		default:
			got = quote(s)
		}
	}
	return "", &fieldError{"Code", fmt.Errorf(`expected "Unset", "Error" or "Ok", got %s`, got)}
}

// scope reads an InstrumentationScope (or Library) object, {"Name":...},
// or null (present is false).
func (p *parser) scope(field string) (name string, present bool, err error) {
	if p.null() {
		return "", false, nil
	}
	start := p.p
	for _, r := range p.tab.scopes {
		if len(r.text) > 0 && bytes.HasPrefix(p.b[start:], r.text) {
			p.p += len(r.text)
			return r.name, true, nil
		}
	}
	var seen bool
	_, err = p.object(scopeOrder, func(key []byte) error {
		if string(key) != "Name" {
			return p.skipValue()
		}
		if seen {
			return twice("Name")
		}
		seen = true
		b, _, err := p.stringOrNull()
		name = p.tab.str(b)
		return p.field("Name", "a string", err)
	})
	if err != nil {
		return "", true, p.field(field, "an object", err)
	}
	sc := &p.tab.scopes
	sc[1] = sc[0]
	sc[0] = recentScope{text: bytes.Clone(p.b[start:p.p]), name: name}
	return name, true, nil
}

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

// The keys of the objects of a span line, in the order the Recorder and
// stdouttrace write them; the constants are their places.
const (
	kName = iota
	kSpanContext
	kParent
	kSpanKind
	kStartTime
	kEndTime
	kAttributes
	kEvents
	kLinks
	kStatus
	kDroppedAttributes
	kDroppedEvents
	kDroppedLinks
	kChildSpanCount
	kResource
	kScope
	kLibrary
)

var spanOrder = order([]string{
	kName: "Name", kSpanContext: "SpanContext", kParent: "Parent", kSpanKind: "SpanKind",
	kStartTime: "StartTime", kEndTime: "EndTime", kAttributes: "Attributes", kEvents: "Events",
	kLinks: "Links", kStatus: "Status", kDroppedAttributes: "DroppedAttributes",
	kDroppedEvents: "DroppedEvents", kDroppedLinks: "DroppedLinks", kChildSpanCount: "ChildSpanCount",
	kResource: "Resource", kScope: "InstrumentationScope", kLibrary: "InstrumentationLibrary",
}...)

// The keys of the smaller objects, in the order they are written, and
// the places of the ones read.
const (
	ctxTraceID = iota
	ctxSpanID
)

const (
	kvKey = iota
	kvValue
)

const (
	valType = iota
	valValue
)

const (
	evName = iota
	evAttributes
	evDroppedAttributeCount
	evTime
)

const (
	lnSpanContext = iota
	lnAttributes
)

const (
	stCode = iota
	stDescription
)

const scName = 0

var (
	contextOrder  = order("TraceID", "SpanID", "TraceFlags", "TraceState", "Remote")
	keyValueOrder = order("Key", "Value")
	valueOrder    = order("Type", "Value")
	eventOrder    = order("Name", "Attributes", "DroppedAttributeCount", "Time")
	linkOrder     = order("SpanContext", "Attributes", "DroppedAttributeCount")
	statusOrder   = order("Code", "Description")
	scopeOrder    = order("Name", "Version", "SchemaURL", "Attributes")
)

// required are the fields a span line must have, not null, and what they
// hold.
var required = [...]struct {
	field      int
	name, want string
}{
	{kName, "Name", "the span's name (a JSON string)"},
	{kSpanContext, "SpanContext", `{"TraceID":"<32 hex digits>","SpanID":"<16 hex digits>",...}`},
	{kStartTime, "StartTime", wantTime},
	{kEndTime, "EndTime", wantTime},
}

// parse reads line (not blank) into *s, a zero Span; on an error *s is
// left zero. atEOF says the line is the last of the input and has no
// newline.
func (tab *internTable) parse(line []byte, atEOF bool, s *Span) error {
	return tab.parseLine(line, atEOF, s, true)
}

// parseLine is parse; unless why, the error of a line is not explained
// (errRefused): saying why costs more than reading, and past
// maxLineErrors only the number of bad lines is kept.
func (tab *internTable) parseLine(line []byte, atEOF bool, s *Span, why bool) error {
	p := parser{b: line, tab: tab}
	err := p.span(s)
	if err == nil {
		if p.ws(); p.p == len(line) {
			return nil
		}
		err = errSyntax
	}
	*s = Span{}
	if !why {
		return errRefused
	}
	return explain(line, atEOF, err)
}

// errRefused is the error of a line parseLine did not explain.
var errRefused = errors.New("not a span")

func (p *parser) span(s *Span) error {
	if p.peek() != '{' {
		return errSyntax // explain tells a JSON value of another kind
	}
	var have int
	var scope, library string
	s.StatusCode = "Unset"
	o := p.object(spanOrder)
	for o.next() {
		switch o.field {
		case kDroppedAttributes, kDroppedEvents, kDroppedLinks, kChildSpanCount, -1:
			if err := p.skipValue(); err != nil {
				return err
			}
			continue
		}
		if err := o.once(); err != nil {
			return err
		}
		var err error
		switch o.field {
		case kName:
			b, null, err := p.stringOrNull()
			if err != nil {
				return p.field("Name", "a string", err)
			}
			if !null {
				s.Name, have = p.tab.str(b), have|1<<kName
			}
		case kSpanContext:
			tid, sid, null, err := p.spanContext()
			if err != nil {
				return p.field("SpanContext", "an object", err)
			}
			if null {
				continue // missing
			}
			have |= 1 << kSpanContext
			if s.TraceID, err = decodeTraceID("SpanContext.TraceID", tid, false); err != nil {
				return err
			}
			if s.SpanID, err = decodeSpanID("SpanContext.SpanID", sid, false); err != nil {
				return err
			}
		case kParent:
			tid, sid, _, err := p.spanContext()
			if err != nil {
				return p.field("Parent", "an object", err)
			}
			if len(tid) == 0 && len(sid) == 0 {
				continue // none: a root span
			}
			if _, err := decodeTraceID("Parent.TraceID", tid, true); err != nil {
				return err
			}
			if s.ParentSpanID, err = decodeSpanID("Parent.SpanID", sid, true); err != nil {
				return err
			}
		case kSpanKind:
			n, err := p.integerOrNull()
			if err != nil {
				return p.field("SpanKind", "an integer", err)
			}
			s.Kind = int(n)
		case kStartTime:
			s.Start, err = p.time("StartTime")
			have |= 1 << kStartTime
		case kEndTime:
			s.End, err = p.time("EndTime")
			have |= 1 << kEndTime
		case kAttributes:
			s.Attributes, err = p.attributes("Attributes")
		case kEvents:
			s.Events, err = p.events()
		case kLinks:
			s.Links, err = objects(p, "Links", true, p.link)
		case kStatus:
			s.StatusCode, s.StatusDesc, err = p.status()
		case kResource:
			s.Resource, err = p.resource()
		case kScope:
			var present bool
			if scope, present, err = p.scope("InstrumentationScope"); !present {
				o.seen &^= 1 << kScope // null: as if left out
			}
		case kLibrary:
			var present bool
			if library, present, err = p.scope("InstrumentationLibrary"); !present {
				o.seen &^= 1 << kLibrary
			}
		}
		if err != nil {
			return err
		}
	}
	if o.err() != nil {
		return o.err()
	}
	for _, f := range required {
		if have&(1<<f.field) == 0 {
			if key := spelledOtherwise(p.b, f.name); key != "" {
				return missing(f.name, f.want+" (keys are case-sensitive: the line has "+quote(key)+")")
			}
			return missing(f.name, f.want)
		}
	}
	switch {
	case o.seen&(1<<kScope) != 0:
		s.Scope = scope
	case o.seen&(1<<kLibrary) != 0: // older stdouttrace versions wrote only this
		s.Scope = library
	}
	return nil
}

// spelledOtherwise returns a key of the span object line, if it has one,
// that is name in other letter cases: what encoding/json would have taken
// for it, and earlier versions of kubeloom did.
func spelledOtherwise(line []byte, name string) string {
	p := parser{b: line}
	for o := p.object(nil); o.next(); {
		if key := o.name(); key != name && strings.EqualFold(key, name) {
			return key
		}
		if p.skipValue() != nil {
			break
		}
	}
	return ""
}

// spanContext reads {"TraceID":...,"SpanID":...,...}, or null; the IDs
// as written, nil where missing or null.
func (p *parser) spanContext() (traceID, spanID []byte, null bool, err error) {
	o := p.object(contextOrder)
	for o.next() {
		switch o.field {
		case ctxTraceID:
			if err := o.once(); err != nil {
				return nil, nil, false, err
			}
			if traceID, _, err = p.stringOrNull(); err != nil {
				return nil, nil, false, p.field("TraceID", "a string", err)
			}
		case ctxSpanID:
			if err := o.once(); err != nil {
				return nil, nil, false, err
			}
			if spanID, _, err = p.stringOrNull(); err != nil {
				return nil, nil, false, p.field("SpanID", "a string", err)
			}
		default:
			if err := p.skipValue(); err != nil {
				return nil, nil, false, err
			}
		}
	}
	return traceID, spanID, o.null, o.err()
}

// events reads the Events list.
func (p *parser) events() ([]Event, error) {
	if !p.tab.keep.noEvents {
		return objects(p, "Events", true, p.event)
	}
	// Read them all the same, keeping nothing.
	keys := p.tab.keep.keys
	p.tab.keep.keys = dropAll
	defer func() { p.tab.keep.keys = keys }()
	return objects(p, "Events", false, p.event)
}

// objects reads a list of objects, or null, with read; it keeps them if
// keep says so (nil if there are none).
func objects[T any](p *parser, field string, keep bool, read func() (T, error)) ([]T, error) {
	var list []T
	a := p.array()
	for a.next() {
		x, err := read()
		if err != nil {
			return nil, p.field(fmt.Sprintf("%s[%d]", field, a.i), "an object", err)
		}
		if keep {
			list = append(list, x)
		}
	}
	return list, p.kind(field, "an array", a.err())
}

func (p *parser) event() (ev Event, err error) {
	o := p.object(eventOrder)
	for o.next() {
		if o.field < 0 || o.field == evDroppedAttributeCount {
			if err := p.skipValue(); err != nil {
				return ev, err
			}
			continue
		}
		if err := o.once(); err != nil {
			return ev, err
		}
		switch o.field {
		case evName:
			var b []byte
			if b, _, err = p.stringOrNull(); err != nil {
				return ev, p.field("Name", "a string", err)
			}
			ev.Name = p.tab.str(b)
		case evAttributes:
			ev.Attributes, err = p.attributes("Attributes")
		case evTime:
			ev.Time, err = p.time("Time")
		}
		if err != nil {
			return ev, err
		}
	}
	if o.err() == nil && o.seen&(1<<evTime) == 0 {
		return ev, missing("Time", wantTime)
	}
	return ev, o.err()
}

func (p *parser) link() (l Link, err error) {
	var tid, sid []byte
	o := p.object(linkOrder)
	for o.next() {
		switch o.field {
		case lnSpanContext:
			if err := o.once(); err != nil {
				return l, err
			}
			if tid, sid, _, err = p.spanContext(); err != nil {
				return l, p.field("SpanContext", "an object", err)
			}
		case lnAttributes:
			if err := o.once(); err != nil {
				return l, err
			}
			if l.Attributes, err = p.attributes("Attributes"); err != nil {
				return l, err
			}
		default:
			if err := p.skipValue(); err != nil {
				return l, err
			}
		}
	}
	if o.err() != nil {
		return l, o.err()
	}
	if l.TraceID, err = decodeTraceID("SpanContext.TraceID", tid, true); err != nil {
		return l, err
	}
	if l.SpanID, err = decodeSpanID("SpanContext.SpanID", sid, true); err != nil {
		return l, err
	}
	return l, nil
}

// status reads {"Code":...,"Description":...} or null.
func (p *parser) status() (code, desc string, err error) {
	code = "Unset"
	o := p.object(statusOrder)
	for o.next() {
		switch o.field {
		case stCode:
			if err := o.once(); err != nil {
				return "", "", in("Status", err)
			}
			p.ws()
			start := p.p
			if err := p.skipValue(); err != nil {
				return "", "", err
			}
			if code, err = statusCode(p.b[start:p.p]); err != nil {
				return "", "", in("Status", err)
			}
		case stDescription:
			if err := o.once(); err != nil {
				return "", "", in("Status", err)
			}
			b, _, err := p.stringOrNull()
			if err != nil {
				return "", "", in("Status", p.field("Description", "a string", err))
			}
			desc = p.tab.str(b)
		default:
			if err := p.skipValue(); err != nil {
				return "", "", err
			}
		}
	}
	return code, desc, p.field("Status", "an object", o.err())
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
	o := p.object(scopeOrder)
	for o.next() {
		if o.field != scName {
			if err := p.skipValue(); err != nil {
				return "", true, err
			}
			continue
		}
		if err := o.once(); err != nil {
			return "", true, in(field, err)
		}
		b, _, err := p.stringOrNull()
		if err != nil {
			return "", true, in(field, p.field("Name", "a string", err))
		}
		name = p.tab.str(b)
	}
	if o.err() != nil {
		return "", true, p.field(field, "an object", o.err())
	}
	sc := &p.tab.scopes
	sc[1] = sc[0]
	sc[0] = recentScope{text: bytes.Clone(p.b[start:p.p]), name: name}
	return name, true, nil
}

package traces

// Times as the stdouttrace exporter writes them: RFC 3339 in a JSON string.

import (
	"fmt"
	"time"
)

const wantTime = `an RFC 3339 time such as "2006-01-02T15:04:05.999999999Z"`

// time reads an RFC 3339 time in a JSON string; null is missing.
func (p *parser) time(field string) (time.Time, error) {
	switch p.peek() {
	case '"':
		b, err := p.stringBytes()
		if err != nil {
			return time.Time{}, err
		}
		if t, ok := parseUTC(b); ok {
			return t, nil
		}
		var t time.Time
		if err := t.UnmarshalText(b); err != nil {
			return time.Time{}, &fieldError{field, fmt.Errorf("expected %s, got %s", wantTime, quote(string(b)))}
		}
		return t, nil
	case 'n':
		if p.null() {
			return time.Time{}, missing(field, wantTime)
		}
	}
	start := p.p
	if err := p.skipValue(); err != nil {
		return time.Time{}, err
	}
	return time.Time{}, &fieldError{field, fmt.Errorf("expected %s, got %s", wantTime, shorten(p.b[start:p.p]))}
}

// parseUTC parses the common form "2006-01-02T15:04:05.999999999Z" as
// time.Time's UnmarshalText does, or returns false for anything else.
func parseUTC(b []byte) (time.Time, bool) {
	if len(b) < 20 || b[len(b)-1] != 'Z' || b[4] != '-' || b[7] != '-' || b[10] != 'T' || b[13] != ':' || b[16] != ':' {
		return time.Time{}, false
	}
	num := func(s []byte) int {
		n := 0
		for _, c := range s {
			if !isDigit(c) {
				return -1
			}
			n = n*10 + int(c-'0')
		}
		return n
	}
	year, month, day := num(b[0:4]), num(b[5:7]), num(b[8:10])
	hour, min, sec := num(b[11:13]), num(b[14:16]), num(b[17:19])
	if year < 0 || month < 1 || month > 12 || day < 1 || day > daysIn(month, year) ||
		hour < 0 || hour > 23 || min < 0 || min > 59 || sec < 0 || sec > 59 {
		return time.Time{}, false
	}
	nsec := 0
	if frac := b[19 : len(b)-1]; len(frac) > 0 {
		if len(frac) < 2 || len(frac) > 10 || frac[0] != '.' {
			return time.Time{}, false
		}
		digits := frac[1:]
		n := num(digits)
		if n < 0 {
			return time.Time{}, false
		}
		for range 9 - len(digits) {
			n *= 10
		}
		nsec = n
	}
	return time.Date(year, time.Month(month), day, hour, min, sec, nsec, time.UTC), true
}

func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

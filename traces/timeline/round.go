package timeline

import "time"

// RoundDuration keeps about three significant figures of a duration, as
// every view shows one: 1.187342s is 1.19s, 12.34s is 12.3s, 1m30.4s is
// 1m30s, 1h2m3s is 1h2m; below a second to the millisecond, below a
// millisecond to the microsecond. A negative d is rounded as -d is.
// kubeloom replay (its legend, summary and --latency), kubeloom diff's
// report and headline, and the HTML page's pod startups and comparison
// panel all round with it, so that they agree.
func RoundDuration(d time.Duration) time.Duration {
	switch {
	case d < 0:
		return -RoundDuration(-d)
	case d >= time.Hour:
		return d.Round(time.Minute)
	case d >= time.Minute:
		return d.Round(time.Second)
	case d >= 10*time.Second:
		return d.Round(100 * time.Millisecond)
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(time.Millisecond)
	case d >= time.Microsecond:
		return d.Round(time.Microsecond)
	}
	return d
}

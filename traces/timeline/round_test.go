package timeline

import (
	"testing"
	"time"
)

func TestRoundDuration(t *testing.T) {
	for _, c := range []struct{ d, want time.Duration }{
		{0, 0},
		{999 * time.Nanosecond, 999 * time.Nanosecond},
		{1234567 * time.Nanosecond, time.Millisecond},
		{187342 * time.Microsecond, 187 * time.Millisecond},
		{1187342 * time.Microsecond, 1190 * time.Millisecond},
		{12345 * time.Millisecond, 12300 * time.Millisecond},
		{90400 * time.Millisecond, 90 * time.Second},
		{time.Hour + 2*time.Minute + 31*time.Second, time.Hour + 3*time.Minute},
		{-1187342 * time.Microsecond, -1190 * time.Millisecond},
		{1500 * time.Nanosecond, 2 * time.Microsecond},
	} {
		if got := RoundDuration(c.d); got != c.want {
			t.Errorf("RoundDuration(%s) = %s, want %s", c.d, got, c.want)
		}
	}
}

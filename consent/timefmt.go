package consent

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// formatTimestamp formats t the way Hermes records approval times: UTC,
// ISO-8601 with a "Z" suffix, microseconds only when they are not zero
// (2026-07-01T12:00:00Z, 2026-07-01T12:00:00.123456Z). Finer precision is
// truncated, as Python's datetime cannot hold it.
func formatTimestamp(t time.Time) string {
	t = t.UTC()
	us := t.Nanosecond() / 1000
	b := make([]byte, 0, len("2006-01-02T15:04:05.000000Z"))
	b = t.AppendFormat(b, "2006-01-02T15:04:05")
	if us != 0 {
		b = append(b, '.')
		s := strconv.Itoa(us)
		for range 6 - len(s) {
			b = append(b, '0')
		}
		b = append(b, s...)
	}
	return string(append(b, 'Z'))
}

// parseTimestamp reads a timestamp as Python's datetime.fromisoformat does
// after Hermes replaces a trailing "Z" with "+00:00": a date, "T" or a space,
// a time with optional fraction, and an optional UTC offset. A timestamp
// without an offset is taken as UTC, because hand-written allowlist entries
// often omit it and every writer records UTC.
func parseTimestamp(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if len(s) > 10 && s[10] == ' ' {
		s = s[:10] + "T" + s[11:]
	}
	for _, layout := range []string{
		"2006-01-02T15:04:05.999999999Z07:00",
		"2006-01-02T15:04:05.999999999",
		"2006-01-02T15:04Z07:00",
		"2006-01-02T15:04",
		"2006-01-02",
	} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, errors.New("parse timestamp " + strconv.Quote(s) + ": not an ISO-8601 date and time")
}

// pyMtime is a file's modification time as Hermes records and compares it:
// Python's datetime.fromtimestamp(os.path.getmtime(path), timezone.utc).
// getmtime is a float (seconds + nanoseconds·1e-9, in double precision), and
// fromtimestamp rounds its fraction to the nearest microsecond, ties to
// even. Truncating instead — as an earlier hermes-hooks did — records an
// mtime up to a microsecond early for about half of all files, and Hermes'
// own doctor then reports "script modified since approval".
func pyMtime(mtime time.Time) time.Time {
	d := float64(mtime.Unix()) + float64(mtime.Nanosecond())*1e-9
	sec, frac := math.Modf(d)
	us := math.RoundToEven(frac * 1e6)
	switch {
	case us >= 1e6:
		us -= 1e6
		sec++
	case us < 0:
		us += 1e6
		sec--
	}
	return time.Unix(int64(sec), int64(us)*1000).UTC()
}

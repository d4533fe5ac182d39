package valuetypes

import (
	"cmp"
	"fmt"
	"time"
)

// timestampLayout is the time package layout of the timestamp form
// ("Values" in docs/journal-format.md).
const timestampLayout = "20060102T150405Z"

// Timestamp is a UTC instant with one-second resolution written in the ISO
// 8601 basic form YYYYMMDDTHHMMSSZ, e.g. "20261129T143000Z" ("Values" in
// docs/journal-format.md; used by JOURNAL_VERSION and PUBLISHED and as the
// file name stem, see "Filesystem layout" in docs/journal-format.md). Years
// are 1970–9999. The zero value is the absent timestamp (see IsZero); it is
// not 1970-01-01.
type Timestamp struct {
	// u is the number of seconds since 1970-01-01T00:00:00Z plus one, so
	// that 0 is the absent timestamp: one word where a time.Time takes
	// three, for a value every revision and release holds.
	u int64
}

// JournalVersion is the timestamp that names a Journal revision
// (JOURNAL_VERSION, "The header" in docs/journal-format.md).
type JournalVersion = Timestamp

// ParseTimestamp parses s as a timestamp ("Values" in docs/journal-format.md):
// exactly 16 bytes YYYYMMDDTHHMMSSZ with ASCII digits, a literal "T" and "Z",
// year 1970–9999, month 01–12, a day that exists in that month (February 29
// only in leap years), hour 00–23, minute 00–59 and second 00–59 (no leap
// second). It returns the Timestamp, or a *SyntaxError of Kind "timestamp"
// whose Offset is the first byte of the offending field (or of the bad
// character).
func ParseTimestamp(s string) (Timestamp, error) {
	fail := func(reason string, off int) (Timestamp, error) {
		e := synErr(KindTimestamp, s, reason, off)
		if v := suggestTimestamp(s); v != "" {
			e.withSuggestion(v, fmt.Sprintf("write the basic form %q (UTC)", v))
		}
		return Timestamp{}, e
	}
	const n = len(timestampLayout)
	for i := 0; i < len(s) && i < n; i++ {
		c := s[i]
		switch i {
		case 8:
			if c != 'T' {
				return fail("expected T between date and time", i)
			}
		case 15:
			if c != 'Z' {
				return fail("expected Z at the end", i)
			}
		default:
			if c < '0' || c > '9' {
				return fail("expected a digit", i)
			}
		}
	}
	if len(s) < n {
		return fail("too short, expected YYYYMMDDTHHMMSSZ", len(s))
	}
	if len(s) > n {
		return fail("too long, expected YYYYMMDDTHHMMSSZ", n)
	}
	num := func(from, to int) int {
		v := 0
		for i := from; i < to; i++ {
			v = v*10 + int(s[i]-'0')
		}
		return v
	}
	year, month, day := num(0, 4), num(4, 6), num(6, 8)
	hour, minute, second := num(9, 11), num(11, 13), num(13, 15)
	switch {
	case year < 1970:
		return fail("year before 1970", 0)
	case month < 1 || month > 12:
		return fail("month out of range", 4)
	case day < 1 || day > daysIn(year, month):
		return fail("day does not exist in that month", 6)
	case hour > 23:
		return fail("hour out of range", 9)
	case minute > 59:
		return fail("minute out of range", 11)
	case second > 59:
		return fail("second out of range", 13)
	}
	return Timestamp{time.Date(year, time.Month(month), day, hour, minute, second, 0, time.UTC).Unix() + 1}, nil
}

// daysIn returns the number of days of month (1–12) in year (proleptic
// Gregorian calendar).
func daysIn(year, month int) int {
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

// ParseJournalVersion parses s as a Journal version; it is ParseTimestamp
// (JOURNAL_VERSION takes a timestamp, "The header" in
// docs/journal-format.md) and returns the same
// results and errors (Kind "timestamp").
func ParseJournalVersion(s string) (Timestamp, error) { return ParseTimestamp(s) }

// TimestampOf returns the Timestamp of the instant t: t is converted to UTC
// and truncated (not rounded) to whole seconds; any monotonic clock reading is
// dropped. The format cannot express instants before 1970-01-01T00:00:00Z or
// from 10000-01-01T00:00:00Z on ("Values" in docs/journal-format.md allows
// years 1970–9999): for such t, and for the zero time.Time, TimestampOf
// returns the zero Timestamp (IsZero reports true) rather than a clamped or
// wrapped value, so the caller can detect it.
func TimestampOf(t time.Time) Timestamp {
	u := t.UTC().Truncate(time.Second)
	if u.Year() < 1970 || u.Year() > 9999 {
		return Timestamp{}
	}
	return Timestamp{u.Unix() + 1}
}

// String returns the canonical YYYYMMDDTHHMMSSZ text, which for a parsed
// value is the parsed text; it returns "" for the zero Timestamp.
func (t Timestamp) String() string {
	if t.u == 0 {
		return ""
	}
	return t.Time().Format(timestampLayout)
}

// AppendText implements encoding.TextAppender: b with [Timestamp.String]
// appended, without an allocation of its own. It never fails.
func (t Timestamp) AppendText(b []byte) ([]byte, error) {
	if t.u == 0 {
		return b, nil
	}
	return t.Time().AppendFormat(b, timestampLayout), nil
}

// Time returns the instant as a time.Time in UTC (the zero time.Time for the
// zero Timestamp).
func (t Timestamp) Time() time.Time {
	if t.u == 0 {
		return time.Time{}
	}
	return time.Unix(t.u-1, 0).UTC()
}

// IsZero reports whether t is the zero (absent) Timestamp.
func (t Timestamp) IsZero() bool { return t.u == 0 }

// Compare returns -1, 0 or +1 as t is before, equal to or after o
// chronologically (which for the text form equals byte order); the zero
// Timestamp is before every other.
func (t Timestamp) Compare(o Timestamp) int { return cmp.Compare(t.u, o.u) }

// Before reports whether t is chronologically before o.
func (t Timestamp) Before(o Timestamp) bool { return t.u < o.u }

// After reports whether t is chronologically after o.
func (t Timestamp) After(o Timestamp) bool { return t.u > o.u }

// MarshalText implements encoding.TextMarshaler: the canonical text, or
// empty text for the zero Timestamp. It never fails.
func (t Timestamp) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler: empty text gives the
// zero Timestamp, anything else is parsed with ParseTimestamp. On error t is
// unchanged and the *SyntaxError is returned.
func (t *Timestamp) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*t = Timestamp{}
		return nil
	}
	v, err := ParseTimestamp(string(text))
	if err != nil {
		return err
	}
	*t = v
	return nil
}

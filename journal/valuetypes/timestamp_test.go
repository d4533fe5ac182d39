package valuetypes

import (
	"testing"
	"time"
)

func TestParseTimestamp(t *testing.T) {
	t.Parallel()
	good := map[string]time.Time{
		"20261129T143000Z": time.Date(2026, 11, 29, 14, 30, 0, 0, time.UTC),
		"19700101T000000Z": time.Unix(0, 0).UTC(),
		"99991231T235959Z": time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
		"20240229T120000Z": time.Date(2024, 2, 29, 12, 0, 0, 0, time.UTC),
		"20000229T000000Z": time.Date(2000, 2, 29, 0, 0, 0, 0, time.UTC),
		"20260430T000000Z": time.Date(2026, 4, 30, 0, 0, 0, 0, time.UTC),
	}
	for s, want := range good {
		ts, err := ParseTimestamp(s)
		if err != nil {
			t.Errorf("ParseTimestamp(%q): %v", s, err)
			continue
		}
		if !ts.Time().Equal(want) || ts.Time().Location() != time.UTC {
			t.Errorf("%q: Time() = %v, want %v", s, ts.Time(), want)
		}
		roundTrip(t, s, ts, ParseTimestamp)
		if jv, err := ParseJournalVersion(s); err != nil || jv != ts {
			t.Errorf("ParseJournalVersion(%q) differs", s)
		}
		if TimestampOf(want) != ts {
			t.Errorf("TimestampOf(%v) != parsed", want)
		}
	}
	if epoch, _ := ParseTimestamp("19700101T000000Z"); epoch.IsZero() || !epoch.After(Timestamp{}) || epoch.Compare(Timestamp{}) != 1 {
		t.Error("the first instant of 1970 is taken for the absent timestamp")
	}
	if (Timestamp{}).String() != "" || !(Timestamp{}).Time().IsZero() {
		t.Error("the absent timestamp has a text or an instant")
	}
	bad := []badCase{
		{"", 0},
		{"2026112T143000Z", 7},
		{"20261129T14300Z", 14},
		{"20261129T143000", 15},
		{"20261129T143000ZZ", 16},
		{"20261129t143000Z", 8},
		{"20261129T143000z", 15},
		{"2026-11-29T14:30:00Z", 4},
		{"20261129 143000Z", 8},
		{"19691231T235959Z", 0},
		{"00000101T000000Z", 0},
		{"20261301T000000Z", 4},
		{"20260001T000000Z", 4},
		{"20260100T000000Z", 6},
		{"20260132T000000Z", 6},
		{"20250229T000000Z", 6},
		{"21000229T000000Z", 6},
		{"20260431T000000Z", 6},
		{"20261129T240000Z", 9},
		{"20261129T236000Z", 11},
		{"20261231T235960Z", 13},
		{"+2026112T143000Z", 0},
		{"２0261129T143000Z", 0},
	}
	for _, c := range bad {
		_, err := ParseTimestamp(c.in)
		checkBad(t, KindTimestamp, c, err)
	}
}

func TestTimestampOrderAndOf(t *testing.T) {
	t.Parallel()
	a, _ := ParseTimestamp("20260101T000000Z")
	b, _ := ParseTimestamp("20260101T000001Z")
	if a.Compare(b) != -1 || b.Compare(a) != 1 || a.Compare(a) != 0 || !a.Before(b) || !b.After(a) {
		t.Error("chronological order")
	}
	var zero Timestamp
	if !zero.IsZero() || zero.String() != "" || zero.Compare(a) != -1 || a.IsZero() {
		t.Error("zero value")
	}
	loc := time.FixedZone("x", 2*3600)
	in := time.Date(2026, 1, 1, 2, 0, 1, 999_999_999, loc)
	if got := TimestampOf(in); got != b || got.String() != "20260101T000001Z" {
		t.Errorf("TimestampOf converts to UTC and truncates: got %v", got)
	}
	if got := TimestampOf(time.Now()); got.IsZero() || got.Time().Location() != time.UTC {
		t.Error("TimestampOf(now)")
	}
	for _, out := range []time.Time{
		{},
		time.Date(1969, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(1970, 1, 1, 0, 59, 59, 0, time.FixedZone("y", 3600)),
	} {
		if !TimestampOf(out).IsZero() {
			t.Errorf("TimestampOf(%v) should be zero", out)
		}
	}
	if TimestampOf(time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)).IsZero() {
		t.Error("epoch is in range")
	}
}

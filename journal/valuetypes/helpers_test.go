package valuetypes

import (
	"errors"
	"testing"
)

// badCase is an invalid input with the expected Offset (-2: do not check).
type badCase struct {
	in     string
	offset int
}

// checkBad asserts err is a *SyntaxError of kind for input in at offset.
func checkBad(t *testing.T, kind string, c badCase, err error) {
	t.Helper()
	if err == nil {
		t.Errorf("%s %q: accepted, want error", kind, c.in)
		return
	}
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Errorf("%s %q: error %T %v, want *SyntaxError", kind, c.in, err, err)
		return
	}
	if se.Kind != kind || se.Value != c.in || se.Reason == "" {
		t.Errorf("%s %q: got Kind=%q Value=%q Reason=%q", kind, c.in, se.Kind, se.Value, se.Reason)
	}
	if c.offset != -2 && se.Offset != c.offset {
		t.Errorf("%s %q: Offset=%d (%s), want %d", kind, c.in, se.Offset, se.Reason, c.offset)
	}
	if se.Offset < -1 || se.Offset > len(c.in) {
		t.Errorf("%s %q: Offset %d out of range", kind, c.in, se.Offset)
	}
}

// stringer is what every value type has.
type stringer interface{ String() string }

// roundTrip checks x.String() == in and parse(in) == x again.
func roundTrip[T comparable](t *testing.T, in string, x T, parse func(string) (T, error)) {
	t.Helper()
	s := any(x).(stringer).String()
	if s != in {
		t.Errorf("String() = %q, want %q", s, in)
	}
	y, err := parse(s)
	if err != nil {
		t.Errorf("re-parse %q: %v", s, err)
		return
	}
	if y != x {
		t.Errorf("re-parse %q: %v != %v", s, y, x)
	}
}

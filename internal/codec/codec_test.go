package codec

import (
	"bytes"
	"testing"
	"time"

	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// write writes one value of each kind.
func write() []byte {
	w := NewWriter(nil)
	w.Uint(300)
	w.Int(-7)
	w.Bool(true)
	w.String("coordinate")
	w.Raw([]byte{0, 1, 2})
	w.Fixed([]byte("abcd"))
	w.Digest(vt.DigestOf([]byte("x")))
	w.Digest(vt.Digest{})
	w.Timestamp(vt.TimestampOf(time.Date(2026, 1, 10, 8, 0, 0, 0, time.UTC)))
	w.Timestamp(vt.Timestamp{})
	w.String("coordinate")
	return w.Bytes()
}

func TestRoundTrip(t *testing.T) {
	r := NewReader(write())
	table := map[string]string{}
	r.Intern(table)
	if v := r.Uint(); v != 300 {
		t.Errorf("Uint %d", v)
	}
	if v := r.Int(); v != -7 {
		t.Errorf("Int %d", v)
	}
	if !r.Bool() {
		t.Error("Bool")
	}
	a := r.Interned()
	if b := r.Raw(); !bytes.Equal(b, []byte{0, 1, 2}) {
		t.Errorf("Raw %v", b)
	}
	var f [4]byte
	r.Fixed(f[:])
	if string(f[:]) != "abcd" {
		t.Errorf("Fixed %q", f)
	}
	if d := r.Digest(); d != vt.DigestOf([]byte("x")) {
		t.Errorf("Digest %v", d)
	}
	if d := r.Digest(); !d.IsZero() {
		t.Errorf("zero Digest %v", d)
	}
	if ts := r.Timestamp(); ts.String() != "20260110T080000Z" {
		t.Errorf("Timestamp %v", ts)
	}
	if ts := r.Timestamp(); !ts.IsZero() {
		t.Errorf("zero Timestamp %v", ts)
	}
	if b := r.Interned(); a != "coordinate" || b != a || len(table) != 1 {
		t.Errorf("Interned %q %q, table %v", a, b, table)
	}
	if err := r.Done(); err != nil {
		t.Error(err)
	}
}

// TestCorruptNeverPanics reads every truncation and every one-byte change
// of a record: each is an error or the same values, never a panic or a
// huge allocation.
func TestCorruptNeverPanics(t *testing.T) {
	data := write()
	read := func(b []byte) error {
		r := NewReader(b)
		r.Uint()
		r.Int()
		r.Bool()
		_ = r.String()
		r.Raw()
		var f [4]byte
		r.Fixed(f[:])
		r.Digest()
		r.Digest()
		r.Timestamp()
		r.Timestamp()
		_ = r.String()
		return r.Done()
	}
	for n := range len(data) {
		if read(data[:n]) == nil {
			t.Errorf("a record cut to %d of %d bytes reads without an error", n, len(data))
		}
	}
	for i := range data {
		for _, v := range []byte{0, 0x7f, 0x80, 0xff} {
			b := bytes.Clone(data)
			b[i] = v
			read(b)
		}
	}
	if read(append(bytes.Clone(data), 0)) == nil {
		t.Error("a record with a byte left over reads without an error")
	}
}

// A sharing Reader's strings are views of its data, a plain one's copies;
// both read the same values.
func TestSharingReaderSharesStrings(t *testing.T) {
	data := write()
	for _, share := range []bool{false, true} {
		r := NewReader(data)
		if share {
			r = NewSharingReader(data)
		}
		r.Uint()
		r.Int()
		r.Bool()
		s := r.String()
		if s != "coordinate" {
			t.Fatalf("String %q", s)
		}
		i := bytes.Index(data, []byte("coordinate"))
		data[i] = 'C' // what a view shows, and a copy does not
		if got := s[0] == 'C'; got != share {
			t.Errorf("share %v: the string follows the data: %v", share, got)
		}
		data[i] = 'c'
	}
}

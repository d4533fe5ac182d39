package syntax

import (
	"encoding/binary"
	"testing"
)

// TestPrintable8 holds the eight-at-a-time test of checkBytes to the
// byte-at-a-time one: every byte value at every position of a word of
// printable bytes, and words of two unprintable bytes.
func TestPrintable8(t *testing.T) {
	printable := func(c byte) bool { return c >= 0x20 && c < 0x7f }
	base := []byte("Ab~ 9z#@")
	for pos := range 8 {
		for c := range 256 {
			b := append([]byte(nil), base...)
			b[pos] = byte(c)
			if got, want := printable8(binary.LittleEndian.Uint64(b)), printable(byte(c)); got != want {
				t.Errorf("printable8(%q) = %v, want %v", b, got, want)
			}
		}
	}
	for _, b := range [][]byte{[]byte("\x00\x7f      "), []byte("  \xff\x1f    "), []byte("\x1f\x20\x7e\x7f\x80abc"), []byte("\t       ")} {
		if printable8(binary.LittleEndian.Uint64(b)) {
			t.Errorf("printable8(%q) = true", b)
		}
	}
}

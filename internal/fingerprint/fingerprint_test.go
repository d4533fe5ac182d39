package fingerprint

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strings"
	"testing"
)

// framed is the scheme written out the long way: each field's length as 8
// big-endian bytes, then the field, all hashed with SHA-256.
func framed(fields ...string) string {
	h := sha256.New()
	for _, f := range fields {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(f)))
		h.Write(n[:])
		h.Write([]byte(f))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func TestOfFramesEveryField(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 600) // past the stack buffer
	for _, fields := range [][]string{
		{},
		{""},
		{"journal-lint/diff/v1", "org.example.widget", "CHANGED"},
		{"a", "bc"},
		{"ab", "c"},
		{"domain", long, "", long},
	} {
		if got, want := Of(fields...), framed(fields...); got != want {
			t.Errorf("Of(%q) = %s, want %s", fields, got, want)
		}
	}
	if Of("a", "bc") == Of("ab", "c") {
		t.Error("fields ran into each other")
	}
}

func TestFieldTakesBytesAndStrings(t *testing.T) {
	t.Parallel()
	b := Field(Field(nil, "domain"), []byte("text"))
	if got, want := Sum(b), Of("domain", "text"); got != want {
		t.Errorf("Sum = %s, want %s", got, want)
	}
}

// TestRevisionIsStable pins one value, so that a change of the scheme is
// seen: every consumer's baseline of fingerprints would change with it.
func TestRevisionIsStable(t *testing.T) {
	t.Parallel()
	got := Revision("lint/x", "org.example.widget", "20250101T000000Z", "sha256:00", "header/DESCRIPTION#1")
	if want := "b08e9e6f9f6844a3309af1a35a4952938cc6534b30f7677ad7f899e73418228a"; got != want {
		t.Errorf("Revision = %s, want %s", got, want)
	}
}

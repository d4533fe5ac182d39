package valuetypes

import (
	"crypto/sha256"
	"strings"
	"testing"
)

func TestParseDigest(t *testing.T) {
	t.Parallel()
	hex64 := "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	good := []string{"sha256:" + hex64, "sha256:" + strings.Repeat("0", 64), "sha256:" + strings.Repeat("f", 64)}
	for _, s := range good {
		d, err := ParseDigest(s)
		if err != nil {
			t.Errorf("ParseDigest(%q): %v", s, err)
			continue
		}
		roundTrip(t, s, d, ParseDigest)
		if d.IsZero() {
			t.Errorf("%q IsZero", s)
		}
	}
	if DigestOf(nil).String() != "sha256:"+hex64 {
		t.Error("DigestOf(empty)")
	}
	if DigestOf([]byte("A")) == DigestOf([]byte("A\n")) {
		t.Error("bytes not normalised")
	}
	if DigestOf([]byte("abc")).Sum() != sha256.Sum256([]byte("abc")) {
		t.Error("Sum")
	}
	if DigestFromSum(sha256.Sum256(nil)) != DigestOf(nil) {
		t.Error("DigestFromSum")
	}
	bad := []badCase{
		{"", 0},
		{"sha256", 6},
		{"sha256:", 7},
		{"SHA256:" + hex64, 0},
		{"sha512:" + hex64, 3},
		{"sha256:" + strings.ToUpper(hex64), 7},
		{"sha256:" + hex64[:63], 70},
		{"sha256:" + hex64 + "0", 71},
		{"sha256:" + hex64[:10] + "g" + hex64[11:], 17},
		{"sha256: " + hex64[1:], 7},
		{" sha256:" + hex64, 0},
	}
	for _, c := range bad {
		_, err := ParseDigest(c.in)
		checkBad(t, KindDigest, c, err)
	}
	var zero Digest
	z, _ := ParseDigest("sha256:" + strings.Repeat("0", 64))
	if !zero.IsZero() || zero.String() != "" || zero == z || zero.Compare(z) != -1 {
		t.Error("zero Digest differs from the all-zero digest")
	}
	a, _ := ParseDigest("sha256:" + strings.Repeat("0", 63) + "1")
	if z.Compare(a) != -1 || a.Compare(z) != 1 || !a.Equal(a) || a.Equal(z) {
		t.Error("Compare/Equal")
	}
}

package valuetypes

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// digestPrefix starts every digest ("Values" in docs/journal-format.md).
const digestPrefix = "sha256:"

// Digest is a SHA-256 digest written "sha256:" + 64 lowercase hex digits
// ("Values" in docs/journal-format.md, used by PREDECESSOR and CONTENT;
// "The revision digest" in docs/journal-format.md defines the digest of a
// revision). The zero value is the absent digest; it differs from the (valid)
// digest whose 32 bytes are all zero.
type Digest struct {
	sum [32]byte
	ok  bool
}

// ParseDigest parses s as a digest ("Values" in docs/journal-format.md): exactly "sha256:"
// followed by 64 lowercase hexadecimal digits (0-9, a-f). It returns the
// Digest, or a *SyntaxError of Kind "digest" whose Reason names every problem
// of the hex part at once (a byte that is not a hex digit, upper-case
// digits, the wrong number of digits) and whose Offset is the first bad byte
// (the first differing byte of a wrong prefix, 71 for trailing bytes, len(s)
// when too short). When the digits are 64 hex digits in the wrong case or
// behind a wrong prefix, Suggestion is the digest to write.
func ParseDigest(s string) (Digest, error) {
	if d, ok := parseDigestFast(s); ok {
		return d, nil
	}
	fail := func(reason string, off int) (Digest, error) {
		e := synErr(KindDigest, s, reason, off)
		if v := suggestDigest(s); v != "" {
			e.withSuggestion(v, didYouMean(v))
		}
		return Digest{}, e
	}
	const n = len(digestPrefix) + 2*sha256.Size
	for i := 0; i < len(digestPrefix); i++ {
		if i >= len(s) || s[i] != digestPrefix[i] {
			return fail("must start with sha256:", i)
		}
	}
	// Every problem of the hex part is named at once: an author who wrote
	// "sha256:ABCD" learns both that the digits must be lowercase and that
	// there are too few of them.
	upper, bad := -1, -1
	for i := len(digestPrefix); i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'F':
			if upper < 0 {
				upper = i
			}
		case !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f'):
			if bad < 0 {
				bad = i
			}
		}
	}
	var reasons []string
	off := -1
	note := func(reason string, at int) {
		reasons = append(reasons, reason)
		if off < 0 {
			off = at
		}
	}
	if bad >= 0 && (bad < n || len(s) <= n) {
		note("expected a hex digit", bad)
	}
	if upper >= 0 {
		note("hex digits must be lowercase", upper)
	}
	switch digits := len(s) - len(digestPrefix); {
	case digits < 2*sha256.Size:
		note(fmt.Sprintf("expected 64 hex digits, found %d", digits), len(s))
	case digits > 2*sha256.Size:
		note(fmt.Sprintf("more than 64 hex digits (%d)", digits), n)
	}
	if len(reasons) > 0 {
		return fail(strings.Join(reasons, " and "), off)
	}
	var d Digest
	if _, err := hex.Decode(d.sum[:], []byte(s[len(digestPrefix):])); err != nil {
		return fail("expected a hex digit", -1) // unreachable: checked above
	}
	d.ok = true
	return d, nil
}

// parseDigestFast parses s when it is a well-formed digest, in one pass
// and without allocating (a tree has a few of them in every file); ok is
// false for anything else, which ParseDigest then explains.
func parseDigestFast(s string) (d Digest, ok bool) {
	if len(s) != len(digestPrefix)+2*sha256.Size || s[:len(digestPrefix)] != digestPrefix {
		return Digest{}, false
	}
	hexits := s[len(digestPrefix):]
	var bad byte // the high bit of any byte that is no lowercase hex digit
	for i := range d.sum {
		hi, lo := lowerHex[hexits[2*i]], lowerHex[hexits[2*i+1]]
		bad |= hi | lo
		d.sum[i] = hi<<4 | lo&0x0f
	}
	if bad&0x80 != 0 {
		return Digest{}, false
	}
	d.ok = true
	return d, true
}

// lowerHex maps each lowercase hex digit to its value and every other
// byte to 0x80, so that one test after a digest's 64 digits finds any
// that is not one.
var lowerHex = func() (t [256]byte) {
	for c := range t {
		switch {
		case c >= '0' && c <= '9':
			t[c] = byte(c - '0')
		case c >= 'a' && c <= 'f':
			t[c] = byte(c - 'a' + 10)
		default:
			t[c] = 0x80
		}
	}
	return t
}()

// DigestOf returns the SHA-256 digest of exactly the bytes b (nothing is
// normalised first: "The revision digest" in docs/journal-format.md). It never fails.
func DigestOf(b []byte) Digest { return Digest{sum: sha256.Sum256(b), ok: true} }

// DigestFromSum returns the Digest whose 32 bytes are sum.
func DigestFromSum(sum [32]byte) Digest { return Digest{sum: sum, ok: true} }

// String returns "sha256:" + 64 lowercase hex digits, or "" for the zero
// Digest.
func (d Digest) String() string {
	if !d.ok {
		return ""
	}
	return digestPrefix + hex.EncodeToString(d.sum[:])
}

// AppendText implements encoding.TextAppender: b with [Digest.String]
// appended, without an allocation of its own. It never fails.
func (d Digest) AppendText(b []byte) ([]byte, error) {
	if !d.ok {
		return b, nil
	}
	return hex.AppendEncode(append(b, digestPrefix...), d.sum[:]), nil
}

// IsZero reports whether d is the zero (absent) Digest.
func (d Digest) IsZero() bool { return !d.ok }

// Sum returns the 32 digest bytes (all zero for the zero Digest).
func (d Digest) Sum() [32]byte { return d.sum }

// Equal reports whether d and o are the same digest (same as d == o).
func (d Digest) Equal(o Digest) bool { return d == o }

// Compare returns -1, 0 or +1 comparing the digest bytes (which is the byte
// order of the text); the zero Digest sorts first.
func (d Digest) Compare(o Digest) int {
	if d.ok != o.ok {
		if !d.ok {
			return -1
		}
		return 1
	}
	return bytes.Compare(d.sum[:], o.sum[:])
}

// MarshalText implements encoding.TextMarshaler: the canonical text, or
// empty text for the zero Digest. It never fails.
func (d Digest) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler: empty text gives the
// zero Digest, anything else is parsed with ParseDigest. On error d is
// unchanged and the *SyntaxError is returned.
func (d *Digest) UnmarshalText(text []byte) error {
	if len(text) == 0 {
		*d = Digest{}
		return nil
	}
	v, err := ParseDigest(string(text))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Package fingerprint is the one home of how journal-lint's stable
// identifiers are hashed: SHA-256 over fields, each framed by its length,
// the first naming the scheme. The diagnostic fingerprints of every output
// (package render), the change fingerprints of diffs (package diff) and the
// revision fingerprints of a check against a commit ([Revision]) are all
// built this way, so that no two fields can run into each other and a
// change of scheme changes every value.
package fingerprint

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
)

// Field appends f to b framed by its length: the length in bytes as an
// 8-byte big-endian number, then f's bytes. It returns the extended b.
func Field[T ~string | ~[]byte](b []byte, f T) []byte {
	b = binary.BigEndian.AppendUint64(b, uint64(len(f)))
	return append(b, f...)
}

// Sum returns the SHA-256 of b, fields framed by [Field], as 64 lowercase
// hex digits.
func Sum(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Of returns [Sum] of the fields framed in order by [Field]; the first
// names the scheme (its domain, such as "journal-lint/diff/v1"). The
// fields are framed into one buffer, on the stack for the usual short
// values.
func Of(fields ...string) string {
	var stack [512]byte
	b := stack[:0]
	for _, f := range fields {
		b = Field(b, f)
	}
	return Sum(b)
}

// revisionDomain names the scheme of [Revision].
const revisionDomain = "journal-lint/fingerprint/revision/v1"

// Revision identifies a finding on an accepted revision by its rule code,
// the revision's coordinate, Journal version and digest (their text forms),
// and the value path inside it (syntax.Document.ValuePath): nothing that a
// line number, a path prefix or an output format could change. The result
// is 64 lowercase hex digits. A check against a commit gives it to every
// finding on a revision whose identity is known (docs/ci.md,
// "Fingerprints").
func Revision(code, coordinate, journalVersion, digest, valuePath string) string {
	return Of(revisionDomain, code, coordinate, journalVersion, digest, valuePath)
}

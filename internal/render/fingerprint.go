package render

import (
	"strconv"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/internal/fingerprint"
	"github.com/r35157/journal-lint/internal/par"
)

// fingerprintDomain separates these hashes from any other SHA-256 use and
// names the scheme, so that a change of scheme changes every value.
const fingerprintDomain = "journal-lint/fingerprint/v1"

// SARIFFingerprintKey is the key under which SARIF results carry the
// fingerprint in partialFingerprints.
const SARIFFingerprintKey = "journalLint/v1"

// Fingerprint returns a stable identifier of d as 64 lowercase hex digits:
// the SHA-256 of the code, the path and the text that d.Range covers in src
// ([diag.Diagnostic.Covered]: d.Subject when set), plus the message only
// when that text is empty (no range, an empty range, or src nil). Line and
// column numbers are not part of it, so the value survives edits elsewhere
// in the file; carriage returns are dropped from the text, so it survives
// a checkout with other line endings. Two diagnostics
// with the same code on the same text of the same file get the same value;
// [Fingerprints] tells such repeats apart.
func Fingerprint(d diag.Diagnostic, src []byte) string {
	var stack [512]byte
	b := fingerprint.Field(stack[:0], fingerprintDomain)
	b = fingerprint.Field(b, d.Code)
	b = fingerprint.Field(b, d.Path)
	text := d.Covered(src)
	b = fingerprint.Field(b, text)
	if len(text) == 0 {
		b = fingerprint.Field(b, d.Message)
	}
	return fingerprint.Sum(b)
}

// Fingerprints returns the fingerprint of each diagnostic of r, index by
// index: the override in r.Fingerprints when there is a non-empty one, else
// [Fingerprint] of the diagnostic and its source. When a value repeats, its
// k-th repeat (k = 1, 2, …, in the order of r.Diagnostics) becomes the
// SHA-256 of the value and k, so every diagnostic gets a distinct value and
// the first keeps the plain one. All formats use these values.
func Fingerprints(r Report) []string {
	out := make([]string, len(r.Diagnostics))
	// The diagnostics of one path (consecutive, as they are sorted) share
	// one read of its source, made only when a diagnostic needs the text
	// ([diag.Diagnostic.NeedsText]); the paths are taken in turn by one
	// worker per core, since a source may have to be read from disk again.
	var groups [][2]int // [start, end) of each path's diagnostics
	for i := range r.Diagnostics {
		if i == 0 || r.Diagnostics[i].Path != r.Diagnostics[i-1].Path {
			groups = append(groups, [2]int{i, i})
		}
		groups[len(groups)-1][1] = i + 1
	}
	par.For(len(groups), 0, func(g int) {
		var src []byte
		read := false
		for i := groups[g][0]; i < groups[g][1]; i++ {
			if out[i] = r.Fingerprints[i]; out[i] != "" {
				continue
			}
			if !read && r.Diagnostics[i].NeedsText() {
				src, read = r.source(r.Diagnostics[i].Path), true
			}
			out[i] = Fingerprint(r.Diagnostics[i], src)
		}
	})
	seen := make(map[string]int, len(r.Diagnostics))
	for i, fp := range out {
		k := seen[fp]
		seen[fp] = k + 1
		if k > 0 {
			out[i] = fingerprint.Of(fingerprintDomain+"/repeat", fp, strconv.Itoa(k))
		}
	}
	return out
}

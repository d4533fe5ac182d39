// Package diag defines the one diagnostic type that every part of journal-lint
// produces and every output format renders: a stable code ("Diagnostic codes"
// in docs/journal-format.md), a severity, a message, the root-relative path of
// the file and the exact range in it, related locations and help text.
//
// Positions use byte offsets as the source of truth; lines and columns are
// derived from them (see [LineIndex]).
package diag

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/r35157/journal-lint/rules"
)

// Pos is one position in a file. The zero value means "unknown".
type Pos struct {
	// Offset is the 0-based byte offset from the start of the file.
	Offset int
	// Line is the 1-based line number; 0 means unknown.
	Line int
	// Column is the 1-based column counted in Unicode code points; 0 means unknown.
	Column int
}

// IsValid reports whether p names a known position (Line > 0).
func (p Pos) IsValid() bool { return p.Line > 0 }

// String returns "line:column", or "-" for an unknown position.
func (p Pos) String() string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Column)
}

// Range is a half-open range [Start, End) in one file. The zero value means
// "no range" (a diagnostic about the whole file or the root).
type Range struct {
	Start Pos
	End   Pos
}

// IsValid reports whether r has a known start position.
func (r Range) IsValid() bool { return r.Start.IsValid() }

// Contains reports whether the byte offset off lies in [Start.Offset, End.Offset).
func (r Range) Contains(off int) bool { return off >= r.Start.Offset && off < r.End.Offset }

// Slice returns the bytes of src covered by r, clamped to src; it never panics.
func (r Range) Slice(src []byte) []byte {
	s, e := r.Start.Offset, r.End.Offset
	if s < 0 {
		s = 0
	}
	if e > len(src) {
		e = len(src)
	}
	if s > e {
		return nil
	}
	return src[s:e]
}

// FileStart is the range of a finding about a whole file or directory (an
// unexpected entry, a bad file name, a file too large or unreadable, a
// symbolic link, an accepted revision that was modified or deleted): the
// empty range at line 1, column 1, offset 0. Every diagnostic that names a
// path carries a range, so that JSON's "path and range are absent only for
// the root" holds and SARIF results have the region.startLine GitHub code
// scanning requires.
var FileStart = Range{Start: Pos{Offset: 0, Line: 1, Column: 1}, End: Pos{Offset: 0, Line: 1, Column: 1}}

// IsFileStart reports whether r is [FileStart]: the finding is about the
// whole file, so there is no subject to quote.
func (r Range) IsFileStart() bool { return r == FileStart }

// Severity is how much a diagnostic matters; the type of the rule
// registry (package rules), where each code's default lives.
type Severity = rules.Severity

// The severities, from most to least severe.
const (
	SeverityInvalid = rules.SeverityInvalid
	Error           = rules.Error
	Warning         = rules.Warning
	Info            = rules.Info
)

// Related is a secondary location that explains a diagnostic, such as the
// predecessor file of a chain violation.
type Related struct {
	// Path is root-relative with forward slashes; empty for the root itself.
	Path    string
	Range   Range
	Message string
}

// Diagnostic is one finding about one place.
type Diagnostic struct {
	// Code is the stable rule ID in "category/name" form ("Diagnostic codes"
	// in docs/journal-format.md).
	Code     string
	Severity Severity
	// Message is a short lowercase sentence fragment without a final period.
	Message string
	// Path is the root-relative path with forward slashes; empty for a
	// diagnostic about the root itself.
	Path string
	// Range is the exact subject; [FileStart] for the whole file (the zero
	// Range, unknown, is only for the root itself once [List.FillFileRanges]
	// has run, as load and check do).
	Range   Range
	Related []Related
	// Help is optional longer guidance: how to fix it.
	Help string
	// Fixes are the mechanical fixes of the help, when it names one: text
	// edits of the diagnostic's own file that an editor offers as quick
	// fixes (journal-lint lsp). Made by the code that writes Help, so that
	// the two never disagree; nil when there is none.
	Fixes []Fix
	// Subject, when not empty, is what [Diagnostic.Covered] returns for the
	// file's text, taken by code that had the text at hand (a rule pack's
	// findings, decoded against the document they were made on; a check's
	// per-document and history findings, during the artifact's visit), so that
	// a fingerprint (package render) need not read the file again. Empty
	// means unknown (see [Diagnostic.TakeSubject]), or no text: Covered
	// reads the text it is given. Code that changes Range clears it.
	Subject string
}

// Covered returns the text of src, the file of d, that d.Range covers,
// with carriage returns dropped (so that it is the same after a checkout
// with other line endings): d.Subject when it is set, else what
// [Range.Slice] gives of src, empty for an invalid range. The result must
// not be changed.
func (d *Diagnostic) Covered(src []byte) []byte {
	if d.Subject != "" {
		return []byte(d.Subject)
	}
	if !d.Range.IsValid() {
		return nil
	}
	text := d.Range.Slice(src)
	if bytes.IndexByte(text, '\r') >= 0 {
		text = bytes.ReplaceAll(text, []byte("\r"), nil)
	}
	return text
}

// NeedsText reports whether [Diagnostic.Covered] depends on the file's
// text: d has no Subject and its range is valid and not empty.
func (d *Diagnostic) NeedsText() bool {
	return d.Subject == "" && d.Range.IsValid() && d.Range.End.Offset > d.Range.Start.Offset
}

// maxSubject is the longest text [Diagnostic.TakeSubject] keeps: a finding
// whose range covers more (a rule pack may report a whole file, over and
// over) leaves the fingerprint to read the file again, so that its
// subject never costs more than its other fields.
const maxSubject = 1 << 10

// TakeSubject sets d.Subject to what [Diagnostic.Covered] returns for src,
// the text of d's file, when d's range covers at most a kilobyte of it;
// otherwise it leaves d as it is.
func (d *Diagnostic) TakeSubject(src []byte) {
	if d.Range.End.Offset-d.Range.Start.Offset <= maxSubject {
		d.Subject = string(d.Covered(src))
	}
}

// Fix is one way to resolve a diagnostic: edits that together turn the
// file's text into one without this problem.
type Fix struct {
	// Title is a short imperative sentence, e.g. "Write JOURNAL_VERSION".
	Title string
	// Edits replace non-overlapping ranges of the diagnostic's file, in
	// file order.
	Edits []Edit
}

// Edit replaces the bytes of Range (byte offsets are what count) with NewText.
type Edit struct {
	Range   Range
	NewText string
}

// String formats d as "path:line:col: severity: message [code]", leaving out
// the parts that are unknown.
func (d Diagnostic) String() string {
	var b strings.Builder
	if d.Path != "" {
		b.WriteString(d.Path)
		if d.Range.IsValid() {
			fmt.Fprintf(&b, ":%d:%d", d.Range.Start.Line, d.Range.Start.Column)
		}
		b.WriteString(": ")
	}
	fmt.Fprintf(&b, "%s: %s [%s]", d.Severity, d.Message, d.Code)
	return b.String()
}

// List is an ordered collection of diagnostics. Its zero value is ready to
// use. A List is an error when it is non-empty; use [List.Err] to get a real
// nil for an empty list.
type List []Diagnostic

// Error returns the first diagnostic and how many more follow.
func (l List) Error() string {
	switch len(l) {
	case 0:
		return "no diagnostics"
	case 1:
		return l[0].String()
	}
	return fmt.Sprintf("%s (and %d more)", l[0], len(l)-1)
}

// Err returns l as an error, or nil when l is empty.
func (l List) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// FillFileRanges gives every diagnostic and related location of l that
// names a path but has no valid range the range [FileStart], in place.
// Diagnostics about the root (no path) keep no range.
func (l List) FillFileRanges() {
	for i := range l {
		d := &l[i]
		if d.Path != "" && !d.Range.IsValid() {
			d.Range = FileStart
		}
		for j := range d.Related {
			if r := &d.Related[j]; r.Path != "" && !r.Range.IsValid() {
				r.Range = FileStart
			}
		}
	}
}

// HasErrors reports whether any diagnostic in l has severity Error.
func (l List) HasErrors() bool {
	for _, d := range l {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Sort orders l by path, line, column, code and message, in place, keeping
// the order of diagnostics that are equal in all five. Diagnostics without
// a path (about the root) come first. A sorted list is left as it is after
// one pass; otherwise the order is found on indexes and each diagnostic is
// moved once (a diagnostic is some 200 bytes, a list of a rule pack's
// findings tens of thousands).
func (l List) Sort() {
	sorted := true
	for i := 1; i < len(l) && sorted; i++ {
		sorted = !less(&l[i], &l[i-1])
	}
	if sorted {
		return
	}
	perm := make([]int, len(l))
	for i := range perm {
		perm[i] = i
	}
	// Ties are broken by index, so the order is total and the result is
	// that of a stable sort.
	slices.SortFunc(perm, func(a, b int) int {
		switch {
		case less(&l[a], &l[b]):
			return -1
		case less(&l[b], &l[a]):
			return 1
		}
		return a - b
	})
	// Position i takes l[perm[i]]: follow each cycle of the permutation
	// once, marking the positions done.
	for i := range perm {
		if perm[i] < 0 {
			continue
		}
		held := l[i]
		for j := i; ; {
			k := perm[j]
			perm[j] = -1
			if k == i {
				l[j] = held
				break
			}
			l[j] = l[k]
			j = k
		}
	}
}

// Less is the order of [List.Sort].
func Less(a, b Diagnostic) bool { return less(&a, &b) }

// less is [Less] without copying the diagnostics.
func less(a, b *Diagnostic) bool {
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	if a.Range.Start.Line != b.Range.Start.Line {
		return a.Range.Start.Line < b.Range.Start.Line
	}
	if a.Range.Start.Column != b.Range.Start.Column {
		return a.Range.Start.Column < b.Range.Start.Column
	}
	if a.Code != b.Code {
		return a.Code < b.Code
	}
	return a.Message < b.Message
}

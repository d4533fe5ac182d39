// Package syntax parses one Journal text ("Lines and encoding" to
// "Semantic rules" in docs/journal-format.md) into a
// positioned, line-oriented [Document]: every directive with the range of its
// keyword and of each argument, the header, the release blocks, every value
// parsed into its journal/valuetypes type, and the immutable model.Revision
// when the text is valid. It is pure (no I/O), total (never panics on any
// input, always returns a non-nil Document) and tolerant: it reports every
// problem it finds, not only the first.
//
// # Grammar
//
// The accepted text is exactly what "Lines and encoding", "Directives and
// arguments", "The header", "Release blocks" and "Values" in
// docs/journal-format.md describe (lines, encoding, tokens, structure,
// values), plus rules 2–7 of "Semantic rules" in docs/journal-format.md. There are no
// deviations and no lax mode: an unknown KEYWORD is always an error, because
// the format makes it one; a future
// format version announces itself through JOURNAL_FORMAT instead.
//
// # Positions
//
// Every range holds 0-based byte offsets and 1-based lines and columns, the
// columns counted in Unicode code points (an invalid byte counts as one),
// exactly as [diag.LineIndex] computes them.
package syntax

import (
	"bytes"

	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// LineEnding is the line-terminator style of a text ("Lines and encoding" in
// docs/journal-format.md: LF or CRLF throughout; a lone CR or a mix is a
// syntax/line-ending error).
type LineEnding int

// Line-ending styles. NoTerminator is a one-line text without a terminator.
const (
	NoTerminator LineEnding = iota
	LF
	CRLF
	Mixed // mixed LF/CRLF, or a lone CR: a syntax/line-ending error
)

// Arg is one argument of a directive ("Directives and arguments" in
// docs/journal-format.md): a bare token, a quoted JSON string, or the rest of
// a LICENSE line.
type Arg struct {
	// Raw is the argument exactly as written (with its quotes, if quoted).
	Raw string
	// Text is the decoded value: Raw for a bare token, the JSON-decoded
	// string for a quoted one.
	Text string
	// Quoted reports whether the argument is a quoted string.
	Quoted bool

	// bad marks an argument whose own syntax is already reported (a
	// malformed quoted string, or bytes with an encoding error), so that no
	// follow-up diagnostic is reported for it. (It sits next to Quoted so
	// that both share one word: Arg is 56 bytes.)
	bad bool

	rng lineRange // see Range
}

// Range returns the range that covers a.Raw.
func (a Arg) Range() diag.Range { return a.rng.diag() }

// Directive is one directive line ("Directives and arguments" in
// docs/journal-format.md: optional indentation, a KEYWORD, then its
// arguments). Unknown keywords are kept with KindUnknown.
type Directive struct {
	// Keyword is the KEYWORD as written.
	Keyword string
	// Args are the arguments in order. LICENSE has one argument: the rest of
	// the line after the keyword and its separating blanks, trailing blanks
	// removed.
	Args []Arg
	// Line is the 1-based line number.
	Line int

	rng lineRange // see Range
	// where KeywordRange ends; it starts where rng does
	kwEndOff, kwEndCol int32

	// Kind is the known directive Keyword names, or KindUnknown for a
	// keyword the format does not define (including a lowercase one).
	Kind Kind
}

// Range returns the range of d from its keyword to its last non-blank
// character (indentation, trailing blanks and terminator excluded).
func (d *Directive) Range() diag.Range { return d.rng.diag() }

// KeywordRange returns the range of d.Keyword.
func (d *Directive) KeywordRange() diag.Range {
	r := d.rng
	r.endOff, r.endCol = d.kwEndOff, d.kwEndCol
	return r.diag()
}

// lineRange is a [diag.Range] on one line in 20 bytes (a diag.Range is
// 48): a text has at most [MaxSize] bytes, so its offsets, lines and
// columns fit in 32 bits, and a directive and each of its arguments lie on
// one line. It halves what a parse allocates for directives and arguments.
type lineRange struct {
	off, line, col int32 // the start
	endOff, endCol int32 // the end, on the same line
}

// diag returns r as a diag.Range.
func (r lineRange) diag() diag.Range {
	return diag.Range{
		Start: diag.Pos{Offset: int(r.off), Line: int(r.line), Column: int(r.col)},
		End:   diag.Pos{Offset: int(r.endOff), Line: int(r.line), Column: int(r.endCol)},
	}
}

// ArgsRange returns the range from the start of d's first argument to the
// end of its last one, or d.Range() when d has no argument. It is where a
// diagnostic about d's value points.
func (d *Directive) ArgsRange() diag.Range {
	if len(d.Args) == 0 {
		return d.Range()
	}
	return diag.Range{Start: d.Args[0].Range().Start, End: d.Args[len(d.Args)-1].Range().End}
}

// Header points at the header directives ("The header" in
// docs/journal-format.md), each at its first occurrence (even when misplaced
// after a RELEASE); a nil pointer means absent.
type Header struct {
	Format, Artifact, JournalVersion, Predecessor, Description, Info, Policy *Directive
}

// ReleaseBlock is one RELEASE block ("Release blocks" in
// docs/journal-format.md): the RELEASE directive and every directive line
// after it up to the next RELEASE, in file order.
type ReleaseBlock struct {
	Release *Directive
	// Version is the parsed release version; VersionOK is false when it is invalid.
	Version   vt.Version
	VersionOK bool
	// Directives are the block's directives after RELEASE, in file order.
	Directives []*Directive
}

// Document is the result of parsing one text with [Parse].
type Document struct {
	// Path is used only for diagnostics (root-relative, forward slashes).
	Path string
	// Src is the exact text; Lines indexes it.
	Src   []byte
	Lines *diag.LineIndex
	// Digest is the revision digest: SHA-256 over Src ("The revision digest"
	// in docs/journal-format.md).
	Digest     vt.Digest
	LineEnding LineEnding
	// Directives lists every directive line in file order (comments and
	// blank lines are not directives).
	Directives []*Directive
	Header     Header
	Releases   []*ReleaseBlock

	// Identity, parsed from the header when possible even if other parts of
	// the text are invalid, so that placement and chain checks can still run.
	Coordinate       vt.Coordinate
	CoordinateOK     bool
	JournalVersion   vt.JournalVersion
	JournalVersionOK bool
	Predecessor      vt.Digest
	PredecessorOK    bool // false for a genesis, or when PREDECESSOR is invalid

	// Revision is the immutable model; RevisionOK is true only when the text
	// has no error diagnostic at all (syntax, value or semantic).
	Revision   model.Revision
	RevisionOK bool

	mem docMemory // what Recycle gives back
}

// PredecessorLine returns where and what to insert to give d, a text
// without PREDECESSOR whose JOURNAL_VERSION line exists
// (Header.JournalVersion is set), the line "PREDECESSOR <pred>": right
// after the JOURNAL_VERSION line, where the header order puts it ("The
// header" in docs/journal-format.md), ended like d's lines (CRLF for a
// CRLF text, else LF). at is a byte offset in d.Src; when JOURNAL_VERSION
// ends the text, at is its end and line starts with the terminator.
func (d *Document) PredecessorLine(pred vt.Digest) (at int, line string) {
	eol := "\n"
	if d.LineEnding == CRLF {
		eol = "\r\n"
	}
	at = d.Header.JournalVersion.Range().End.Offset
	if i := bytes.IndexByte(d.Src[at:], '\n'); i >= 0 {
		return at + i + 1, "PREDECESSOR " + pred.String() + eol
	}
	return len(d.Src), eol + "PREDECESSOR " + pred.String()
}

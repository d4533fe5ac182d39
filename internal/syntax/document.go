// Package syntax parses one Journal text (format spec §2–§5) into a
// positioned, line-oriented [Document]: every directive with the range of its
// keyword and of each argument, the header, the release blocks, every value
// parsed into its journal/valuetypes type, and the immutable model.Revision
// when the text is valid. It is pure (no I/O), total (never panics on any
// input, always returns a non-nil Document) and tolerant: it reports every
// problem it finds, not only the first.
//
// THIS FILE IS THE CONTRACT other packages build against; the parser fills it.
package syntax

import (
	"github.com/r35157/journal-lint/internal/diag"
	"github.com/r35157/journal-lint/journal/model"
	vt "github.com/r35157/journal-lint/journal/valuetypes"
)

// LineEnding is the line-terminator style of a text.
type LineEnding int

// Line-ending styles. NoTerminator is a one-line text without a terminator.
const (
	NoTerminator LineEnding = iota
	LF
	CRLF
	Mixed // mixed LF/CRLF, or a lone CR: a syntax/line-ending error
)

// Arg is one argument of a directive.
type Arg struct {
	// Raw is the argument exactly as written (with its quotes, if quoted).
	Raw string
	// Text is the decoded value: Raw for a bare token, the JSON-decoded
	// string for a quoted one.
	Text string
	// Quoted reports whether the argument is a quoted string.
	Quoted bool
	// Range covers Raw.
	Range diag.Range
}

// Directive is one directive line.
type Directive struct {
	// Keyword is the KEYWORD as written.
	Keyword      string
	KeywordRange diag.Range
	// Args are the arguments in order. LICENSE has one argument: the rest of
	// the line after the keyword and its separating blanks, trailing blanks
	// removed.
	Args []Arg
	// Range covers the directive from its keyword to its last non-blank
	// character (indentation, trailing blanks and terminator excluded).
	Range diag.Range
	// Line is the 1-based line number.
	Line int
}

// Header points at the header directives; a nil pointer means absent.
type Header struct {
	Format, Artifact, JournalVersion, Predecessor, Description, Info, Policy *Directive
}

// ReleaseBlock is one RELEASE block: the RELEASE directive and the
// directives of the block in file order.
type ReleaseBlock struct {
	Release *Directive
	// Version is the parsed release version; VersionOK is false when it is invalid.
	Version   vt.Version
	VersionOK bool
	// Directives are the block's directives after RELEASE, in file order.
	Directives []*Directive
}

// Document is the result of parsing one text.
type Document struct {
	// Path is used only for diagnostics (root-relative, forward slashes).
	Path string
	// Src is the exact text; Lines indexes it.
	Src   []byte
	Lines *diag.LineIndex
	// Digest is the revision digest: SHA-256 over Src (format spec §1).
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
}
